#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gbx {

enum class ArrivalProcess { poisson, constant };

const char* to_string(ArrivalProcess process);

// What a load sweep measures (docs/load.md): closed-loop concurrency levels and open-loop offered
// loads. A registration may ask for one (register_fixture_under_load); the --gbx_* load flags
// override its values or, for a benchmark that asked for none, ask for one.
struct LoadPlan {
  std::vector<std::int64_t> concurrency;  // closed-loop levels: workers (threads or streams)
  // Open-loop offered loads as fractions of the capacity: the closed-loop throughput at
  // concurrency `servers` measured first. Empty: no open loop.
  std::vector<double> offered_load;
  std::int64_t servers = 1;  // workers that serve the open loop's queue
  ArrivalProcess arrivals = ArrivalProcess::poisson;
  std::uint64_t arrival_seed = 1;
  double latency_bound_seconds = 0.0;  // 0: none
  std::int64_t requests = 200;         // measured completions per level (closed) or arrivals (open)
  std::int64_t warmup_requests = 20;   // per level, before the window opens
  double max_seconds_per_level = 1.0;  // bounds each level, warm-up included
  double littles_law_tolerance = 0.05;
  double saturation_tolerance = 0.05;   // saturated: achieved rate below (1 - this) x arrival rate
  double overhead_limit = 0.05;         // a level's harness overhead above this fraction of its service time
  double percentile_confidence = 0.99;  // for the p99's validity (LoadGen's early-stopping confidence)
  bool find_peak = false;               // bisect open-loop rates for the highest VALID one (needs a bound)
  double peak_resolution = 0.02;        // stop once the interval is this fraction of the capacity
  std::int64_t peak_max_steps = 12;
  // A registered sweep (the default suite's) runs only where it would be valid on this machine: the
  // harness's overhead within overhead_limit of the benchmark's median, and concurrency levels no
  // higher than the cores. Flags given by the user turn this off.
  bool only_where_valid = false;
  // Which of the registration's argument sets get the sweep; empty: all.
  std::function<bool(const std::vector<std::int64_t>& args)> applies_to;
};

namespace detail {

// The --gbx_* load flags as given; what is absent keeps the registration's value.
struct LoadFlags {
  bool off = false;                        // --gbx_concurrency=off: no sweep at all
  std::vector<std::int64_t> concurrency;   // --gbx_concurrency=1,2,4,8
  std::vector<double> offered_load;        // --gbx_offered_load=0.5,0.9,1.2
  bool no_open_loop = false;               // --gbx_offered_load=off
  std::optional<ArrivalProcess> arrivals;  // --gbx_arrivals=poisson|constant
  std::int64_t arrival_seed = -1;          // --gbx_arrival_seed
  double latency_bound_seconds = -1.0;     // --gbx_latency_bound (seconds)
  std::int64_t requests = -1;              // --gbx_load_requests
  std::optional<bool> find_peak;           // --gbx_find_peak=on|off
  double seconds_per_level = -1.0;         // --gbx_load_seconds
  bool any() const {
    return !concurrency.empty() || !offered_load.empty() || no_open_loop || arrivals.has_value() || arrival_seed >= 0 ||
           latency_bound_seconds >= 0.0 || requests >= 0 || find_peak.has_value() || seconds_per_level > 0.0;
  }
};

// The flag names parse_load_flag accepts, without "--".
const std::vector<std::string>& load_flag_names();
// Parses one load flag's value into flags; throws FlagError naming the flag and the value.
void parse_load_flag(const std::string& name, const std::string& value, LoadFlags& flags);
std::string load_flags_help();

// The load flags the running benchmarks follow; set once by the driver, with the protocol.
const LoadFlags& active_load_flags();
void set_active_load_flags(const LoadFlags& flags);

// The sweep a benchmark with these arguments runs: the registration's plan (null: none) with the
// flags applied. False when there is none: neither asks for one, the plan does not apply to these
// arguments and no flag was given, or --gbx_concurrency=off. Flags apply to every benchmark. The
// closed loop always includes concurrency `servers` when there is an open loop: it gives the capacity.
bool effective_load_plan(const LoadPlan* registered, const LoadFlags& flags, const std::vector<std::int64_t>& args,
                         LoadPlan& plan);

}  // namespace detail
}  // namespace gbx
