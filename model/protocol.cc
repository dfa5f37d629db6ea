#include "model/protocol.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "model/spelling.h"

namespace gbx::detail {

const char* to_string(CacheMode mode) {
  switch (mode) {
    case CacheMode::cold:
      return "cold";
    case CacheMode::rotate:
      return "rotate";
    case CacheMode::hot:
      break;
  }
  return "hot";
}

namespace {

Protocol& protocol_storage() {
  static Protocol protocol;
  return protocol;
}

[[noreturn]] void refuse(const std::string& flag, const std::string& value, const std::string& expected) {
  throw FlagError("invalid value '" + value + "' for --" + flag + ": expected " + expected);
}

std::int64_t parse_count(const std::string& flag, const std::string& value, std::int64_t least) {
  const std::string expected = least == 0 ? "a non-negative integer" : "a positive integer";
  if (value.empty() || value.find_first_not_of("0123456789+-") != std::string::npos) refuse(flag, value, expected);
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || parsed < least) refuse(flag, value, expected);
  return parsed;
}

double parse_positive(const std::string& flag, const std::string& value, const std::string& expected) {
  if (value.empty()) refuse(flag, value, expected);
  errno = 0;
  char* end = nullptr;
  const double parsed = std::strtod(value.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed) || parsed <= 0.0) refuse(flag, value, expected);
  return parsed;
}

