#include "processes/shard.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "model/protocol.h"
#include "processes/process_runner.h"
#include "record/checksum.h"
#include "record/json_parse.h"

namespace gbx {

namespace {

// Set in a process that has resolved its shard, so that the children it starts (a listing, the
// --gbx_processes children) run what they are told rather than shard a second time.
constexpr const char* kResolvedVariable = "GBX_SHARD_RESOLVED";

[[noreturn]] void refuse(const std::string& what, const std::string& value, const std::string& expected) {
  throw detail::FlagError("invalid value '" + value + "' for " + what + ": expected " + expected);
}

std::int64_t parse_integer(const std::string& what, const std::string& text, std::int64_t minimum) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) {
    refuse(what, text, "an integer of at least " + std::to_string(minimum));
  }
  const std::int64_t value = std::stoll(text);
  if (value < minimum) refuse(what, text, "an integer of at least " + std::to_string(minimum));
  return value;
}

ShardRequest checked(ShardRequest request, const std::string& value) {
  if (request.index >= request.count) {
    refuse(request.source, value,
           "a shard index below the count (" + std::to_string(request.count) + "), counted from 0");
  }
  request.active = true;
  return request;
}

ShardRequest from_flag(const std::string& value) {
  ShardRequest request;
  request.source = "--gbx_shard";
  if (value == "none") {
    request.explicitly_off = true;
    return request;
  }
  const auto slash = value.find('/');
  if (slash == std::string::npos) refuse("--gbx_shard", value, "I/N (shard I of N, I from 0) or none");
  request.index = parse_integer("--gbx_shard", value.substr(0, slash), 0);
  request.count = parse_integer("--gbx_shard", value.substr(slash + 1), 1);
  return checked(request, value);
}

// Both variables of a pair, or neither.
const char* partner(const EnvironmentLookup& lookup, const char* present, const char* needed) {
  const char* value = lookup(needed);
  if (value == nullptr) throw detail::FlagError(std::string(present) + " is set but " + needed + " is not");
  return value;
}

