#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/protocol.h"

namespace gbx {

// One JSON event, one line, on the descriptor to the parent; invalid UTF-8 goes as U+FFFD, and a
// parent that is gone ends the write quietly.
void send_event(int fd, const nlohmann::json& event);

// Google Benchmark's `context` object for this process, as its JSON reporter writes it.
nlohmann::json google_benchmark_context();

// A child of a --gbx_processes run (after benchmark::Initialize): reads the names to run from stdin,
// one per line, runs them in that order and reports on descriptor `fd`, one JSON line per event:
// {"event": "start", "name"}, {"event": "done", "name", "rows": [{"benchmark", "record"}]} once a
// benchmark has finished (so that nothing finished is lost if the process dies later), and
// {"event": "interrupted", "signal"}. After a benchmark that failed it reports {"event": "restart"} and
// stops: a failure may leave the process unfit (a sticky CUDA error), so the parent continues the
// order in a fresh one. Returns the exit code: 0, or 128 + the signal when interrupted.
int run_child(int fd);

// --gbx_describe=FD: writes {"context", "environment"} (the environment with its "peaks") as JSON on
// fd, for `gbx ab`, which runs this binary's children itself. Returns the exit code.
int run_describe(int fd, const std::vector<std::string>& command);

}  // namespace gbx
