#include "ab/options.h"

#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <random>

#include "ab/records.h"
#include "analysis/pareto.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "processes/process_runner.h"
#include "record/atomic_file.h"
#include "record/checksum.h"
#include "record/record_reader.h"
#include "writer/process_merge.h"
#include "writer/record_finisher.h"

namespace gbx::tools {

namespace {

// One binary's side of the experiment.
struct Side {
  std::string role;  // "base" or "candidate"
  std::string binary;
  BinaryDescription description;
  Peak cpu_peak;
  Peak gpu_peak;
  std::unique_ptr<ProcessRunner> runner;
  RecordHeader header;
  std::string path;
};

std::string resolved(const std::string& binary) {
  char* real = ::realpath(binary.c_str(), nullptr);
  if (real == nullptr) return binary;
  std::string path = real;
  std::free(real);
  return path;
}

nlohmann::json side_record(Side& side, const AbOptions& options, const std::vector<std::string>& pair_orders,
                           const std::string& partner_run_id, bool interrupted) {
  AnalysisOptions analysis;
  analysis.cpu_peak = &side.cpu_peak;
  analysis.gpu_peak = &side.gpu_peak;
  const auto rows = merge_process_rows(side.runner->results(), analysis);
  side.header.interrupted = interrupted;
  side.header.environment = side.description.environment;
  nlohmann::json record = build_process_record(side.runner->results(), rows, side.description.context, side.header);
  record["gbx"]["processes"]["ab"] = {
      {"role", side.role}, {"partner_run_id", partner_run_id}, {"first_in_pair", pair_orders}, {"command", "gbx ab"}};
  (void)options;
  finish_record(record, interrupted, std::cerr, "gbx ab");
  return record;
}

}  // namespace

int check_ab_options(const AbOptions& options, std::ostream& err) {
  if (options.format != "console" && options.format != "markdown" && options.format != "json") {
    err << "gbx ab: invalid value '" << options.format << "' for --format: expected console, markdown or json\n";
    return 2;
  }
  if (options.processes < 1) {
    err << "gbx ab: invalid value '" << options.processes << "' for --processes: expected a positive integer\n";
    return 2;
  }
  for (const auto& binary : {options.base, options.candidate}) {
    if (::access(binary.c_str(), X_OK) != 0) {
      err << "gbx ab: " << binary << ": not an executable file\n";
      return 2;
    }
  }
  for (const auto& arg : options.bench_args) {
    if (is_parent_only_flag(arg)) {
      err << "gbx ab: " << arg << " is gbx ab's to decide (records go to -o DIR, processes to --processes)\n";
      return 2;
    }
  }
  try {
    (void)detail::parse_command_line(options.bench_args);
  } catch (const detail::FlagError& error) {
    err << "gbx ab: " << error.what() << "\n";
    return 2;
  }
  struct stat info {};
  if (::stat(options.out_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    err << "gbx ab: -o " << options.out_dir << ": not a directory\n";
    return 2;
  }
  return 0;
}

AbResult run_whole_processes(const AbOptions& options, std::ostream& err) {
  AbResult result;
  detail::CommandLine line;
  try {
    line = detail::parse_command_line(options.bench_args);
  } catch (const detail::FlagError& error) {
    err << "gbx ab: " << error.what() << "\n";
    return ab_ended(2);
  }
  line.protocol.processes = options.processes;
  struct stat info {};
  if (::stat(options.out_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    err << "gbx ab: -o " << options.out_dir << ": not a directory\n";
    return ab_ended(2);
  }
  std::random_device device;
  const std::uint64_t seed =
      options.seed ? *options.seed : ((static_cast<std::uint64_t>(device()) << 32) ^ device()) & 0xffffffffffffULL;

  Side sides[2];
  sides[0].role = "base";
  sides[0].binary = resolved(options.base);
  sides[1].role = "candidate";
  sides[1].binary = resolved(options.candidate);
  std::size_t total = 0;
  const std::string stamp = utc_timestamp(true);
  for (Side& side : sides) {
    try {
      const auto names = list_benchmarks(side.binary, options.bench_args);
      if (names.empty()) {
        err << "gbx ab: " << side.binary << " selects no benchmark with these flags\n";
        return ab_ended(2);
      }
      side.description = describe_binary(side.binary, options.bench_args);
      side.cpu_peak = peak_from_json(side.description.environment["peaks"]["cpu"]);
      side.gpu_peak = peak_from_json(side.description.environment["peaks"]["gpu"]);
      side.runner = std::make_unique<ProcessRunner>(side.binary, options.bench_args, names, options.processes, seed,
                                                    options.benchmark_timeout_seconds);
      total += names.size() * static_cast<std::size_t>(options.processes);
    } catch (const std::exception& error) {
      err << "gbx ab: " << error.what() << "\n";
      return ab_ended(2);
    }
    std::vector<std::string> command{side.binary};
    command.insert(command.end(), options.bench_args.begin(), options.bench_args.end());
    command.push_back("--gbx_processes=" + std::to_string(options.processes));
    command.push_back("--gbx_order_seed=" + std::to_string(seed));
    side.header = RecordHeader{new_run_id(), utc_timestamp(), command, line.protocol};
    side.path = options.out_dir + "/" + stamp + "-" + side.header.run_id + "-" + side.role + ".json";
  }

  install_interrupt_handlers();
  Progress progress(err, options.progress, ::isatty(2) != 0, total);
  std::mt19937_64 coin(seed);
  std::vector<std::string> first_in_pair;
  int signal = 0;
  for (std::int64_t i = 0; i < options.processes && signal == 0; ++i) {
    const int first = static_cast<int>(coin() >> 63);  // 0: base first (AB), 1: candidate first (BA)
    first_in_pair.push_back(sides[first].role);
    for (int k = 0; k < 2 && signal == 0; ++k) {
      Side& side = sides[(first + k) % 2];
      if (!side.runner->run_process(i, &progress)) signal = side.runner->interrupt_signal();
    }
  }
  progress.close();

  const std::string paths[2] = {sides[0].path, sides[1].path};
  const auto ended = write_side_records(
      [&](int s) { return side_record(sides[s], options, first_in_pair, sides[1 - s].header.run_id, signal != 0); },
      paths, signal, err);
  result.exit_code = ended;
  result.paths[0] = sides[0].path;
  result.paths[1] = sides[1].path;
  return result;
}

}  // namespace gbx::tools
