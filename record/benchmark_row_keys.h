#pragma once

#include <string>

namespace gbx {

// Whether key is one of Google Benchmark's own keys in a `benchmarks` row of its JSON (its
// json_reporter.cc, 1.7 to 1.9: the name, times, aggregates, errors and skips, complexity and memory
// manager results), or gbx's section: what is not a counter.
bool is_google_benchmark_row_key(const std::string& key);

}  // namespace gbx
