#include "reporters/console_table.h"
#include "reporters/plain_protocol.h"
#include "reporters/run_error.h"
#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/flag_legend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace gbx {

namespace {

// Every gbx benchmark carries this suffix; the console drops it, the JSON keeps the full name.
const std::string kConstantSuffix = "/iterations:1/manual_time";

std::string short_name(const benchmark::BenchmarkReporter::Run& run) {
  return shown_benchmark_name(run.benchmark_name());
}

// Names past this width are printed whole on a line of their own, the row's values on the next.
constexpr std::size_t kMaxNameWidth = 72;

// How long each repetition of a plain benchmark runs: "0.0167 s or more, at the iteration count its
// first repetition found" for a time ("0.0167s" or "0.0167"), "100 iterations" for a count ("100x").
std::string per_sample_text(std::string value) {
  if (!value.empty() && value.back() == 'x') return value.substr(0, value.size() - 1) + " iterations";
  if (!value.empty() && value.back() == 's') value.pop_back();
  return value + " s or more, at the iteration count its first repetition found";
}

// Left-aligned in width, and never touching the next column.
std::string pad(std::string text, std::size_t width) {
  text.append(text.size() + 2 <= width ? width - text.size() : 2, ' ');
  return text;
}

}  // namespace

ConsoleTable::ConsoleTable(std::ostream& out, detail::Protocol protocol, std::string run_id)
    : out_(out), protocol_(protocol), run_id_(std::move(run_id)) {}

void ConsoleTable::print_header(const benchmark::BenchmarkReporter::Context& context) {
  // Wide enough for the longest name Google Benchmark announced, less the suffix the console drops.
  // A plain benchmark's name keeps its length: allow for one of up to 36 characters.
  const std::size_t field = context.name_field_width;
  const std::size_t longest =
      std::max(field > kConstantSuffix.size() ? field - kConstantSuffix.size() : 0, std::min<std::size_t>(field, 36)) +
      2;
  // A longer name gets a line of its own, so that the columns stay aligned (kMaxNameWidth).
  name_width_ = std::clamp<std::size_t>(longest, 20, kMaxNameWidth);
  out_ << "gbx run " << run_id_ << " on " << context.cpu_info.num_cpus << " CPUs";
  if (benchmark::BenchmarkReporter::Context::executable_name != nullptr) {
    out_ << ", " << benchmark::BenchmarkReporter::Context::executable_name;
  }
  out_ << "\n";
}

void ConsoleTable::print_row(const benchmark::BenchmarkReporter::Run& run,
                             const std::optional<detail::RunRecord>& record,
                             const std::optional<RunAnalysis>& analysis) {
  if (record && record->skipped) {
    const std::string prefix = "skipped: ";
    const std::string reason =
        record->error.rfind(prefix, 0) == 0 ? record->error.substr(prefix.size()) : record->error;
    const std::string name = short_name(run);  // the name --benchmark_filter takes, as every tool shows it
    // Listed once, however many repetitions skipped.
    const bool listed = std::any_of(not_run_.begin(), not_run_.end(), [&](const NotRun& n) { return n.name == name; });
    const bool cuda = record->skip_code.rfind("cuda", 0) == 0 || record->skip_code == "no_cuda_device";
    if (!listed) not_run_.push_back({name, reason, cuda});
    return;
  }
  if (!printed_columns_) {
    const std::string columns = pad("Benchmark", name_width_) + pad_left("Median", 10) + "   " + pad("95% CI", 22) +
                                pad_left("CV", 7) + pad_left("n", 7) + pad_left("p99", 11) + "   Flags";
    out_ << std::string(columns.size() + 10, '-') << "\n"
         << columns << "\n"
         << std::string(columns.size() + 10, '-') << "\n";
    printed_columns_ = true;
  }
  const std::string name = terminal_text(short_name(run));
  if (name.size() + 2 > name_width_) out_ << name << "\n";
  std::string line = pad(name.size() + 2 > name_width_ ? std::string() : name, name_width_);
  if (const auto error = run_error(run)) {
    const bool skipped = record && record->skipped;
    out_ << line << (skipped ? "" : "FAILED: ") << terminal_text(*error) << "\n" << std::flush;
    return;
  }
  if (run.run_type == benchmark::BenchmarkReporter::Run::RT_Aggregate) {
    // Google Benchmark keeps a percentage aggregate (the CV) as a bare ratio, not scaled to a unit.
    const std::string shown =
        run.aggregate_unit == benchmark::kPercentage
            ? format_three_digits_fixed(100.0 * run.real_accumulated_time) + " %"
            : format_duration(run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit));
    out_ << line << pad_left(shown, 10) << "   (" << run.aggregate_name << " of " << run.iterations
         << " repetition medians)\n"
         << std::flush;
    return;
  }
  if (!analysis || !analysis->summary) {
    out_ << line << "(no samples)\n" << std::flush;
    return;
  }
  if (record && record->harness == "google_benchmark") plain_shown_ = true;
  const Summary& s = *analysis->summary;
  const TimeUnit unit = time_unit_for(s.median);
  std::string ci = "-";
  if (analysis->median_ci.interval) {
    ci = "[" + format_three_digits_fixed(analysis->median_ci.interval->lower * unit.scale) + ", " +
         format_three_digits_fixed(analysis->median_ci.interval->upper * unit.scale) + "] " + unit.name;
  }
  const std::string cv = s.cv ? format_three_digits_fixed(100.0 * *s.cv) + "%" : "-";
  std::string flags;
  for (const auto& flag : analysis->flags) {
    flags += (flags.empty() ? "" : "; ") + flag.message;
    flags_shown_.insert(flag.name);
  }
  line += pad_left(format_duration(s.median), 10) + "   " + pad(ci, 22) + pad_left(cv, 7) +
          pad_left(std::to_string(s.count), 7) + pad_left(format_duration(s.p99), 11) + "   " + flags;
  out_ << line << "\n" << std::flush;
}

