#include "runner/process_child.h"

#include <benchmark/benchmark.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <sstream>

#include "environment/environment.h"
#include "environment/peaks.h"
#include "model/interrupt.h"
#include "processes/shard.h"
#include "reporters/gbx_reporter.h"
#include "runner/benchmark_passes.h"
#include "writer/json_record.h"
#include "writer/process_merge.h"
#include "writer/run_record_wire.h"

namespace gbx {

void send_event(int fd, const nlohmann::json& event) {
  // argv and the environment may hold any bytes: a description crossing to the parent carries U+FFFD
  // for an invalid one (the parent's record lists what it replaced itself), never an exception.
  const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t wrote = ::write(fd, line.data() + done, line.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the parent is gone; nothing left to tell
    done += static_cast<std::size_t>(wrote);
  }
}

nlohmann::json google_benchmark_context() {
  std::ostringstream text;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&text);
  reporter.SetErrorStream(&text);
  benchmark::BenchmarkReporter::Context context;
  context.name_field_width = 0;
  reporter.ReportContext(context);
  reporter.Finalize();
  const auto json = nlohmann::json::parse(replace_non_finite_with_null(text.str()), nullptr, false);
  return json.is_object() && json.contains("context") ? json["context"] : nlohmann::json::object();
}

int run_child(int fd) {
  std::vector<std::string> names;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty()) names.push_back(line);
  }
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed outright leaves no child running on
  install_interrupt_handlers();
  for (const auto& name : names) {
    if (interrupt_requested()) break;
    send_event(fd, {{"event", "start"}, {"name", name}});
    GbxReporter reporter(nullptr, nullptr);
    reporter.set_analyze(false);  // the parent analyses every process's samples together
    run_benchmarks(reporter, exact_filter(name));
    const auto json = nlohmann::json::parse(replace_non_finite_with_null(reporter.google_benchmark_json()));
    const auto& benchmarks = json.at("benchmarks");
    nlohmann::json rows = nlohmann::json::array();
    bool interrupted = false;
    for (std::size_t i = 0; i < benchmarks.size() && i < reporter.entries().size(); ++i) {
      const auto& entry = reporter.entries()[i];
      if (entry && entry->interrupted) {
        interrupted = true;
        continue;
      }
      rows.push_back({{"benchmark", benchmarks[i]}, {"record", entry ? run_record_json(*entry) : nlohmann::json()}});
    }
    if (interrupted || interrupt_requested()) break;  // a benchmark cut short is not reported
    const bool failed = std::any_of(reporter.entries().begin(), reporter.entries().end(), [](const auto& entry) {
      return entry && !entry->error.empty() && !entry->skipped;
    });
    send_event(fd, {{"event", "done"}, {"name", name}, {"rows", std::move(rows)}});
    // A failure may leave the process unfit for what follows (a sticky CUDA error poisons the
    // context for good): the rest of the order continues in a fresh process.
    if (failed && &name != &names.back()) {
      send_event(fd, {{"event", "restart"}});
      break;
    }
  }
  benchmark::Shutdown();
  if (interrupt_requested()) {
    send_event(fd, {{"event", "interrupted"}, {"signal", interrupt_signal()}});
    return 128 + interrupt_signal();
  }
  return 0;
}

int run_describe(int fd, const std::vector<std::string>& command) {
  const EnvironmentSnapshot start = capture_start();
  const Peak cpu = machine_cpu_peak();
  const Peak gpu = gpu_peak();
  nlohmann::json environment = capture_environment(start, command);
  environment["peaks"] = {{"cpu", peak_json(cpu)}, {"gpu", peak_json(gpu)}};
  send_event(fd, {{"context", google_benchmark_context()}, {"environment", std::move(environment)}});
  return 0;
}

}  // namespace gbx
