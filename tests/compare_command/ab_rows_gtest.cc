// gbx ab's rows and the record's design (ab/sides.h): which benchmarks are compared and which only
// one side lists, for one binary's benchmarks and for two variants; and what gbx.ab.design keeps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ab/sides.h"

namespace {

using gbx::tools::ab_sides::design_json;
using gbx::tools::ab_sides::match_rows;
using gbx::tools::ab_sides::RunDesign;

TEST(MatchRows, ComparesWhatBothListAndNamesTheRest) {
  const std::vector<std::string> listed[2] = {{"a", "b", "c"}, {"c", "d", "a"}};
  std::vector<std::string> only[2];
  const auto rows = match_rows(listed, false, only);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "a");  // the base's order
  EXPECT_EQ(rows[1].label, "c");
  EXPECT_EQ(rows[1].names[0], "c");
  EXPECT_EQ(rows[1].names[1], "c");
  EXPECT_EQ(only[0], std::vector<std::string>{"b"});
  EXPECT_EQ(only[1], std::vector<std::string>{"d"});
}

TEST(MatchRows, PairsVariantsInOrderAndNamesTheUnmatchedTail) {
  const std::vector<std::string> listed[2] = {{"reduce/naive/n:4096", "reduce/naive/n:65536"},
                                              {"reduce/kahan/n:4096", "reduce/kahan/n:65536", "reduce/kahan/n:1M"}};
  std::vector<std::string> only[2];
  const auto rows = match_rows(listed, true, only);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "reduce/naive/n:4096 vs reduce/kahan/n:4096");
  EXPECT_EQ(rows[1].names[0], "reduce/naive/n:65536");
  EXPECT_EQ(rows[1].names[1], "reduce/kahan/n:65536");
  EXPECT_TRUE(only[0].empty());
  EXPECT_EQ(only[1], std::vector<std::string>{"reduce/kahan/n:1M"});
}

TEST(DesignJson, KeepsHowTheRunWasMadeAndJudged) {
  RunDesign run;
  run.seed = 7;
  run.budget_seconds = 40.0;
  run.cpu = 1;
  run.pair_test = "sign-flip-exact";
  run.only_in_candidate = {"d"};
  gbx::tools::AbOptions options;
  options.equivalence = 0.03;
  nlohmann::json design = design_json(options, run);
  EXPECT_EQ(design["seed"], 7);
  EXPECT_EQ(design["cpu"], 1);
  EXPECT_EQ(design["block_split"].get<std::string>().rfind("planned again", 0), 0u);
  EXPECT_EQ(design["only_in_candidate"], nlohmann::json::array({"d"}));
  EXPECT_EQ(design["equivalence"], 0.03);  // the options the run was given
  EXPECT_FALSE(design.contains("analysis_failure"));
  run.cpu.reset();
  options.blocks_given = true;
  run.analysis_failure = "no pairs";
  design = design_json(options, run);
  EXPECT_EQ(design["cpu"], "unpinned");
  EXPECT_EQ(design["block_split"], "fixed by --blocks");
  EXPECT_EQ(design["analysis_failure"], "no pairs");
}

}  // namespace
