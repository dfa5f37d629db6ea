#include "main/process_driver.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include "analysis/pareto.h"
#include "environment/environment.h"
#include "environment/peaks.h"
#include "model/interrupt.h"
#include "processes/process_runner.h"
#include "record/atomic_file.h"
#include "record/benchmark_row_keys.h"
#include "record/checksum.h"
#include "reporters/console_table.h"
#include "reporters/google_benchmark_flags.h"
#include "reporters/run_error.h"
#include "runner/process_child.h"
#include "writer/process_merge.h"
#include "writer/record_finisher.h"

namespace gbx {

namespace {

using Run = benchmark::BenchmarkReporter::Run;

benchmark::TimeUnit time_unit_from(const std::string& unit) {
  if (unit == "us") return benchmark::kMicrosecond;
  if (unit == "ms") return benchmark::kMillisecond;
  if (unit == "s") return benchmark::kSecond;
  return benchmark::kNanosecond;
}

// Marks a run stopped by SkipWithError, in the spelling of this Google Benchmark (see run_error.h).
template <class RunType>
void set_run_error(RunType& run, const std::string& message) {
  if constexpr (RunHasSkipMessage<RunType>::value) {
    using Skipped = std::decay_t<decltype(run.skipped)>;
    run.skipped = Skipped::SkippedWithError;
    run.skip_message = message;
  } else {
    run.error_occurred = true;
    run.error_message = message;
  }
}

// Google Benchmark's run back from its JSON row, for its printers and the console table.
Run run_from_json(const nlohmann::json& b) {
  Run run;
  run.run_name.function_name = b.value("run_name", b.value("name", std::string()));
  run.family_index = b.value("family_index", std::int64_t{-1});
  run.per_family_instance_index = b.value("per_family_instance_index", std::int64_t{-1});
  run.run_type = b.value("run_type", std::string()) == "aggregate" ? Run::RT_Aggregate : Run::RT_Iteration;
  run.aggregate_name = b.value("aggregate_name", std::string());
  run.aggregate_unit =
      b.value("aggregate_unit", std::string()) == "percentage" ? benchmark::kPercentage : benchmark::kTime;
  run.report_label = b.value("label", std::string());
  if (b.value("error_occurred", false)) set_run_error(run, b.value("error_message", std::string()));
  run.iterations = b.value("iterations", std::int64_t{1});
  run.threads = b.value("threads", std::int64_t{1});
  run.repetition_index = b.value("repetition_index", std::int64_t{0});
  run.repetitions = b.value("repetitions", std::int64_t{1});
  run.time_unit = time_unit_from(b.value("time_unit", std::string("ns")));
  const auto value = [&b](const char* key) {
    return b.contains(key) && b[key].is_number() ? b[key].get<double>() : 0.0;
  };
  const double scale = run.iterations != 0 ? static_cast<double>(run.iterations) : 1.0;
  const bool percentage = run.run_type == Run::RT_Aggregate && run.aggregate_unit == benchmark::kPercentage;
  const double multiplier = benchmark::GetTimeUnitMultiplier(run.time_unit);
  run.real_accumulated_time = percentage ? value("real_time") : value("real_time") / multiplier * scale;
  run.cpu_accumulated_time = percentage ? value("cpu_time") : value("cpu_time") / multiplier * scale;
  run.statistics = nullptr;
  for (const auto& [key, counter] : b.items()) {
    if (!is_google_benchmark_row_key(key) && counter.is_number())
      run.counters[key] = benchmark::Counter(counter.get<double>());
  }
  return run;
}

std::unique_ptr<benchmark::BenchmarkReporter> printer_for(const std::string& format, std::ostream& out) {
  std::unique_ptr<benchmark::BenchmarkReporter> printer = google_benchmark_printer(format);
  if (printer) {
    printer->SetOutputStream(&out);
    printer->SetErrorStream(&out);
  }
  return printer;
}

// A repetition of a benchmark with several: hidden by the *_aggregates_only flags.
bool hidden_repetition(const Run& run, bool aggregates_only) {
  return aggregates_only && run.run_type == Run::RT_Iteration && run.repetitions > 1;
}

// Rows that could not run here are left out, as the record leaves them out of `benchmarks`.
void print_with(benchmark::BenchmarkReporter& printer, const benchmark::BenchmarkReporter::Context& context,
                const std::vector<Run>& runs, const std::vector<MergedRow>& rows, bool aggregates_only) {
  printer.ReportContext(context);
  std::vector<Run> shown;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!hidden_repetition(runs[i], aggregates_only) && !left_out_of_benchmarks(rows[i].record)) {
      shown.push_back(runs[i]);
    }
  }
  if (!shown.empty()) printer.ReportRuns(shown);
  printer.Finalize();
}

