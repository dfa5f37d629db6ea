#include "reporters/gbx_reporter.h"

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

void GbxReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> patched(runs);
  // Read the record ids before patching replaces the labels that carry them.
  for (const auto& run : runs) {
    const auto id = record_id_from_label(run.report_label);
    entries_.push_back(id ? channel_.find(*id) : std::nullopt);
    const auto& record = entries_.back();
    if (run.error_occurred && !(record && record->skipped)) any_failed_ = true;
  }
  patch_runs(patched, channel_);
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
