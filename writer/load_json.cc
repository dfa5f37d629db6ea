#include "writer/load_json.h"

#include <cmath>
#include <string>

#include "record/json_number.h"

namespace gbx {

using Json = nlohmann::json;

namespace {

Json quantile_json(const std::optional<QuantileInterval>& q) {
  if (!q) return nullptr;
  return {{"estimate", finite_or_null(q->estimate)},
          {"lower", finite_or_null(q->interval.lower)},
          {"upper", finite_or_null(q->interval.upper)},
          {"level", finite_or_null(q->interval.level)},
          {"method", q->interval.method}};
}

Json rate_json(const std::optional<RateEstimate>& r) {
  if (!r) return nullptr;
  Json j = {{"rate", finite_or_null(r->rate)},
            {"events", r->events},
            {"window_seconds", finite_or_null(r->window_seconds)},
            {"lower", nullptr},
            {"upper", nullptr},
            {"level", nullptr},
            {"method", nullptr}};
  if (r->interval) {
    j["lower"] = finite_or_null(r->interval->lower);
    j["upper"] = finite_or_null(r->interval->upper);
    j["level"] = finite_or_null(r->interval->level);
    j["method"] = r->interval->method;
  }
  return j;
}

Json littles_json(const std::optional<LittlesLawCheck>& c) {
  if (!c) return nullptr;
  return {{"throughput_per_second", finite_or_null(c->throughput)},
          {"mean_time_in_system_seconds", finite_or_null(c->mean_time_in_system)},
          {"mean_in_system", finite_or_null(c->mean_in_system)},
          {"lambda_w", finite_or_null(c->lambda_w)},
          {"relative_gap", finite_or_null(c->relative_gap)},
          {"tolerance", finite_or_null(c->tolerance)},
          {"holds", c->holds}};
}

double number(const Json& j, const char* key) {
  const Json& v = j.at(key);
  return v.is_number() ? v.get<double>() : std::nan("");
}

std::optional<double> optional_number(const Json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::optional<QuantileInterval> quantile_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  QuantileInterval q;
  q.estimate = number(j, "estimate");
  q.interval.lower = number(j, "lower");
  q.interval.upper = number(j, "upper");
  q.interval.level = number(j, "level");
  q.interval.method = j.at("method").get<std::string>();
  return q;
}

std::optional<RateEstimate> rate_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  RateEstimate r;
  r.rate = number(j, "rate");
  r.events = j.at("events").get<std::size_t>();
  r.window_seconds = number(j, "window_seconds");
  if (j.at("method").is_string()) {
    r.interval =
        Interval{number(j, "lower"), number(j, "upper"), number(j, "level"), j.at("method").get<std::string>()};
  }
  return r;
}

std::optional<LittlesLawCheck> littles_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  LittlesLawCheck c;
  c.throughput = number(j, "throughput_per_second");
  c.mean_time_in_system = number(j, "mean_time_in_system_seconds");
  c.mean_in_system = number(j, "mean_in_system");
  c.lambda_w = number(j, "lambda_w");
  c.relative_gap = number(j, "relative_gap");
  c.tolerance = number(j, "tolerance");
  c.holds = j.at("holds").get<bool>();
  return c;
}

Json optional_text(const std::string& text) { return text.empty() ? Json() : Json(text); }

}  // namespace

Json load_json(const LoadResult& load) {
  Json closed = Json::array();
  for (const auto& c : load.closed_loop) {
    closed.push_back({{"concurrency", c.concurrency},
                      {"requests", c.requests},
                      {"window_seconds", finite_or_null(c.window_seconds)},
                      {"time_bound_reached", c.time_bound_reached},
                      {"latency_seconds",
                       {{"mean", finite_or_null(c.latency_mean_seconds)},
                        {"median", quantile_json(c.latency_median)},
                        {"p99", quantile_json(c.latency_p99)}}},
                      {"throughput_per_second", rate_json(c.throughput)},
                      {"mean_in_flight", finite_or_null(c.mean_in_flight)},
                      {"littles_law", littles_json(c.littles_law)},
                      {"littles_law_violated", c.littles_law_violated}});
  }
  Json open = Json::array();
  for (const auto& o : load.open_loop) {
    open.push_back({{"offered_load", finite_or_null(o.offered_load)},
                    {"offered_per_second", finite_or_null(o.offered_rate)},
                    {"arrived_per_second", finite_or_null(o.arrival_rate)},
                    {"achieved_per_second", rate_json(o.achieved)},
                    {"servers", o.servers},
                    {"requests", o.requests},
                    {"not_released", o.not_released},
                    {"window_seconds", finite_or_null(o.window_seconds)},
                    {"time_bound_reached", o.time_bound_reached},
                    {"latency_seconds",
                     {{"mean", finite_or_null(o.latency_mean_seconds)},
                      {"median", quantile_json(o.latency_median)},
                      {"p90", quantile_json(o.latency_p90)},
                      {"p99", quantile_json(o.latency_p99)}}},
                    {"wait_mean_seconds", finite_or_null(o.wait_mean_seconds)},
                    {"mean_in_system", finite_or_null(o.mean_in_system)},
                    {"littles_law", littles_json(o.littles_law)},
                    {"littles_law_violated", o.littles_law_violated},
                    {"saturated", o.saturated},
                    {"generator_lateness_seconds",
                     {{"median", finite_or_null(o.lateness.median_seconds)},
                      {"p99", finite_or_null(o.lateness.p99_seconds)},
                      {"max", finite_or_null(o.lateness.max_seconds)},
                      {"late", o.lateness.late}}}});
  }
  return {
      {"workers", load.workers},
      {"arrivals", to_string(load.arrivals)},
      {"arrival_seed", load.arrival_seed},
      {"latency_bound_seconds", load.latency_bound_seconds > 0.0 ? finite_or_null(load.latency_bound_seconds) : Json()},
      {"littles_law_tolerance", finite_or_null(load.littles_law_tolerance)},
      {"saturation_tolerance", finite_or_null(load.saturation_tolerance)},
      {"closed_loop", std::move(closed)},
      {"capacity_per_second", finite_or_null(load.capacity_rate)},
      {"open_loop", std::move(open)},
      {"saturation_offered_per_second", finite_or_null(load.saturation_offered_rate)},
      {"max_achieved_per_second", finite_or_null(load.max_achieved_rate)},
      {"throughput_at_bound_per_second", finite_or_null(load.throughput_at_bound)},
      {"throughput_at_bound_source", optional_text(load.throughput_at_bound_source)},
      {"error", optional_text(load.error)}};
}

