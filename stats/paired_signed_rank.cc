// The signed-rank side of the paired analysis (stats/paired.h, stats/signed_rank.h).
#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "stats/paired.h"
#include "stats/paired_detail.h"
#include "stats/signed_rank.h"

namespace gbx {

using namespace paired_detail;

const char* to_string(PairTest test) {
  switch (test) {
    case PairTest::t:
      return "t";
    case PairTest::weighted:
      return "weighted-sign-flip";
    case PairTest::signed_rank:
      break;
  }
  return "signed-rank";
}

std::optional<PairTest> parse_pair_test(const std::string& text) {
  if (text == "signed-rank") return PairTest::signed_rank;
  if (text == "t") return PairTest::t;
  if (text == "weighted-sign-flip") return PairTest::weighted;
  return std::nullopt;
}

std::optional<RatioInterval> signed_rank_ratio_interval(const std::vector<double>& x, double one_sided_alpha,
                                                        double level) {
  if (x.size() < 2) return std::nullopt;
  const auto walsh = walsh_interval(x, one_sided_alpha);
  if (!walsh) return std::nullopt;
  RatioInterval interval;
  interval.ratio = std::exp(clamp_log(walsh->estimate));
  interval.lower = std::exp(clamp_log(walsh->lower));  // an unbounded side clamps to e^-50, e^50
  interval.upper = std::exp(clamp_log(walsh->upper));
  interval.level = level;
  interval.method = "signed-rank-hodges-lehmann";
  return interval;
}

std::optional<double> signed_rank_standard_error(const std::vector<double>& x) {
  if (x.size() < 2 || x.size() > kSignedRankMaxPairs) return std::nullopt;
  // About 95%, or the widest bounded interval below 6 pairs (2^-K > 2.5%): always bounded.
  const double alpha = std::max(0.025, std::ldexp(1.0, -static_cast<int>(x.size())));
  const auto walsh = walsh_interval(x, alpha);
  if (!walsh || !walsh->bounded) return std::nullopt;
  const boost::math::normal_distribution<double> normal;
  const double z = boost::math::quantile(boost::math::complement(normal, walsh->achieved_one_sided));
  return (walsh->upper - walsh->lower) / (2.0 * z);
}

}  // namespace gbx
