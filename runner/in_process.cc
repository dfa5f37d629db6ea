#include "runner/in_process.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/pareto.h"
#include "analysis/run_analysis.h"
#include "environment/environment.h"
#include "environment/peaks.h"
#include "model/interrupt.h"
#include "processes/process_progress.h"
#include "processes/process_runner.h"
#include "reporters/console_table.h"
#include "reporters/gbx_reporter.h"
#include "reporters/google_benchmark_flags.h"
#include "runner/benchmark_passes.h"
#include "writer/record_finisher.h"

namespace gbx {

namespace {

// Progress of a run in this process: it needs the selection, in the order it runs, which a listing
// child gives; Google Benchmark tells only when each benchmark finishes, so the next one is named from it.
std::unique_ptr<Progress> in_process_progress(const std::vector<std::string>& command, const std::string& mode,
                                              bool listing) {
  const bool terminal = ::isatty(2) != 0;
  if (listing || mode == "off") return nullptr;
  try {
    auto names = list_benchmarks(self_executable(), std::vector<std::string>(command.begin() + 1, command.end()));
    auto progress = std::make_unique<Progress>(std::cerr, mode, terminal, names.size());
    progress->run_in_order(std::move(names));
    return progress;
  } catch (const std::exception& error) {
    if (mode == "on" || terminal) std::cerr << "gbx: no progress: " << error.what() << "\n";
    return nullptr;
  }
}

}  // namespace

int run_in_process(const std::vector<std::string>& command, const detail::CommandLine& line, const RunOutputs& output,
                   const RecordHeader& header_at_start) {
  // console: the gbx table; csv: Google Benchmark's; json: the record itself, once everything has run.
  benchmark::BenchmarkReporter* display = output.format == "csv" ? benchmark::CreateDefaultDisplayReporter() : nullptr;
  GbxReporter reporter(display, output.out.empty() ? nullptr : google_benchmark_printer(output.out_format));
  ConsoleTable console(std::cout, line.protocol, header_at_start.run_id);
  console.set_list_not_run(line.list_not_run);
  if (output.format == "console") reporter.set_console(&console);
  reporter.set_aggregates_only(output.display_aggregates_only || output.report_aggregates_only,
                               output.report_aggregates_only);
  // The peaks that throughput is a fraction of: measured (CPU) or read (GPU) once, before the run.
  const bool listing = output.list_tests;
  const Peak cpu_peak = listing ? Peak{} : machine_cpu_peak();
  const Peak device_peak = listing ? Peak{} : gpu_peak();
  AnalysisOptions analysis_options;
  analysis_options.cpu_peak = &cpu_peak;
  analysis_options.gpu_peak = &device_peak;
  reporter.set_analysis_options(analysis_options);
  const EnvironmentSnapshot environment_at_start = capture_start();
  std::unique_ptr<Progress> progress = in_process_progress(command, line.processes.progress, listing);
  if (progress) {
    reporter.set_on_finished([&progress](const std::string& name, bool failed) { progress->finished(name, failed); });
  }
  if (listing) {
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    run_benchmarks(reporter, benchmark::GetBenchmarkFilter());
  }
  if (progress) progress->close();
  if (output.list_tests) return 0;
  // Google Benchmark reports nothing, not even its context, when the filter matched no benchmark.
  if (reporter.google_benchmark_json().empty()) {
    std::cerr << "gbx: " << no_benchmark_matched() << "\n";
    return 2;
  }
  RecordHeader header = header_at_start;
  header.interrupted = interrupt_requested();
  header.environment = capture_environment(environment_at_start, command);
  header.environment["peaks"] = {{"cpu", peak_json(cpu_peak)}, {"gpu", peak_json(device_peak)}};

  try {
    nlohmann::json record =
        build_record(reporter.google_benchmark_json(), reporter.entries(), header, &reporter.analyses());
    const std::vector<ParetoGroup> pareto = finish_record(record, header.interrupted, std::cerr);
    header.interrupted = record["gbx"]["interrupted"].get<bool>();
    if (output.format == "console") print_pareto(std::cout, pareto);
    RecordDestinations destinations{output.record_path, output.out, std::nullopt, output.format == "json"};
    if (output.out_format != "json") destinations.out_text = reporter.file_output();
    write_record(record, destinations, std::cout);
    if (!output.record_path.empty()) std::cerr << "gbx: record written to " << output.record_path << "\n";
  } catch (const std::exception& error) {
    std::cerr << "gbx: cannot write the record: " << error.what() << "\n";
    return 1;
  }
  if (header.interrupted) {
    std::cerr << "gbx: interrupted by signal " << interrupt_signal()
              << "; the record keeps the benchmarks that finished\n";
    return 128 + interrupt_signal();
  }
  return reporter.any_failed() ? 1 : 0;
}

}  // namespace gbx
