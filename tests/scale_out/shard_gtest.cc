// Which shard a process is, and which benchmarks each shard runs (processes/shard.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/protocol.h"
#include "processes/shard.h"
#include "tests/support/regex.h"

namespace {

using Variables = std::map<std::string, std::string>;

gbx::ShardRequest request(std::vector<std::string> args, const Variables& variables = {}) {
  return gbx::take_shard_request(args, [&variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  });
}

// The message of the FlagError a request throws, or "" when it throws none.
std::string refusal(std::vector<std::string> args, const Variables& variables = {}) {
  try {
    request(std::move(args), variables);
  } catch (const gbx::detail::FlagError& error) {
    return error.what();
  }
  return "";
}

TEST(ShardRequest, FlagGivesIndexAndCountAndIsTakenOutOfTheArguments) {
  std::vector<std::string> args = {"--benchmark_filter=x", "--gbx_shard=2/5", "--gbx_shard_plan=old.json",
                                   "--gbx_warmup=1"};
  const auto shard = gbx::take_shard_request(args, [](const char*) -> const char* { return nullptr; });
  EXPECT_TRUE(shard.active);
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 5);
  EXPECT_EQ(shard.source, "--gbx_shard");
  EXPECT_EQ(shard.plan_path, "old.json");
  EXPECT_EQ(args, (std::vector<std::string>{"--benchmark_filter=x", "--gbx_warmup=1"}));
}

TEST(ShardRequest, FlagWinsOverTheEnvironmentAndNoneTurnsShardingOff) {
  const Variables slurm = {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
  EXPECT_EQ(request({"--gbx_shard=3/8"}, slurm).index, 3);
  const auto off = request({"--gbx_shard=none"}, slurm);
  EXPECT_FALSE(off.active);
  EXPECT_TRUE(off.explicitly_off);
  EXPECT_FALSE(request({}).active);
}

TEST(ShardRequest, GbxVariablesComeBeforeSlurmsAndKubernetesIndex) {
  const auto gbx = request({}, {{"GBX_SHARD_INDEX", "1"},
                                {"GBX_SHARD_COUNT", "3"},
                                {"SLURM_ARRAY_TASK_ID", "0"},
                                {"SLURM_ARRAY_TASK_COUNT", "2"}});
  EXPECT_EQ(gbx.source, "GBX_SHARD_INDEX");
  EXPECT_EQ(gbx.index, 1);
  EXPECT_EQ(gbx.count, 3);
  const auto k8s = request({}, {{"JOB_COMPLETION_INDEX", "4"}, {"GBX_SHARD_COUNT", "6"}});
  EXPECT_EQ(k8s.source, "JOB_COMPLETION_INDEX");
  EXPECT_EQ(k8s.index, 4);
  EXPECT_EQ(k8s.count, 6);
}

TEST(ShardRequest, SlurmTaskIdsCountFromTheArraysMinimumInItsSteps) {
  // --array=4-6: tasks 4, 5, 6 are shards 0, 1, 2.
  const auto offset =
      request({}, {{"SLURM_ARRAY_TASK_ID", "6"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "4"}});
  EXPECT_EQ(offset.index, 2);
  EXPECT_EQ(offset.count, 3);
  // --array=0-4:2: tasks 0, 2, 4 are shards 0, 1, 2.
  const auto stepped = request({}, {{"SLURM_ARRAY_TASK_ID", "4"},
                                    {"SLURM_ARRAY_TASK_COUNT", "3"},
                                    {"SLURM_ARRAY_TASK_MIN", "0"},
                                    {"SLURM_ARRAY_TASK_STEP", "2"}});
  EXPECT_EQ(stepped.index, 2);
  // --array=1,5,9 has no dense numbering: SLURM_ARRAY_TASK_ID 5 of 3 is refused, not guessed.
  EXPECT_NE(refusal({}, {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}})
                .find("SLURM_ARRAY_TASK_ID"),
            std::string::npos);
}

