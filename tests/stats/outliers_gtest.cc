// Tukey fences and modified z-scores on hand-made data.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "stats/outliers.h"

namespace gbx {
namespace {

using Indices = std::vector<std::size_t>;

TEST(Tukey, ClassifiesMildAndSevereOnBothSides) {
  // Sorted: 1 10 11 12 13 14 15 16 26 100. Q1: h = 2.25, 11 + 0.25 = 11.25; Q3: h = 6.75,
  // 15 + 0.75 = 15.75; IQR 4.5. Fences: -2.25 (severe), 4.5 (mild) | 22.5 (mild), 29.25 (severe).
  // So 1 is low mild, 26 high mild, 100 high severe.
  const std::vector<double> samples{13, 100, 10, 1, 12, 14, 26, 11, 15, 16};
  const std::optional<TukeyOutliers> tukey = tukey_outliers(samples);
  ASSERT_TRUE(tukey);
  EXPECT_DOUBLE_EQ(tukey->q1, 11.25);
  EXPECT_DOUBLE_EQ(tukey->q3, 15.75);
  EXPECT_DOUBLE_EQ(tukey->iqr, 4.5);
  EXPECT_DOUBLE_EQ(tukey->low_severe_fence, -2.25);
  EXPECT_DOUBLE_EQ(tukey->low_mild_fence, 4.5);
  EXPECT_DOUBLE_EQ(tukey->high_mild_fence, 22.5);
  EXPECT_DOUBLE_EQ(tukey->high_severe_fence, 29.25);
  EXPECT_EQ(tukey->low_severe, Indices{});
  EXPECT_EQ(tukey->low_mild, Indices{3});
  EXPECT_EQ(tukey->high_mild, Indices{6});
  EXPECT_EQ(tukey->high_severe, Indices{1});
  EXPECT_EQ(tukey->count(), 3u);

  // Mirrored, the classes swap sides.
  std::vector<double> mirrored(samples.size());
  std::transform(samples.begin(), samples.end(), mirrored.begin(), [](double value) { return -value; });
  const std::optional<TukeyOutliers> mirror = tukey_outliers(mirrored);
  ASSERT_TRUE(mirror);
  EXPECT_EQ(mirror->low_severe, Indices{1});
  EXPECT_EQ(mirror->low_mild, Indices{6});
  EXPECT_EQ(mirror->high_mild, Indices{3});
  EXPECT_EQ(mirror->high_severe, Indices{});
}

TEST(Tukey, ConstantAndDegenerateData) {
  // IQR 0: every fence is the value itself, so equal values are never outliers.
  const std::optional<TukeyOutliers> constant = tukey_outliers({5, 5, 5, 5});
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->count(), 0u);
  const std::optional<TukeyOutliers> one = tukey_outliers({5});
  ASSERT_TRUE(one);
  EXPECT_EQ(one->count(), 0u);
  EXPECT_FALSE(tukey_outliers({}));
  EXPECT_FALSE(tukey_outliers({1.0, std::nan("")}));
}

TEST(ModifiedZ, HandComputed) {
  // 1..9 and 50: median 5.5, |deviations| sorted .5 .5 1.5 1.5 2.5 2.5 3.5 3.5 4.5 44.5, MAD 2.5.
  // M(50) = 0.6745 * 44.5 / 2.5 = 12.00610; M(1) = 0.6745 * -4.5 / 2.5 = -1.2141. Only 50 is flagged.
  const std::optional<ModifiedZOutliers> result = modified_z_outliers({1, 2, 3, 4, 5, 6, 7, 8, 9, 50});
  ASSERT_TRUE(result);
  EXPECT_DOUBLE_EQ(result->median, 5.5);
  EXPECT_DOUBLE_EQ(result->mad, 2.5);
  EXPECT_FALSE(result->mad_was_zero);
  EXPECT_NEAR(result->scores[9], 12.00610, 1e-9);
  EXPECT_NEAR(result->scores[0], -1.2141, 1e-9);
  EXPECT_NEAR(result->max_abs_score, 12.00610, 1e-9);
  EXPECT_EQ(result->outliers, Indices{9});
}

TEST(ModifiedZ, ZeroMadFallsBackToMeanAbsoluteDeviation) {
  // Six of eight samples equal 5: MAD = 0. Mean |x - 5| = (1 + 15) / 8 = 2, scale 1.253314 * 2 = 2.506628:
  // M(20) = 15 / 2.506628 = 5.984134 (flagged), M(6) = 1 / 2.506628 = 0.398942 (not).
  const std::optional<ModifiedZOutliers> result = modified_z_outliers({5, 5, 6, 5, 5, 20, 5, 5});
  ASSERT_TRUE(result);
  EXPECT_EQ(result->mad, 0.0);
  EXPECT_TRUE(result->mad_was_zero);
  EXPECT_NEAR(result->scores[5], 5.984134, 1e-6);
  EXPECT_NEAR(result->scores[2], 0.398942, 1e-6);
  EXPECT_EQ(result->outliers, Indices{5});
}

TEST(ModifiedZ, ConstantDataHasNoOutliersAndNoNaN) {
  const std::optional<ModifiedZOutliers> result = modified_z_outliers({3, 3, 3});
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->outliers.empty());
  for (double score : result->scores) EXPECT_EQ(score, 0.0);
  EXPECT_EQ(result->max_abs_score, 0.0);
  EXPECT_FALSE(modified_z_outliers({}));
}

TEST(AnalyzeOutliers, NeverDropsSamplesAndFillsWhatApplies) {
  const std::vector<double> samples{13, 100, 10, 1, 12, 14, 26, 11, 15, 16};
  const OutlierReport report = analyze_outliers(samples);
  ASSERT_TRUE(report.tukey);
  ASSERT_TRUE(report.modified_z);
  EXPECT_EQ(report.modified_z->scores.size(), samples.size());
  EXPECT_TRUE(report.slow_start);  // n = 10 >= 2 * 3
  EXPECT_TRUE(report.autocorrelation);
  EXPECT_TRUE(report.drift);
  const OutlierReport empty = analyze_outliers({});
  EXPECT_FALSE(empty.tukey || empty.modified_z || empty.slow_start || empty.autocorrelation || empty.drift);
}

}  // namespace
}  // namespace gbx
