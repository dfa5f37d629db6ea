// Change-point detection (stats/change_point.h) on seeded synthetic histories: for each run-to-run
// noise, step size and series length, the share of series with a planted step in which a change
// point is reported within one run of it (detection rate), and the share of series without one in
// which any change point is reported (false-alarm rate). Each run's interval is +/- the noise.
// Usage: change_point_rates [trials per setting, default 300]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "stats/change_point.h"

namespace {

struct Rates {
  double detection = 0.0;
  double false_alarm = 0.0;
};

void history(std::size_t runs, std::size_t at, double step, double sd, std::mt19937_64& rng, std::vector<double>& m,
             std::vector<double>& lo, std::vector<double>& hi) {
  std::normal_distribution<double> noise(0.0, sd);
  m.clear();
  lo.clear();
  hi.clear();
  for (std::size_t i = 0; i < runs; ++i) {
    m.push_back((at > 0 && i >= at ? 1.0 + step : 1.0) * (1.0 + noise(rng)));
    lo.push_back(m.back() * (1.0 - sd));
    hi.push_back(m.back() * (1.0 + sd));
  }
}

Rates rates(std::size_t runs, double step, double sd, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // The step is planted between the first and the last quarter of the series.
  std::uniform_int_distribution<std::size_t> position(runs / 4 > 0 ? runs / 4 : 1, runs - runs / 4);
  std::vector<double> m, lo, hi;
  int detected = 0;
  int alarms = 0;
  for (int t = 0; t < trials; ++t) {
    const std::size_t at = position(rng);
    history(runs, at, step, sd, rng, m, lo, hi);
    for (const auto& p : gbx::detect_change_points(m, lo, hi, 0.05, seed + static_cast<std::uint64_t>(t))) {
      if (p.index + 1 >= at && p.index <= at + 1) {
        ++detected;
        break;
      }
    }
    history(runs, 0, 0.0, sd, rng, m, lo, hi);
    if (!gbx::detect_change_points(m, lo, hi, 0.05, seed + static_cast<std::uint64_t>(t)).empty()) ++alarms;
  }
  return {static_cast<double>(detected) / trials, static_cast<double>(alarms) / trials};
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 300;
  if (trials <= 0) {
    std::fprintf(stderr, "change_point_rates: the number of trials must be a positive integer\n");
    return 2;
  }
  std::printf("E-divisive means, alpha 0.05, %d permutations, %d series per setting\n", gbx::kChangePointPermutations,
              trials);
  std::printf("%6s %7s %7s %11s %12s\n", "runs", "noise", "step", "detection", "false alarm");
  for (const std::size_t runs : {8, 12, 20, 40}) {
    for (const double sd : {0.01, 0.03}) {
      for (const double step : {0.02, 0.05, 0.10}) {
        const Rates r = rates(runs, step, sd, trials, 1000 + runs);
        std::printf("%6zu %6.0f%% %6.0f%% %10.1f%% %11.1f%%\n", runs, 100 * sd, 100 * step, 100 * r.detection,
                    100 * r.false_alarm);
      }
    }
  }
  return 0;
}
