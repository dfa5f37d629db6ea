#include "writer/load_json.h"

#include <cmath>
#include <string>

#include "record/json_number.h"

namespace gbx {

using Json = nlohmann::json;

namespace {

Json quantile_json(const std::optional<detail::QuantileInterval>& q) {
  if (!q) return nullptr;
  return {{"estimate", finite_or_null(q->estimate)},
          {"lower", finite_or_null(q->interval.lower)},
          {"upper", finite_or_null(q->interval.upper)},
          {"level", finite_or_null(q->interval.level)},
          {"method", q->interval.method}};
}

Json rate_json(const std::optional<detail::RateEstimate>& r) {
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

Json littles_json(const std::optional<detail::LittlesLawCheck>& c) {
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

std::optional<detail::QuantileInterval> quantile_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  detail::QuantileInterval q;
  q.estimate = number(j, "estimate");
  q.interval.lower = number(j, "lower");
  q.interval.upper = number(j, "upper");
  q.interval.level = number(j, "level");
  q.interval.method = j.at("method").get<std::string>();
  return q;
}

std::optional<detail::RateEstimate> rate_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  detail::RateEstimate r;
  r.rate = number(j, "rate");
  r.events = j.at("events").get<std::size_t>();
  r.window_seconds = number(j, "window_seconds");
  if (j.at("method").is_string()) {
    r.interval =
        detail::Interval{number(j, "lower"), number(j, "upper"), number(j, "level"), j.at("method").get<std::string>()};
  }
  return r;
}

std::optional<detail::LittlesLawCheck> littles_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  detail::LittlesLawCheck c;
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

std::string text_or_empty(const Json& j, const char* key) {
  const auto found = j.find(key);
  return found != j.end() && found->is_string() ? found->get<std::string>() : std::string();
}

Json occupancy_json(const std::optional<detail::OccupancyEstimate>& o) {
  if (!o) return nullptr;
  return {{"samples", o->samples},
          {"mean", finite_or_null(o->mean)},
          {"standard_error", finite_or_null(o->standard_error)}};
}

std::optional<detail::OccupancyEstimate> occupancy_from(const Json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_object()) return std::nullopt;
  detail::OccupancyEstimate o;
  o.samples = found->at("samples").get<std::size_t>();
  o.mean = number(*found, "mean");
  o.standard_error = number(*found, "standard_error");
  return o;
}

Json overhead_json(const detail::HarnessOverhead& o) {
  return {{"per_request_seconds", finite_or_null(o.per_request_seconds)},
          {"fraction_of_service", finite_or_null(o.fraction_of_service)},
          {"exceeded", o.exceeded}};
}

detail::HarnessOverhead overhead_from(const Json& j) {
  detail::HarnessOverhead o;
  const auto found = j.find("harness_overhead");
  if (found == j.end() || !found->is_object()) return o;
  o.per_request_seconds = optional_number(*found, "per_request_seconds");
  o.fraction_of_service = number(*found, "fraction_of_service");
  o.exceeded = found->at("exceeded").get<bool>();
  return o;
}

Json validity_json(const detail::LevelValidity& v) {
  return {{"percentile", finite_or_null(v.percentile)},
          {"confidence", finite_or_null(v.confidence)},
          {"queries_needed", v.queries_needed},
          {"queries", v.queries},
          {"enough_queries", v.enough_queries},
          {"p99_upper_bound_seconds", finite_or_null(v.p99_upper_bound_seconds)},
          {"verdict", optional_text(v.verdict)},
          {"reason", optional_text(v.reason)}};
}

detail::LevelValidity validity_from(const Json& j) {
  detail::LevelValidity v;
  const auto found = j.find("validity");
  if (found == j.end() || !found->is_object()) return v;
  v.percentile = number(*found, "percentile");
  v.confidence = number(*found, "confidence");
  v.queries_needed = found->at("queries_needed").get<std::int64_t>();
  v.queries = found->at("queries").get<std::int64_t>();
  v.enough_queries = found->at("enough_queries").get<bool>();
  v.p99_upper_bound_seconds = optional_number(*found, "p99_upper_bound_seconds");
  v.verdict = text_or_empty(*found, "verdict");
  v.reason = text_or_empty(*found, "reason");
  return v;
}

std::optional<detail::LittlesLawCheck> optional_littles_from(const Json& j, const char* key) {
  const auto found = j.find(key);
  return found == j.end() ? std::nullopt : littles_from(*found);
}

bool flag_or_false(const Json& j, const char* key) {
  const auto found = j.find(key);
  return found != j.end() && found->is_boolean() && found->get<bool>();
}

Json open_level_json(const detail::OpenLoopLevel& o) {
  return {{"offered_load", finite_or_null(o.offered_load)},
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
          {"service_mean_seconds", finite_or_null(o.service_mean_seconds)},
          {"sampled_in_service", occupancy_json(o.sampled_in_service)},
          {"independent_littles_law", littles_json(o.independent_littles_law)},
          {"independent_littles_law_violated", o.independent_littles_law_violated},
          {"harness_overhead", overhead_json(o.overhead)},
          {"validity", validity_json(o.validity)},
          {"saturated", o.saturated},
          {"generator_lateness_seconds",
           {{"median", finite_or_null(o.lateness.median_seconds)},
            {"p99", finite_or_null(o.lateness.p99_seconds)},
            {"max", finite_or_null(o.lateness.max_seconds)},
            {"late", o.lateness.late}}}};
}

detail::OpenLoopLevel open_level_from(const Json& o) {
  detail::OpenLoopLevel level;
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
  level.service_mean_seconds = optional_number(o, "service_mean_seconds").value_or(0.0);
  level.sampled_in_service = occupancy_from(o, "sampled_in_service");
  level.independent_littles_law = optional_littles_from(o, "independent_littles_law");
  level.independent_littles_law_violated = flag_or_false(o, "independent_littles_law_violated");
  level.overhead = overhead_from(o);
  level.validity = validity_from(o);
  level.saturated = o.at("saturated").get<bool>();
  const Json& late = o.at("generator_lateness_seconds");
  level.lateness.median_seconds = number(late, "median");
  level.lateness.p99_seconds = number(late, "p99");
  level.lateness.max_seconds = number(late, "max");
  level.lateness.late = late.at("late").get<bool>();
  return level;
}

Json peak_json(const std::optional<detail::PeakSearch>& p) {
  if (!p) return nullptr;
  Json steps = Json::array();
  for (const auto& step : p->steps) steps.push_back(open_level_json(step));
  return {{"peak_per_second", finite_or_null(p->peak_rate)},
          {"lower_per_second", finite_or_null(p->lower_rate)},
          {"upper_per_second", finite_or_null(p->upper_rate)},
          {"upper_tested", p->upper_tested},
          {"steps", std::move(steps)},
          {"stopped", optional_text(p->stopped)}};
}

std::optional<detail::PeakSearch> peak_from(const Json& j) {
  const auto found = j.find("peak_search");
  if (found == j.end() || !found->is_object()) return std::nullopt;
  detail::PeakSearch p;
  p.peak_rate = optional_number(*found, "peak_per_second");
  p.lower_rate = number(*found, "lower_per_second");
  p.upper_rate = number(*found, "upper_per_second");
  p.upper_tested = found->at("upper_tested").get<bool>();
  for (const Json& step : found->at("steps")) p.steps.push_back(open_level_from(step));
  p.stopped = text_or_empty(*found, "stopped");
  return p;
}

}  // namespace

