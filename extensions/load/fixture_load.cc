#include "extensions/load/fixture_load.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "extensions/fixture.h"
#include "extensions/fixture_run.h"
#include "extensions/load/thread_pool.h"
#include "model/interrupt.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

// The extra workers: set up on construction, torn down and released on destruction.
struct Workers {
  std::vector<std::unique_ptr<FixtureBase>> fixtures;
  std::vector<bool> acquired;
  std::vector<bool> set_up;
};

std::vector<std::function<void()>> noops(std::int64_t count) {
  return std::vector<std::function<void()>>(static_cast<std::size_t>(count), [] {});
}

// Why the registered sweep of `plan` would not give valid numbers here, or nothing: its levels are cut
// to the cores, and the harness's cost per request, measured with a no-op at concurrency 1, must stay
// within the plan's limit of the kernel's median time (docs/load.md, "The default suite").
std::string reason_to_skip(LoadPlan& plan, double median_seconds) {
  const auto cores = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  plan.concurrency.erase(
      std::remove_if(plan.concurrency.begin(), plan.concurrency.end(), [cores](std::int64_t c) { return c > cores; }),
      plan.concurrency.end());
  if (plan.concurrency.empty()) return "every concurrency level is above the " + std::to_string(cores) + " cores";
  ThreadServicePool noop(noops(1));
  const auto overhead = harness_overhead_per_request(noop, 1, 2000, 0.02);
  if (!overhead) return "the harness's overhead could not be measured";
  const auto too_costly = [&](const char* loop, double seconds) {
    if (median_seconds > 0.0 && seconds <= plan.overhead_limit * median_seconds) return std::string();
    char text[200];
    std::snprintf(text, sizeof text,
                  "the %s loop's harness costs %.3g s a request, more than %g%% of the kernel's %.3g s", loop, seconds,
                  100.0 * plan.overhead_limit, median_seconds);
    return std::string(text);
  };
  if (auto reason = too_costly("closed", *overhead); !reason.empty()) return reason;
  if (!plan.offered_load.empty()) {
    // The open loop hands each request over (a release, a wake-up, a completion): a no-op's latency at
    // the lowest offered load, over a few dozen arrivals. Past 500 us between arrivals the workers sleep
    // between requests at any lower rate too, so a slower one is raised to it to keep the check short.
    const double rate = std::max(plan.offered_load.front() / median_seconds, 2000.0);
    const auto offsets = arrival_offsets(ArrivalProcess::constant, rate, 40, 1);
    const OpenLoopRun run = run_open_loop(noop, 1, offsets, 10, 0.05);
    double sum = 0.0;
    for (std::size_t i = run.warmup_requests; i < run.requests.size(); ++i) {
      sum += run.requests[i].end - run.requests[i].arrival;
    }
    const std::size_t measured = run.requests.size() - std::min(run.requests.size(), run.warmup_requests);
    if (measured == 0) return "the open loop's harness overhead could not be measured";
    if (auto reason = too_costly("open", sum / static_cast<double>(measured)); !reason.empty()) return reason;
  }
  return {};
}

}  // namespace

std::optional<detail::LoadResult> FixtureLoadAccess::measure(FixtureBase& fixture,
                                                             const benchmark::State& google_benchmark,
                                                             const std::vector<std::int64_t>& args) {
  LoadPlan plan;
  detail::FixtureState& state = detail::FixtureRun::state_of(fixture);
  if (!effective_load_plan(state.identity.load_plan.get(), detail::active_load_flags(), args, plan))
    return std::nullopt;
  detail::LoadResult result;
  result.workers = std::string(detail::FixtureRun::region(fixture)) == "cpu" ? "threads" : "streams";
  result.arrivals = plan.arrivals;
  result.arrival_seed = plan.arrival_seed;
  result.latency_bound_seconds = plan.latency_bound_seconds;
  result.littles_law_tolerance = plan.littles_law_tolerance;
  result.saturation_tolerance = plan.saturation_tolerance;
  result.requested = !plan.only_where_valid;
  if (plan.only_where_valid) {
    result.skipped = reason_to_skip(plan, median(state.call.record.measurement.samples).value_or(0.0));
    if (!result.skipped.empty()) return result;
  }
  if (!state.identity.make_another) {
    result.error = "this fixture was registered without a way to make more instances (register_fixture<F>)";
    return result;
  }
  const std::int64_t worker_count =
      std::max(plan.servers, *std::max_element(plan.concurrency.begin(), plan.concurrency.end()));
  Workers workers;
  const auto tear_down = [&workers] {
    for (std::size_t i = 0; i < workers.fixtures.size(); ++i) {
      try {
        if (workers.set_up[i]) detail::FixtureRun::teardown(*workers.fixtures[i]);
      } catch (...) {
      }
      if (workers.acquired[i]) detail::FixtureRun::release(*workers.fixtures[i]);
      detail::FixtureRun::state_of(*workers.fixtures[i]).call.owned.clear();
    }
    workers.fixtures.clear();
  };
  try {
    std::vector<std::function<void()>> runs;
    runs.push_back([&fixture] { detail::FixtureRun::run_and_wait(fixture); });
    for (std::int64_t i = 1; i < worker_count; ++i) {
      workers.fixtures.push_back(state.identity.make_another());
      workers.acquired.push_back(false);
      workers.set_up.push_back(false);
      FixtureBase& other = *workers.fixtures.back();
      detail::FixtureState& other_state = detail::FixtureRun::state_of(other);
      other_state.identity.family = state.identity.family;
      other_state.identity.variant = state.identity.variant;
      other_state.call.record = detail::RunRecord{};
      other_state.call.record.seed = state.call.record.seed;
      detail::FixtureRun::acquire(other);
      workers.acquired.back() = true;
      detail::FixtureRun::setup(other, google_benchmark);
      workers.set_up.back() = true;
      runs.push_back([&other] { detail::FixtureRun::run_and_wait(other); });
    }
    {
      ThreadServicePool pool(std::move(runs));
      ThreadServicePool noop(noops(worker_count));
      detail::LoadResult measured = run_load_sweep(pool, plan, interrupt_requested, &noop);
      measured.workers = result.workers;
      measured.requested = result.requested;
      result = std::move(measured);
    }
  } catch (const std::exception& e) {
    result.error = std::string("load sweep: ") + e.what();
  } catch (...) {
    result.error = "load sweep: unknown exception";
  }
  tear_down();
  if (interrupt_requested()) throw Interrupted();
  return result;
}

}  // namespace gbx
