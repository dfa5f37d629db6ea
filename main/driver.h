#pragma once

namespace gbx {

// The main of every gbx bench binary: takes the --gbx_* flags, runs the selected benchmarks under
// that protocol through Google Benchmark, and writes the record.
// Exit codes: 0 when every benchmark ran or was skipped for want of a device; 1 when a benchmark
// failed; 2 for bad flags or an output path that cannot be written (before anything runs).
int run_main(int argc, char** argv);

}  // namespace gbx
