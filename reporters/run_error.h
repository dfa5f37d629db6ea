#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace gbx {

// Google Benchmark 1.8 replaced Run::error_occurred and error_message with skipped (no skip, skipped
// with a message, skipped with an error) and skip_message. gbx stops a benchmark only through
// State::SkipWithError, which every version writes to JSON as error_occurred and error_message.
template <class Run, class = void>
struct RunHasSkipMessage : std::false_type {};
template <class Run>
struct RunHasSkipMessage<Run, std::void_t<decltype(std::declval<Run&>().skip_message)>> : std::true_type {};

// The message of a run that SkipWithError stopped; absent for a run that ran (or, from 1.8 on, one
// that SkipWithMessage skipped, which is no failure).
template <class Run = benchmark::BenchmarkReporter::Run>
std::optional<std::string> run_error(const Run& run) {
  if constexpr (RunHasSkipMessage<Run>::value) {
    using Skipped = std::decay_t<decltype(run.skipped)>;
    if (run.skipped == Skipped::SkippedWithError) return run.skip_message;
  } else {
    if (run.error_occurred) return run.error_message;
  }
  return std::nullopt;
}

}  // namespace gbx
