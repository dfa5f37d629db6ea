#include "reporters/gbx_reporter.h"

#include <algorithm>

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

bool GbxReporter::ReportContext(const Context& context) {
  bool ok = json_->ReportContext(context);
  if (file_printer_) ok = file_printer_->ReportContext(context) && ok;
  if (display_ != nullptr) ok = display_->ReportContext(context) && ok;
  return ok;
}

std::vector<RunRecord> GbxReporter::repetitions_of(const Run& aggregate) const {
  const auto found = repetitions_.find(aggregate.run_name.str());
  if (found != repetitions_.end()) return found->second;
  // With --benchmark_report_aggregates_only the repetitions never reach a reporter: take the
  // records of this family published since the previous report.
  std::vector<RunRecord> records;
  for (const auto& record : channel_.records()) {
    if (record.id > reported_up_to_ && record.benchmark == aggregate.run_name.function_name) records.push_back(record);
  }
  return records;
}

void GbxReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> patched(runs);
  std::int64_t highest = reported_up_to_;
  for (auto& run : patched) {
    std::optional<RunRecord> record;
    if (run.run_type == Run::RT_Aggregate) {
      const std::vector<RunRecord> repetitions = repetitions_of(run);
      patch_aggregate(run, repetitions);
      if (!repetitions.empty()) record = repetitions.front();
    } else if (const auto id = record_id_from_label(run.report_label)) {
      record = channel_.find(*id);
      if (record) {
        patch_repetition(run, *record);
        repetitions_[run.run_name.str()].push_back(*record);
        highest = std::max(highest, record->id);
      }
    }
    if (run.run_type == Run::RT_Iteration && run.error_occurred && !(record && record->skipped)) any_failed_ = true;
    entries_.push_back(std::move(record));
  }
  for (const auto& run : patched) {
    if (run.run_type == Run::RT_Aggregate) {
      for (const auto& record : repetitions_of(run)) highest = std::max(highest, record.id);
    }
  }
  reported_up_to_ = highest;
  json_->ReportRuns(patched);
  if (file_printer_) file_printer_->ReportRuns(patched);
  if (display_ != nullptr) display_->ReportRuns(patched);
}

void GbxReporter::Finalize() {
  json_->Finalize();
  if (file_printer_) file_printer_->Finalize();
  if (display_ != nullptr) display_->Finalize();
}

}  // namespace gbx
