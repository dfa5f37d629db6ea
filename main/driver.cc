#include "main/driver.h"

#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "environment/benchmark_observer.h"
#include "environment/environment.h"
#include "extensions/short_form.h"
#include "main/process_driver.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "processes/process_runner.h"
#include "processes/shard.h"
#include "record/atomic_file.h"
#include "record/checksum.h"
#include "record/utf8.h"
#include "reporters/google_benchmark_flags.h"
#include "reporters/plain_protocol.h"
#include "reporters/run_patching.h"
#include "runner/benchmark_passes.h"
#include "runner/in_process.h"
#include "runner/process_child.h"
#include "runner/worker_child.h"
#include "writer/json_record.h"

namespace gbx {

namespace {

bool take_value(const std::string& arg, const std::string& flag, std::string& value) {
  const std::string prefix = "--" + flag + "=";
  if (arg.compare(0, prefix.size(), prefix) != 0) return false;
  value = arg.substr(prefix.size());
  return true;
}

// Google Benchmark's spelling of booleans: a bare flag is true.
bool take_bool(const std::string& arg, const std::string& flag, bool& value) {
  std::string text;
  if (arg == "--" + flag) {
    text = "true";
  } else if (!take_value(arg, flag, text)) {
    return false;
  }
  if (text == "true" || text == "1" || text == "yes" || text == "t" || text == "y") {
    value = true;
  } else if (text == "false" || text == "0" || text == "no" || text == "f" || text == "n") {
    value = false;
  } else {
    throw detail::FlagError("invalid value '" + text + "' for --" + flag + ": expected true or false");
  }
  return true;
}

RunOutputs split_output_flags(const std::vector<std::string>& args) {
  RunOutputs flags;
  for (const auto& arg : args) {
    std::string value;
    if (take_value(arg, "benchmark_out", flags.out)) continue;
    if (take_value(arg, "benchmark_out_format", flags.out_format)) continue;
    if (take_bool(arg, "benchmark_display_aggregates_only", flags.display_aggregates_only)) continue;
    if (take_bool(arg, "benchmark_report_aggregates_only", flags.report_aggregates_only)) continue;
    if (take_value(arg, "benchmark_format", value)) flags.format = value;
    // Google Benchmark aborts with std::length_error on a negative count.
    if (take_value(arg, "benchmark_repetitions", value) &&
        (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 9 ||
         std::stol(value) < 1)) {
      throw detail::FlagError("invalid value '" + value + "' for --benchmark_repetitions: expected a positive integer");
    }
    if (arg == "--benchmark_list_tests" || (take_value(arg, "benchmark_list_tests", value) && value != "false")) {
      flags.list_tests = true;
    }
    if (arg == "--help" || arg == "-h") flags.help = true;
    flags.for_google_benchmark.push_back(arg);
  }
  return flags;
}

bool known_format(const std::string& format) { return format == "json" || format == "console" || format == "csv"; }

void make_directories(const std::string& dir) {
  std::string path;
  std::size_t start = 0;
  while (start <= dir.size()) {
    const auto slash = dir.find('/', start);
    path = dir.substr(0, slash);
    if (!path.empty() && ::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      throw std::runtime_error("cannot create directory '" + path + "': " + std::strerror(errno));
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
}

// Google Benchmark's flags among the command line's: the outputs, the time unit, and the layout of
// plain benchmarks (reporters/plain_protocol.h). Throws detail::FlagError for one that cannot be used.
RunOutputs take_google_benchmark_flags(const detail::CommandLine& line) {
  RunOutputs output = split_output_flags(line.passthrough);
  set_reported_time_unit(check_google_benchmark_flags(line.passthrough).time_unit);
  PlainPlan plain = plan_plain_runs(output.for_google_benchmark, line.protocol);
  output.for_google_benchmark = std::move(plain.args);
  set_plain_layout(plain.layout);
  output.context = std::move(plain.context);
  if (!known_format(output.out_format)) {
    throw detail::FlagError("invalid value '" + output.out_format +
                            "' for --benchmark_out_format: expected json, console or csv");
  }
  if (!known_format(output.format)) {
    throw detail::FlagError("invalid value '" + output.format +
                            "' for --benchmark_format: expected json, console or csv");
  }
  return output;
}

int refuse(const std::string& message) {
  std::cerr << "gbx: " << message << "\n";
  return 2;
}

}  // namespace

int run_main(int argc, char** argv) {
  // First thing, so that no signal before the run starts can lose it: SIGINT and SIGTERM ask for a
  // record of what finished, a second one removes the record's temporary file on its way out, and a
  // closed stdout (| head) must not kill the process before the record is written.
  install_interrupt_handlers();
  set_interrupt_cleanup(remove_temporary_file_now);
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> given(argv, argv + argc);
  int worker_fd = -1;  // `gbx ab`'s worker mode (runner/worker_child.h)
  try {
    worker_fd = take_worker_flag(given);
  } catch (const detail::FlagError& error) {
    return refuse(error.what());
  }
  ShardSelection shard;  // docs/scale-out.md: the rest of the run sees only this shard's benchmarks
  try {
    shard = select_shard(self_executable(), given);
  } catch (const std::exception& error) {
    return refuse(error.what());
  }
  if (shard.empty) {
    std::cerr << "gbx: shard " << shard.record["index"] << " of " << shard.record["count"]
              << " has no benchmark (the selection has " << shard.record["selection_size"] << "): nothing to run\n";
    return 0;
  }
  const std::vector<std::string>& command = shard.command;
  detail::CommandLine line;
  try {
    line = detail::parse_command_line(std::vector<std::string>(command.begin() + 1, command.end()));
  } catch (const detail::FlagError& error) {
    return refuse(error.what());
  }
  // The short form's benchmarks exist only once --gbx_axis has been read (extensions/short_form.h).
  try {
    detail::register_short_benchmarks(line.axes);
  } catch (const std::exception& error) {
    return refuse(error.what());
  }
  RunOutputs output;
  try {
    output = take_google_benchmark_flags(line);
  } catch (const detail::FlagError& error) {
    return refuse(error.what());
  }
  if (output.help) std::cout << "gbx flags (read before Google Benchmark's own):\n" << detail::flags_help() << "\n";

  RecordHeader header_at_start{new_run_id(), utc_timestamp(), given, line.protocol};
  if (!shard.record.is_null()) header_at_start.sections["shard"] = shard.record;
  std::string record_path;
  try {
    if (!output.out.empty()) check_writable(output.out);
    if (!line.out_dir.empty()) {
      make_directories(line.out_dir);
      record_path = line.out_dir + "/" + utc_timestamp(true) + "-" + header_at_start.run_id + ".json";
      check_writable(record_path);
    }
  } catch (const std::exception& error) {
    return refuse(error.what());
  }

  std::vector<char*> gb_argv{argv[0]};
  for (auto& arg : output.for_google_benchmark) gb_argv.push_back(arg.data());
  int gb_argc = static_cast<int>(gb_argv.size());
  gb_argv.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_argv.data());
  if (benchmark::ReportUnrecognizedArguments(gb_argc, gb_argv.data())) return 2;
  for (const auto& [key, value] : output.context) benchmark::AddCustomContext(key, value);
  // At the very end: Shutdown frees --benchmark_context's map without forgetting it, and the record's
  // environment reads the context after the run (a use after free, then a crash, before).
  struct ShutdownLast {
    ~ShutdownLast() { benchmark::Shutdown(); }
  } shutdown_last;
  if (worker_fd < 0 && line.processes.child_fd < 0 && line.processes.describe_fd < 0 && !output.list_tests) {
    try {
      check_plain_only_flags(line.passthrough, benchmark::GetBenchmarkFilter(), std::cerr);
    } catch (const detail::FlagError& error) {
      return refuse(error.what());
    }
  }
  set_active_protocol(line.protocol);
  set_benchmark_observer(std::make_shared<EnvironmentObserver>());
  set_active_load_flags(line.load);
  if (worker_fd >= 0) return run_worker(worker_fd);
  if (line.processes.child_fd >= 0) return run_child(line.processes.child_fd);
  if (line.processes.describe_fd >= 0) return run_describe(line.processes.describe_fd, command);
  if (line.processes.isolated && !output.list_tests) {
    output.record_path = record_path;
    return run_isolated(command, line, output, header_at_start);
  }

  output.record_path = record_path;
  return run_in_process(command, line, output, header_at_start);
}

}  // namespace gbx
