#include "extensions/load/fixture_load.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

#include "extensions/fixture.h"
#include "extensions/load/thread_pool.h"
#include "model/interrupt.h"

namespace gbx {

namespace {

// The extra workers: set up on construction, torn down and released on destruction.
struct Workers {
  std::vector<std::unique_ptr<FixtureBase>> fixtures;
  std::vector<bool> acquired;
  std::vector<bool> set_up;
};

}  // namespace

std::optional<LoadResult> FixtureLoadAccess::measure(FixtureBase& fixture, const benchmark::State& state,
                                                     const std::vector<std::int64_t>& args) {
  LoadPlan plan;
  if (!effective_load_plan(fixture.load_plan_.get(), active_load_flags(), args, plan)) return std::nullopt;
  LoadResult result;
  result.workers = std::string(fixture.region()) == "cpu" ? "threads" : "streams";
  result.arrivals = plan.arrivals;
  result.arrival_seed = plan.arrival_seed;
  result.latency_bound_seconds = plan.latency_bound_seconds;
  result.littles_law_tolerance = plan.littles_law_tolerance;
  result.saturation_tolerance = plan.saturation_tolerance;
  if (!fixture.make_another_) {
    result.error = "this fixture was registered without a way to make more instances (register_fixture<F>)";
    return result;
  }
  const std::int64_t worker_count =
      std::max(plan.servers, *std::max_element(plan.concurrency.begin(), plan.concurrency.end()));
  Workers workers;
  const auto tear_down = [&workers] {
    for (std::size_t i = 0; i < workers.fixtures.size(); ++i) {
      try {
        if (workers.set_up[i]) workers.fixtures[i]->teardown();
      } catch (...) {
      }
      if (workers.acquired[i]) workers.fixtures[i]->release();
      workers.fixtures[i]->owned_.clear();
    }
    workers.fixtures.clear();
  };
  try {
    std::vector<std::function<void()>> runs;
    runs.push_back([&fixture] {
      fixture.run();
      fixture.synchronize();
    });
    for (std::int64_t i = 1; i < worker_count; ++i) {
      workers.fixtures.push_back(fixture.make_another_());
      workers.acquired.push_back(false);
      workers.set_up.push_back(false);
      FixtureBase& other = *workers.fixtures.back();
      other.identify(fixture.family_, fixture.variant_);
      other.record_ = RunRecord{};
      other.record_.seed = fixture.record_.seed;
      other.acquire();
      workers.acquired.back() = true;
      other.setup(state);
      workers.set_up.back() = true;
      runs.push_back([&other] {
        other.run();
        other.synchronize();
      });
    }
    {
      ThreadServicePool pool(std::move(runs));
      LoadResult measured = run_load_sweep(pool, plan, interrupt_requested);
      measured.workers = result.workers;
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
