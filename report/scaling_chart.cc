#include "report/scaling_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace gbx {

using json = nlohmann::json;

namespace {

struct Point {
  std::string variant;
  double x = 0.0;
  double median_seconds = 0.0;
  std::optional<double> throughput;  // GB/s, or GFLOP/s when the benchmark declares no bytes
  std::string throughput_unit;
};

struct Group {
  std::string problem;
  std::string axis;
  std::vector<Point> points;
};

std::optional<double> finite_number(const json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

json layer(const std::string& axis, bool log_x, const std::string& field, const std::string& title) {
  json x = {{"field", "x"}, {"type", "quantitative"}, {"title", axis}};
  if (log_x) x["scale"] = {{"type", "log"}, {"base", 2}};
  return {{"width", 560},
          {"height", 180},
          {"transform", json::array({{{"filter", "isValid(datum." + field + ")"}}})},
          {"mark", {{"type", "line"}, {"point", true}, {"tooltip", true}}},
          {"encoding",
           {{"x", x},
            {"y", {{"field", field}, {"type", "quantitative"}, {"scale", {{"type", "log"}}}, {"title", title}}},
            {"color", {{"field", "variant"}, {"type", "nominal"}}}}}};
}

json chart_spec(const Group& group) {
  json values = json::array();
  double smallest = std::numeric_limits<double>::infinity();
  double largest = 0.0;
  std::string unit;
  for (const Point& p : group.points) {
    json v = {{"variant", p.variant}, {"x", p.x}, {"median_us", p.median_seconds * 1e6}};
    v["throughput"] = p.throughput ? json(*p.throughput) : json();
    if (p.throughput) unit = p.throughput_unit;
    values.push_back(std::move(v));
    smallest = std::min(smallest, p.x);
    largest = std::max(largest, p.x);
  }
  // Powers of two over a wide range read best on a log axis; a narrow or signed range, linear.
  const bool log_x = smallest > 0.0 && largest / smallest >= 8.0;
  json layers = json::array({layer(group.axis, log_x, "median_us", "median latency (us)")});
  if (!unit.empty()) layers.push_back(layer(group.axis, log_x, "throughput", unit + " at the median"));
  return {{"$schema", "https://vega.github.io/schema/vega-lite/v5.json"},
          {"description", "scaling of " + group.problem + " along " + group.axis},
          {"title", group.problem + ": latency and throughput against " + group.axis},
          {"data", {{"values", values}}},
          {"vconcat", layers}};
}

}  // namespace

std::vector<ScalingChart> scaling_charts(const json& record) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  std::set<std::string> seen_names;
  const auto benchmarks = record.find("benchmarks");
  if (benchmarks == record.end() || !benchmarks->is_array()) return {};
  for (const json& entry : *benchmarks) {
    const auto g = entry.find("gbx");
    if (g == entry.end() || !g->is_object()) continue;
    const auto axes = g->find("axes");
    const auto stats = g->find("stats");
    if (axes == g->end() || !axes->is_object() || stats == g->end() || !stats->is_object()) continue;
    const auto median = finite_number(*stats, "median");
    if (!median || !entry.value("name", json()).is_string()) continue;
    if (!seen_names.insert(entry["name"].get<std::string>()).second) continue;  // the first repetition
    std::set<std::string> variant_axes;
    for (const json& name : g->value("variant_axes", json::array())) {
      if (name.is_string()) variant_axes.insert(name.get<std::string>());
    }
    Point point;
    point.variant = g->value("variant", std::string());
    point.median_seconds = *median;
    if (const auto t = g->find("throughput"); t != g->end() && t->is_object()) {
      if (const auto bytes = finite_number(*t, "gbytes_per_second")) {
        point.throughput = bytes;
        point.throughput_unit = "GB/s";
      } else if (const auto flops = finite_number(*t, "gflops_per_second")) {
        point.throughput = flops;
        point.throughput_unit = "GFLOP/s";
      }
    }
    const std::string problem = g->value("problem", std::string());
    const std::string family = problem.substr(0, problem.find('/'));
    for (const auto& [axis, value] : axes->items()) {
      if (!value.is_number() || variant_axes.count(axis) != 0) continue;
      std::string rest;
      for (const auto& [other, other_value] : axes->items()) {
        if (other == axis || variant_axes.count(other) != 0) continue;
        rest.append(" ").append(other).append("=").append(other_value.is_string() ? other_value.get<std::string>()
                                                                                  : other_value.dump());
      }
      std::string key = family;
      key.append(rest).append("\n").append(axis);
      if (index.find(key) == index.end()) {
        index[key] = groups.size();
        groups.push_back(Group{family + rest, axis, {}});
      }
      Point at = point;
      at.x = value.get<double>();
      groups[index[key]].points.push_back(at);
    }
  }
  std::vector<ScalingChart> charts;
  for (const Group& group : groups) {
    std::set<double> xs;
    for (const Point& p : group.points) xs.insert(p.x);
    if (xs.size() < 2) continue;
    charts.push_back(ScalingChart{group.problem, group.axis, group.points.size(), chart_spec(group)});
  }
  return charts;
}

}  // namespace gbx
