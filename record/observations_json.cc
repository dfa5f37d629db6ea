#include "record/observations_json.h"

#include "record/json_number.h"

namespace gbx {

namespace {

using Json = nlohmann::json;

Json optional_number(const std::optional<double>& value) { return value ? finite_or_null(*value) : Json(); }

std::optional<double> number_at(const Json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

Json use_json(const std::optional<EnergyUse>& use) {
  if (!use) return nullptr;
  const EnergyUse& u = *use;
  Json j = {{"source", u.source},
            {"joules_per_run", optional_number(u.joules_per_run)},
            {"lower", optional_number(u.lower)},
            {"upper", optional_number(u.upper)},
            {"average_watts", optional_number(u.average_watts)},
            {"joules", finite_or_null(u.joules)},
            {"seconds", finite_or_null(u.seconds)},
            {"samples", u.samples},
            {"runs", u.runs},
            {"resolution_joules", finite_or_null(u.resolution_joules)}};
  if (!u.unavailable.empty()) j["unavailable"] = u.unavailable;
  return j;
}

std::optional<EnergyUse> use_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  EnergyUse u;
  u.source = j.value("source", std::string());
  u.unavailable = j.value("unavailable", std::string());
  u.joules_per_run = number_at(j, "joules_per_run");
  u.lower = number_at(j, "lower");
  u.upper = number_at(j, "upper");
  u.average_watts = number_at(j, "average_watts");
  u.joules = number_at(j, "joules").value_or(0.0);
  u.seconds = number_at(j, "seconds").value_or(0.0);
  u.samples = j.value("samples", std::int64_t{0});
  u.runs = j.value("runs", std::int64_t{0});
  u.resolution_joules = number_at(j, "resolution_joules").value_or(0.0);
  return u;
}

}  // namespace

Json energy_json(const Observations& observed) {
  if (!observed.gpu_energy && !observed.cpu_energy) return nullptr;
  return {{"gpu", use_json(observed.gpu_energy)}, {"cpu", use_json(observed.cpu_energy)}};
}

Json clocks_json(const Observations& observed) {
  if (!observed.clocks) return nullptr;
  const ClockObservation& c = *observed.clocks;
  Json j = {{"readings", c.readings},
            {"period_seconds", finite_or_null(c.period_seconds)},
            {"sm_mhz", {{"min", optional_number(c.sm_mhz_min)},
                        {"max", optional_number(c.sm_mhz_max)},
                        {"mean", optional_number(c.sm_mhz_mean)}}},
            {"memory_mhz", {{"min", optional_number(c.memory_mhz_min)}, {"max", optional_number(c.memory_mhz_max)}}},
            {"throttle_reasons_mask", c.throttle_mask},
            {"throttle_reasons", c.throttle_reasons},
            {"thermal_readings", c.thermal_readings},
            {"power_readings", c.power_readings},
            {"clock_changed", c.clock_changed}};
  if (!c.unavailable.empty()) j["unavailable"] = c.unavailable;
  return j;
}

Observations observations_from_json(const Json& energy, const Json& clocks) {
  Observations o;
  if (energy.is_object()) {
    o.gpu_energy = use_from(energy.value("gpu", Json()));
    o.cpu_energy = use_from(energy.value("cpu", Json()));
  }
  if (clocks.is_object()) {
    ClockObservation c;
    c.unavailable = clocks.value("unavailable", std::string());
    c.readings = clocks.value("readings", std::int64_t{0});
    c.period_seconds = number_at(clocks, "period_seconds").value_or(0.0);
    const Json sm = clocks.value("sm_mhz", Json::object());
    c.sm_mhz_min = number_at(sm, "min");
    c.sm_mhz_max = number_at(sm, "max");
    c.sm_mhz_mean = number_at(sm, "mean");
    const Json memory = clocks.value("memory_mhz", Json::object());
    c.memory_mhz_min = number_at(memory, "min");
    c.memory_mhz_max = number_at(memory, "max");
    c.throttle_mask = clocks.value("throttle_reasons_mask", std::uint64_t{0});
    c.throttle_reasons = clocks.value("throttle_reasons", std::vector<std::string>());
    c.thermal_readings = clocks.value("thermal_readings", std::int64_t{0});
    c.power_readings = clocks.value("power_readings", std::int64_t{0});
    c.clock_changed = clocks.value("clock_changed", false);
    o.clocks = c;
  }
  return o;
}

}  // namespace gbx
