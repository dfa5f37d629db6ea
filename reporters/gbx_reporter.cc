#include "reporters/gbx_reporter.h"

#include <algorithm>
#include <cstdlib>

#include "reporters/plain_samples.h"
#include "reporters/run_error.h"
#include "reporters/run_patching.h"

namespace gbx {

GbxReporter::GbxReporter(benchmark::BenchmarkReporter* display,
                         std::unique_ptr<benchmark::BenchmarkReporter> file_printer, const SampleChannel& channel)
    : display_(display),
      file_printer_(std::move(file_printer)),
      json_(std::make_unique<benchmark::JSONReporter>()),
      channel_(channel) {
  json_->SetOutputStream(&json_output_);
  json_->SetErrorStream(&json_output_);
  if (file_printer_) {
    file_printer_->SetOutputStream(&file_output_);
    file_printer_->SetErrorStream(&file_output_);
  }
}

GbxReporter::~GbxReporter() = default;

namespace {

// A repetition of a benchmark with several repetitions: Google Benchmark adds aggregate rows.
bool has_aggregates(const benchmark::BenchmarkReporter::Run& run) {
  return run.run_type == benchmark::BenchmarkReporter::Run::RT_Iteration && run.repetitions > 1;
}

// not_run[i]: runs[i] could not run here; like the record, the printers leave it out.
void keep_for_printer(std::vector<benchmark::BenchmarkReporter::Run>& kept,
                      const std::vector<benchmark::BenchmarkReporter::Run>& runs, const std::vector<bool>& not_run,
                      bool aggregates_only) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!(aggregates_only && has_aggregates(runs[i])) && !not_run[i]) kept.push_back(runs[i]);
  }
}

}  // namespace

std::optional<std::vector<std::int64_t>> parse_run_args(const std::string& text) {
  std::vector<std::int64_t> args;
  if (text.empty()) return args;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto slash = text.find('/', start);
    std::string piece = text.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const auto colon = piece.find(':');
    if (colon != std::string::npos) piece = piece.substr(colon + 1);
    if (piece.empty() || piece.find_first_not_of("-0123456789") != std::string::npos) return std::nullopt;
    args.push_back(std::strtoll(piece.c_str(), nullptr, 10));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return args;
}

