#include "model/load_plan.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "model/protocol.h"

namespace gbx {

const char* to_string(ArrivalProcess process) { return process == ArrivalProcess::constant ? "constant" : "poisson"; }

namespace detail {
namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& value, const std::string& expected) {
  throw FlagError("invalid value '" + value + "' for --" + name + ": expected " + expected);
}

std::vector<std::string> split(const std::string& value) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto comma = value.find(',', start);
    parts.push_back(value.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

bool parse_integer(const std::string& text, long long least, long long& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0' && out >= least;
}

bool parse_positive(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && *end == '\0' && std::isfinite(out) && out > 0.0;
}

}  // namespace

const std::vector<std::string>& load_flag_names() {
  static const std::vector<std::string> names = {"gbx_concurrency",  "gbx_offered_load",  "gbx_arrivals",
                                                 "gbx_arrival_seed", "gbx_latency_bound", "gbx_load_requests",
                                                 "gbx_find_peak",    "gbx_load_seconds"};
  return names;
}

void parse_load_flag(const std::string& name, const std::string& value, LoadFlags& flags) {
  if (name == "gbx_concurrency") {
    if (value == "off") {
      flags.off = true;
      return;
    }
    const std::string expected = "a comma-separated list of positive integers (1,2,4,8) or off";
    for (const auto& part : split(value)) {
      long long level = 0;
      if (!parse_integer(part, 1, level) || level > 1024) refuse(name, value, expected + ", each at most 1024");
      flags.concurrency.push_back(level);
    }
  } else if (name == "gbx_offered_load") {
    if (value == "off") {
      flags.no_open_loop = true;
      return;
    }
    for (const auto& part : split(value)) {
      double load = 0.0;
      if (!parse_positive(part, load)) {
        refuse(name, value, "a comma-separated list of positive fractions of the capacity (0.5,0.9,1.2) or off");
      }
      flags.offered_load.push_back(load);
    }
  } else if (name == "gbx_arrivals") {
    if (value != "poisson" && value != "constant") refuse(name, value, "poisson or constant");
    flags.arrivals = value == "constant" ? ArrivalProcess::constant : ArrivalProcess::poisson;
  } else if (name == "gbx_arrival_seed") {
    long long seed = 0;
    if (!parse_integer(value, 0, seed)) refuse(name, value, "a non-negative integer");
    flags.arrival_seed = seed;
  } else if (name == "gbx_latency_bound") {
    double bound = 0.0;
    if (!parse_positive(value, bound)) refuse(name, value, "a positive number of seconds");
    flags.latency_bound_seconds = bound;
  } else if (name == "gbx_load_requests") {
    long long requests = 0;
    if (!parse_integer(value, 10, requests)) refuse(name, value, "an integer of at least 10");
    flags.requests = requests;
  } else if (name == "gbx_load_seconds") {
    double seconds = 0.0;
    if (!parse_positive(value, seconds)) refuse(name, value, "a positive number of seconds");
    flags.seconds_per_level = seconds;
  } else if (name == "gbx_find_peak") {
    if (value != "on" && value != "off") refuse(name, value, "on or off");
    flags.find_peak = value == "on";
  } else {
    throw FlagError("--" + name + " is not a load flag");
  }
}

std::string load_flags_help() {
  return "  --gbx_concurrency=1,2,4  closed-loop load sweep at these concurrencies (threads or streams); off: none\n"
         "  --gbx_offered_load=0.5,0.9  open-loop sweep at these fractions of the measured capacity; off: none\n"
         "  --gbx_arrivals=poisson|constant  open-loop arrivals (default poisson, seeded)\n"
         "  --gbx_arrival_seed=S   seed of the Poisson arrivals (default 1)\n"
         "  --gbx_latency_bound=S  p99 latency bound, seconds: the sweep reports the throughput under it\n"
         "  --gbx_load_requests=N  measured requests per load level (default 200)\n"
         "  --gbx_load_seconds=S   time bound of each load level, warm-up included (default 1; the default suite's "
         "0.05)\n"
         "  --gbx_find_peak=on     bisect open-loop rates for the highest whose p99 meets --gbx_latency_bound\n";
}

namespace {

LoadFlags& load_flags_storage() {
  static LoadFlags flags;
  return flags;
}

}  // namespace

const LoadFlags& active_load_flags() { return load_flags_storage(); }

void set_active_load_flags(const LoadFlags& flags) { load_flags_storage() = flags; }

bool effective_load_plan(const LoadPlan* registered, const LoadFlags& flags, const std::vector<std::int64_t>& args,
                         LoadPlan& plan) {
  if (flags.off) return false;
  if (registered == nullptr && !flags.any()) return false;
  if (registered != nullptr && !flags.any() && registered->applies_to && !registered->applies_to(args)) return false;
  plan = registered != nullptr ? *registered : LoadPlan{};
  if (!flags.concurrency.empty()) plan.concurrency = flags.concurrency;
  if (!flags.offered_load.empty()) plan.offered_load = flags.offered_load;
  if (flags.no_open_loop) plan.offered_load.clear();
  if (flags.arrivals) plan.arrivals = *flags.arrivals;
  if (flags.arrival_seed >= 0) plan.arrival_seed = static_cast<std::uint64_t>(flags.arrival_seed);
  if (flags.latency_bound_seconds > 0.0) plan.latency_bound_seconds = flags.latency_bound_seconds;
  if (flags.requests > 0) plan.requests = flags.requests;
  if (flags.find_peak) plan.find_peak = *flags.find_peak;
  if (flags.seconds_per_level > 0.0) plan.max_seconds_per_level = flags.seconds_per_level;
  if (flags.any()) plan.only_where_valid = false;
  plan.servers = std::max<std::int64_t>(plan.servers, 1);
  if ((!plan.offered_load.empty() || plan.find_peak) &&
      std::find(plan.concurrency.begin(), plan.concurrency.end(), plan.servers) == plan.concurrency.end()) {
    plan.concurrency.push_back(plan.servers);
  }
  std::sort(plan.concurrency.begin(), plan.concurrency.end());
  plan.concurrency.erase(std::unique(plan.concurrency.begin(), plan.concurrency.end()), plan.concurrency.end());
  std::sort(plan.offered_load.begin(), plan.offered_load.end());
  return !plan.concurrency.empty();
}

}  // namespace detail
}  // namespace gbx
