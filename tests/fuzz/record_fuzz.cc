// A fuzz target over everything that reads a record: the strict parser and the schema check, verify's
// canonical form and seal, the record loader, compare, the Pareto analysis and the report model with
// its Markdown and HTML writers. Every input must be refused cleanly (JsonFault, BadRecord) or read:
// any other exception, a crash or a sanitizer finding is a bug.
//
// Built with clang's libFuzzer by scripts/fuzz (GBX_FUZZ=ON); otherwise replay_main.cc runs it over
// tests/fuzz/corpus as a regression test.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/pareto.h"
#include "cli/compare_command.h"
#include "record/checksum.h"
#include "record/json_parse.h"
#include "record/record_reader.h"
#include "record/record_schema.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/report_model.h"

namespace {

// The loader and the report read files; one private directory per process holds them.
const std::string& scratch_directory() {
  static const std::string directory = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/gbx-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    return pattern;
  }();
  return directory;
}

std::string write_scratch(const std::string& name, const std::string& content) {
  const std::string path = scratch_directory() + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
  return path;
}

// Every reader over one file: refusing it is fine, anything else that escapes is a finding.
void read_everywhere(const std::string& path) {
  try {
    const gbx::LoadedRecord record = gbx::load_record(path);
    (void)gbx::tools::compare_loaded(record, record);
    (void)gbx::pareto_json(gbx::pareto_from_record(record));
  } catch (const gbx::BadRecord&) {
    return;
  }
  // Two runs: the comparison, and the Pareto fronts of the last one.
  const gbx::tools::ReportModel model = gbx::tools::build_report_model({path, path});
  std::ostringstream markdown;
  gbx::tools::write_markdown_report(markdown, model);
  (void)gbx::tools::html_report(model, gbx::tools::HtmlAssets{});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_everywhere(write_scratch("as_given.json", text));
  nlohmann::json record;
  try {
    record = gbx::parse_json_strictly(text);
  } catch (const gbx::JsonFault&) {
    return 0;
  }
  (void)gbx::schema_violation(record);
  (void)gbx::check_seal(record);
  // The seal is unkeyed: anyone can reseal an edited record, so the readers must survive what is
  // behind a valid seal too.
  if (record.is_object() && record.contains("gbx") && record["gbx"].is_object()) {
    gbx::seal_record(record);
    read_everywhere(
        write_scratch("resealed.json", record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
  }
  return 0;
}