ShardRequest from_environment(const EnvironmentLookup& lookup) {
  ShardRequest request;
  if (const char* index = lookup("GBX_SHARD_INDEX")) {
    request.source = "GBX_SHARD_INDEX";
    request.count = parse_integer("GBX_SHARD_COUNT", partner(lookup, "GBX_SHARD_INDEX", "GBX_SHARD_COUNT"), 1);
    request.index = parse_integer("GBX_SHARD_INDEX", index, 0);
    return checked(request, index);
  }
  if (const char* task = lookup("SLURM_ARRAY_TASK_ID")) {
    request.source = "SLURM_ARRAY_TASK_ID";
    request.count =
        parse_integer("SLURM_ARRAY_TASK_COUNT", partner(lookup, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"), 1);
    const std::int64_t id = parse_integer("SLURM_ARRAY_TASK_ID", task, 0);
    const char* min_text = lookup("SLURM_ARRAY_TASK_MIN");
    const char* step_text = lookup("SLURM_ARRAY_TASK_STEP");
    const std::int64_t min = min_text ? parse_integer("SLURM_ARRAY_TASK_MIN", min_text, 0) : 0;
    const std::int64_t step = step_text ? parse_integer("SLURM_ARRAY_TASK_STEP", step_text, 1) : 1;
    // --array=4-7 numbers its tasks from 4 and --array=0-6:2 in steps of 2; a list such as 1,5,9 has
    // no dense numbering, and then only --gbx_shard can say which shard a task is.
    if (id < min || (id - min) % step != 0) {
      refuse("SLURM_ARRAY_TASK_ID", task, "a task of a range MIN-MAX[:STEP]; for other arrays give --gbx_shard=I/N");
    }
    request.index = (id - min) / step;
    return checked(request, task);
  }
  if (const char* completion = lookup("JOB_COMPLETION_INDEX")) {
    request.source = "JOB_COMPLETION_INDEX";
    request.count = parse_integer("GBX_SHARD_COUNT", partner(lookup, "JOB_COMPLETION_INDEX", "GBX_SHARD_COUNT"), 1);
    request.index = parse_integer("JOB_COMPLETION_INDEX", completion, 0);
    return checked(request, completion);
  }
  return request;
}

double seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  return 1.0;
}

std::uint64_t stable_hash(const std::string& text) {  // FNV-1a: the same on every platform and run
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

ShardRequest take_shard_request(std::vector<std::string>& args, const EnvironmentLookup& lookup) {
  std::string shard_flag;
  std::string plan_path;
  bool flag_given = false;
  bool plan_given = false;
  std::vector<std::string> kept;
  for (const auto& arg : args) {
    for (const char* name : {"--gbx_shard", "--gbx_shard_plan"}) {
      if (arg == name) throw detail::FlagError(std::string(name) + " needs a value: " + name + "=VALUE");
    }
    const bool is_shard = arg.rfind("--gbx_shard=", 0) == 0;
    const bool is_plan = arg.rfind("--gbx_shard_plan=", 0) == 0;
    if (!is_shard && !is_plan) {
      kept.push_back(arg);
      continue;
    }
    bool& given = is_shard ? flag_given : plan_given;
    if (given)
      throw detail::FlagError(std::string(is_shard ? "--gbx_shard" : "--gbx_shard_plan") + " is given more than once");
    given = true;
    (is_shard ? shard_flag : plan_path) = arg.substr(arg.find('=') + 1);
  }
  args = kept;
  if (plan_given && plan_path.empty()) refuse("--gbx_shard_plan", plan_path, "a record file");
  if (lookup(kResolvedVariable) != nullptr) return {};
  ShardRequest request = flag_given ? from_flag(shard_flag) : from_environment(lookup);
  request.plan_path = plan_path;
  return request;
}

std::string selection_fingerprint(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string text;
  for (const auto& name : names) text += name + "\n";
  return sha256_hex(text);
}

std::map<std::string, double> costs_from_record(const std::string& path) {
  nlohmann::json record;
  try {
    record = parse_json_strictly(read_json_file(path));
  } catch (const JsonFault& fault) {
    throw detail::FlagError("--gbx_shard_plan: " + path + ": " + fault.what());
  }
  if (!record.is_object() || !record.contains("benchmarks") || !record["benchmarks"].is_array()) {
    throw detail::FlagError("--gbx_shard_plan: " + path + ": not a record (no benchmarks array)");
  }
  std::map<std::string, double> costs;
  for (const auto& row : record["benchmarks"]) {
    if (!row.is_object() || row.value("run_type", std::string("iteration")) != "iteration") continue;
    const auto name = row.find(row.contains("run_name") ? "run_name" : "name");
    if (name == row.end() || !name->is_string()) continue;
    double cost = 0.0;
    const nlohmann::json wall = row.value("/gbx/measurement/wall_seconds"_json_pointer, nlohmann::json());
    const nlohmann::json real_time = row.value("real_time", nlohmann::json());
    const nlohmann::json samples = row.value("samples", nlohmann::json());
    if (wall.is_number()) {
      cost = wall.get<double>();
    } else if (real_time.is_number()) {
      cost = real_time.get<double>() * seconds_per_unit(row.value("time_unit", std::string("ns"))) *
             (samples.is_number() ? samples.get<double>() : 1.0);
    }
    costs[name->get<std::string>()] += std::max(cost, 0.0);
  }
  return costs;
}

std::vector<std::int64_t> assign_shards(const std::vector<std::string>& names, std::int64_t count,
                                        const std::map<std::string, double>* costs) {
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::int64_t> shard(names.size(), 0);
  if (costs == nullptr) {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const auto ha = stable_hash(names[a]), hb = stable_hash(names[b]);
      return ha != hb ? ha < hb : names[a] < names[b];
    });
    for (std::size_t i = 0; i < order.size(); ++i) shard[order[i]] = static_cast<std::int64_t>(i) % count;
    return shard;
  }
  std::vector<double> known;
  for (const auto& name : names) {
    const auto found = costs->find(name);
    if (found != costs->end()) known.push_back(found->second);
  }
  double fallback = 1.0;
  if (!known.empty()) {
    std::nth_element(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(known.size() / 2), known.end());
    fallback = known[known.size() / 2];
  }
  std::vector<double> cost(names.size(), fallback);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto found = costs->find(names[i]);
    if (found != costs->end()) cost[i] = found->second;
  }
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return cost[a] != cost[b] ? cost[a] > cost[b] : names[a] < names[b]; });
  std::vector<double> load(static_cast<std::size_t>(count), 0.0);
  for (std::size_t i : order) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();  // first on ties
    shard[i] = least;
    load[static_cast<std::size_t>(least)] += cost[i];
  }
  return shard;
}

