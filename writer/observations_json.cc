#include "writer/observations_json.h"

#include <algorithm>

#include "record/json_number.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

using Json = nlohmann::json;

Json optional_number(const std::optional<double>& value) { return value ? finite_or_null(*value) : Json(); }

std::optional<double> number_at(const Json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

Json use_json(const std::optional<detail::EnergyUse>& use) {
  if (!use) return nullptr;
  const detail::EnergyUse& u = *use;
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
  if (u.duty) j["duty"] = finite_or_null(u.duty);
  if (!u.unavailable.empty()) j["unavailable"] = u.unavailable;
  return j;
}

std::optional<detail::EnergyUse> use_from(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  detail::EnergyUse u;
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
  u.duty = number_at(j, "duty");
  return u;
}

}  // namespace

Json energy_json(const detail::Observations& observed) {
  if (!observed.gpu_energy && !observed.cpu_energy) return nullptr;
  return {{"gpu", use_json(observed.gpu_energy)}, {"cpu", use_json(observed.cpu_energy)}};
}

Json clocks_json(const detail::Observations& observed) {
  if (!observed.clocks) return nullptr;
  const detail::ClockObservation& c = *observed.clocks;
  Json j = {{"readings", c.readings},
            {"period_seconds", finite_or_null(c.period_seconds)},
            {"sm_mhz",
             {{"min", optional_number(c.sm_mhz_min)},
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

detail::Observations observations_from_json(const Json& energy, const Json& clocks) {
  detail::Observations o;
  if (energy.is_object()) {
    o.gpu_energy = use_from(energy.value("gpu", Json()));
    o.cpu_energy = use_from(energy.value("cpu", Json()));
  }
  if (clocks.is_object()) {
    detail::ClockObservation c;
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

namespace {

std::optional<detail::EnergyUse> merge_energy(const std::vector<const std::optional<detail::EnergyUse>*>& parts) {
  std::optional<detail::EnergyUse> merged;
  std::vector<double> per_process;
  double inside = 0.0;  // the spans' seconds inside samples, where every part has a duty
  bool every_duty = true;
  for (const auto* part : parts) {
    if (!*part) continue;
    const detail::EnergyUse& u = **part;
    if (!merged) {
      merged = u;
      merged->joules = merged->seconds = 0.0;
      merged->samples = merged->runs = 0;
    }
    if (!u.joules_per_run) {
      if (merged->unavailable.empty()) merged->unavailable = u.unavailable;
      continue;
    }
    per_process.push_back(*u.joules_per_run);
    merged->joules += u.joules;
    merged->seconds += u.seconds;
    merged->samples += u.samples;
    merged->runs += u.runs;
    every_duty = every_duty && u.duty;
    if (u.duty) inside += *u.duty * u.seconds;
  }
  if (!merged) return merged;
  merged->joules_per_run.reset();
  merged->lower.reset();
  merged->upper.reset();
  merged->average_watts.reset();
  merged->duty.reset();
  if (merged->runs > 0) {
    if (every_duty && merged->seconds > 0.0) merged->duty = inside / merged->seconds;
    merged->unavailable.clear();
    merged->joules_per_run = merged->joules / static_cast<double>(merged->runs);
    if (merged->seconds > 0.0) merged->average_watts = merged->joules / merged->seconds;
    if (const auto interval = student_t_interval(per_process, 0.95)) {
      merged->lower = interval->lower;
      merged->upper = interval->upper;
    }
  }
  return merged;
}

}  // namespace

detail::Observations merge_observations(const std::vector<const detail::Observations*>& parts) {
  detail::Observations merged;
  std::vector<const std::optional<detail::EnergyUse>*> gpu, cpu;
  for (const auto* part : parts) {
    gpu.push_back(&part->gpu_energy);
    cpu.push_back(&part->cpu_energy);
  }
  merged.gpu_energy = merge_energy(gpu);
  merged.cpu_energy = merge_energy(cpu);
  double sm_sum = 0.0;
  std::int64_t sm_readings = 0;
  for (const auto* part : parts) {
    if (!part->clocks) continue;
    const detail::ClockObservation& c = *part->clocks;
    if (!merged.clocks) {
      merged.clocks = c;
      merged.clocks->readings = merged.clocks->thermal_readings = merged.clocks->power_readings = 0;
      merged.clocks->throttle_mask = 0;
      merged.clocks->throttle_reasons.clear();
      merged.clocks->clock_changed = false;
    }
    detail::ClockObservation& m = *merged.clocks;
    const auto low = [](std::optional<double>& into, const std::optional<double>& v) {
      if (v && (!into || *v < *into)) into = v;
    };
    const auto high = [](std::optional<double>& into, const std::optional<double>& v) {
      if (v && (!into || *v > *into)) into = v;
    };
    low(m.sm_mhz_min, c.sm_mhz_min);
    high(m.sm_mhz_max, c.sm_mhz_max);
    low(m.memory_mhz_min, c.memory_mhz_min);
    high(m.memory_mhz_max, c.memory_mhz_max);
    if (c.sm_mhz_mean) {
      sm_sum += *c.sm_mhz_mean * static_cast<double>(c.readings);
      sm_readings += c.readings;
    }
    m.readings += c.readings;
    m.thermal_readings += c.thermal_readings;
    m.power_readings += c.power_readings;
    m.throttle_mask |= c.throttle_mask;
    for (const auto& reason : c.throttle_reasons) {
      if (std::find(m.throttle_reasons.begin(), m.throttle_reasons.end(), reason) == m.throttle_reasons.end()) {
        m.throttle_reasons.push_back(reason);
      }
    }
    m.clock_changed = m.clock_changed || c.clock_changed;
    if (m.unavailable.empty() || c.unavailable.empty()) m.unavailable = c.unavailable;
  }
  if (merged.clocks) {
    detail::ClockObservation& m = *merged.clocks;
    if (sm_readings > 0) m.sm_mhz_mean = sm_sum / static_cast<double>(sm_readings);
    // Each process's clock may be steady at a different level: the joined range decides.
    if (m.sm_mhz_max && *m.sm_mhz_max > 0.0) {
      m.clock_changed =
          m.clock_changed || (*m.sm_mhz_max - *m.sm_mhz_min) / *m.sm_mhz_max > detail::kClockChangeTolerance;
    }
  }
  return merged;
}

}  // namespace gbx