LoadResult load_from_json(const Json& j) {
  LoadResult load;
  load.workers = j.at("workers").get<std::string>();
  load.arrivals =
      j.at("arrivals").get<std::string>() == "constant" ? ArrivalProcess::constant : ArrivalProcess::poisson;
  load.arrival_seed = j.at("arrival_seed").get<std::uint64_t>();
  load.latency_bound_seconds = optional_number(j, "latency_bound_seconds").value_or(0.0);
  load.littles_law_tolerance = number(j, "littles_law_tolerance");
  load.saturation_tolerance = number(j, "saturation_tolerance");
  for (const Json& c : j.at("closed_loop")) {
    ClosedLoopLevel level;
    level.concurrency = c.at("concurrency").get<std::int64_t>();
    level.requests = c.at("requests").get<std::int64_t>();
    level.window_seconds = number(c, "window_seconds");
    level.time_bound_reached = c.at("time_bound_reached").get<bool>();
    const Json& latency = c.at("latency_seconds");
    level.latency_mean_seconds = number(latency, "mean");
    level.latency_median = quantile_from(latency.at("median"));
    level.latency_p99 = quantile_from(latency.at("p99"));
    level.throughput = rate_from(c.at("throughput_per_second"));
    level.mean_in_flight = number(c, "mean_in_flight");
    level.littles_law = littles_from(c.at("littles_law"));
    level.littles_law_violated = c.at("littles_law_violated").get<bool>();
    load.closed_loop.push_back(std::move(level));
  }
  load.capacity_rate = optional_number(j, "capacity_per_second");
  for (const Json& o : j.at("open_loop")) {
    OpenLoopLevel level;
    level.offered_load = number(o, "offered_load");
    level.offered_rate = number(o, "offered_per_second");
    level.arrival_rate = number(o, "arrived_per_second");
    level.achieved = rate_from(o.at("achieved_per_second"));
    level.servers = o.at("servers").get<std::int64_t>();
    level.requests = o.at("requests").get<std::int64_t>();
    level.not_released = o.at("not_released").get<std::int64_t>();
    level.window_seconds = number(o, "window_seconds");
    level.time_bound_reached = o.at("time_bound_reached").get<bool>();
    const Json& latency = o.at("latency_seconds");
    level.latency_mean_seconds = number(latency, "mean");
    level.latency_median = quantile_from(latency.at("median"));
    level.latency_p90 = quantile_from(latency.at("p90"));
    level.latency_p99 = quantile_from(latency.at("p99"));
    level.wait_mean_seconds = number(o, "wait_mean_seconds");
    level.mean_in_system = number(o, "mean_in_system");
    level.littles_law = littles_from(o.at("littles_law"));
    level.littles_law_violated = o.at("littles_law_violated").get<bool>();
    level.saturated = o.at("saturated").get<bool>();
    const Json& late = o.at("generator_lateness_seconds");
    level.lateness.median_seconds = number(late, "median");
    level.lateness.p99_seconds = number(late, "p99");
    level.lateness.max_seconds = number(late, "max");
    level.lateness.late = late.at("late").get<bool>();
    load.open_loop.push_back(std::move(level));
  }
  load.saturation_offered_rate = optional_number(j, "saturation_offered_per_second");
  load.max_achieved_rate = optional_number(j, "max_achieved_per_second");
  load.throughput_at_bound = optional_number(j, "throughput_at_bound_per_second");
  if (j.at("throughput_at_bound_source").is_string()) {
    load.throughput_at_bound_source = j.at("throughput_at_bound_source").get<std::string>();
  }
  if (j.at("error").is_string()) load.error = j.at("error").get<std::string>();
  return load;
}

}  // namespace gbx
