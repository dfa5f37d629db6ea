#include "reporters/google_benchmark_flags.h"

#include <regex.h>

#include <cctype>
#include <cstdlib>
#include <map>

#include "model/protocol.h"

namespace gbx {

namespace {

// Google Benchmark's reading of a boolean flag's value (IsTruthyFlagValue): a bare flag is true,
// and so is every word but false, no, off and the letters 0, f, n.
bool truthy(const std::string& value) {
  if (value.size() == 1)
    return std::isalnum(static_cast<unsigned char>(value[0])) != 0 &&
           std::string("0fFnN").find(value[0]) == std::string::npos;
  std::string lower;
  for (const char c : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return !(lower == "false" || lower == "no" || lower == "off");
}

// The values given for Google Benchmark's flags: from the environment first (BENCHMARK_FILTER for
// --benchmark_filter, as Google Benchmark reads it), then the command line, the last one winning.
// Each value is kept with how the user gave it ("--benchmark_x=v" or "BENCHMARK_X=v (environment)").
struct Given {
  std::string value;
  std::string as_given;
};

std::map<std::string, Given> given_values(const std::vector<std::string>& args) {
  static const char* const names[] = {"benchmark_dry_run", "benchmark_perf_counters", "benchmark_counters_tabular",
                                      "benchmark_color",   "benchmark_time_unit",     "benchmark_filter"};
  std::map<std::string, Given> values;
  for (const std::string name : names) {
    std::string variable;
    for (const char c : name) variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (const char* value = std::getenv(variable.c_str())) {
      values[name] = {value, variable + "=" + value + " (in the environment)"};
    }
    for (const std::string& arg : args) {
      if (arg == "--" + name) values[name] = {"true", arg};
      if (arg.rfind("--" + name + "=", 0) == 0) values[name] = {arg.substr(name.size() + 3), arg};
    }
  }
  return values;
}

[[noreturn]] void refuse(const Given& given, const std::string& why) {
  throw detail::FlagError(given.as_given + " " + why);
}

// "" when Google Benchmark can compile filter (an extended regular expression, "-" negating it).
std::string regex_fault(std::string filter) {
  if (!filter.empty() && filter[0] == '-') filter.erase(0, 1);
  regex_t compiled;
  const int code = ::regcomp(&compiled, filter.c_str(), REG_EXTENDED | REG_NOSUB);
  if (code == 0) {
    ::regfree(&compiled);
    return "";
  }
  char message[256];
  ::regerror(code, &compiled, message, sizeof message);
  return message;
}

}  // namespace

GoogleBenchmarkFlags check_google_benchmark_flags(const std::vector<std::string>& args) {
  GoogleBenchmarkFlags flags;
  const std::map<std::string, Given> given = given_values(args);
  const auto value_of = [&given](const std::string& name) -> const Given* {
    const auto found = given.find(name);
    return found == given.end() ? nullptr : &found->second;
  };
  if (const Given* v = value_of("benchmark_dry_run"); v && truthy(v->value)) {
    refuse(*v,
           "does not apply: use --benchmark_list_tests to see the selection, or --gbx_warmup=0 --gbx_min_samples=1 "
           "--gbx_max_samples=1 to run each benchmark once");
  }
  if (const Given* v = value_of("benchmark_perf_counters"); v && !v->value.empty()) {
    refuse(*v,
           "does not apply: the counters would span gbx's whole measurement of a benchmark (warm-up, calibration "
           "and every sample), not one run");
  }
  if (const Given* v = value_of("benchmark_counters_tabular"); v && truthy(v->value)) {
    refuse(*v, "does not apply: gbx's console table shows no counters; the record (--benchmark_format=json) has them");
  }
  if (const Given* v = value_of("benchmark_color"); v && v->value != "auto" && truthy(v->value)) {
    refuse(*v, "cannot be honoured: gbx's console table is plain text, never coloured");
  }
  if (const Given* v = value_of("benchmark_time_unit"); v && !v->value.empty()) {
    static const std::map<std::string, benchmark::TimeUnit> units = {{"ns", benchmark::kNanosecond},
                                                                     {"us", benchmark::kMicrosecond},
                                                                     {"ms", benchmark::kMillisecond},
                                                                     {"s", benchmark::kSecond}};
    const auto unit = units.find(v->value);
    if (unit == units.end()) throw detail::FlagError("invalid value in " + v->as_given + ": expected ns, us, ms or s");
    flags.time_unit = unit->second;
  }
  if (const Given* v = value_of("benchmark_filter")) {
    const std::string fault = regex_fault(v->value);
    if (!fault.empty())
      throw detail::FlagError("invalid value in " + v->as_given + ": not a regular expression (" + fault + ")");
  }
  return flags;
}

std::unique_ptr<benchmark::BenchmarkReporter> google_benchmark_printer(const std::string& format) {
  if (format == "console") return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
  if (format == "csv") {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  }
  return nullptr;
}

std::string no_benchmark_matched() {
  return "no benchmark matched --benchmark_filter='" + benchmark::GetBenchmarkFilter() +
         "' (--benchmark_list_tests lists them all); nothing ran";
}

}  // namespace gbx