std::string exact_filter(const std::string& name) {
  std::string filter = "^";
  for (char c : name) {
    if (std::string(".[]{}()*+?^$|\\").find(c) != std::string::npos) filter += '\\';
    filter += c;
  }
  return filter + "$";
}

std::string exact_names_filter(const std::vector<std::string>& names) {
  std::string filter;
  for (const auto& name : names) {
    const std::string exact = exact_filter(name);  // ^name$
    filter += (filter.empty() ? "" : "|") + exact;
  }
  return filter;
}

ShardSelection select_shard(const std::string& binary, const std::vector<std::string>& command) {
  std::vector<std::string> args(command.begin() + 1, command.end());
  const ShardRequest request = take_shard_request(args, [](const char* name) { return std::getenv(name); });
  ShardSelection selection;
  selection.command = {command.front()};
  selection.command.insert(selection.command.end(), args.begin(), args.end());
  const bool child = std::any_of(args.begin(), args.end(), [](const std::string& arg) {
    return arg.rfind("--gbx_child=", 0) == 0 || arg.rfind("--gbx_describe=", 0) == 0;
  });
  if (child) return selection;
  if (request.active || request.explicitly_off) ::setenv(kResolvedVariable, "1", 1);
  if (!request.active) return selection;

  std::map<std::string, double> costs;
  if (!request.plan_path.empty()) costs = costs_from_record(request.plan_path);
  std::vector<std::string> names;
  try {
    names = list_benchmarks(binary, args);
  } catch (const std::exception& error) {
    throw detail::FlagError(std::string("--gbx_shard: ") + error.what());
  }
  const auto shards = assign_shards(names, request.count, request.plan_path.empty() ? nullptr : &costs);
  std::vector<std::string> mine;
  double expected = 0.0, expected_total = 0.0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto found = costs.find(names[i]);
    const double cost = found != costs.end() ? found->second : 0.0;
    expected_total += cost;
    if (shards[i] != request.index) continue;
    mine.push_back(names[i]);
    expected += cost;
  }
  nlohmann::json plan = {{"method", request.plan_path.empty() ? "name_hash" : "expected_cost"}};
  if (!request.plan_path.empty()) {
    plan["record"] = request.plan_path;
    plan["expected_seconds"] = expected;
    plan["expected_seconds_all_shards"] = expected_total;
  }
  selection.record = {{"index", request.index},
                      {"count", request.count},
                      {"source", request.source},
                      {"selection_fingerprint", selection_fingerprint(names)},
                      {"selection_size", names.size()},
                      {"benchmarks", mine},
                      {"plan", plan}};
  selection.empty = mine.empty();
  // Google Benchmark keeps the last --benchmark_filter; the user's, if any, chose the full selection.
  auto& out = selection.command;
  out.erase(std::remove_if(out.begin() + 1, out.end(),
                           [](const std::string& arg) { return arg.rfind("--benchmark_filter=", 0) == 0; }),
            out.end());
  if (!mine.empty()) out.push_back("--benchmark_filter=" + exact_names_filter(mine));
  return selection;
}

}  // namespace gbx
