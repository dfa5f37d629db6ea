#include "extensions/fixture.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>

#include "extensions/axes.h"
#include "extensions/cpu_cache_flush.h"
#include "extensions/cpu_timer.h"
#include "extensions/host_memory.h"
#include "extensions/load/fixture_load.h"
#include "extensions/observer.h"
#include "extensions/pair_memory.h"
#include "extensions/parked_setup.h"
#include "extensions/random_inputs.h"
#include "extensions/registrations.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "model/sample_channel.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

std::string args_text(const std::vector<std::int64_t>& args) {
  std::string text;
  for (auto a : args) text += (text.empty() ? "" : ",") + std::to_string(a);
  return text;
}

// Reports one benchmark to the observer, if any; stops it however the measurement ends.
class ObservationScope {
 public:
  ObservationScope(BenchmarkObserver* observer, const std::optional<std::array<unsigned char, 16>>& uuid,
                   detail::MeasurementHooks& hooks)
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

  detail::Observations finish() {
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

void FixtureBase::set_axes(std::vector<detail::AxisValue> axes) {
  axes_ = std::move(axes);
  short_form_ = true;
}

std::string FixtureBase::name() const {
  std::string name = family_ + "/" + variant_;
  for (const detail::AxisValue& a : axes_) name += "/" + a.name + ":" + a.text;
  return name;
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
  detail::remember_registration(name);
  return registration->benchmark->UseManualTime()->Iterations(1);
}

void FixtureBase::fill_random(Span<float> values, float low, float high) {
  fill_uniform(values, record_.seed + fills_++, low, high);
}

void FixtureBase::fill_random(Span<double> values, double low, double high) {
  fill_uniform(values, record_.seed + fills_++, low, high);
}

double detail::Backend::now_seconds() { return steady_now_seconds(); }

void FixtureBase::declare_accuracy(std::string reference, double tolerance) {
  if (!(tolerance >= 0.0)) throw std::invalid_argument("declare_accuracy: the tolerance must be >= 0");
  accuracy_reference_ = std::move(reference);
  accuracy_tolerance_ = tolerance;
}

void FixtureBase::poison_outputs() {
  if (poison_hook_) poison_hook_();
}

namespace {
bool keep_setup = false;
FixtureBase* held_fixture = nullptr;
// The short form measured last in keep mode: the accuracy check it passed, and its host arrays, which
// its next call with the same arguments takes again (a memset, not a page fault and a clear per page).
struct LastShortForm {
  const FixtureBase* fixture = nullptr;
  std::vector<std::int64_t> args;
  std::optional<Accuracy> passed_check;
  std::vector<std::pair<std::size_t, std::shared_ptr<void>>> host_arrays;
} last_short_form;

std::shared_ptr<void> take_kept_host_array(std::size_t bytes) {
  auto& arrays = last_short_form.host_arrays;
  for (auto it = arrays.begin(); it != arrays.end(); ++it) {
    if (it->first != bytes) continue;
    std::shared_ptr<void> storage = std::move(it->second);
    arrays.erase(it);
    std::memset(storage.get(), 0, bytes);
    return storage;
  }
  return nullptr;
}
}  // namespace

void* FixtureBase::duplicate(const void* from, std::size_t bytes, bool on_device) {
  if (on_device) throw std::logic_error("a CPU fixture holds no device arrays");
  void* copy = zeroed_host_bytes(bytes);
  std::copy_n(static_cast<const unsigned char*>(from), bytes, static_cast<unsigned char*>(copy));
  return copy;
}

void* FixtureBase::zeroed_host_bytes(std::size_t bytes) {
  std::shared_ptr<void> storage = repeating_short_form_ ? take_kept_host_array(bytes) : nullptr;
  if (!storage) storage = allocate_host_bytes(bytes);
  host_bytes_ += bytes;
  if (keep_setup) host_arrays_.emplace_back(bytes, storage);
  keep(storage);
  return storage.get();
}

std::size_t detail::Backend::rotation_cache_bytes() const {
  const std::size_t cache = last_level_cache_bytes();
  return cache > 0 ? cache : std::size_t{64} << 20;  // unknown: as large as any current CPU's
}

bool FixtureBase::start_rotation(detail::Measurement& m) {
  std::size_t per_run = 0;
  for (const auto& array : rotating_) per_run += array->bytes();
  if (per_run == 0) return false;
  const std::size_t cache = rotation_cache_bytes();
  // A run's copy must be gone from the cache when its turn comes again: the others touched in
  // between, (copies - 1) x per_run bytes, are twice the cache (an LRU that is not strict keeps part
  // of a single pass's worth, as l2_flush.h explains).
  const std::size_t copies = std::max<std::size_t>(2, (2 * cache + per_run - 1) / per_run + 1);
  for (const auto& array : rotating_) {
    for (std::size_t k = 1; k < copies; ++k)
      array->add_copy(duplicate(array->first(), array->bytes(), array->on_device()));
  }
  rotation_copies_ = copies;
  rotation_next_ = 0;
  m.rotation_copies = static_cast<std::int64_t>(copies);
  m.rotation_bytes_per_run = static_cast<double>(per_run);
  m.rotation_cache_bytes = static_cast<double>(cache);
  return true;
}

void FixtureBase::advance_rotation() {
  for (const auto& array : rotating_) array->bind(rotation_next_);
  if (++rotation_next_ == rotation_copies_) rotation_next_ = 0;
}

void FixtureBase::stop_rotation() {
  for (const auto& array : rotating_) array->bind(0);
  rotation_copies_ = 0;
}

Accuracy FixtureBase::check_output() {
  if (check_hook_) return check_hook_();
  throw std::logic_error("declare_accuracy() was called but check_output() is not implemented");
}

detail::MemoryUsage FixtureBase::memory_usage() const {
  detail::MemoryUsage usage;
  usage.host_peak_bytes = static_cast<std::int64_t>(host_bytes_);
  usage.device_bytes_unavailable = "a CPU benchmark: no device memory";
  usage.device_peak_bytes_unavailable = usage.device_bytes_unavailable;
  return usage;
}

void FixtureBase::measure_after_setup(const benchmark::State& state, std::function<void()> run) {
  measured_ = true;
  detail::Protocol protocol = detail::active_protocol();
  detail::Measurement rotation;
  const bool rotating = protocol.cache == detail::CacheMode::rotate && start_rotation(rotation);
  // Nothing to rotate (the class form declares no arrays): the nearest mode that is still cold.
  if (protocol.cache == detail::CacheMode::rotate && !rotating) protocol.cache = detail::CacheMode::cold;
  const std::unique_ptr<detail::Timer> timer = make_timer();
  detail::MeasurementHooks hooks;
  if (rotating) {
    hooks.run = [this, &run] {
      advance_rotation();
      run();
    };
  } else {
    hooks.run = run;
  }
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
  // A worker of gbx ab: its pair partner measures on the same pages from here on (pair_memory.h).
  if (keep_setup && !reusing_setup_ && !rotating && detail::sharing_host_arrays_with_pair()) {
    std::vector<detail::HostArray> arrays;
    arrays.reserve(host_arrays_.size());
    for (const auto& [bytes, storage] : host_arrays_) arrays.push_back({storage.get(), bytes});
    detail::share_setup_with_pair(record_.benchmark, arrays);
  }
  if (!reusing_setup_) save_inout();
  observe_memory();
  ObservationScope observation(benchmark_observer(), device_uuid(), hooks);
  record_.measurement = measure(protocol, *timer, hooks);
  record_.observed = observation.finish();
  if (rotating) {
    stop_rotation();
    record_.measurement.rotation_copies = rotation.rotation_copies;
    record_.measurement.rotation_bytes_per_run = rotation.rotation_bytes_per_run;
    record_.measurement.rotation_cache_bytes = rotation.rotation_cache_bytes;
  }
  observe_memory();
  if (accuracy_tolerance_ >= 0.0 && repeating_short_form_ && last_short_form.passed_check) {
    record_.accuracy = last_short_form.passed_check;
  } else if (accuracy_tolerance_ >= 0.0 && !reusing_setup_) {
    restore_inout();
    poison_outputs();
    run();
    synchronize();
    observe_memory();
    Accuracy accuracy = check_output();
    accuracy.reference = accuracy_reference_;
    accuracy.tolerance = accuracy_tolerance_;
    accuracy.passed = accuracy.nan_count == 0 && accuracy.rel_l2_error <= accuracy_tolerance_;
    explain_nan(accuracy);
    record_.accuracy = accuracy;
  }
  record_.memory = memory_usage();
  detail::StoppingOutcome& stopping = record_.stopping;
  const detail::Measurement& m = record_.measurement;
  stopping.min_time_seconds = protocol.min_time_seconds;
  if (adaptive) {
    stopping.rule = "target_rel_ci";
    stopping.target_rel_ci = protocol.target_rel_ci;
    stopping.reached = m.enough_reached;
  } else {
    stopping.reached = static_cast<std::int64_t>(m.samples.size()) >= protocol.min_samples &&
                       m.sampling_seconds >= protocol.min_time_seconds;
  }
  stopping.achieved_rel_ci = median_relative_half_width(m.samples);
  record_.load = FixtureLoadAccess::measure(*this, state, record_.args);
}

bool FixtureBase::may_park() const {
  return keep_setup && detail::active_protocol().cache != detail::CacheMode::rotate;
}

void FixtureBase::park_setup(std::function<void()> body) {
  if (!parked_) parked_ = std::make_shared<detail::ParkedSetup>();
  parked_->start(std::move(body));
}

bool FixtureBase::park_measured() { return parked_ && parked_->park(); }

std::exception_ptr FixtureBase::release_parked() noexcept { return parked_ ? parked_->release() : nullptr; }

void FixtureBase::keep_setup_between_calls(bool keep) {
  keep_setup = keep;
  keep_random_inputs(keep);
  last_short_form = {};
  if (!keep) release_held();
}

void FixtureBase::release_held() {
  if (held_fixture != nullptr) held_fixture->tear_down_held();
}

void FixtureBase::tear_down_held() noexcept {
  held_fixture = nullptr;
  try {
    if (const std::exception_ptr error = release_parked()) std::rethrow_exception(error);
    teardown();
  } catch (const std::exception& e) {
    // The blocks measured have been reported; what is left to say goes where the worker's errors go.
    std::cerr << "gbx: " << name() << ": teardown after its blocks: " << e.what() << "\n";
  }
  release();
  rotating_.clear();
  owned_.clear();
  host_arrays_.clear();
}

void FixtureBase::measure_benchmark(benchmark::State& state, int argument_count) {
  call_state_ = &state;
  detail::warn_missing_axes(family_ + "/" + variant_, axes_, !short_form_);
  std::vector<std::int64_t> args;
  args.reserve(static_cast<std::size_t>(argument_count));
  for (int i = 0; i < argument_count; ++i) args.push_back(state.range(static_cast<std::size_t>(i)));
  if (held_fixture != nullptr && (held_fixture != this || held_args_ != args)) release_held();
  reusing_setup_ = held_fixture == this;
  if (reusing_setup_) {
    measure_held(state);
    return;
  }
  repeating_short_form_ = keep_setup && last_short_form.fixture == this && last_short_form.args == args;
  if (!repeating_short_form_) last_short_form = {};  // its arrays go before this call allocates
  host_arrays_.clear();
  detail::reset_pair_memory();
  record_ = detail::RunRecord{};
  record_.benchmark = family_ + "/" + variant_;
  record_.variant = variant_;
  record_.region = region();
  record_.seed = 42;
  host_bytes_ = 0;
  fills_ = 0;
  accuracy_reference_.clear();
  accuracy_tolerance_ = -1.0;
  measured_ = false;
  poison_hook_ = nullptr;
  check_hook_ = nullptr;
  rotating_.clear();
  rotation_copies_ = 0;
  inout_.clear();
  check_output_inout_ = false;
  record_.axes = axes_;
  // Replaced by memory_usage() once the benchmark has run; a skip or a failure keeps the reason.
  const std::string not_run = "not measured: the benchmark did not run";
  record_.memory.device_bytes_unavailable = not_run;
  record_.memory.device_peak_bytes_unavailable = not_run;
  record_.memory.host_peak_bytes_unavailable = not_run;
  record_.args = args;
  // Until setup() declares better, and when it never runs (a skip), the problem is named by its
  // arguments, or by the axes that are not the variant's.
  record_.problem = family_ + (record_.args.empty() ? "" : "/" + args_text(record_.args));
  if (!axes_.empty()) {
    const std::string problem_axes = axes_text(axes_, false);
    const std::string variant_axes = axes_text(axes_, true);
    record_.problem = family_ + (problem_axes.empty() ? "" : "/" + problem_axes);
    if (!variant_axes.empty()) record_.variant = variant_ + "/" + variant_axes;
    record_.benchmark = family_ + "/" + record_.variant;
  }

  std::string failure;
  bool acquired = false;
  bool set_up = false;
  bool short_form = false;  // its setup() was the measurement
  try {
    if (interrupt_requested()) throw Interrupted();
    acquire();
    acquired = true;
    setup(state);
    set_up = true;
    short_form = measured_;
    if (!measured_) measure_after_setup(state, [this] { run(); });
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
  const bool check_failed = record_.accuracy && !record_.accuracy->passed;
  const bool parked = short_form && parked_ && parked_->parked() && failure.empty() && !check_failed;
  if (keep_setup && short_form && !parked) {
    const bool passed = record_.accuracy && record_.accuracy->passed;
    last_short_form = failure.empty()
                          ? LastShortForm{this, args, passed ? record_.accuracy : std::nullopt, std::move(host_arrays_)}
                          : LastShortForm{};
  }
  repeating_short_form_ = false;
  if (keep_setup && failure.empty() && (parked || !short_form) && set_up &&
      detail::active_protocol().cache != detail::CacheMode::rotate) {
    held_fixture = this;
    held_args_ = args;
    held_record_ = record_;
    publish_call(state, failure);
    return;
  }
  try {
    if (const std::exception_ptr error = release_parked()) std::rethrow_exception(error);
    if (set_up) teardown();
  } catch (const std::exception& e) {
    if (failure.empty()) failure = std::string("teardown: ") + e.what();
  }
  if (acquired) release();
  rotating_.clear();
  owned_.clear();
  host_arrays_.clear();
  publish_call(state, failure);
}

void FixtureBase::measure_held(benchmark::State& state) {
  record_ = held_record_;
  record_.measurement = detail::Measurement{};
  record_.observed = {};
  std::string failure;
  try {
    if (interrupt_requested()) throw Interrupted();
    if (parked_ && parked_->parked()) {
      parked_->resume();
      if (!parked_->parked()) throw std::logic_error("the benchmark function returned while held between blocks");
    } else {
      measure_after_setup(state, [this] { run(); });
    }
  } catch (const Interrupted& e) {
    record_.interrupted = true;
    failure = e.what();
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  reusing_setup_ = false;
  if (!failure.empty()) tear_down_held();
  publish_call(state, failure);
}

void FixtureBase::publish_call(benchmark::State& state, const std::string& failure) {
  record_.error = failure;
  const std::int64_t id = SampleChannel::global().publish(record_);
  state.SetLabel(record_label(id));
  if (!failure.empty()) {
    state.SkipWithError(failure.c_str());
    return;
  }
  // A measurement that did not fail holds at least one sample, all finite.
  const double median_seconds = median(record_.measurement.samples).value_or(0.0);
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom; _ is never read
  for (auto _ : state) state.SetIterationTime(median_seconds);
}

CpuFixture::CpuFixture() = default;

CpuFixture::~CpuFixture() = default;

std::unique_ptr<detail::Timer> CpuFixture::make_timer() { return std::make_unique<CpuTimer>(); }

void CpuFixture::flush_caches() {
  if (!flusher_) flusher_ = std::make_unique<CpuCacheFlusher>();
  flusher_->flush();
}

void CpuFixture::release() noexcept { flusher_.reset(); }

}  // namespace gbx
