// The words a user reads first: why sampling stopped, and what each flag means.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "text/flag_legend.h"

namespace {

gbx::detail::RunRecord stopped_short(const std::string& rule, bool time_bound) {
  gbx::detail::RunRecord r;
  r.region = "cpu";
  r.measurement.timer = gbx::detail::TimerKind::simulated;
  r.measurement.samples = {1.0e-3, 1.1e-3, 1.2e-3, 1.0e-3, 1.1e-3, 1.2e-3,
                           1.0e-3, 1.1e-3, 1.2e-3, 1.1e-3, 1.0e-3, 1.2e-3};
  r.measurement.time_bound_reached = time_bound;
  r.stopping.rule = rule;
  r.stopping.target_rel_ci = rule == "target_rel_ci" ? 0.001 : 0.0;
  r.stopping.reached = false;
  return r;
}

std::vector<std::string> stop_flags(const gbx::detail::RunRecord& r) {
  std::vector<std::string> names;
  for (const auto& flag : gbx::analyze_run(r).flags) {
    if (flag.name == "target_not_reached" || flag.name == "time_bound_reached" || flag.name == "too_few_samples" ||
        flag.name == "min_time_not_reached") {
      names.push_back(flag.name + ": " + flag.message);
    }
  }
  return names;
}

TEST(StopFlags, TargetNotReachedOnlyWhenATargetWasSet) {
  EXPECT_EQ(stop_flags(stopped_short("target_rel_ci", true)),
            std::vector<std::string>{
                "target_not_reached: stopped at max_time after 12 samples, before the median's CI reached +/-0.1%"});
  EXPECT_EQ(stop_flags(stopped_short("min_samples", true)),
            std::vector<std::string>{"time_bound_reached: max_time reached after 12 samples, fewer than min_samples"});
  EXPECT_EQ(stop_flags(stopped_short("min_samples", false)),
            std::vector<std::string>{"too_few_samples: only 12 samples, fewer than min_samples"});
  gbx::detail::RunRecord reached = stopped_short("min_samples", true);
  reached.stopping.reached = true;
  EXPECT_TRUE(stop_flags(reached).empty());
}

TEST(StopFlags, AMinTimeNotReachedSaysWhichBoundAndHowShort) {
  gbx::detail::RunRecord r = stopped_short("min_samples", false);
  r.measurement.sample_bound_reached = true;
  r.measurement.sampling_seconds = 0.0132;
  r.stopping.min_time_seconds = 0.5;
  EXPECT_EQ(stop_flags(r), std::vector<std::string>{"min_time_not_reached: stopped at max_samples after 12 samples "
                                                    "spanning 13.2 ms, short of the 500 ms that --gbx_min_time asked"});
  r.measurement.time_bound_reached = true;
  EXPECT_EQ(stop_flags(r), std::vector<std::string>{"min_time_not_reached: stopped at max_time after 12 samples "
                                                    "spanning 13.2 ms, short of the 500 ms that --gbx_min_time asked"});
  // A span that was reached leaves the older reasons to speak.
  r.measurement.sampling_seconds = 0.6;
  EXPECT_EQ(stop_flags(r),
            std::vector<std::string>{"time_bound_reached: max_time reached after 12 samples, fewer than min_samples"});
}

TEST(OutlierFlag, SaysHowManySamplesAreFarFromTheRestInPlainWords) {
  gbx::detail::RunRecord r = stopped_short("min_samples", false);
  r.stopping.reached = true;
  r.measurement.samples = {1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0, 5.0};
  std::string message;
  for (const auto& flag : gbx::analyze_run(r).flags) {
    if (flag.name == "outliers") message = flag.message;
  }
  EXPECT_EQ(message, "1 sample far from the rest (1 extreme)");
  EXPECT_EQ(message.find("Tukey"), std::string::npos);
}

TEST(FlagLegend, ExplainsOnlyTheFlagsShownInPlainWords) {
  EXPECT_EQ(gbx::flag_legend({}), "");
  const std::string legend = gbx::flag_legend({"too_few_samples", "outliers"});
  EXPECT_EQ(legend.rfind("  outliers         samples far from the rest", 0), 0u) << legend;
  EXPECT_NE(legend.find("\n  too_few_samples  fewer samples than --gbx_min_samples"), std::string::npos) << legend;
  EXPECT_EQ(legend.find("drift"), std::string::npos) << legend;
  EXPECT_EQ(gbx::flag_meaning("no_such_flag"), "");
  for (const auto& m : gbx::flag_meanings()) EXPECT_FALSE(m.meaning.empty()) << m.flag;
}

}  // namespace
