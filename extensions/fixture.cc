#include "extensions/fixture.h"

#include <algorithm>
#include <exception>
#include <random>
#include <stdexcept>

#include "extensions/cpu_cache_flush.h"
#include "extensions/cpu_timer.h"
#include "model/interrupt.h"
#include "extensions/load/fixture_load.h"
#include "extensions/observer.h"
#include "model/protocol.h"
#include "model/sample_channel.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

template <class T>
void fill_uniform(Span<T> values, std::uint64_t seed, T low, T high) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> dist(low, high);
  for (auto& v : values) v = dist(rng);
}

std::string args_text(const std::vector<std::int64_t>& args) {
  std::string text;
  for (auto a : args) text += (text.empty() ? "" : ",") + std::to_string(a);
  return text;
}

// Reports one benchmark to the observer, if any; stops it however the measurement ends.
class ObservationScope {
 public:
  ObservationScope(BenchmarkObserver* observer, const std::optional<std::array<unsigned char, 16>>& uuid,
                   MeasurementHooks& hooks)
      : observer_(observer) {
    if (!observer_) return;
    observer_->benchmark_started(uuid);
    hooks.sample_started = [observer] { observer->sample_started(); };
    hooks.sample_finished = [observer](std::int64_t runs) { observer->sample_finished(runs); };
    hooks.sm_clock_mhz = [observer] { return observer->sm_clock_mhz(); };
  }
  ~ObservationScope() {
    if (observer_) observer_->benchmark_finished();
  }
  ObservationScope(const ObservationScope&) = delete;
  ObservationScope& operator=(const ObservationScope&) = delete;

  Observations finish() {
    if (!observer_) return {};
    BenchmarkObserver* observer = observer_;
    observer_ = nullptr;
    return observer->benchmark_finished();
  }

 private:
  BenchmarkObserver* observer_;
};

}  // namespace

void FixtureBase::identify(const std::string& family, const std::string& variant) {
  family_ = family;
  variant_ = variant;
}

namespace {

// How many arguments (state.range(i)) the registration declared. RegisteredBenchmark::ArgsCnt() is
// public from Google Benchmark 1.8 on but protected in 1.7.1, which offers no public way to ask
// (its State has no name() and no argument count either): a derived class may name it, and this one
// does only that. It is the one place where gbx reaches past the public API; drop it with 1.7.
struct ArgumentCount : RegisteredBenchmark {
  static int of(const RegisteredBenchmark& benchmark) { return (benchmark.*(&ArgumentCount::ArgsCnt))(); }
};

}  // namespace

RegisteredBenchmark* register_fixture(std::unique_ptr<FixtureBase> fixture) {
  // The lambda owns the fixture; it asks the registered benchmark, set just after, how many
  // arguments the registration declared.
  struct Registration {
    std::unique_ptr<FixtureBase> fixture;
    RegisteredBenchmark* benchmark = nullptr;
  };
  auto registration = std::make_shared<Registration>();
  const std::string name = fixture->name();
  registration->fixture = std::move(fixture);
  registration->benchmark = benchmark::RegisterBenchmark(name.c_str(), [registration](benchmark::State& state) {
    registration->fixture->measure_benchmark(state, ArgumentCount::of(*registration->benchmark));
  });
  return registration->benchmark->UseManualTime()->Iterations(1);
}

void FixtureBase::fill_random(Span<float> values, float low, float high) {
  fill_uniform(values, record_.seed + fills_++, low, high);
}

void FixtureBase::fill_random(Span<double> values, double low, double high) {
  fill_uniform(values, record_.seed + fills_++, low, high);
}

double FixtureBase::now_seconds() { return steady_now_seconds(); }

void FixtureBase::declare_accuracy(std::string reference, double tolerance) {
  if (!(tolerance >= 0.0)) throw std::invalid_argument("declare_accuracy: the tolerance must be >= 0");
  accuracy_reference_ = std::move(reference);
  accuracy_tolerance_ = tolerance;
}

Accuracy FixtureBase::check_output() {
  throw std::logic_error("declare_accuracy() was called but check_output() is not implemented");
}

MemoryUsage FixtureBase::memory_usage() const {
  MemoryUsage usage;
  usage.host_peak_bytes = static_cast<std::int64_t>(host_bytes_);
  usage.device_bytes_unavailable = "a CPU benchmark: no device memory";
  usage.device_peak_bytes_unavailable = usage.device_bytes_unavailable;
  return usage;
}