std::string problem_with_arg_names(const std::string& family, const std::string& args) {
  if (args.empty()) return family;
  std::string named;
  std::size_t start = 0;
  while (start <= args.size()) {
    const auto slash = args.find('/', start);
    const std::string piece = args.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const auto colon = piece.find(':');
    if (colon == std::string::npos || colon == 0) return {};
    named += (named.empty() ? "" : ",") + piece.substr(0, colon) + "=" + piece.substr(colon + 1);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return family + "/" + named;
}

bool GbxReporter::ReportContext(const Context& context) {
  bool ok = json_->ReportContext(context);
  if (file_printer_) ok = file_printer_->ReportContext(context) && ok;
  if (display_ != nullptr) ok = display_->ReportContext(context) && ok;
  if (console_ != nullptr) console_->print_header(context);
  return ok;
}

std::vector<detail::RunRecord> GbxReporter::unreported_repetitions(const Run& aggregate) {
  const auto args = parse_run_args(aggregate.run_name.args);
  std::vector<detail::RunRecord> matching;
  if (!args) return matching;
  for (const auto& record : channel_.records()) {
    if (record.benchmark == aggregate.run_name.function_name && record.args == *args && !consumed_.count(record.id)) {
      matching.push_back(record);
    }
  }
  // The latest ones: any earlier calls of the same instance were Google Benchmark's warm-up.
  const auto wanted = static_cast<std::size_t>(std::max<std::int64_t>(aggregate.repetitions, 0));
  if (matching.size() > wanted) matching.erase(matching.begin(), matching.end() - static_cast<std::ptrdiff_t>(wanted));
  for (const auto& record : matching) consumed_.insert(record.id);
  return matching;
}

std::optional<detail::RunRecord> GbxReporter::record_for(Run& run) {
  std::optional<detail::RunRecord> record;
  if (run.run_type == Run::RT_Aggregate) {
    // Aggregates follow their instance's repetitions, which this reporter sees unless the
    // benchmark itself asked for ReportAggregatesOnly(): then they come from the channel.
    const auto found = repetitions_.find(run.run_name.str());
    // The first aggregate row of an instance collects them; its other rows (median, stddev...) reuse them.
    const std::vector<detail::RunRecord>& repetitions =
        found != repetitions_.end() ? found->second : (repetitions_[run.run_name.str()] = unreported_repetitions(run));
    patch_aggregate(run, repetitions);
    if (!repetitions.empty()) record = repetitions.front();
  } else if (const auto id = record_id_from_label(run.report_label)) {
    record = channel_.find(*id);
    if (record && record->skipped && record->axes.empty()) {
      // setup() never ran to declare the problem: name it as setup() would, reduce/n=4096. A short
      // form's axes named it already (saxpy/n=65536); its Google Benchmark name has no arguments.
      const std::string family = record->benchmark.substr(0, record->benchmark.rfind('/'));
      const std::string named = problem_with_arg_names(family, run.run_name.args);
      if (!named.empty()) record->problem = named;
    }
    if (record) {
      // The class form declares no axes: its Google Benchmark arguments are (ArgNames, or arg0...).
      if (record->axes.empty()) record->axes = axes_from_run_args(run.run_name.args);
      patch_repetition(run, *record);
      repetitions_[run.run_name.str()].push_back(*record);
      consumed_.insert(record->id);
    }
  }
  return record;
}

void GbxReporter::ReportRuns(const std::vector<Run>& runs) {
  // A plain benchmark's repetitions become its samples (reporters/plain_samples.h); its aggregates
  // come after, in a call of their own.
  const auto collapsed = plain_instances_.find(runs.empty() ? std::string() : runs.front().run_name.str());
  const bool aggregates_of_plain =
      collapsed != plain_instances_.end() &&
      std::all_of(runs.begin(), runs.end(), [](const Run& run) { return run.run_type == Run::RT_Aggregate; });
  const PlainRows plain =
      aggregates_of_plain ? plain_aggregates(runs, collapsed->second) : collapse_plain_runs(runs, plain_layout());
  if (plain.plain && !aggregates_of_plain && !runs.empty()) plain_instances_[runs.front().run_name.str()] = plain;
  if (plain.plain && plain.runs.empty()) return;
  std::vector<Run> patched(plain.plain ? plain.runs : runs);
  std::vector<bool> not_run;
  bool instance_failed = false;
  for (std::size_t i = 0; i < patched.size(); ++i) {
    Run& run = patched[i];
    std::optional<detail::RunRecord> record = plain.plain ? plain.records[i] : record_for(run);
    if (run.run_type == Run::RT_Iteration && run_error(run) && !(record && record->skipped)) {
      any_failed_ = true;
      instance_failed = true;
    }
    if (run.run_type == Run::RT_Iteration && record && record->accuracy && !record->accuracy->passed) {
      any_failed_ = true;
    }
    std::optional<RunAnalysis> analysis;
    if (analyze_ && run.run_type == Run::RT_Iteration && record && record->error.empty()) {
      analysis = analyze_run(*record, analysis_options_);
    }
    if (console_ != nullptr && !(display_aggregates_only_ && has_aggregates(run))) {
      console_->print_row(run, record, analysis);
    }
    not_run.push_back(record && record->skipped);
    entries_.push_back(std::move(record));
    analyses_.push_back(std::move(analysis));
  }
  if (on_finished_) {
    const auto first =
        std::find_if(patched.begin(), patched.end(), [](const Run& run) { return run.run_type == Run::RT_Iteration; });
    if (first != patched.end()) on_finished_(first->run_name.str(), instance_failed);
  }
  json_->ReportRuns(patched);
  // The printers get every run at once, at the end: Google Benchmark's CSV printer takes its
  // columns from the first runs it is given and aborts on a counter it has not seen, and plain and
  // gbx benchmarks, or two plain ones, have different counters.
  if (file_printer_) keep_for_printer(file_runs_, patched, not_run, file_aggregates_only_);
  if (display_ != nullptr) keep_for_printer(display_runs_, patched, not_run, display_aggregates_only_);
}

void GbxReporter::Finalize() {
  json_->Finalize();
  if (file_printer_) {
    if (!file_runs_.empty()) file_printer_->ReportRuns(file_runs_);
    file_printer_->Finalize();
  }
  if (display_ != nullptr) {
    if (!display_runs_.empty()) display_->ReportRuns(display_runs_);
    display_->Finalize();
  }
  if (console_ != nullptr) console_->print_footer();
}

}  // namespace gbx
