#pragma once

#include <string>
#include <vector>

namespace gbx {

// --gbx_worker=FD: the worker mode of a bench binary, for `gbx ab`'s interleaved comparison
// (docs/gating.md). It stays alive across many blocks and benchmarks and takes its orders on
// stdin, one JSON line each: {"block": ID, "name": NAME, "samples": S} runs one block of benchmark
// NAME (its own warm-up and batch calibration, as the protocol declares, then exactly S samples) and
// answers on FD {"event": "block", "block": ID, "name", "start_ns", "end_ns", "rows": [...]}, the rows
// as a --gbx_processes child reports them (writer/run_record_wire.h). The times are CLOCK_MONOTONIC,
// which every process of the machine shares, so that the parent can order both sides' blocks. End of
// input ends the worker. Returns the exit code: 0, or 128 + the signal when interrupted.
int run_worker(int fd);

// Takes --gbx_worker=FD out of args (argv, argv[0] included); -1 when absent. Throws FlagError on a
// bad descriptor.
int take_worker_flag(std::vector<std::string>& args);

}  // namespace gbx
