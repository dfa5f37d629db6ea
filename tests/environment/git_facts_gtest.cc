// The build and source facts in the record. git's answer kept as fixed-size data
// (<gbx/detail/program_facts.h>): the cut at a UTF-8 boundary, and gbx's own facts read back as the record
// reads them. The program's facts: what the record says without them and with them, apart from gbx's own,
// and the comparison's gate over them.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "analysis/record_comparison.h"
#include "environment/environment.h"
#include "environment/git_facts.h"

namespace gbx::environment_detail {
namespace {

using detail::fact_text;
using detail::FactText;
using detail::kFactTextBytes;
using Json = nlohmann::json;

std::string text_of(const FactText& text) { return std::string(text.data()); }

TEST(GitFacts, ShortTextIsKeptWholeAndZeroFilled) {
  constexpr FactText text = fact_text("main");
  EXPECT_EQ(text_of(text), "main");
  for (std::size_t i = 4; i < kFactTextBytes; ++i) ASSERT_EQ(text[i], '\0') << i;
}

TEST(GitFacts, TextOfExactlyTheLimitIsKept) {
  char value[kFactTextBytes] = {};
  std::memset(value, 'a', kFactTextBytes - 1);
  // fact_text takes a literal's array: build one of the size that the limit allows.
  const FactText text = fact_text(value);
  EXPECT_EQ(text_of(text).size(), kFactTextBytes - 1);
}

TEST(GitFacts, LongerTextIsCutAtTheLimit) {
  char value[kFactTextBytes + 40] = {};
  std::memset(value, 'b', sizeof value - 1);
  const FactText text = fact_text(value);
  EXPECT_EQ(text_of(text), std::string(kFactTextBytes - 1, 'b'));
}

TEST(GitFacts, CutNeverSplitsAUtf8Character) {
  // 254 ASCII bytes, then "é" (0xC3 0xA9): the limit of 255 bytes falls inside it, so it goes whole.
  char value[kFactTextBytes + 8] = {};
  std::memset(value, 'c', 254);
  std::memcpy(value + 254, "\xC3\xA9xyz", 5);
  const FactText text = fact_text(value);
  EXPECT_EQ(text_of(text), std::string(254, 'c'));
  // 253 ASCII bytes, then "é" ends at byte 255: kept.
  std::memset(value, 'c', 253);
  std::memcpy(value + 253, "\xC3\xA9xyz", 5);
  EXPECT_EQ(text_of(fact_text(value)), std::string(253, 'c') + "\xC3\xA9");
}

TEST(GitFacts, GbxsOwnFactsAreWholeAnswers) {
  // Each fact is a value or a reason why not, never both nor neither; without a commit nothing else is known.
  const std::string commit = text_of(git_facts.commit);
  const std::string reason = text_of(git_facts.commit_unavailable);
  EXPECT_NE(commit.empty(), reason.empty()) << "commit '" << commit << "', reason '" << reason << "'";
  if (!commit.empty()) {
    EXPECT_TRUE(commit.size() == 40 || commit.size() == 64) << commit;
  }
  ASSERT_TRUE(git_facts.dirty >= -1 && git_facts.dirty <= 1) << git_facts.dirty;
  EXPECT_EQ(git_facts.dirty == -1, !text_of(git_facts.dirty_unavailable).empty());
  EXPECT_NE(text_of(git_facts.branch).empty(), text_of(git_facts.branch_unavailable).empty());
  if (commit.empty()) {
    EXPECT_EQ(git_facts.dirty, -1);
    EXPECT_TRUE(text_of(git_facts.branch).empty());
  }
}

// A program's facts as gbx_program_facts.cc would make them (this test links no gbx::main: it registers
// its own).
template <std::size_t TypeBytes, std::size_t FlagBytes>
detail::ProgramFacts facts_of(const char (&build_type)[TypeBytes], const char (&flags)[FlagBytes], int optimized) {
  return {fact_text(build_type),
          detail::fixed_text<detail::kFlagsTextBytes>(flags),
          fact_text("GNU 12.2.0"),
          fact_text("/usr/bin/c++"),
          fact_text("3.25.1"),
          optimized,
          optimized ? 0 : 1,
          {fact_text("0123456789abcdef0123456789abcdef01234567"), fact_text(""), 1, fact_text(""),
           fact_text("feature/user"), fact_text("")}};
}

Json record_with(const Json& environment) { return {{"gbx", {{"environment", environment}}}}; }

TEST(ProgramFacts, WithoutThemTheRecordSaysWhyAndKeepsGbxsOwnApart) {
  detail::register_program_facts(nullptr);
  const Json environment = capture_environment();
  const Json& build = environment["build"];
  for (const char* key : {"build_type", "flags", "optimization", "optimized", "compiler"}) {
    EXPECT_TRUE(build[key].is_null()) << key << " = " << build[key].dump();
    EXPECT_NE(build.value(std::string(key) + "_unavailable", "").find("gbx::main"), std::string::npos) << key;
  }
  const Json& source = environment["source"];
  EXPECT_TRUE(source["commit"].is_null()) << source.dump();
  EXPECT_NE(source.value("commit_unavailable", "").find("gbx::gbx"), std::string::npos) << source.dump();
  // gbx's own build and commit stay, under their own names.
  EXPECT_TRUE(build["gbx"]["version"].is_string()) << build.dump();
  EXPECT_TRUE(build["gbx"]["flags"].is_string()) << build.dump();
  EXPECT_EQ(source["gbx"]["commit"].is_null(), !text_of(git_facts.commit_unavailable).empty()) << source.dump();
}

TEST(ProgramFacts, TheRecordCarriesTheProgramsBuildAndSourceNotGbxs) {
  static const detail::ProgramFacts debug = facts_of("Debug", "-g -fno-strict-alias", 0);
  detail::register_program_facts(&debug);
  const Json environment = capture_environment();
  detail::register_program_facts(nullptr);
  const Json& build = environment["build"];
  EXPECT_EQ(build["build_type"], "Debug");
  EXPECT_EQ(build["flags"], "-g -fno-strict-alias");
  EXPECT_EQ(build["optimization"], "-O0");
  EXPECT_EQ(build["optimized"], false);
  EXPECT_EQ(build["assertions"], true);
  EXPECT_EQ(build["compiler"], "GNU 12.2.0");
  const Json& source = environment["source"];
  EXPECT_EQ(source["commit"], "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(source["dirty"], true);
  EXPECT_EQ(source["branch"], "feature/user");
  EXPECT_NE(source["gbx"]["commit"], source["commit"]) << "gbx's own commit replaced by the program's";
  const std::string own = text_of(git_facts.commit);
  if (!own.empty()) {
    EXPECT_EQ(source["gbx"]["commit"], own);
  }
}

TEST(ProgramFacts, OptimisationLevelIsTheLastOfTheFlagsOrWhyNot) {
  static const detail::ProgramFacts release = facts_of("Release", "-O2 -DNDEBUG -O3", 1);
  static const detail::ProgramFacts elsewhere = facts_of("Release", "-DNDEBUG", 1);
  detail::register_program_facts(&release);
  const Json optimized = capture_environment();
  detail::register_program_facts(&elsewhere);
  const Json unnamed = capture_environment();
  detail::register_program_facts(nullptr);
  EXPECT_EQ(optimized["build"]["optimization"], "-O3");
  EXPECT_TRUE(unnamed["build"]["optimization"].is_null());
  EXPECT_NE(unnamed["build"].value("optimization_unavailable", "").find("no -O level"), std::string::npos);
}

TEST(ProgramFacts, TheGateRefusesAnotherBuildTypeOrOptimisationNamingBoth) {
  static const detail::ProgramFacts debug = facts_of("Debug", "-g", 0);
  static const detail::ProgramFacts release = facts_of("Release", "-O3 -DNDEBUG", 1);
  static const detail::ProgramFacts release_o2 = facts_of("Release", "-O2 -DNDEBUG", 1);
  const auto environment_of = [](const detail::ProgramFacts& facts) {
    detail::register_program_facts(&facts);
    Json environment = capture_environment();
    detail::register_program_facts(nullptr);
    return record_with(environment);
  };
  const Json a = environment_of(debug), b = environment_of(release), c = environment_of(release_o2);
  const auto found = [](const std::vector<tools::Difference>& differences, const std::string& what) {
    for (const auto& d : differences) {
      if (d.what == what) return d.base + " | " + d.candidate;
    }
    return std::string("(none)");
  };
  const auto debug_release = tools::gate_differences(a, b);
  EXPECT_EQ(found(debug_release, "build type"), "Debug | Release");
  EXPECT_EQ(found(debug_release, "optimisation level"), "-O0 | -O3");
  EXPECT_EQ(found(debug_release, "compiled with optimisation"), "false | true");
  // One build type, two -O levels: still not the same build.
  const auto o3_o2 = tools::gate_differences(b, c);
  ASSERT_EQ(o3_o2.size(), 1u) << found(o3_o2, "build type");
  EXPECT_EQ(o3_o2[0].what, "optimisation level");
  EXPECT_EQ(o3_o2[0].base + " | " + o3_o2[0].candidate, "-O3 | -O2");
  EXPECT_TRUE(tools::gate_differences(b, environment_of(release)).empty());
}

}  // namespace
}  // namespace gbx::environment_detail