void FixtureBase::measure_benchmark(benchmark::State& state, int argument_count) {
  record_ = RunRecord{};
  record_.benchmark = family_ + "/" + variant_;
  record_.variant = variant_;
  record_.region = region();
  record_.seed = 42;
  host_bytes_ = 0;
  fills_ = 0;
  accuracy_reference_.clear();
  accuracy_tolerance_ = -1.0;
  // Replaced by memory_usage() once the benchmark has run; a skip or a failure keeps the reason.
  const std::string not_run = "not measured: the benchmark did not run";
  record_.memory.device_bytes_unavailable = not_run;
  record_.memory.device_peak_bytes_unavailable = not_run;
  record_.memory.host_peak_bytes_unavailable = not_run;
  for (int i = 0; i < argument_count; ++i) record_.args.push_back(state.range(static_cast<std::size_t>(i)));
  // Until setup() declares better, and when it never runs (a skip), the problem is named by its arguments.
  record_.problem = family_ + (record_.args.empty() ? "" : "/" + args_text(record_.args));

  std::string failure;
  bool acquired = false;
  bool set_up = false;
  try {
    if (interrupt_requested()) throw Interrupted();
    acquire();
    acquired = true;
    setup(state);
    set_up = true;
    const Protocol& protocol = active_protocol();
    const std::unique_ptr<Timer> timer = make_timer();
    MeasurementHooks hooks;
    hooks.run = [this] { run(); };
    hooks.flush = [this] { flush_caches(); };
    hooks.now_seconds = [this] { return now_seconds(); };
    hooks.cpu_seconds = process_cpu_seconds;
    hooks.interrupted = interrupt_requested;
    const bool adaptive = protocol.target_rel_ci > 0.0;
    if (adaptive) {
      hooks.enough = [&](const std::vector<double>& samples) {
        const auto relative = median_relative_half_width(samples);
        return relative && *relative <= protocol.target_rel_ci;
      };
    }
    observe_memory();
    ObservationScope observation(benchmark_observer(), device_uuid(), hooks);
    record_.measurement = measure(protocol, *timer, hooks);
    record_.observed = observation.finish();
    observe_memory();
    if (accuracy_tolerance_ >= 0.0) {
      poison_outputs();
      run();
      synchronize();
      observe_memory();
      Accuracy accuracy = check_output();
      accuracy.reference = accuracy_reference_;
      accuracy.tolerance = accuracy_tolerance_;
      accuracy.passed = accuracy.nan_count == 0 && accuracy.rel_l2_error <= accuracy_tolerance_;
      record_.accuracy = accuracy;
    }
    record_.memory = memory_usage();
    StoppingOutcome& stopping = record_.stopping;
    const Measurement& m = record_.measurement;
    if (adaptive) {
      stopping.rule = "target_rel_ci";
      stopping.target_rel_ci = protocol.target_rel_ci;
      stopping.reached = m.enough_reached;
    } else {
      stopping.reached = static_cast<std::int64_t>(m.samples.size()) >= protocol.min_samples;
    }
    stopping.achieved_rel_ci = median_relative_half_width(m.samples);
    record_.load = FixtureLoadAccess::measure(*this, state, record_.args);
  } catch (const Interrupted& e) {
    record_.interrupted = true;
    failure = e.what();
  } catch (const Unavailable& e) {
    record_.skipped = true;
    record_.skip_code = e.code();
    failure = std::string("skipped: ") + e.what();
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  try {
    if (set_up) teardown();
  } catch (const std::exception& e) {
    if (failure.empty()) failure = std::string("teardown: ") + e.what();
  }
  if (acquired) release();
  owned_.clear();

  record_.error = failure;
  const std::int64_t id = SampleChannel::global().publish(record_);
  state.SetLabel(record_label(id));
  if (!failure.empty()) {
    state.SkipWithError(failure.c_str());
    return;
  }
  // A measurement that did not fail holds at least one sample, all finite.
  const double median_seconds = median(record_.measurement.samples).value_or(0.0);
  for (auto _ : state) state.SetIterationTime(median_seconds);
}

CpuFixture::CpuFixture() = default;

CpuFixture::~CpuFixture() = default;

std::unique_ptr<Timer> CpuFixture::make_timer() { return std::make_unique<CpuTimer>(); }

void CpuFixture::flush_caches() {
  if (!flusher_) flusher_ = std::make_unique<CpuCacheFlusher>();
  flusher_->flush();
}

void CpuFixture::release() noexcept { flusher_.reset(); }

}  // namespace gbx
