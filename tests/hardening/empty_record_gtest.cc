// A record of zero benchmarks is valid, and every command that reads records accepts it: verify,
// compare, pareto and report (Markdown and HTML).
#include <gtest/gtest.h>

#include <unistd.h>

#include <sstream>
#include <string>

#include "cli/compare_command.h"
#include "cli/pareto_command.h"
#include "cli/report_command.h"
#include "cli/verify_command.h"
#include "tests/support/complete_record.h"
#include "tests/support/sealed_record_file.h"

namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

std::string empty_record(const std::string& name) {
  return gbx_test::write_sealed_record(name, gbx_test::minimal_valid_record());
}

TEST(EmptyRecord, VerifyAcceptsIt) {
  std::ostringstream out, err;
  EXPECT_EQ(gbx::tools::verify_record(empty_record("empty.json"), out, err), 0) << err.str();
  EXPECT_NE(out.str().find("intact"), std::string::npos);
}

// Read, not refused (2): with nothing to compare, the gate cannot decide (3), as for a record whose
// benchmarks were all skipped.
TEST(EmptyRecord, CompareReadsItAndCannotDecide) {
  for (const std::string format : {"console", "markdown", "json"}) {
    gbx::tools::CompareOptions options;
    options.base = empty_record("base.json");
    options.candidate = empty_record("candidate.json");
    options.format = format;
    std::ostringstream out, err;
    EXPECT_EQ(gbx::tools::compare_records(options, out, err), 3) << format << ": " << err.str();
    EXPECT_NE(err.str().find("base.json: the record holds no benchmarks"), std::string::npos) << err.str();
  }
}

TEST(EmptyRecord, ParetoHasNoGroups) {
  for (const std::string format : {"console", "json"}) {
    gbx::tools::ParetoCommandOptions options;
    options.path = empty_record("pareto.json");
    options.format = format;
    std::ostringstream out, err;
    EXPECT_EQ(gbx::tools::pareto_command(options, out, err), 0) << format << ": " << err.str();
  }
}

TEST(EmptyRecord, ReportsInMarkdownAndHtml) {
  gbx::tools::ReportOptions options;
  options.inputs = {empty_record("report.json")};
  options.format = "markdown";
  std::ostringstream out, err;
  EXPECT_EQ(gbx::tools::write_report(options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("# gbx report"), std::string::npos) << out.str();
  if (::access(GBX_REPORT_ASSETS "/vega", R_OK) != 0) GTEST_SKIP() << "no vega assets in " GBX_REPORT_ASSETS;
  options.format = "html";
  options.assets = GBX_REPORT_ASSETS;
  options.output = ::testing::TempDir() + "empty_report.html";
  std::ostringstream html_out, html_err;
  EXPECT_EQ(gbx::tools::write_report(options, html_out, html_err), 0) << html_err.str();
}

}  // namespace
