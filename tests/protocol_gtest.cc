// The --gbx_* flags: defaults, each flag, Google Benchmark's flags passed through, and refusals
// whose messages name the flag and the value.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "model/protocol.h"
#include "model/spelling.h"

namespace {

using gbx::detail::CacheMode;
using gbx::detail::CommandLine;
using gbx::detail::FlagError;
using gbx::detail::parse_command_line;
using Args = std::vector<std::string>;

// The message of the FlagError that args raise; fails the test if none is raised.
std::string refusal(const Args& args) {
  try {
    parse_command_line(args);
  } catch (const FlagError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no FlagError for " << ::testing::PrintToString(args);
  return {};
}

TEST(ParseCommandLine, DefaultsWithNoArguments) {
  const CommandLine line = parse_command_line({});
  EXPECT_EQ(line.protocol.warmup_runs, 10);
  EXPECT_EQ(line.protocol.min_samples, 30);
  EXPECT_EQ(line.protocol.max_samples, 10000);
  EXPECT_EQ(line.protocol.max_time_seconds, 10.0);
  EXPECT_EQ(line.protocol.cache, CacheMode::hot);
  EXPECT_EQ(line.protocol.batch_resolution_factor, 100.0);
  EXPECT_EQ(line.protocol.target_rel_ci, 0.0);  // adaptive stopping off
  EXPECT_TRUE(line.out_dir.empty());
  EXPECT_TRUE(line.passthrough.empty());
}

TEST(ParseCommandLine, EachFlag) {
  EXPECT_EQ(parse_command_line({"--gbx_warmup=3"}).protocol.warmup_runs, 3);
  EXPECT_EQ(parse_command_line({"--gbx_warmup=0"}).protocol.warmup_runs, 0);  // no warm-up is allowed
  EXPECT_EQ(parse_command_line({"--gbx_min_samples=5"}).protocol.min_samples, 5);
  EXPECT_EQ(parse_command_line({"--gbx_max_samples=50"}).protocol.max_samples, 50);
  EXPECT_EQ(parse_command_line({"--gbx_max_time=0.25"}).protocol.max_time_seconds, 0.25);
  EXPECT_EQ(parse_command_line({"--gbx_max_time=2"}).protocol.max_time_seconds, 2.0);
  EXPECT_EQ(parse_command_line({"--gbx_cache=cold"}).protocol.cache, CacheMode::cold);
  EXPECT_EQ(parse_command_line({"--gbx_cache=hot"}).protocol.cache, CacheMode::hot);
  EXPECT_EQ(parse_command_line({"--gbx_out_dir=/tmp/records"}).out_dir, "/tmp/records");
  EXPECT_EQ(parse_command_line({"--gbx_target_rel_ci=0.05"}).protocol.target_rel_ci, 0.05);
  EXPECT_EQ(parse_command_line({"--gbx_target_rel_ci=1"}).protocol.target_rel_ci, 1.0);  // the upper end
  EXPECT_EQ(parse_command_line({}).protocol.min_time_seconds, 0.0);                      // off
  EXPECT_EQ(parse_command_line({"--gbx_min_time=0.5"}).protocol.min_time_seconds, 0.5);
  EXPECT_EQ(parse_command_line({"--gbx_min_time=20", "--gbx_max_time=30"}).protocol.min_time_seconds, 20.0);
}

TEST(ParseCommandLine, AllFlagsTogetherLeaveNothingToPassThrough) {
  const CommandLine line = parse_command_line({"--gbx_warmup=1", "--gbx_min_samples=2", "--gbx_max_samples=3",
                                               "--gbx_max_time=4.5", "--gbx_cache=cold", "--gbx_out_dir=d"});
  EXPECT_EQ(line.protocol.warmup_runs, 1);
  EXPECT_EQ(line.protocol.min_samples, 2);
  EXPECT_EQ(line.protocol.max_samples, 3);
  EXPECT_EQ(line.protocol.max_time_seconds, 4.5);
  EXPECT_EQ(line.protocol.cache, CacheMode::cold);
  EXPECT_EQ(line.out_dir, "d");
  EXPECT_TRUE(line.passthrough.empty());
}

TEST(ParseCommandLine, MinSamplesMayEqualMaxSamples) {
  const CommandLine line = parse_command_line({"--gbx_min_samples=7", "--gbx_max_samples=7"});
  EXPECT_EQ(line.protocol.min_samples, 7);
  EXPECT_EQ(line.protocol.max_samples, 7);
}

TEST(ParseCommandLine, PassthroughKeepsGoogleBenchmarkArgumentsInOrder) {
  const Args args = {"--benchmark_filter=reduce", "first",  "--gbx_warmup=3",          "--benchmark_repetitions=3",
                     "--gbx_cache=cold",          "second", "--benchmark_min_time=0.5"};
  const CommandLine line = parse_command_line(args);
  const Args expected = {"--benchmark_filter=reduce", "first", "--benchmark_repetitions=3", "second",
                         "--benchmark_min_time=0.5"};
  EXPECT_EQ(line.passthrough, expected);
  EXPECT_EQ(line.protocol.warmup_runs, 3);
  EXPECT_EQ(line.protocol.cache, CacheMode::cold);
}

TEST(ParseCommandLine, PassthroughKeepsValuesWithEqualsSignsAndDashes) {
  const Args args = {"--benchmark_filter=a=b|c", "--benchmark_out_format=json", "-h", "--benchmark_list_tests"};
  EXPECT_EQ(parse_command_line(args).passthrough, args);
}

TEST(ParseCommandLine, GbxFlagAfterAPassthroughArgument) {
  const CommandLine line = parse_command_line({"--benchmark_filter=x", "--gbx_min_samples=4"});
  EXPECT_EQ(line.passthrough, Args{"--benchmark_filter=x"});
  EXPECT_EQ(line.protocol.min_samples, 4);
}

// Each refusal names the flag and the offending value.
struct BadFlag {
  std::string arg;
  std::string flag;
  std::string value;
};

class ParseCommandLineRefuses : public ::testing::TestWithParam<BadFlag> {};

TEST_P(ParseCommandLineRefuses, NamingTheFlagAndTheValue) {
  const BadFlag& bad = GetParam();
  const std::string message = refusal({"--benchmark_filter=reduce", bad.arg});
  EXPECT_NE(message.find("--" + bad.flag), std::string::npos) << message;
  EXPECT_NE(message.find("'" + bad.value + "'"), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    BadValues, ParseCommandLineRefuses,
    ::testing::Values(
        BadFlag{"--gbx_warmup=-1", "gbx_warmup", "-1"}, BadFlag{"--gbx_warmup=abc", "gbx_warmup", "abc"},
        BadFlag{"--gbx_warmup=1.5", "gbx_warmup", "1.5"}, BadFlag{"--gbx_warmup=1-2", "gbx_warmup", "1-2"},
        BadFlag{"--gbx_warmup=99999999999999999999", "gbx_warmup", "99999999999999999999"},
        BadFlag{"--gbx_min_samples=0", "gbx_min_samples", "0"},
        BadFlag{"--gbx_min_samples=-5", "gbx_min_samples", "-5"},
        BadFlag{"--gbx_min_samples=ten", "gbx_min_samples", "ten"},
        BadFlag{"--gbx_max_samples=0", "gbx_max_samples", "0"},
        BadFlag{"--gbx_max_samples=x1", "gbx_max_samples", "x1"}, BadFlag{"--gbx_max_time=0", "gbx_max_time", "0"},
        BadFlag{"--gbx_max_time=-1", "gbx_max_time", "-1"}, BadFlag{"--gbx_max_time=inf", "gbx_max_time", "inf"},
        BadFlag{"--gbx_max_time=nan", "gbx_max_time", "nan"}, BadFlag{"--gbx_max_time=1e999", "gbx_max_time", "1e999"},
        BadFlag{"--gbx_max_time=5s", "gbx_max_time", "5s"}, BadFlag{"--gbx_target_rel_ci=0", "gbx_target_rel_ci", "0"},
        BadFlag{"--gbx_target_rel_ci=1.5", "gbx_target_rel_ci", "1.5"},
        BadFlag{"--gbx_target_rel_ci=-0.1", "gbx_target_rel_ci", "-0.1"},
        BadFlag{"--gbx_target_rel_ci=nan", "gbx_target_rel_ci", "nan"},
        BadFlag{"--gbx_target_rel_ci=5%", "gbx_target_rel_ci", "5%"}, BadFlag{"--gbx_cache=warm", "gbx_cache", "warm"},
        BadFlag{"--gbx_cache=COLD", "gbx_cache", "COLD"}, BadFlag{"--gbx_min_time=0", "gbx_min_time", "0"},
        BadFlag{"--gbx_min_time=-1", "gbx_min_time", "-1"}, BadFlag{"--gbx_min_time=1s", "gbx_min_time", "1s"},
        BadFlag{"--gbx_min_time=nan", "gbx_min_time", "nan"}),
    [](const ::testing::TestParamInfo<BadFlag>& param) { return "case" + std::to_string(param.index); });

TEST(ParseCommandLine, RefusesMinSamplesAboveMaxSamples) {
  const std::string message = refusal({"--gbx_min_samples=10", "--gbx_max_samples=5"});
  EXPECT_NE(message.find("--gbx_min_samples=10"), std::string::npos) << message;
  EXPECT_NE(message.find("--gbx_max_samples=5"), std::string::npos) << message;
}

TEST(ParseCommandLine, RefusesAMinTimeNotBelowMaxTime) {
  // max_time bounds the whole measurement, warm-up included: a span as long could never be sampled.
  const std::string message = refusal({"--gbx_min_time=10"});
  EXPECT_NE(message.find("--gbx_min_time=10 is not below --gbx_max_time=10"), std::string::npos) << message;
  const std::string given = refusal({"--gbx_max_time=2", "--gbx_min_time=2.5"});
  EXPECT_NE(given.find("--gbx_min_time=2.5 is not below --gbx_max_time=2,"), std::string::npos) << given;
}

TEST(ParseCommandLine, RefusesMinSamplesAboveTheDefaultMax) {
  const std::string message = refusal({"--gbx_min_samples=20000"});
  EXPECT_NE(message.find("--gbx_min_samples=20000"), std::string::npos) << message;
}

TEST(ParseCommandLine, RefusesAnUnknownGbxFlag) {
  const std::string message = refusal({"--benchmark_filter=reduce", "--gbx_foo=1"});
  EXPECT_NE(message.find("--gbx_foo=1"), std::string::npos) << message;
  // The message lists the real flags, so that the typo is easy to fix.
  EXPECT_NE(message.find("--gbx_warmup"), std::string::npos) << message;
}

// A typo gets the nearest spellings first, before the long list of every flag.
TEST(ParseCommandLine, AMisspelledFlagNamesTheNearestSpellingsFirst) {
  const auto first_line = [](const Args& args) {
    const std::string message = refusal(args);
    return message.substr(0, message.find('\n'));
  };
  EXPECT_EQ(first_line({"--gbx_min_sample=5"}), "unknown flag '--gbx_min_sample=5'; did you mean --gbx_min_samples?");
  EXPECT_EQ(first_line({"--gbx_wramup=3"}), "unknown flag '--gbx_wramup=3'; did you mean --gbx_warmup?")
      << "two letters swapped";
  EXPECT_EQ(first_line({"--gbx_Cache=cold"}), "unknown flag '--gbx_Cache=cold'; did you mean --gbx_cache?");
  EXPECT_EQ(first_line({"--gbx_shards=0/2"}), "unknown flag '--gbx_shards=0/2'; did you mean --gbx_shard?")
      << "a flag taken out before this parser is still a spelling";
  EXPECT_EQ(first_line({"--gbx_mix_time=9"}),
            "unknown flag '--gbx_mix_time=9'; did you mean --gbx_max_time or --gbx_min_time?")
      << "every spelling at the nearest distance, in the list's order";
  EXPECT_EQ(first_line({"--gbx_frobnicate=1"}), "unknown flag '--gbx_frobnicate=1'") << "nothing near: no guess";
  EXPECT_EQ(first_line({"--gbx_chil=3"}).find("did you mean"), std::string::npos) << "internal flags are not offered";
  EXPECT_NE(refusal({"--gbx_min_sample=5"}).find("--gbx_target_rel_ci"), std::string::npos) << "then the list";
}

TEST(Spelling, EditDistanceCountsEachSlipOnce) {
  using gbx::detail::edit_distance;
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("warmup", "warmup"), 0u);
  EXPECT_EQ(edit_distance("warmup", "WARMUP"), 0u) << "case is no slip";
  EXPECT_EQ(edit_distance("warmup", "wramup"), 1u) << "a swap";
  EXPECT_EQ(edit_distance("samples", "sample"), 1u) << "a deletion";
  EXPECT_EQ(edit_distance("cache", "cacher"), 1u) << "an insertion";
  EXPECT_EQ(edit_distance("cache", "catch"), 2u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(gbx::detail::spelling_list({"a", "b", "c"}, "--"), "--a, --b or --c");
}

TEST(ParseCommandLine, RefusesARepeatedFlag) {
  const std::string message = refusal({"--gbx_warmup=3", "--gbx_warmup=4"});
  EXPECT_NE(message.find("--gbx_warmup"), std::string::npos) << message;
}

TEST(ParseCommandLine, RefusesAFlagWithoutItsValue) {
  const std::string message = refusal({"--benchmark_filter=reduce", "--gbx_warmup"});
  EXPECT_NE(message.find("--gbx_warmup"), std::string::npos) << message;
}

TEST(ParseCommandLine, RefusesAnEmptyValueNamingTheFlag) {
  for (const std::string flag : {"gbx_warmup", "gbx_min_samples", "gbx_max_time", "gbx_cache", "gbx_out_dir"}) {
    const std::string message = refusal({"--benchmark_filter=reduce", "--" + flag + "="});
    EXPECT_NE(message.find("--" + flag), std::string::npos) << message;
  }
}

// An empty value is a value, and a wrong one: the message quotes it.
TEST(ParseCommandLine, RefusesAnEmptyValueNamingTheEmptyValue) {
  for (const std::string flag : {"gbx_warmup", "gbx_max_time", "gbx_cache", "gbx_out_dir"}) {
    const std::string message = refusal({"--benchmark_filter=reduce", "--" + flag + "="});
    EXPECT_NE(message.find("invalid value '' for --" + flag), std::string::npos) << message;
  }
}

// An empty value must not take the next argument as its value: --gbx_out_dir= --benchmark_filter=x
// once made a directory named "--benchmark_filter=x" and ran every benchmark.
TEST(ParseCommandLine, EmptyValueDoesNotSwallowTheNextArgument) {
  const std::string message = refusal({"--gbx_out_dir=", "--benchmark_filter=reduce"});
  EXPECT_NE(message.find("--gbx_out_dir"), std::string::npos) << message;
  const std::string warmup = refusal({"--gbx_warmup=", "--benchmark_filter=reduce"});
  EXPECT_EQ(warmup.find("--benchmark_filter"), std::string::npos) << warmup;
}

TEST(ParseCommandLine, MissingValueBeforeAnotherArgumentIsStillRefused) {
  // Whatever is read as the value, a count flag must not accept a Google Benchmark flag.
  const std::string message = refusal({"--gbx_warmup", "--benchmark_filter=reduce"});
  EXPECT_NE(message.find("--gbx_warmup"), std::string::npos) << message;
}

TEST(CacheMode, ToString) {
  EXPECT_STREQ(gbx::detail::to_string(CacheMode::hot), "hot");
  EXPECT_STREQ(gbx::detail::to_string(CacheMode::cold), "cold");
}

TEST(FlagsHelp, NamesEveryFlag) {
  const std::string help = gbx::detail::flags_help();
  for (const char* flag : {"--gbx_warmup", "--gbx_min_samples", "--gbx_max_samples", "--gbx_max_time", "--gbx_cache",
                           "--gbx_out_dir", "--gbx_target_rel_ci", "--gbx_min_time"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  }
}

TEST(ActiveProtocol, SetThenRead) {
  const gbx::detail::Protocol saved = gbx::detail::active_protocol();
  gbx::detail::Protocol p;
  p.warmup_runs = 3;
  p.min_samples = 4;
  p.max_samples = 5;
  p.max_time_seconds = 6.5;
  p.cache = CacheMode::cold;
  p.target_rel_ci = 0.25;
  gbx::detail::set_active_protocol(p);
  EXPECT_EQ(gbx::detail::active_protocol().warmup_runs, 3);
  EXPECT_EQ(gbx::detail::active_protocol().min_samples, 4);
  EXPECT_EQ(gbx::detail::active_protocol().max_samples, 5);
  EXPECT_EQ(gbx::detail::active_protocol().max_time_seconds, 6.5);
  EXPECT_EQ(gbx::detail::active_protocol().cache, CacheMode::cold);
  EXPECT_EQ(gbx::detail::active_protocol().target_rel_ci, 0.25);
  gbx::detail::set_active_protocol(saved);
}

}  // namespace