std::string plain_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::vector<std::int64_t> parse_index_list(const std::string& flag, const std::string& value) {
  std::vector<std::int64_t> indices;
  std::size_t start = 0;
  while (start < value.size()) {
    const auto comma = value.find(',', start);
    indices.push_back(parse_count(flag, value.substr(start, comma - start), 0));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return indices;
}

template <typename Given>
void parse_process_flags(const Given& given, CommandLine& line) {
  ProcessOptions& o = line.processes;
  if (const std::string* processes = given("gbx_processes")) {
    line.protocol.processes = parse_count("gbx_processes", *processes, 1);
    o.isolated = true;
  }
  if (const std::string* seed = given("gbx_order_seed")) {
    o.order_seed = static_cast<std::uint64_t>(parse_count("gbx_order_seed", *seed, 0));
  }
  if (const std::string* timeout = given("gbx_benchmark_timeout")) {
    o.benchmark_timeout_seconds = parse_positive("gbx_benchmark_timeout", *timeout, "a positive number of seconds");
    o.isolated = true;  // only a parent can stop a benchmark that hangs
  }
  if (const std::string* progress = given("gbx_progress")) {
    if (*progress != "auto" && *progress != "on" && *progress != "off")
      refuse("gbx_progress", *progress, "auto, on or off");
    o.progress = *progress;
  }
  if (const std::string* child = given("gbx_child")) {
    o.child_fd = static_cast<int>(parse_count("gbx_child", *child, 0));
    const std::string* order = given("gbx_child_order");
    o.child_order = parse_index_list("gbx_child_order", order != nullptr ? *order : "");
  }
  if (const std::string* describe = given("gbx_describe")) {
    o.describe_fd = static_cast<int>(parse_count("gbx_describe", *describe, 0));
  }
}

// Flags a user may mean, beside those parsed here: --gbx_shard and --gbx_shard_plan are taken out
// before (processes/shard.h); the internal ones a parent passes its children are never suggested.
bool suggested(const std::string& name) {
  return name != "gbx_child" && name != "gbx_child_order" && name != "gbx_describe";
}

// The nearest spellings first, where there are any: the full list below them is long.
std::string unknown_flag_message(const std::string& arg, const std::string& name, const std::vector<std::string>& names,
                                 const std::vector<std::string>& load_names) {
  std::vector<std::string> known = {"gbx_axis", "gbx_shard", "gbx_shard_plan"};
  for (const auto* list : {&names, &load_names}) {
    std::copy_if(list->begin(), list->end(), std::back_inserter(known), suggested);
  }
  const std::vector<std::string> nearest = nearest_spellings(name, known);
  std::string message = "unknown flag '" + arg + "'";
  if (!nearest.empty()) message += "; did you mean " + spelling_list(nearest, "--") + "?";
  return message + "\nThe gbx flags are:\n" + flags_help();
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  // Every gbx flag takes a value, written --gbx_name=value as Google Benchmark writes its own. The
  // split is done here rather than by a general parser so that an empty value stays empty and a
  // missing one never swallows the next argument.
  const std::vector<std::string> names = {
      "gbx_warmup",     "gbx_min_samples",   "gbx_max_samples", "gbx_max_time",   "gbx_cache",
      "gbx_out_dir",    "gbx_target_rel_ci", "gbx_processes",   "gbx_order_seed", "gbx_benchmark_timeout",
      "gbx_progress",   "gbx_child",         "gbx_child_order", "gbx_describe",   "gbx_list_not_run",
      "gbx_warmup_max", "gbx_min_time"};
  std::map<std::string, std::string> values;
  CommandLine line;
  const auto& load_names = load_flag_names();
  for (const auto& arg : args) {
    if (arg.rfind("--gbx_", 0) != 0) {
      line.passthrough.push_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    // The one flag given once per axis; its values are checked against the benchmarks' axes later.
    if (name == "gbx_axis") {
      if (equals == std::string::npos) throw FlagError("--gbx_axis needs a value: --gbx_axis=NAME=VALUES");
      line.axes.push_back(arg.substr(equals + 1));
      continue;
    }
    if (std::find(names.begin(), names.end(), name) == names.end() &&
        std::find(load_names.begin(), load_names.end(), name) == load_names.end()) {
      throw FlagError(unknown_flag_message(arg, name, names, load_names));
    }
    // The one switch: --gbx_list_not_run alone means =true.
    if (equals == std::string::npos && name == "gbx_list_not_run") {
      values.emplace(name, "true");
      continue;
    }
    // NOLINTNEXTLINE(performance-inefficient-string-concatenation): the message is built once, on the way out
    if (equals == std::string::npos) throw FlagError("--" + name + " needs a value: --" + name + "=VALUE");
    if (!values.emplace(name, arg.substr(equals + 1)).second) {
      throw FlagError("--" + name + " is given more than once");
    }
  }
  const auto given = [&](const char* name) -> const std::string* {
    const auto found = values.find(name);
    return found == values.end() ? nullptr : &found->second;
  };
  const std::string* warmup = given("gbx_warmup");
  const std::string* min_samples = given("gbx_min_samples");
  const std::string* max_samples = given("gbx_max_samples");
  const std::string* max_time = given("gbx_max_time");
  const std::string* cache = given("gbx_cache");
  const std::string* out_dir = given("gbx_out_dir");
  const std::string* target_rel_ci = given("gbx_target_rel_ci");
  Protocol& p = line.protocol;
  if (warmup && *warmup == "auto") {
    p.warmup_auto = true;
  } else if (warmup) {
    if (warmup->empty() || warmup->find_first_not_of("0123456789") != std::string::npos) {
      refuse("gbx_warmup", *warmup, "a non-negative integer or auto");
    }
    p.warmup_runs = parse_count("gbx_warmup", *warmup, 0);
  }
  if (const std::string* most = given("gbx_warmup_max")) {
    if (!p.warmup_auto) throw FlagError("--gbx_warmup_max needs --gbx_warmup=auto");
    p.warmup_max_samples = parse_count("gbx_warmup_max", *most, 1);
  }
  if (min_samples) p.min_samples = parse_count("gbx_min_samples", *min_samples, 1);
  if (max_samples) p.max_samples = parse_count("gbx_max_samples", *max_samples, 1);
  if (max_time) p.max_time_seconds = parse_positive("gbx_max_time", *max_time, "a positive number of seconds");
  if (const std::string* min_time = given("gbx_min_time")) {
    p.min_time_seconds = parse_positive("gbx_min_time", *min_time, "a positive number of seconds");
    // max_time bounds the whole measurement, warm-up included, so a span as long would never be sampled.
    if (p.min_time_seconds >= p.max_time_seconds) {
      throw FlagError("--gbx_min_time=" + *min_time +
                      " is not below --gbx_max_time=" + plain_number(p.max_time_seconds) +
                      ", which bounds each benchmark's whole measurement, warm-up included; raise --gbx_max_time");
    }
  }
  if (cache) {
    if (*cache == "cold") {
      p.cache = CacheMode::cold;
    } else if (*cache == "hot") {
      p.cache = CacheMode::hot;
    } else if (*cache == "rotate") {
      p.cache = CacheMode::rotate;
    } else {
      refuse("gbx_cache", *cache, "cold, hot or rotate");
    }
  }
  if (target_rel_ci) {
    p.target_rel_ci = parse_positive("gbx_target_rel_ci", *target_rel_ci, "a relative half-width in (0, 1]");
    if (p.target_rel_ci > 1.0) refuse("gbx_target_rel_ci", *target_rel_ci, "a relative half-width in (0, 1]");
  }
  if (p.min_samples > p.max_samples) {
    throw FlagError("--gbx_min_samples=" + std::to_string(p.min_samples) +
                    " is greater than --gbx_max_samples=" + std::to_string(p.max_samples));
  }
  if (out_dir) {
    if (out_dir->empty()) throw FlagError("invalid value '' for --gbx_out_dir: expected a directory");
    line.out_dir = *out_dir;
  }
  if (const std::string* list = given("gbx_list_not_run")) {
    if (*list != "true" && *list != "false") refuse("gbx_list_not_run", *list, "true or false");
    line.list_not_run = *list == "true";
  }
  parse_process_flags(given, line);
  for (const auto& name : load_names) {
    if (const std::string* value = given(name.c_str())) parse_load_flag(name, *value, line.load);
  }
  return line;
}

std::string flags_help() {
  const Protocol defaults;
  std::ostringstream out;
  out << "  --gbx_warmup=N|auto    runs before sampling, discarded (default " << defaults.warmup_runs
      << "); auto: until the timings\n"
      << "                         (and a GPU's SM clock) are steady, flagged no_steady_state at the bound\n"
      << "  --gbx_warmup_max=N     auto warm-up's bound, in timed warm-up samples (default "
      << defaults.warmup_max_samples << ")\n"
      << "  --gbx_min_samples=N    samples taken per benchmark (default " << defaults.min_samples << ")\n"
      << "  --gbx_max_samples=N    most samples per benchmark (default " << defaults.max_samples << ")\n"
      << "  --gbx_max_time=S       wall-time bound per benchmark, seconds (default " << defaults.max_time_seconds
      << ")\n"
      << "  --gbx_min_time=S       sample until the samples span at least S seconds, as well as min_samples\n"
      << "                         (default off); for a coarse counter such as a GPU's energy\n"
      << "  --gbx_cache=cold|hot|rotate  cold flushes caches before every sample, untimed; rotate cycles\n"
      << "                         copies of the inputs so that each run misses the cache (default hot)\n"
      << "  --gbx_axis=NAME=VALUES set a parameter axis: 1,2,4 or 2^10:2^24:2 (powers of two, exponent step)\n"
      << "                         or 0:100:10; once per axis\n"
      << "  --gbx_target_rel_ci=R  sample until the median's 95% CI half-width / median <= R (default off)\n"
      << "  --gbx_out_dir=DIR      write the JSON record to DIR/<UTC time>-<run id>.json\n"
      << "  --gbx_processes=K      run the selection in K fresh processes, each in its own random order, into\n"
      << "                         one record (default: everything in this process)\n"
      << "  --gbx_order_seed=S     seed of the processes' random orders (default: drawn, and recorded)\n"
      << "  --gbx_benchmark_timeout=S  a benchmark still running after S seconds is killed and recorded failed\n"
      << "  --gbx_progress=auto|on|off  progress on stderr, naming the benchmark running (auto: a line\n"
      << "                         rewritten on a terminal, else one at least every 10 s; on: also one per\n"
      << "                         finished benchmark)\n"
      << "  --gbx_list_not_run     list each benchmark that cannot run here (no CUDA device, say), not just\n"
      << "                         their count and reason\n"
      << load_flags_help();
  return out.str();
}

const Protocol& active_protocol() { return protocol_storage(); }

void set_active_protocol(const Protocol& protocol) { protocol_storage() = protocol; }

}  // namespace gbx::detail
