#include "extensions/fixture.h"

#include <algorithm>
#include <stdexcept>

#include "extensions/cpu_cache_flush.h"
#include "extensions/cpu_timer.h"
#include "extensions/fixture_run.h"
#include "extensions/host_memory.h"
#include "extensions/random_inputs.h"
#include "extensions/registrations.h"
#include "extensions/setup_keeper.h"

namespace gbx {

std::string detail::FixtureIdentity::name() const {
  std::string name = family + "/" + variant;
  for (const detail::AxisValue& a : axes) name += "/" + a.name + ":" + a.text;
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

RegisteredBenchmark* detail::register_identified(std::unique_ptr<FixtureBase> fixture, FixtureIdentity identity) {
  // The lambda owns the fixture; it asks the registered benchmark, set just after, how many
  // arguments the registration declared.
  struct Registration {
    std::unique_ptr<FixtureBase> fixture;
    RegisteredBenchmark* benchmark = nullptr;
  };
  auto registration = std::make_shared<Registration>();
  const std::string name = identity.name();
  FixtureRun::state_of(*fixture).identity = std::move(identity);
  registration->fixture = std::move(fixture);
  registration->benchmark = benchmark::RegisterBenchmark(name.c_str(), [registration](benchmark::State& state) {
    FixtureRun run(*registration->fixture, state, SetupKeeper::installed());
    run.measure(ArgumentCount::of(*registration->benchmark));
  });
  detail::remember_registration(name);
  return registration->benchmark->UseManualTime()->Iterations(1);
}

FixtureBase::FixtureBase() : state_(std::make_unique<detail::FixtureState>()) {}

FixtureBase::~FixtureBase() = default;

void FixtureBase::declare_problem(std::string problem) { state_->call.record.problem = std::move(problem); }

void FixtureBase::declare_flops_per_run(double flops) { state_->call.record.flops_per_run = flops; }

void FixtureBase::declare_bytes_per_run(double bytes) { state_->call.record.bytes_per_run = bytes; }

void FixtureBase::declare_seed(std::uint64_t seed) { state_->call.record.seed = seed; }

std::uint64_t FixtureBase::seed() const { return state_->call.record.seed; }

void FixtureBase::declare_precision(std::string precision) { state_->call.record.precision = std::move(precision); }

std::size_t FixtureBase::host_bytes() const { return state_->call.host_bytes; }

void FixtureBase::keep(std::shared_ptr<void> owner) { state_->call.owned.push_back(std::move(owner)); }

void FixtureBase::fill_random(Span<float> values, float low, float high) {
  fill_uniform(values, state_->call.record.seed + state_->call.fills++, low, high);
}

void FixtureBase::fill_random(Span<double> values, double low, double high) {
  fill_uniform(values, state_->call.record.seed + state_->call.fills++, low, high);
}

double detail::Backend::now_seconds() { return steady_now_seconds(); }

void FixtureBase::declare_accuracy(std::string reference, double tolerance) {
  if (!(tolerance >= 0.0)) throw std::invalid_argument("declare_accuracy: the tolerance must be >= 0");
  state_->call.accuracy_reference = std::move(reference);
  state_->call.accuracy_tolerance = tolerance;
}

void FixtureBase::poison_outputs() {
  if (state_->call.poison_hook) state_->call.poison_hook();
}

Accuracy FixtureBase::check_output() {
  if (state_->call.check_hook) return state_->call.check_hook();
  throw std::logic_error("declare_accuracy() was called but check_output() is not implemented");
}

void* FixtureBase::duplicate(const void* from, std::size_t bytes, bool on_device) {
  if (on_device) throw std::logic_error("a CPU fixture holds no device arrays");
  void* copy = zeroed_host_bytes(bytes);
  std::copy_n(static_cast<const unsigned char*>(from), bytes, static_cast<unsigned char*>(copy));
  return copy;
}

void* FixtureBase::zeroed_host_bytes(std::size_t bytes) {
  detail::FixtureCall& call = state_->call;
  detail::SetupKeeper* keeper = detail::SetupKeeper::installed();
  std::shared_ptr<void> storage = detail::FixtureRun::kept_host_array(keeper, call, bytes);
  if (!storage) storage = allocate_host_bytes(bytes);
  call.host_bytes += bytes;
  if (keeper != nullptr) call.host_arrays.emplace_back(bytes, storage);
  keep(storage);
  return storage.get();
}

std::size_t detail::Backend::rotation_cache_bytes() const {
  const std::size_t cache = last_level_cache_bytes();
  return cache > 0 ? cache : std::size_t{64} << 20;  // unknown: as large as any current CPU's
}

detail::MemoryUsage FixtureBase::memory_usage() const {
  detail::MemoryUsage usage;
  usage.host_peak_bytes = static_cast<std::int64_t>(state_->call.host_bytes);
  usage.device_bytes_unavailable = "a CPU benchmark: no device memory";
  usage.device_peak_bytes_unavailable = usage.device_bytes_unavailable;
  return usage;
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