TEST(ShardRequest, BadValuesNameTheFlagOrVariable) {
  for (const char* bad :
       {"--gbx_shard=2/2", "--gbx_shard=x/2", "--gbx_shard=1/0", "--gbx_shard=-1/2", "--gbx_shard=1", "--gbx_shard="}) {
    EXPECT_NE(refusal({bad}).find("--gbx_shard"), std::string::npos) << bad;
  }
  EXPECT_NE(refusal({"--gbx_shard=0/2", "--gbx_shard=1/2"}).find("more than once"), std::string::npos);
  EXPECT_NE(refusal({"--gbx_shard_plan="}).find("--gbx_shard_plan"), std::string::npos);
  EXPECT_NE(refusal({"--gbx_shard"}).find("needs a value"), std::string::npos);
  EXPECT_NE(refusal({}, {{"GBX_SHARD_INDEX", "0"}}).find("GBX_SHARD_COUNT"), std::string::npos);
  EXPECT_NE(refusal({}, {{"JOB_COMPLETION_INDEX", "0"}}).find("GBX_SHARD_COUNT"), std::string::npos);
  EXPECT_NE(refusal({}, {{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "0"}}).find("SLURM_ARRAY_TASK_COUNT"),
            std::string::npos);
}

TEST(ShardRequest, AChildOfAResolvedProcessNeverShardsAgain) {
  const auto child =
      request({"--gbx_shard=1/2"},
              {{"GBX_SHARD_RESOLVED", "1"}, {"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "2"}});
  EXPECT_FALSE(child.active);
}

TEST(SelectionFingerprint, IsTheSha256OfTheSortedNamesOnePerLine) {
  // python3 -c "import hashlib; print(hashlib.sha256(b'a\nb\n').hexdigest())"
  EXPECT_EQ(gbx::selection_fingerprint({"b", "a"}), "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2");
}

std::vector<std::string> names(std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back("family/variant_" + std::to_string(i) + "/n:" + std::to_string(i * 7));
  return out;
}

TEST(AssignShards, ByNameEveryBenchmarkIsInOneShardAndSizesDifferByOneAtMost) {
  const auto all = names(23);
  const auto shards = gbx::assign_shards(all, 4, nullptr);
  std::vector<int> sizes(4, 0);
  for (auto shard : shards) {
    ASSERT_GE(shard, 0);
    ASSERT_LT(shard, 4);
    ++sizes[static_cast<std::size_t>(shard)];
  }
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()) - *std::min_element(sizes.begin(), sizes.end()), 1);
}

TEST(AssignShards, ByNameTheAssignmentDoesNotDependOnTheListingOrder) {
  auto all = names(17);
  const auto shards = gbx::assign_shards(all, 3, nullptr);
  std::map<std::string, std::int64_t> first;
  for (std::size_t i = 0; i < all.size(); ++i) first[all[i]] = shards[i];
  std::reverse(all.begin(), all.end());
  const auto again = gbx::assign_shards(all, 3, nullptr);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(again[i], first[all[i]]) << all[i];
}

TEST(AssignShards, ByCostLongestFirstToTheLeastLoadedShard) {
  // By hand: a(5)->0, b(4)->1, c(3)->1 (4<5), d(3)->0 (5<7), e(2)->1 (7<8): loads 8 and 9.
  const std::map<std::string, double> costs = {{"a", 5}, {"b", 4}, {"c", 3}, {"d", 3}, {"e", 2}};
  EXPECT_EQ(gbx::assign_shards({"e", "d", "c", "b", "a"}, 2, &costs), (std::vector<std::int64_t>{1, 0, 1, 1, 0}));
}

TEST(AssignShards, ANameTheRecordLacksCostsTheMedianOfThoseItHas) {
  // Known 5, 1, 3: f costs 3. a(5)->0, c(3)->1, f(3)->1 (3<5), b(1)->0 (5<6).
  const std::map<std::string, double> costs = {{"a", 5}, {"b", 1}, {"c", 3}, {"gone", 100}};
  EXPECT_EQ(gbx::assign_shards({"a", "b", "c", "f"}, 2, &costs), (std::vector<std::int64_t>{0, 0, 1, 1}));
}

TEST(ExactNamesFilter, MatchesExactlyTheNamesGiven) {
  // Through tests/support/regex: <regex> here would break the sanitizer build (GCC 12's false warning).
  const std::string filter = gbx::exact_names_filter({"reduce/n:4096.x", "gemm/(m)"});
  EXPECT_TRUE(gbx_test::regex_search("reduce/n:4096.x", filter));
  EXPECT_TRUE(gbx_test::regex_search("gemm/(m)", filter));
  EXPECT_FALSE(gbx_test::regex_search("reduce/n:4096ax", filter));
  EXPECT_FALSE(gbx_test::regex_search("reduce/n:4096.x/long", filter));
  EXPECT_FALSE(gbx_test::regex_search("gemm/m", filter));
}

}  // namespace