Json load_json(const detail::LoadResult& load) {
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
                      {"littles_law_violated", c.littles_law_violated},
                      {"sampled_in_flight", occupancy_json(c.sampled_in_flight)},
                      {"independent_littles_law", littles_json(c.independent_littles_law)},
                      {"independent_littles_law_violated", c.independent_littles_law_violated},
                      {"harness_overhead", overhead_json(c.overhead)},
                      {"validity", validity_json(c.validity)}});
  }
  Json open = Json::array();
  for (const auto& o : load.open_loop) open.push_back(open_level_json(o));
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
      {"peak_search", peak_json(load.peak_search)},
      {"requested", load.requested},
      {"skipped", optional_text(load.skipped)},
      {"error", optional_text(load.error)}};
}

detail::LoadResult load_from_json(const Json& j) {
  detail::LoadResult load;
  load.workers = j.at("workers").get<std::string>();
  load.arrivals =
      j.at("arrivals").get<std::string>() == "constant" ? ArrivalProcess::constant : ArrivalProcess::poisson;
  load.arrival_seed = j.at("arrival_seed").get<std::uint64_t>();
  load.latency_bound_seconds = optional_number(j, "latency_bound_seconds").value_or(0.0);
  load.littles_law_tolerance = number(j, "littles_law_tolerance");
  load.saturation_tolerance = number(j, "saturation_tolerance");
  for (const Json& c : j.at("closed_loop")) {
    detail::ClosedLoopLevel level;
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
    level.sampled_in_flight = occupancy_from(c, "sampled_in_flight");
    level.independent_littles_law = optional_littles_from(c, "independent_littles_law");
    level.independent_littles_law_violated = flag_or_false(c, "independent_littles_law_violated");
    level.overhead = overhead_from(c);
    level.validity = validity_from(c);
    load.closed_loop.push_back(std::move(level));
  }
  load.capacity_rate = optional_number(j, "capacity_per_second");
  for (const Json& o : j.at("open_loop")) load.open_loop.push_back(open_level_from(o));
  load.saturation_offered_rate = optional_number(j, "saturation_offered_per_second");
  load.max_achieved_rate = optional_number(j, "max_achieved_per_second");
  load.throughput_at_bound = optional_number(j, "throughput_at_bound_per_second");
  if (j.at("throughput_at_bound_source").is_string()) {
    load.throughput_at_bound_source = j.at("throughput_at_bound_source").get<std::string>();
  }
  load.peak_search = peak_from(j);
  const auto requested = j.find("requested");
  load.requested = requested == j.end() || !requested->is_boolean() || requested->get<bool>();
  load.skipped = text_or_empty(j, "skipped");
  if (j.at("error").is_string()) load.error = j.at("error").get<std::string>();
  return load;
}

}  // namespace gbx