std::uint64_t drawn_seed() {
  std::random_device device;
  // 48 bits: exact in every JSON reader, JavaScript's included.
  return ((static_cast<std::uint64_t>(device()) << 32) ^ device()) & 0xffffffffffffULL;
}

}  // namespace

int run_isolated(const std::vector<std::string>& command, const detail::CommandLine& line, const RunOutputs& outputs,
                 const RecordHeader& header_at_start) {
  const std::vector<std::string> args(command.begin() + 1, command.end());
  std::string self;
  std::vector<std::string> names;
  try {
    self = self_executable();
    names = list_benchmarks(self, args);
  } catch (const std::exception& error) {
    std::cerr << "gbx: " << error.what() << "\n";
    return 1;
  }
  if (names.empty()) {
    std::cerr << "gbx: " << no_benchmark_matched() << "\n";
    return 2;
  }
  const std::int64_t processes = line.protocol.processes;
  const std::uint64_t seed = line.processes.order_seed ? *line.processes.order_seed : drawn_seed();
  // Measured once here; the children skip it (they only sample).
  const Peak cpu_peak = machine_cpu_peak();
  const Peak device_peak = gpu_peak();
  const EnvironmentSnapshot environment_at_start = capture_start();
  const nlohmann::json context = google_benchmark_context();
  install_interrupt_handlers();

  Progress progress(std::cerr, line.processes.progress, ::isatty(2) != 0,
                    names.size() * static_cast<std::size_t>(processes));
  ProcessRunner runner(self, args, names, processes, seed, line.processes.benchmark_timeout_seconds);
  int signal = 0;
  for (std::int64_t i = 0; i < processes && signal == 0; ++i) {
    if (!runner.run_process(i, &progress)) signal = runner.interrupt_signal();
  }
  progress.close();

  AnalysisOptions analysis_options;
  analysis_options.cpu_peak = &cpu_peak;
  analysis_options.gpu_peak = &device_peak;
  const std::vector<MergedRow> rows = merge_process_rows(runner.results(), analysis_options);
  RecordHeader header = header_at_start;
  header.interrupted = signal != 0;
  header.environment = capture_environment(environment_at_start, command);
  header.environment["peaks"] = {{"cpu", peak_json(cpu_peak)}, {"gpu", peak_json(device_peak)}};

  std::vector<Run> runs;
  std::size_t longest = 10;
  for (const auto& row : rows) {
    runs.push_back(run_from_json(row.benchmark));
    longest = std::max(longest, runs.back().benchmark_name().size());
  }
  benchmark::BenchmarkReporter::Context gb_context;
  gb_context.name_field_width = longest;
  try {
    nlohmann::json record = build_process_record(runner.results(), rows, context, header);
    const std::vector<ParetoGroup> pareto = finish_record(record, header.interrupted, std::cerr);
    if (outputs.format == "console") {
      ConsoleTable console(std::cout, line.protocol, header.run_id);
      console.set_list_not_run(line.list_not_run);
      console.print_header(gb_context);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!hidden_repetition(runs[i], outputs.display_aggregates_only || outputs.report_aggregates_only)) {
          console.print_row(runs[i], rows[i].record, rows[i].analysis);
        }
      }
      console.print_footer();
      std::cout << "processes: " << processes << ", each in its own random order (seed " << seed
                << "); real_time is the median of the processes' medians\n";
      print_pareto(std::cout, pareto);
    } else if (outputs.format == "csv") {
      print_with(*printer_for("csv", std::cout), gb_context, runs, rows,
                 outputs.display_aggregates_only || outputs.report_aggregates_only);
    }
    RecordDestinations destinations{outputs.record_path, outputs.out, std::nullopt, outputs.format == "json"};
    if (!outputs.out.empty() && outputs.out_format != "json") {
      std::ostringstream text;
      print_with(*printer_for(outputs.out_format, text), gb_context, runs, rows, outputs.report_aggregates_only);
      destinations.out_text = text.str();
    }
    write_record(record, destinations, std::cout);
    if (!outputs.record_path.empty()) std::cerr << "gbx: record written to " << outputs.record_path << "\n";
  } catch (const std::exception& error) {
    std::cerr << "gbx: cannot write the record: " << error.what() << "\n";
    return 1;
  }
  if (signal != 0) {
    std::cerr << "gbx: interrupted by signal " << signal << "; the record keeps the benchmarks that finished\n";
    return 128 + signal;
  }
  return any_failed(rows) ? 1 : 0;
}

}  // namespace gbx
