#include "reporters/plain_protocol.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "reporters/run_error.h"

namespace gbx {

namespace {

PlainLayout active_layout;

std::int64_t repetitions(const std::optional<std::pair<std::string, std::string>>& given) {
  if (!given) return 1;
  const std::string& text = given->first;
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stol(text) < 1) {
    throw detail::FlagError("invalid value in " + given->second + ": expected a positive integer");
  }
  return std::stol(text);
}

// Google Benchmark 1.8 took a unit suffix for --benchmark_min_time (and warns without one); 1.7.1
// reads a bare number of seconds. The Run type tells which (reporters/run_error.h).
bool min_time_takes_suffix() { return google_benchmark_takes_iteration_counts(); }

std::string per_sample_min_time(const std::optional<std::pair<std::string, std::string>>& given, std::int64_t samples) {
  std::string text = given ? given->first : "0.5";
  if (!text.empty() && text.back() == 'x') {     // iterations: every repetition runs that many
    return min_time_takes_suffix() ? text : "";  // 1.7 has none: runner/benchmark_passes.h refuses it
  }
  if (!text.empty() && text.back() == 's') text.pop_back();
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(seconds) || seconds <= 0.0) {
    throw detail::FlagError("invalid value in " + given->second +
                            ": expected seconds greater than 0 (0.5 or 0.5s), or an iteration count (100x)");
  }
  char value[40];
  std::snprintf(value, sizeof value, "%.6g%s", seconds / static_cast<double>(samples),
                min_time_takes_suffix() ? "s" : "");
  return value;
}

// "k=v,k2=v2", as Google Benchmark reads --benchmark_context.
std::vector<std::pair<std::string, std::string>> context_pairs(const std::string& arg) {
  const std::string text = arg.substr(arg.find('=') + 1);
  std::vector<std::pair<std::string, std::string>> pairs;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto comma = text.find(',', start);
    const std::string pair = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto equals = pair.find('=');
    if (equals == std::string::npos || pair.find('=', equals + 1) != std::string::npos) {
      throw detail::FlagError("invalid value in " + arg + ": expected key=value pairs separated by commas");
    }
    pairs.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return pairs;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> given_flag(const std::vector<std::string>& args,
                                                              const std::string& flag) {
  std::optional<std::pair<std::string, std::string>> found;
  const std::string prefix = "--" + flag + "=";
  for (const std::string& arg : args) {
    if (arg.rfind(prefix, 0) == 0) found = {{arg.substr(prefix.size()), arg}};
  }
  if (found) return found;
  std::string variable;
  for (const char c : flag) variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (const char* value = std::getenv(variable.c_str())) {
    return {{value, variable + "=" + value + " (in the environment)"}};
  }
  return std::nullopt;
}

PlainPlan plan_plain_runs(const std::vector<std::string>& args, const detail::Protocol& protocol) {
  PlainPlan plan;
  plan.layout.warmup = protocol.warmup_auto || protocol.warmup_runs > 0 ? 1 : 0;
  plan.layout.samples = std::max<std::int64_t>(protocol.min_samples, 1);
  plan.layout.groups = repetitions(given_flag(args, "benchmark_repetitions"));
  plan.layout.per_sample_min_time = per_sample_min_time(given_flag(args, "benchmark_min_time"), plan.layout.samples);
  if (const auto warmup = given_flag(args, "benchmark_min_warmup_time")) {
    char* end = nullptr;
    const double seconds = std::strtod(warmup->first.c_str(), &end);
    if (warmup->first.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0.0) {
      throw detail::FlagError("invalid value in " + warmup->second + ": expected seconds, 0 or more");
    }
    plan.layout.min_warmup_time = warmup->first;
  }
  for (const std::string& arg : args) {
    const auto is = [&arg](const std::string& flag) {
      return arg == "--" + flag || arg.rfind("--" + flag + "=", 0) == 0;
    };
    if (is("benchmark_context")) {
      const auto pairs = context_pairs(arg);
      plan.context.insert(plan.context.end(), pairs.begin(), pairs.end());
      continue;
    }
    if (is("benchmark_min_time") || is("benchmark_min_warmup_time") || is("benchmark_display_aggregates_only") ||
        is("benchmark_report_aggregates_only")) {
      continue;
    }
    plan.args.push_back(arg);
  }
  if (!plan.layout.per_sample_min_time.empty()) {
    plan.args.push_back("--benchmark_min_time=" + plan.layout.per_sample_min_time);
  }
  // Explicit, so that the environment's BENCHMARK_*_AGGREGATES_ONLY cannot hide the samples either.
  plan.args.push_back("--benchmark_display_aggregates_only=false");
  plan.args.push_back("--benchmark_report_aggregates_only=false");
  return plan;
}

bool google_benchmark_takes_iteration_counts() { return RunHasSkipMessage<benchmark::BenchmarkReporter::Run>::value; }

void set_plain_layout(const PlainLayout& layout) { active_layout = layout; }

const PlainLayout& plain_layout() { return active_layout; }

}  // namespace gbx
