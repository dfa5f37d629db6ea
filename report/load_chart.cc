#include "report/load_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

#include "text/escape.h"

namespace gbx {

using json = nlohmann::json;

namespace {

constexpr const char* kVegaLiteSchema = "https://vega.github.io/schema/vega-lite/v5.json";

// The gbx objects of iteration entries that carry a load sweep, one per (problem, variant).
std::vector<const json*> sweeps(const json& record, const std::string* problem) {
  std::vector<const json*> found;
  std::set<std::string> seen;
  const auto benchmarks = record.find("benchmarks");
  if (benchmarks == record.end() || !benchmarks->is_array()) return found;
  for (const json& entry : *benchmarks) {
    const auto g = entry.find("gbx");
    if (g == entry.end() || !g->is_object() || !g->contains("load") || !(*g)["load"].is_object()) continue;
    if (!(*g).value("problem", json()).is_string() || !(*g).value("variant", json()).is_string()) continue;
    if ((*g)["load"].value("skipped", json()).is_string()) continue;  // no levels: not valid on that machine
    const std::string p = (*g)["problem"].get<std::string>();
    if (problem != nullptr && p != *problem) continue;
    if (!seen.insert(p + "\n" + (*g)["variant"].get<std::string>()).second) continue;
    found.push_back(&*g);
  }
  return found;
}

bool number_at(const json& j, const char* key, double& out) {
  const auto found = j.find(key);
  if (found == j.end() || !found->is_number()) return false;
  out = found->get<double>();
  return std::isfinite(out);
}

bool quantile_at(const json& latency, const char* key, double& estimate, double* lower, double* upper) {
  const auto q = latency.find(key);
  if (q == latency.end() || !q->is_object() || !number_at(*q, "estimate", estimate)) return false;
  if (lower != nullptr && !number_at(*q, "lower", *lower)) *lower = estimate;
  if (upper != nullptr && !number_at(*q, "upper", *upper)) *upper = estimate;
  return true;
}

std::string fraction_label(double load) {
  char text[32];
  std::snprintf(text, sizeof text, "%gx", load);
  return text;
}

std::optional<double> latency_bound(const std::vector<const json*>& found) {
  for (const json* g : found) {
    double bound = 0.0;
    if (number_at((*g)["load"], "latency_bound_seconds", bound) && bound > 0.0) return bound;
  }
  return std::nullopt;
}

json point_json(const LoadPoint& p) {
  return {{"variant", p.variant},
          {"loop", p.loop},
          {"label", p.label},
          {"throughput", p.throughput},
          {"median_us", p.median_seconds * 1e6},
          {"p99_us", p.p99_seconds * 1e6},
          {"p99_lower_us", p.p99_lower * 1e6},
          {"p99_upper_us", p.p99_upper * 1e6},
          {"offered", p.offered_per_second},
          {"saturated", p.saturated}};
}

json bound_layers(const std::optional<double>& bound) {
  if (!bound) return json::array();
  const double us = *bound * 1e6;
  return json::array(
      {{{"mark", {{"type", "rule"}, {"strokeDash", {6, 4}}, {"color", "#b00"}}},
        {"encoding", {{"y", {{"datum", us}}}}}},
       {{"mark", {{"type", "text"}, {"align", "left"}, {"dx", 4}, {"dy", -6}, {"color", "#b00"}}},
        {"encoding", {{"y", {{"datum", us}}}, {"x", {{"value", 0}}}, {"text", {{"value", "latency bound"}}}}}}});
}

json log_latency_axis(const char* title) {
  return {{"type", "quantitative"}, {"title", title}, {"scale", {{"type", "log"}}}};
}

}  // namespace

std::vector<std::string> load_problems(const json& record) {
  std::vector<std::string> problems;
  for (const json* g : sweeps(record, nullptr)) {
    const std::string p = (*g)["problem"].get<std::string>();
    if (std::find(problems.begin(), problems.end(), p) == problems.end()) problems.push_back(p);
  }
  return problems;
}

std::vector<LoadPoint> load_points(const json& record, const std::string& problem) {
  std::vector<LoadPoint> points;
  for (const json* g : sweeps(record, &problem)) {
    const json& load = (*g)["load"];
    const std::string variant = (*g)["variant"].get<std::string>();
    const auto add = [&](const json& level, const std::string& loop, const std::string& label, const char* rate_key) {
      LoadPoint p;
      p.variant = variant;
      p.loop = loop;
      p.label = label;
      const auto rate = level.find(rate_key);
      const auto latency = level.find("latency_seconds");
      if (rate == level.end() || !rate->is_object() || !number_at(*rate, "rate", p.throughput)) return;
      if (latency == level.end() || !latency->is_object()) return;
      if (!quantile_at(*latency, "p99", p.p99_seconds, &p.p99_lower, &p.p99_upper)) return;
      if (!quantile_at(*latency, "median", p.median_seconds, nullptr, nullptr)) p.median_seconds = p.p99_seconds;
      number_at(level, "offered_per_second", p.offered_per_second);
      p.saturated = level.value("saturated", false);
      points.push_back(p);
    };
    if (load.contains("closed_loop") && load["closed_loop"].is_array()) {
      for (const json& level : load["closed_loop"]) {
        const json c = level.value("concurrency", json());
        add(level, "closed", "c=" + (c.is_number_integer() ? std::to_string(c.get<std::int64_t>()) : "?"),
            "throughput_per_second");
      }
    }
    if (load.contains("open_loop") && load["open_loop"].is_array()) {
      for (const json& level : load["open_loop"]) {
        double fraction = 0.0;
        add(level, "open", number_at(level, "offered_load", fraction) ? fraction_label(fraction) : "open",
            "achieved_per_second");
      }
    }
  }
  return points;
}

json latency_throughput_chart(const json& record, const std::string& problem) {
  const auto points = load_points(record, problem);
  if (points.empty()) return nullptr;
  json values = json::array();
  for (const auto& p : points) values.push_back(point_json(p));
  const json x = {{"field", "throughput"}, {"type", "quantitative"}, {"title", "throughput (runs/s)"}};
  json y = log_latency_axis("p99 latency (µs)");
  y["field"] = "p99_us";
  const json color = {{"field", "variant"}, {"type", "nominal"}, {"title", "variant"}};
  const json dash = {{"field", "loop"},
                     {"type", "nominal"},
                     {"title", "loop"},
                     {"scale", {{"domain", {"closed", "open"}}, {"range", json::array({json::array(), {5, 3}})}}}};
  const json tooltip = json::array({{{"field", "variant"}},
                                    {{"field", "label"}, {"title", "level"}},
                                    {{"field", "throughput"}, {"title", "runs/s"}, {"format", ".4~s"}},
                                    {{"field", "median_us"}, {"title", "median (µs)"}, {"format", ".4~g"}},
                                    {{"field", "p99_us"}, {"title", "p99 (µs)"}, {"format", ".4~g"}},
                                    {{"field", "saturated"}}});
  json layers =
      json::array({{{"mark", {{"type", "rule"}, {"opacity", 0.5}}},
                    {"encoding", {{"x", x}, {"y", y}, {"y2", {{"field", "p99_upper_us"}}}, {"color", color}}}},
                   {{"mark", {{"type", "line"}}},
                    {"encoding",
                     {{"x", x},
                      {"y", y},
                      {"color", color},
                      {"strokeDash", dash},
                      {"detail", {{"field", "loop"}}},
                      {"order", {{"field", "throughput"}, {"type", "quantitative"}}},
                      {"tooltip", tooltip}}}},
                   // Each level is labelled by its point's shape, keyed in the legend (c=2, 0.8x): text
                   // beside the points would print c=1 of one variant over c=1 of the next.
                   {{"mark", {{"type", "point"}, {"size", 70}, {"filled", true}}},
                    {"encoding",
                     {{"x", x},
                      {"y", y},
                      {"color", color},
                      {"shape", {{"field", "label"}, {"type", "nominal"}, {"title", "level"}}},
                      {"tooltip", tooltip}}}}});
  // The interval's lower end: the rule layer above goes from it to the upper end.
  layers[0]["encoding"]["y"]["field"] = "p99_lower_us";
  for (auto& layer : bound_layers(latency_bound(sweeps(record, &problem)))) layers.push_back(layer);
  return {{"$schema", kVegaLiteSchema},
          {"title",
           {{"text", problem + ": latency against throughput"},
            {"subtitle",
             "p99 with its 95% interval; the shape of a point is its level: concurrency (c=) or offered load (x "
             "capacity)"}}},
          {"width", 480},
          {"height", 300},
          {"data", {{"values", values}}},
          {"layer", layers}};
}

json p99_offered_load_chart(const json& record, const std::string& problem) {
  json values = json::array();
  for (const auto& p : load_points(record, problem)) {
    if (p.loop == "open" && p.offered_per_second > 0.0) values.push_back(point_json(p));
  }
  if (values.empty()) return nullptr;
  const json x = {{"field", "offered"}, {"type", "quantitative"}, {"title", "offered load (runs/s)"}};
  json y = log_latency_axis("p99 latency (µs)");
  y["field"] = "p99_us";
  const json color = {{"field", "variant"}, {"type", "nominal"}, {"title", "variant"}};
  json layers = json::array(
      {{{"mark", {{"type", "line"}}},
        {"encoding",
         {{"x", x}, {"y", y}, {"color", color}, {"order", {{"field", "offered"}, {"type", "quantitative"}}}}}},
       {{"mark", {{"type", "point"}, {"size", 60}}},
        {"encoding",
         {{"x", x},
          {"y", y},
          {"color", color},
          {"fill",
           {{"condition", {{"test", "datum.saturated"}, {"value", "white"}}},
            {"field", "variant"},
            {"type", "nominal"}}},
          {"tooltip", json::array({{{"field", "variant"}},
                                   {{"field", "label"}, {"title", "offered (x capacity)"}},
                                   {{"field", "offered"}, {"title", "offered runs/s"}, {"format", ".4~s"}},
                                   {{"field", "throughput"}, {"title", "achieved runs/s"}, {"format", ".4~s"}},
                                   {{"field", "p99_us"}, {"title", "p99 (µs)"}, {"format", ".4~g"}},
                                   {{"field", "saturated"}}})}}}}});
  for (auto& layer : bound_layers(latency_bound(sweeps(record, &problem)))) layers.push_back(layer);
  return {{"$schema", kVegaLiteSchema},
          {"title",
           {{"text", problem + ": p99 latency against offered load"},
            {"subtitle", "open loop; hollow points saturated (the queue grew)"}}},
          {"width", 480},
          {"height", 300},
          {"data", {{"values", values}}},
          {"layer", layers}};
}

namespace {

std::string rate_text(double per_second) {
  char text[48];
  std::snprintf(text, sizeof text, "%.4g/s", per_second);
  return text;
}

std::string time_text(double seconds) {
  char text[48];
  // Rounded to 3 digits, 0.99999 ms is 1 ms, not 1e+03 µs.
  if (seconds < 0.9995e-3) {
    std::snprintf(text, sizeof text, "%.3g µs", seconds * 1e6);
  } else if (seconds < 0.9995) {
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  }
  return text;
}

}  // namespace

std::string load_knee_markdown(const json& record) {
  const auto problems = load_problems(record);
  if (problems.empty()) return "";
  std::ostringstream out;
  out << "## Load\n\nThe knee of each variant: the level with the most throughput per unit of median latency "
         "(λ / W, Kleinrock's power; saturated levels excluded). Past it, latency grows faster than throughput.\n";
  for (const auto& problem : problems) {
    out << "\n### " << markdown_text(problem) << "\n\n"
        << "| variant | knee | throughput | median | p99 | saturates at | throughput at bound |\n"
        << "| --- | --- | --- | --- | --- | --- | --- |\n";
    const auto points = load_points(record, problem);
    for (const json* g : sweeps(record, &problem)) {
      const std::string variant = (*g)["variant"].get<std::string>();
      const LoadPoint* knee = nullptr;
      for (const auto& p : points) {
        if (p.variant != variant || p.saturated || !(p.median_seconds > 0.0)) continue;
        if (knee == nullptr || p.throughput / p.median_seconds > knee->throughput / knee->median_seconds) knee = &p;
      }
      const json& load = (*g)["load"];
      double saturation = 0.0;
      double at_bound = 0.0;
      const std::string saturates =
          number_at(load, "saturation_offered_per_second", saturation) ? rate_text(saturation) : "-";
      const std::string bound_text =
          number_at(load, "throughput_at_bound_per_second", at_bound) ? rate_text(at_bound) : "-";
      out << "| " << markdown_cell(variant) << " | ";
      if (knee != nullptr) {
        out << markdown_cell(knee->label) << " | " << rate_text(knee->throughput) << " | "
            << time_text(knee->median_seconds) << " | " << time_text(knee->p99_seconds);
      } else {
        out << "- | - | - | -";
      }
      out << " | " << saturates << " | " << bound_text << " |\n";
    }
  }
  return out.str();
}

}  // namespace gbx
