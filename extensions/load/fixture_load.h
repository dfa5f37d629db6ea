#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "model/load_result.h"

namespace gbx {

class FixtureBase;

// The bridge between a fixture and the load engine, through detail::FixtureRun.
class FixtureLoadAccess {
 public:
  // The load sweep of this benchmark call, when its registration or the flags ask for one: `fixture`
  // (set up and measured) is worker 0; the others are fresh instances of the same fixture, set up from
  // the same state and seed, so each worker owns a copy of the inputs (and a CUDA fixture, its own
  // stream). Throws Interrupted when a signal came during the sweep; any other failure is kept in
  // LoadResult::error and the benchmark's own measurement stands.
  static std::optional<detail::LoadResult> measure(FixtureBase& fixture, const benchmark::State& google_benchmark,
                                                   const std::vector<std::int64_t>& args);
};

}  // namespace gbx
