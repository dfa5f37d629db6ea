#include "model/peak.h"

#include "record/json_number.h"

namespace gbx {

const BandwidthRoof* roof_for(const Peak& peak, std::optional<double> working_set_bytes) {
  if (peak.roofs.empty()) return nullptr;
  if (working_set_bytes && *working_set_bytes > 0.0) {
    for (const auto& roof : peak.roofs) {
      if (roof.capacity_bytes && *working_set_bytes <= static_cast<double>(*roof.capacity_bytes)) return &roof;
    }
  }
  return &peak.roofs.back();
}

nlohmann::json peak_json(const Peak& peak) {
  nlohmann::json j;
  j["bytes_per_second"] = peak.bytes_per_second ? nlohmann::json(*peak.bytes_per_second) : nlohmann::json();
  j["flops_per_second"] = peak.flops_per_second;
  if (!peak.clocks.empty()) {
    nlohmann::json clocks = nlohmann::json::object();
    for (const auto& [precision, clock] : peak.clocks) {
      clocks[precision] = {{"hz", clock.hz}, {"source", clock.source}, {"kind", clock.kind}};
    }
    j["clocks"] = clocks;
  }
  if (!peak.flops_basis.empty()) j["flops_basis"] = peak.flops_basis;
  if (!peak.roofs.empty()) {
    nlohmann::json roofs = nlohmann::json::array();
    for (const auto& roof : peak.roofs) {
      roofs.push_back({{"level", roof.level},
                       {"capacity_bytes", roof.capacity_bytes ? nlohmann::json(*roof.capacity_bytes) : nullptr},
                       {"bytes_per_second", roof.bytes_per_second},
                       {"source", roof.source},
                       {"calibrated", roof.calibrated}});
    }
    j["roofs"] = roofs;
  }
  if (!peak.calibrated_flops_per_second.empty() || peak.calibrated_bytes_per_second) {
    const auto& bytes = peak.calibrated_bytes_per_second;
    j["calibrated"] = {{"flops_per_second", peak.calibrated_flops_per_second},
                       {"bytes_per_second", bytes ? nlohmann::json(*bytes) : nlohmann::json()}};
  }
  if (!peak.facts.is_null()) j["facts"] = peak.facts;
  j["method"] = peak.method;
  if (!peak.unavailable.empty()) j["unavailable"] = peak.unavailable;
  return j;
}

Peak peak_from_json(const nlohmann::json& j) {
  Peak peak;
  if (!j.is_object()) return peak;
  peak.bytes_per_second = optional_from<double>(j, "bytes_per_second");
  if (const auto f = j.find("flops_per_second"); f != j.end() && f->is_object()) {
    peak.flops_per_second = f->get<std::map<std::string, double>>();
  }
  peak.method = j.value("method", std::string());
  peak.unavailable = j.value("unavailable", std::string());
  peak.flops_basis = j.value("flops_basis", std::string());
  if (const auto roofs = j.find("roofs"); roofs != j.end() && roofs->is_array()) {
    for (const auto& r : *roofs) {
      if (!r.is_object() || !r.contains("bytes_per_second") || !r["bytes_per_second"].is_number()) continue;
      peak.roofs.push_back({r.value("level", std::string()), optional_from<std::int64_t>(r, "capacity_bytes"),
                            r["bytes_per_second"].get<double>(), r.value("source", std::string()),
                            r.value("calibrated", false)});
    }
  }
  return peak;
}

}  // namespace gbx
