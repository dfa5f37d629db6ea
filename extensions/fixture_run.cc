#include "extensions/fixture_run.h"

#include <iostream>
#include <optional>
#include <stdexcept>

#include "extensions/axes.h"
#include "extensions/cpu_timer.h"
#include "extensions/load/fixture_load.h"
#include "extensions/observer.h"
#include "extensions/parked_setup.h"
#include "extensions/setup_keeper.h"
#include "model/interrupt.h"
#include "model/sample_channel.h"
#include "stats/statistics.h"

namespace gbx::detail {

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

// The failure of a call from the exception in flight; an interruption or a skip is marked in the
// record. A held setup's later calls report Unavailable as a failure: only a setup may skip.
std::string failure_in_flight(RunRecord& record, bool unavailable_skips) {
  try {
    throw;
  } catch (const Interrupted& e) {
    record.interrupted = true;
    return e.what();
  } catch (const Unavailable& e) {
    if (!unavailable_skips) return e.what();
    record.skipped = true;
    record.skip_code = e.code();
    return std::string("skipped: ") + e.what();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

bool rotating_cache() { return active_protocol().cache == CacheMode::rotate; }

}  // namespace

FixtureState::~FixtureState() { parked.reset(); }

FixtureRun::FixtureRun(FixtureBase& fixture, benchmark::State& google_benchmark, SetupKeeper* keeper)
    : fixture_(fixture), state_(state_of(fixture)), google_benchmark_(google_benchmark), keeper_(keeper) {}

void FixtureRun::measure(int argument_count) {
  state_.call.google_benchmark = &google_benchmark_;
  const FixtureIdentity& identity = state_.identity;
  warn_missing_axes(identity.family + "/" + identity.variant, identity.axes, !identity.short_form);
  args_.reserve(static_cast<std::size_t>(argument_count));
  for (int i = 0; i < argument_count; ++i) args_.push_back(google_benchmark_.range(static_cast<std::size_t>(i)));
  if (keeper_ != nullptr && keeper_->held_ != nullptr && (keeper_->held_ != &fixture_ || keeper_->held_args_ != args_))
    keeper_->release_held();
  if (keeper_ != nullptr && keeper_->held_ == &fixture_) {
    measure_held();
    return;
  }
  begin_call();
  Outcome outcome = set_up_and_measure();
  remember_short_form(outcome);
  if (hold(outcome)) {
    publish(outcome.failure);
    return;
  }
  tear_down(outcome);
  publish(outcome.failure);
}

// A fresh call's state, value-initialised; a worker's repeated short form finds its last arrays kept.
void FixtureRun::begin_call() {
  const bool repeating =
      keeper_ != nullptr && keeper_->last_short_form_.fixture == &fixture_ && keeper_->last_short_form_.args == args_;
  if (keeper_ != nullptr && !repeating) keeper_->last_short_form_ = {};  // its arrays go before this call allocates
  state_.call = FixtureCall{};
  state_.call.google_benchmark = &google_benchmark_;
  state_.call.repeating_short_form = repeating;
  if (keeper_ != nullptr) keeper_->pair_memory_ = {};
  name_the_record();
}

void FixtureRun::name_the_record() {
  const FixtureIdentity& identity = state_.identity;
  RunRecord& record = state_.call.record;
  record.benchmark = identity.family + "/" + identity.variant;
  record.variant = identity.variant;
  record.region = fixture_.region();
  record.seed = 42;
  record.axes = identity.axes;
  // Replaced by memory_usage() once the benchmark has run; a skip or a failure keeps the reason.
  const std::string not_run = "not measured: the benchmark did not run";
  record.memory.device_bytes_unavailable = not_run;
  record.memory.device_peak_bytes_unavailable = not_run;
  record.memory.host_peak_bytes_unavailable = not_run;
  record.args = args_;
  // Until setup() declares better, and when it never runs (a skip), the problem is named by its
  // arguments, or by the axes that are not the variant's.
  record.problem = identity.family + (record.args.empty() ? "" : "/" + args_text(record.args));
  if (!identity.axes.empty()) {
    const std::string problem_axes = axes_text(identity.axes, false);
    const std::string variant_axes = axes_text(identity.axes, true);
    record.problem = identity.family + (problem_axes.empty() ? "" : "/" + problem_axes);
    if (!variant_axes.empty()) record.variant = identity.variant + "/" + variant_axes;
    record.benchmark = identity.family + "/" + record.variant;
  }
}

FixtureRun::Outcome FixtureRun::set_up_and_measure() {
  Outcome outcome;
  try {
    if (interrupt_requested()) throw Interrupted();
    fixture_.acquire();
    outcome.acquired = true;
    fixture_.setup(google_benchmark_);
    outcome.set_up = true;
    outcome.short_form = state_.call.measured;
    if (!state_.call.measured) measure_after_setup(fixture_, google_benchmark_, [this] { fixture_.run(); });
  } catch (...) {
    outcome.failure = failure_in_flight(state_.call.record, true);
  }
  // A short form's function held on its parked thread, measured and checked without a fault.
  const RunRecord& record = state_.call.record;
  const bool check_failed = record.accuracy && !record.accuracy->passed;
  outcome.parked =
      outcome.short_form && state_.parked && state_.parked->parked() && outcome.failure.empty() && !check_failed;
  return outcome;
}

void FixtureRun::remember_short_form(const Outcome& outcome) {
  const RunRecord& record = state_.call.record;
  if (keeper_ != nullptr && outcome.short_form && !outcome.parked) {
    const bool passed = record.accuracy && record.accuracy->passed;
    keeper_->last_short_form_ =
        outcome.failure.empty() ? SetupKeeper::LastShortForm{&fixture_, args_, passed ? record.accuracy : std::nullopt,
                                                             std::move(state_.call.host_arrays)}
                                : SetupKeeper::LastShortForm{};
  }
  state_.call.repeating_short_form = false;
}

bool FixtureRun::hold(const Outcome& outcome) {
  if (keeper_ == nullptr || !outcome.failure.empty() || !(outcome.parked || !outcome.short_form) || !outcome.set_up ||
      rotating_cache()) {
    return false;
  }
  keeper_->held_ = &fixture_;
  keeper_->held_args_ = args_;
  keeper_->held_record_ = state_.call.record;
  return true;
}

void FixtureRun::tear_down(Outcome& outcome) {
  try {
    if (const std::exception_ptr error = release_parked(state_)) std::rethrow_exception(error);
    if (outcome.set_up) fixture_.teardown();
  } catch (const std::exception& e) {
    if (outcome.failure.empty()) outcome.failure = std::string("teardown: ") + e.what();
  }
  if (outcome.acquired) fixture_.release();
  state_.call.rotating.clear();
  state_.call.owned.clear();
  state_.call.host_arrays.clear();
}

void FixtureRun::measure_held() {
  RunRecord& record = state_.call.record;
  record = keeper_->held_record_;
  record.measurement = Measurement{};
  record.observed = {};
  state_.call.reusing_setup = true;
  std::string failure;
  try {
    if (interrupt_requested()) throw Interrupted();
    if (state_.parked && state_.parked->parked()) {
      state_.parked->resume();
      if (!state_.parked->parked()) throw std::logic_error("the benchmark function returned while held between blocks");
    } else {
      measure_after_setup(fixture_, google_benchmark_, [this] { fixture_.run(); });
    }
  } catch (...) {
    failure = failure_in_flight(record, false);
  }
  state_.call.reusing_setup = false;
  if (!failure.empty()) keeper_->release_held();
  publish(failure);
}

void FixtureRun::tear_down_held(FixtureBase& fixture) noexcept {
  FixtureState& state = state_of(fixture);
  try {
    if (const std::exception_ptr error = release_parked(state)) std::rethrow_exception(error);
    fixture.teardown();
  } catch (const std::exception& e) {
    // The blocks measured have been reported; what is left to say goes where the worker's errors go.
    std::cerr << "gbx: " << state.identity.name() << ": teardown after its blocks: " << e.what() << "\n";
  }
  fixture.release();
  state.call.rotating.clear();
  state.call.owned.clear();
  state.call.host_arrays.clear();
}

void FixtureRun::publish(const std::string& failure) {
  RunRecord& record = state_.call.record;
  record.error = failure;
  const std::int64_t id = SampleChannel::global().publish(record);
  google_benchmark_.SetLabel(record_label(id));
  if (!failure.empty()) {
    google_benchmark_.SkipWithError(failure.c_str());
    return;
  }
  // A measurement that did not fail holds at least one sample, all finite.
  const double median_seconds = median(record.measurement.samples).value_or(0.0);
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom; _ is never read
  for (auto _ : google_benchmark_) google_benchmark_.SetIterationTime(median_seconds);
}

void FixtureRun::measure_after_setup(FixtureBase& fixture, const benchmark::State& google_benchmark,
                                     const std::function<void()>& run) {
  FixtureCall& call = state_of(fixture).call;
  call.measured = true;
  Protocol protocol = active_protocol();
  Measurement rotation;
  const bool rotating = protocol.cache == CacheMode::rotate && start_rotation(fixture, rotation);
  // Nothing to rotate (the class form declares no arrays): the nearest mode that is still cold.
  if (protocol.cache == CacheMode::rotate && !rotating) protocol.cache = CacheMode::cold;
  const std::unique_ptr<Timer> timer = fixture.make_timer();
  MeasurementHooks hooks = hooks_for(fixture, protocol, rotating, run);
  share_with_pair(fixture, rotating);
  if (!call.reusing_setup) save_inout(fixture);
  fixture.observe_memory();
  ObservationScope observation(benchmark_observer(), fixture.device_uuid(), hooks);
  RunRecord& record = call.record;
  record.measurement = detail::measure(protocol, *timer, hooks);
  record.observed = observation.finish();
  if (rotating) {
    stop_rotation(call);
    record.measurement.rotation_copies = rotation.rotation_copies;
    record.measurement.rotation_bytes_per_run = rotation.rotation_bytes_per_run;
    record.measurement.rotation_cache_bytes = rotation.rotation_cache_bytes;
  }
  fixture.observe_memory();
  check_accuracy(fixture, run);
  record.memory = fixture.memory_usage();
  record_stopping(record, protocol);
  record.load = FixtureLoadAccess::measure(fixture, google_benchmark, record.args);
}

MeasurementHooks FixtureRun::hooks_for(FixtureBase& fixture, const Protocol& protocol, bool rotating,
                                       const std::function<void()>& run) {
  MeasurementHooks hooks;
  if (rotating) {
    FixtureCall& call = state_of(fixture).call;
    hooks.run = [&call, &run] {
      advance_rotation(call);
      run();
    };
  } else {
    hooks.run = run;
  }
  hooks.flush = [&fixture] { fixture.flush_caches(); };
  hooks.now_seconds = [&fixture] { return fixture.now_seconds(); };
  hooks.cpu_seconds = gbx::process_cpu_seconds;
  hooks.interrupted = interrupt_requested;
  if (protocol.target_rel_ci > 0.0) {
    const double target = protocol.target_rel_ci;
    hooks.enough = [target](const std::vector<double>& samples) {
      const auto relative = median_relative_half_width(samples);
      return relative && *relative <= target;
    };
  }
  return hooks;
}

// A worker of gbx ab: its pair partner measures on the same pages from here on (pair_memory.h).
void FixtureRun::share_with_pair(FixtureBase& fixture, bool rotating) {
  SetupKeeper* keeper = SetupKeeper::installed();
  const FixtureCall& call = state_of(fixture).call;
  if (keeper == nullptr || call.reusing_setup || rotating || !sharing_host_arrays_with_pair()) return;
  std::vector<HostArray> arrays;
  arrays.reserve(call.host_arrays.size());
  for (const auto& [bytes, storage] : call.host_arrays) arrays.push_back({storage.get(), bytes});
  keeper->pair_memory_ = share_setup_with_pair(call.record.benchmark, arrays);
}

void FixtureRun::check_accuracy(FixtureBase& fixture, const std::function<void()>& run) {
  FixtureCall& call = state_of(fixture).call;
  const SetupKeeper* keeper = SetupKeeper::installed();
  if (call.accuracy_tolerance < 0.0) return;
  if (call.repeating_short_form && keeper != nullptr && keeper->last_short_form_.passed_check) {
    call.record.accuracy = keeper->last_short_form_.passed_check;
    return;
  }
  if (call.reusing_setup) return;
  restore_inout(fixture);
  fixture.poison_outputs();
  run();
  fixture.synchronize();
  fixture.observe_memory();
  Accuracy accuracy = fixture.check_output();
  accuracy.reference = call.accuracy_reference;
  accuracy.tolerance = call.accuracy_tolerance;
  accuracy.passed = accuracy.nan_count == 0 && accuracy.rel_l2_error <= call.accuracy_tolerance;
  explain_nan(call, accuracy);
  call.record.accuracy = accuracy;
}

void FixtureRun::record_stopping(RunRecord& record, const Protocol& protocol) {
  StoppingOutcome& stopping = record.stopping;
  const Measurement& m = record.measurement;
  stopping.min_time_seconds = protocol.min_time_seconds;
  if (protocol.target_rel_ci > 0.0) {
    stopping.rule = "target_rel_ci";
    stopping.target_rel_ci = protocol.target_rel_ci;
    stopping.reached = m.enough_reached;
  } else {
    stopping.reached = static_cast<std::int64_t>(m.samples.size()) >= protocol.min_samples &&
                       m.sampling_seconds >= protocol.min_time_seconds;
  }
  stopping.achieved_rel_ci = median_relative_half_width(m.samples);
}

bool FixtureRun::start_rotation(FixtureBase& fixture, Measurement& m) {
  FixtureCall& call = state_of(fixture).call;
  std::size_t per_run = 0;
  for (const auto& array : call.rotating) per_run += array->bytes();
  if (per_run == 0) return false;
  const std::size_t cache = fixture.rotation_cache_bytes();
  // A run's copy must be gone from the cache when its turn comes again: the others touched in
  // between, (copies - 1) x per_run bytes, are twice the cache (an LRU that is not strict keeps part
  // of a single pass's worth, as l2_flush.h explains).
  const std::size_t copies = std::max<std::size_t>(2, (2 * cache + per_run - 1) / per_run + 1);
  for (const auto& array : call.rotating) {
    for (std::size_t k = 1; k < copies; ++k)
      array->add_copy(fixture.duplicate(array->first(), array->bytes(), array->on_device()));
  }
  call.rotation_copies = copies;
  call.rotation_next = 0;
  m.rotation_copies = static_cast<std::int64_t>(copies);
  m.rotation_bytes_per_run = static_cast<double>(per_run);
  m.rotation_cache_bytes = static_cast<double>(cache);
  return true;
}

void FixtureRun::advance_rotation(FixtureCall& call) {
  for (const auto& array : call.rotating) array->bind(call.rotation_next);
  if (++call.rotation_next == call.rotation_copies) call.rotation_next = 0;
}

void FixtureRun::stop_rotation(FixtureCall& call) {
  for (const auto& array : call.rotating) array->bind(0);
  call.rotation_copies = 0;
}

bool FixtureRun::may_park(const FixtureBase&) { return SetupKeeper::installed() != nullptr && !rotating_cache(); }

void FixtureRun::park_setup(FixtureBase& fixture, std::function<void()> body) {
  FixtureState& state = state_of(fixture);
  if (!state.parked) state.parked = std::make_shared<ParkedSetup>();
  state.parked->start(std::move(body));
}

bool FixtureRun::park_measured(FixtureBase& fixture) {
  const FixtureState& state = state_of(fixture);
  return state.parked && state.parked->park();
}

std::exception_ptr FixtureRun::release_parked(FixtureState& state) noexcept {
  return state.parked ? state.parked->release() : nullptr;
}

std::shared_ptr<void> FixtureRun::kept_host_array(SetupKeeper* keeper, const FixtureCall& call, std::size_t bytes) {
  return keeper != nullptr && call.repeating_short_form ? keeper->take_kept_host_array(bytes) : nullptr;
}

}  // namespace gbx::detail