void ConsoleTable::print_footer() {
  // One line per reason, in the order first met: a machine without a GPU skips every CUDA benchmark.
  std::vector<std::string> reasons;
  for (const auto& item : not_run_) {
    if (std::find(reasons.begin(), reasons.end(), item.reason) == reasons.end()) reasons.push_back(item.reason);
  }
  for (const auto& reason : reasons) {
    std::size_t count = 0;
    bool all_cuda = true;
    for (const auto& item : not_run_) {
      if (item.reason != reason) continue;
      ++count;
      all_cuda = all_cuda && item.cuda;
    }
    out_ << count << (all_cuda ? " CUDA" : "") << (count == 1 ? " benchmark" : " benchmarks")
         << " not run: " << terminal_text(reason) << (list_not_run_ ? ":" : "; --gbx_list_not_run lists them") << "\n";
    if (!list_not_run_) continue;
    for (const auto& item : not_run_) {
      if (item.reason == reason) out_ << "  " << terminal_text(item.name) << "\n";
    }
  }
  char max_time[32];
  std::snprintf(max_time, sizeof max_time, "%g", protocol_.max_time_seconds);
  out_ << "protocol: "
       << (protocol_.warmup_auto ? "warm-up until steady (auto)"
                                 : std::to_string(protocol_.warmup_runs) + " warm-up runs discarded")
       << ", " << protocol_.min_samples << " samples";
  std::string until;
  if (protocol_.target_rel_ci > 0.0) {
    char target[32];
    std::snprintf(target, sizeof target, "%g%%", 100.0 * protocol_.target_rel_ci);
    until = std::string("the median's 95% CI is within +/-") + target;
  }
  if (protocol_.min_time_seconds > 0.0) {
    char span[32];
    std::snprintf(span, sizeof span, "%g", protocol_.min_time_seconds);
    until += (until.empty() ? "they span " : " and they span ") + std::string(span) + " s";
  }
  if (!until.empty()) out_ << " or more until " << until << " (at most " << protocol_.max_samples << ")";
  out_ << ", at most " << max_time << " s per benchmark, cache " << to_string(protocol_.cache)
       << ", samples of at least " << protocol_.batch_resolution_factor
       << " timer resolutions (batched when hot); median and BCa bootstrap 95% CI per run, "
          "within one process (gbx ab measures between processes)\n";
  if (plain_shown_) {
    const PlainLayout& plain = plain_layout();
    out_ << "plain Google Benchmark benchmarks: " << plain.warmup << " warm-up repetition"
         << (plain.warmup == 1 ? "" : "s") << " discarded, then each repetition of Google Benchmark's loop ("
         << per_sample_text(plain.per_sample_min_time) << ") is one sample, " << plain.samples
         << " per --benchmark_repetitions\n";
  }
  const std::string legend = flag_legend(std::vector<std::string>(flags_shown_.begin(), flags_shown_.end()));
  if (!legend.empty()) out_ << "flags:\n" << legend;
  out_ << std::flush;
}

}  // namespace gbx
