// Hostile text (names, problem, variant, host, branch, command) through every output: compare
// (console, Markdown), pareto, the Markdown report and the HTML report must all render it inertly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/compare_command.h"
#include "cli/pareto_command.h"
#include "cli/report_command.h"
#include "record/checksum.h"
#include "record/json_parse.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/report_model.h"

namespace {

const std::vector<std::string> kHostile = {
    "<!--",
    "![](https://tracker.invalid/t.png)",
    "a|b",
    "\x1B]8;;https://evil.invalid\x1B\\link\x1B]8;;\x1B\\",
    "\x1B]0;pwned title\x07",
    "x\rFAKE: 99% faster",
    "<script>alert(1)</script>",
    "\x1B[2J\x1B[H",
};

class HostileNames : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gbx-hostile-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    directory_ = pattern;
    nlohmann::json record = gbx::parse_json_strictly(gbx::read_json_file(GBX_FUZZ_CORPUS "/seed-variants.json"));
    // Two hostile strings per benchmark, so that the four measured ones carry all of them.
    std::size_t i = 0;
    nlohmann::json measured;
    for (auto& entry : record["benchmarks"]) {
      const std::string hostile = kHostile[(2 * i) % kHostile.size()] + kHostile[(2 * i + 1) % kHostile.size()];
      entry["name"] = hostile + " #" + std::to_string(i);
      if (entry.contains("gbx")) {
        entry["gbx"]["problem"] = "problem " + kHostile[0] + kHostile[1];
        entry["gbx"]["variant"] = hostile + " v" + std::to_string(i);
      }
      if (!entry.value("error_occurred", false)) {
        measured = entry;
        ++i;
      }
    }
    ASSERT_GE(i, kHostile.size() / 2);
    record["context"]["host_name"] = kHostile[1] + kHostile[5];
    record["gbx"]["environment"]["host"]["hostname"] = kHostile[0] + kHostile[4];
    record["gbx"]["environment"]["source"]["branch"] = kHostile[0] + " " + kHostile[3];
    record["gbx"]["command"] = {"bench", kHostile[1], kHostile[5], kHostile[6]};
    base_ = write(record, "base.json");
    // The candidate has one benchmark the base lacks, for the "only in" lines.
    nlohmann::json extra = measured;
    extra["name"] = "only " + kHostile[5] + kHostile[0] + kHostile[4];
    record["benchmarks"].push_back(extra);
    candidate_ = write(record, "candidate.json");
  }

  void TearDown() override {
    for (const auto& path : {base_, candidate_}) ::unlink(path.c_str());
    ::rmdir(directory_.c_str());
  }

  std::string write(nlohmann::json record, const std::string& name) {
    gbx::seal_record(record);
    const std::string path = directory_ + "/" + name;
    std::ofstream(path) << record.dump(2);
    return path;
  }

  std::string directory_, base_, candidate_;
};

// Nothing a terminal would act on: ESC, CR, BEL, C1 controls.
void expect_terminal_safe(const std::string& output, const std::string& what) {
  EXPECT_EQ(output.find('\x1B'), std::string::npos) << what << ":\n" << output;
  EXPECT_EQ(output.find('\r'), std::string::npos) << what;
  EXPECT_EQ(output.find('\x07'), std::string::npos) << what;
  EXPECT_EQ(output.find("\xC2\x9B"), std::string::npos) << what;
  EXPECT_NE(output.find("\\x1b"), std::string::npos) << what << ": the escapes are shown, not dropped";
}

// Outside code spans (where nothing is markup), no HTML, no image or link, no control character.
void expect_markdown_safe(const std::string& output, const std::string& what) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::string outside;
    bool in_code = false;
    for (const char c : line) {
      if (c == '`') {
        in_code = !in_code;
      } else if (!in_code) {
        outside += c;
      }
    }
    for (const char* raw : {"<!--", "<script", "![](", "a|b", "\x1B", "\r", "\x07"}) {
      EXPECT_EQ(outside.find(raw), std::string::npos) << what << ": raw " << raw << " in: " << line;
    }
    // A link needs "](" with an unescaped "]".
    for (std::size_t at = outside.find("]("); at != std::string::npos; at = outside.find("](", at + 1)) {
      EXPECT_TRUE(at > 0 && outside[at - 1] == '\\') << what << ": a link in: " << line;
    }
  }
  expect_terminal_safe(output, what);
}

TEST_F(HostileNames, CompareOnTheTerminal) {
  gbx::tools::CompareOptions options;
  options.base = base_;
  options.candidate = candidate_;
  std::ostringstream out, err;
  gbx::tools::compare_records(options, out, err);
  EXPECT_NE(out.str().find("only in"), std::string::npos) << out.str() << err.str();
  expect_terminal_safe(out.str() + err.str(), "compare (console)");
}

TEST_F(HostileNames, CompareInMarkdown) {
  gbx::tools::CompareOptions options;
  options.base = base_;
  options.candidate = candidate_;
  options.format = "markdown";
  std::ostringstream out, err;
  gbx::tools::compare_records(options, out, err);
  EXPECT_NE(out.str().find("only in"), std::string::npos) << out.str() << err.str();
  expect_markdown_safe(out.str(), "compare (markdown)");
}

TEST_F(HostileNames, ParetoOnTheTerminal) {
  gbx::tools::ParetoCommandOptions options;
  options.path = candidate_;
  std::ostringstream out, err;
  EXPECT_EQ(gbx::tools::pareto_command(options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("Pareto"), std::string::npos) << out.str();
  expect_terminal_safe(out.str() + err.str(), "pareto");
}

TEST_F(HostileNames, MarkdownReport) {
  gbx::tools::ReportOptions options;
  options.inputs = {base_, candidate_};
  options.format = "markdown";
  std::ostringstream out, err;
  EXPECT_EQ(gbx::tools::write_report(options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("FAKE"), std::string::npos);
  expect_markdown_safe(out.str(), "report (markdown)");
}

TEST_F(HostileNames, HtmlReport) {
  const gbx::tools::ReportModel model = gbx::tools::build_report_model({base_, candidate_});
  std::string page = gbx::tools::html_report(model, gbx::tools::HtmlAssets{});
  // The charts' data is JSON in a script element: there only "</" (which ends it) and "<!--" count.
  const std::string open = "<script type=\"application/json\" id=\"gbx-specs\">";
  const std::size_t start = page.find(open);
  ASSERT_NE(start, std::string::npos);
  const std::size_t end = page.find("</script>", start);
  ASSERT_NE(end, std::string::npos);
  const std::string data = page.substr(start + open.size(), end - start - open.size());
  EXPECT_EQ(data.find("</"), std::string::npos);
  EXPECT_EQ(data.find("<!--"), std::string::npos);
  EXPECT_NE(data.find("FAKE"), std::string::npos) << "the names are in the charts' data";
  page.erase(start, end - start);
  for (const char* raw : {"<!--", "<script>alert", "<img", "href=\"https://evil"}) {
    EXPECT_EQ(page.find(raw), std::string::npos) << "raw " << raw << " in the HTML report";
  }
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << "shown as text";
}

}  // namespace
