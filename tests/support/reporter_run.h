#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <type_traits>
#include <vector>

#include "reporters/run_error.h"

namespace gbx_test {

// Runs built by hand, as Google Benchmark would report them.
using GbRun = benchmark::BenchmarkReporter::Run;

// The element type of Run::statistics (benchmark::internal::Statistics in 1.7 to 1.9): named through
// the public Run so that the tests spell no internal name.
using RunStatistic = std::remove_pointer_t<decltype(GbRun::statistics)>::value_type;

// Marks a run as stopped by State::SkipWithError, in the fields of this Google Benchmark version.
template <class Run = GbRun>
void set_run_error(Run& run, const std::string& message) {
  if constexpr (gbx::RunHasSkipMessage<Run>::value) {
    run.skipped = std::decay_t<decltype(run.skipped)>::SkippedWithError;
    run.skip_message = message;
  } else {
    run.error_occurred = true;
    run.error_message = message;
  }
}

}  // namespace gbx_test
