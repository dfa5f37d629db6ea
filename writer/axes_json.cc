#include "writer/axes_json.h"

#include "record/json_number.h"

namespace gbx {

namespace {

nlohmann::json value_json(const detail::AxisValue& a) {
  switch (a.kind) {
    case detail::AxisValue::Kind::integer:
      return a.integer;
    case detail::AxisValue::Kind::real:
      return finite_or_null(a.real);
    case detail::AxisValue::Kind::text:
      break;
  }
  return a.text;
}

const char* kind_text(detail::AxisValue::Kind kind) {
  switch (kind) {
    case detail::AxisValue::Kind::integer:
      return "integer";
    case detail::AxisValue::Kind::real:
      return "real";
    case detail::AxisValue::Kind::text:
      break;
  }
  return "text";
}

}  // namespace

nlohmann::json axes_record_json(const std::vector<detail::AxisValue>& axes) {
  if (axes.empty()) return nullptr;
  nlohmann::json j = nlohmann::json::object();
  for (const detail::AxisValue& a : axes) j[a.name] = value_json(a);
  return j;
}

nlohmann::json variant_axes_json(const std::vector<detail::AxisValue>& axes) {
  nlohmann::json names = nlohmann::json::array();
  for (const detail::AxisValue& a : axes) {
    if (a.variant) names.push_back(a.name);
  }
  return names.empty() ? nlohmann::json() : names;
}

nlohmann::json axes_wire_json(const std::vector<detail::AxisValue>& axes) {
  nlohmann::json list = nlohmann::json::array();
  for (const detail::AxisValue& a : axes) {
    list.push_back({{"name", a.name},
                    {"kind", kind_text(a.kind)},
                    {"integer", a.integer},
                    {"real", finite_or_null(a.real)},
                    {"text", a.text},
                    {"variant", a.variant}});
  }
  return list;
}

std::vector<detail::AxisValue> axes_from_wire(const nlohmann::json& wire) {
  std::vector<detail::AxisValue> axes;
  if (!wire.is_array()) return axes;
  for (const auto& j : wire) {
    detail::AxisValue a;
    a.name = j.at("name").get<std::string>();
    const std::string kind = j.at("kind").get<std::string>();
    a.kind = kind == "integer" ? detail::AxisValue::Kind::integer
                               : (kind == "real" ? detail::AxisValue::Kind::real : detail::AxisValue::Kind::text);
    a.integer = j.at("integer").get<std::int64_t>();
    a.real = number_or(j, "real", 0.0);
    a.text = j.at("text").get<std::string>();
    a.variant = j.at("variant").get<bool>();
    axes.push_back(std::move(a));
  }
  return axes;
}

nlohmann::json rotation_json(const detail::Measurement& m) {
  if (m.rotation_copies <= 0) return nullptr;
  return {{"copies", m.rotation_copies},
          {"bytes_per_run", finite_or_null(m.rotation_bytes_per_run)},
          {"cache_bytes", finite_or_null(m.rotation_cache_bytes)}};
}

void rotation_from_json(const nlohmann::json& rotation, detail::Measurement& m) {
  if (!rotation.is_object()) return;
  m.rotation_copies = rotation.at("copies").get<std::int64_t>();
  m.rotation_bytes_per_run = number_or(rotation, "bytes_per_run", 0.0);
  m.rotation_cache_bytes = number_or(rotation, "cache_bytes", 0.0);
}

}  // namespace gbx
