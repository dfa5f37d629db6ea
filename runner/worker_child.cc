#include "runner/worker_child.h"

#include <benchmark/benchmark.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "extensions/pair_memory.h"
#include "extensions/random_inputs.h"
#include "extensions/setup_keeper.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "processes/pair_memory_directory.h"
#include "processes/shard.h"
#include "processes/shared_inputs.h"
#include "reporters/gbx_reporter.h"
#include "runner/benchmark_passes.h"
#include "runner/process_child.h"
#include "writer/json_record.h"
#include "writer/run_record_wire.h"

namespace gbx {

namespace {

std::int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

// One block: the declared protocol with exactly `samples` samples, no adaptive stopping and no
// --gbx_min_time, so that
// both sides of a pair take the same number, and a time bound that cannot cut a block short.
// warmup > 0: the block's warm-up runs, when the declared warm-up is a fixed count (the parent sizes
// it to the block; a block after the first of its setup needs only its caches refilled).
nlohmann::json run_block(const detail::Protocol& declared, const std::string& name, std::int64_t samples,
                         std::int64_t warmup, bool& interrupted) {
  detail::Protocol block = declared;
  block.min_samples = samples;
  block.max_samples = samples;
  if (warmup > 0 && !block.warmup_auto) block.warmup_runs = std::min(block.warmup_runs, warmup);
  block.target_rel_ci = 0.0;
  block.min_time_seconds = 0.0;
  block.max_time_seconds = std::max(block.max_time_seconds, 3600.0);
  set_active_protocol(block);
  GbxReporter reporter(nullptr, nullptr);
  reporter.set_analyze(false);  // the parent analyses the blocks of both sides together
  const std::int64_t start = monotonic_ns();
  run_benchmarks(reporter, exact_filter(name));
  const std::int64_t end = monotonic_ns();
  set_active_protocol(declared);
  nlohmann::json rows = nlohmann::json::array();
  const std::string text = reporter.google_benchmark_json();
  const auto json = nlohmann::json::parse(replace_non_finite_with_null(text), nullptr, false);
  if (json.is_object() && json.contains("benchmarks")) {
    const auto& benchmarks = json["benchmarks"];
    for (std::size_t i = 0; i < benchmarks.size() && i < reporter.entries().size(); ++i) {
      const auto& entry = reporter.entries()[i];
      if (entry && entry->interrupted) interrupted = true;
      rows.push_back({{"benchmark", benchmarks[i]}, {"record", entry ? run_record_json(*entry) : nlohmann::json()}});
    }
  }
  return {{"event", "block"}, {"name", name}, {"start_ns", start}, {"end_ns", end}, {"rows", std::move(rows)}};
}

}  // namespace

int take_worker_flag(std::vector<std::string>& args) {
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (it->rfind("--gbx_worker=", 0) != 0) continue;
    const std::string value = it->substr(13);
    if (value.empty() || value.size() > 4 || value.find_first_not_of("0123456789") != std::string::npos) {
      throw detail::FlagError("invalid value '" + value + "' for --gbx_worker: expected a descriptor number");
    }
    const int fd = std::stoi(value);
    args.erase(it);
    return fd;
  }
  return -1;
}

int run_worker(int fd) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed outright leaves no worker running on
  install_interrupt_handlers();
  const detail::Protocol declared = detail::active_protocol();
  // Consecutive blocks of one benchmark share its setup: a block then costs its warm-up and samples,
  // not an allocation and a fill of its inputs each time (docs/gating.md). The keeper holds it, and
  // tears it down when it goes, before the statics do.
  auto keeper = std::make_unique<detail::SetupKeeper>();
  // The parent's directory of random inputs, which this run's workers share (processes/shared_inputs.h).
  const char* shared = std::getenv(kSharedInputsVariable);
  share_random_inputs(shared != nullptr ? shared : "");
  // The directory of this worker pair's shared arrays (extensions/pair_memory.h), where gbx ab names one.
  const char* pair_memory = std::getenv(kPairMemoryVariable);
  detail::share_host_arrays_with_pair(pair_memory != nullptr ? pair_memory : "");
  send_event(fd, {{"event", "ready"}, {"pid", ::getpid()}});
  for (std::string line; !interrupt_requested() && std::getline(std::cin, line);) {
    const auto order = nlohmann::json::parse(line, nullptr, false);
    if (!order.is_object() || !order.contains("name") || !order["name"].is_string()) {
      send_event(fd, {{"event", "error"}, {"message", "not an order: " + line.substr(0, 200)}});
      continue;
    }
    const std::int64_t samples = std::max<std::int64_t>(1, order.value("samples", std::int64_t{5}));
    const std::int64_t warmup = order.value("warmup", std::int64_t{0});
    detail::set_pair_memory_key(order.value("memory_key", std::string()));
    bool interrupted = false;
    nlohmann::json answer = run_block(declared, order["name"].get<std::string>(), samples, warmup, interrupted);
    if (interrupted || interrupt_requested()) break;  // a block cut short is not reported
    answer["block"] = order.value("block", std::int64_t{-1});
    if (detail::sharing_host_arrays_with_pair()) {
      const detail::PairMemoryOutcome& memory = keeper->pair_memory();
      answer["pair_memory"] = {{"shared_bytes", memory.shared_bytes},
                               {"private_bytes", memory.private_bytes},
                               {"why_private", memory.why_private}};
    }
    send_event(fd, answer);
  }
  keeper.reset();
  share_random_inputs("");
  detail::share_host_arrays_with_pair("");
  if (interrupt_requested()) {
    send_event(fd, {{"event", "interrupted"}, {"signal", interrupt_signal()}});
    return 128 + interrupt_signal();
  }
  return 0;
}

}  // namespace gbx
