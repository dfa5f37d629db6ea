#include "cli/export_command.h"

#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "record/atomic_file.h"
#include "record/record_reader.h"
#include "report/export_bencher.h"
#include "report/export_conbench.h"
#include "report/export_github.h"
#include "report/export_metrics.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;

std::string text_of(const json& file) { return file.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

std::string refuse(const ExportOptions& options, const std::vector<std::string>& outputs) {
  if (options.format != "bencher" && options.format != "github-action-benchmark" && options.format != "conbench") {
    return "invalid value '" + options.format + "' for --format: expected bencher, github-action-benchmark or conbench";
  }
  if (options.inputs.empty()) return "no record given";
  if (options.output.empty() || options.output == "-") return "-o is required: the file to write (a prefix for github)";
  if (options.format == "conbench" && options.repository.rfind("https://github.com/", 0) != 0) {
    return "--repository is required for conbench: the benchmarked repository as https://github.com/ORG/REPO "
           "(Conbench's github.repository), got '" +
           options.repository + "'";
  }
  for (const std::string& output : outputs) {
    for (const std::string& input : options.inputs) {
      std::error_code error;
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation): the message is built once, on the way out
      if (std::filesystem::equivalent(input, output, error)) return output + " is the input record " + input;
    }
  }
  return "";
}

}  // namespace

int export_command(const ExportOptions& options, std::ostream& out, std::ostream& err) {
  const bool github = options.format == "github-action-benchmark";
  const std::string smaller = options.output + "-smaller-is-better.json";
  const std::string bigger = options.output + "-bigger-is-better.json";
  const std::vector<std::string> outputs =
      github ? std::vector<std::string>{smaller, bigger} : std::vector<std::string>{options.output};
  if (const std::string refused = refuse(options, outputs); !refused.empty()) {
    err << "gbx export: " << refused << "\n";
    return 2;
  }
  // Everything is read and built before anything is written: a bad record leaves no file behind.
  std::vector<LoadedRecord> records;
  std::vector<ExportRun> runs;
  std::vector<std::pair<std::string, std::string>> files;  // path, content
  std::size_t benchmarks = 0;
  try {
    records.reserve(options.inputs.size());
    for (const std::string& path : options.inputs) records.push_back(load_record(path));
    for (const LoadedRecord& record : records) {
      runs.push_back(export_run(record));
      benchmarks += runs.back().benchmarks.size();
    }
    if (options.format == "bencher") {
      files.emplace_back(options.output, text_of(bencher_metric_format(runs)));
    } else if (github) {
      const GithubBenchmarkFiles both = github_action_benchmark(runs);
      files.emplace_back(smaller, text_of(both.smaller_is_better));
      // The action refuses a file without an entry: a suite with no rate or user counter gets no
      // bigger-is-better file.
      if (!both.bigger_is_better.empty()) files.emplace_back(bigger, text_of(both.bigger_is_better));
    } else {
      files.emplace_back(options.output, text_of(conbench_results(runs, {options.repository, options.run_reason})));
    }
  } catch (const BadRecord& error) {
    err << "gbx export: " << error.what() << "\n";
    return 2;
  } catch (const ExportError& error) {
    err << "gbx export: " << error.what() << "\n";
    return 2;
  }
  if (benchmarks == 0) err << "gbx export: warning: no measured benchmark in the records; the files hold none\n";
  for (const auto& [path, content] : files) {
    try {
      write_file_atomically(path, content);
    } catch (const std::runtime_error& error) {
      err << "gbx export: " << error.what() << "\n";
      return 2;
    }
    out << "gbx export: wrote " << path << "\n";
  }
  if (github && files.size() == 1) out << "gbx export: no rate or counter to export, so no " << bigger << "\n";
  out << "benchmarks: " << benchmarks << "\n";
  const ExportMachine& machine = runs.front().machine;
  out << "testbed: " << machine.testbed() << "\n";
  if (!machine.commit.empty()) out << "commit: " << machine.commit << "\n";
  return 0;
}

}  // namespace gbx::tools
