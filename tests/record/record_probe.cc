// The record probe of scripts/record-identity (docs/architecture.md): a CPU fixture timed by a seeded
// stand-in clock, so that two trees' records of it can be compared field by field. It compiles against
// the tree before the layer moves (cd64c19) and after; the script adds it to each tree's bench/.
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "extensions/fixture.h"

// Since issue 24 the timer interface is gbx::detail::Timer; before, gbx::Timer (the script defines
// PROBE_DETAIL for a tree whose extensions/timer.h opens gbx::detail).
#if defined(PROBE_DETAIL) && PROBE_DETAIL
namespace timing = gbx::detail;
#else
namespace timing = gbx;
#endif

namespace {

// Time passes only through runs: each lasts a lognormal draw (median 2 us, sigma 0.05) from a seeded
// generator, so that the samples, the warm-up and every wall-clock bound are reproducible.
struct StandInClock {
  std::mt19937_64 rng{20261203};
  double now = 1000.0;
  double draw() {
    std::lognormal_distribution<double> d(std::log(2e-6), 0.05);
    return d(rng);
  }
};
StandInClock& stand_in_clock() {
  static StandInClock clock;
  return clock;
}

class StandInTimer final : public timing::Timer {
 public:
  void start() override { start_ = stand_in_clock().now; }
  void stop() override { stop_ = stand_in_clock().now; }
  double elapsed_seconds() override { return stop_ - start_; }
  double resolution_seconds() const override { return 1e-9; }
  timing::TimerKind kind() const override { return timing::TimerKind::simulated; }

 private:
  double start_ = 0, stop_ = 0;
};

class Probe : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    in_ = host_array<float>(n_);
    out_ = host_array<float>(n_);
    declare_seed(7);
    fill_random(in_);
    declare_problem("n=" + std::to_string(n_));
    declare_bytes_per_run(static_cast<double>(n_));  // far below any peak: no above_peak flag
    declare_flops_per_run(static_cast<double>(n_));
    declare_accuracy("float64 copy", 1e-6);
  }
  void poison_outputs() override { gbx::poison(out_); }
  void run() override {
    for (std::size_t i = 0; i < n_; ++i) out_.data[i] = in_.data[i];
    stand_in_clock().now += stand_in_clock().draw();
  }
  gbx::Accuracy check_output() override {
    std::vector<double> ref(n_);
    for (std::size_t i = 0; i < n_; ++i) ref[i] = in_.data[i];
    return gbx::compare_to_reference(out_.data, ref.data(), n_);
  }
  std::unique_ptr<timing::Timer> make_timer() override { return std::make_unique<StandInTimer>(); }
  double now_seconds() override { return stand_in_clock().now; }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> in_{}, out_{};
};

}  // namespace

GBX_BENCHMARK(Probe, "probe", "copy")->Arg(1024)->Arg(4096);
