// The report's scatter charts: the Pareto front of each problem, and achieved throughput against the
// recorded peaks (roofline-like).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "record/json_number.h"
#include "report/html_report_charts.h"
#include "stats/statistics.h"
#include "text/format.h"

namespace gbx::tools::html {

using json = nlohmann::json;

namespace {

const std::vector<std::string> kStatuses = {"frontier", "dominated", "failed accuracy"};
const std::vector<std::string> kStatusColors = {"#1b9e77", "#7570b3", "#d62728"};
const std::vector<std::string> kStatusShapes = {"circle", "square", "cross"};
// The layer whose points report.js labels (report/assets/report.js, addLabels).
const char* const kLabelledLayer = "gbx_labelled";

bool uses(const ParetoGroup& group, const char* objective) {
  return std::count(group.objectives.begin(), group.objectives.end(), objective) > 0;
}

std::string family_of(const std::string& name) { return name.substr(0, name.find('/')); }

}  // namespace

Chart pareto_chart(const ParetoGroup& group, std::size_t number_in_page) {
  const bool by_error = uses(group, "error");
  const bool by_memory = uses(group, "memory");
  // What goes up the y axis: the error when every variant has one, else memory, else just the names.
  const std::string y_field = by_error ? "error" : (by_memory ? "memory" : "variant");
  double fastest = std::numeric_limits<double>::infinity();
  for (const auto& v : group.variants) fastest = std::min(fastest, v.latency_median);
  const TimeUnit unit = time_unit_for(std::isfinite(fastest) ? fastest : 1e-3);

  json values = json::array();
  std::vector<std::string> not_plotted;
  double smallest = std::numeric_limits<double>::infinity();
  double largest = -std::numeric_limits<double>::infinity();
  double smallest_error = std::numeric_limits<double>::infinity();
  bool zero_error = false;
  const auto add = [&](json point, const std::optional<double>& error, const std::optional<double>& memory,
                       const std::string& variant) {
    if ((y_field == "error" && !error) || (y_field == "memory" && !memory)) {
      not_plotted.push_back(variant);
      return;
    }
    if (error) {
      if (*error > 0.0) smallest_error = std::min(smallest_error, *error);
      if (*error == 0.0) zero_error = true;
    }
    smallest = std::min(smallest, point["lower"].get<double>());
    largest = std::max(largest, point["upper"].get<double>());
    values.push_back(std::move(point));
  };
  for (const auto& v : group.variants) {
    json point = {{"variant", v.variant},
                  {"name", v.name},
                  {"latency", v.latency_median * unit.scale},
                  {"lower", v.latency_lower * unit.scale},
                  {"upper", v.latency_upper * unit.scale},
                  {"latency_text", format_duration(v.latency_median)},
                  {"error", finite_or_null(v.error)},
                  {"memory", finite_or_null(v.memory_bytes)},
                  {"memory_text", v.memory_bytes ? format_bytes(*v.memory_bytes) : "-"},
                  {"status", v.on_frontier ? "frontier" : "dominated"},
                  {"dominated_by", v.dominated_by ? pareto_label(group, *v.dominated_by) : "-"},
                  {"p_frontier", finite_or_null(v.frontier_probability)}};
    add(std::move(point), v.error, v.memory_bytes, v.variant);
  }
  for (const auto& f : group.failed) {
    std::vector<double> sorted = f.latency_samples;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty() || !all_finite(sorted)) {
      not_plotted.push_back(f.variant);
      continue;
    }
    const double m = quantile_sorted(sorted, 0.5);
    const auto ci = quantile_interval_sorted(sorted, 0.5);
    json point = {{"variant", f.variant},
                  {"name", f.name},
                  {"latency", m * unit.scale},
                  {"lower", (ci ? ci->interval.lower : m) * unit.scale},
                  {"upper", (ci ? ci->interval.upper : m) * unit.scale},
                  {"latency_text", format_duration(m)},
                  {"error", finite_or_null(f.error)},
                  {"memory", finite_or_null(f.memory_bytes)},
                  {"memory_text", f.memory_bytes ? format_bytes(*f.memory_bytes) : "-"},
                  {"status", "failed accuracy"},
                  {"dominated_by", f.failure.empty() ? "-" : f.failure},
                  {"p_frontier", 0.0}};
    add(std::move(point), f.error, f.memory_bytes, f.variant);
  }

  std::vector<std::string> subtitle = {"x: median latency with its interval; lower-left is better"};
  json y = {{"field", y_field}, {"type", y_field == "variant" ? "nominal" : "quantitative"}};
  if (y_field == "error") {
    y["title"] = "relative L2 error";
    if (zero_error && std::isfinite(smallest_error)) {
      // log(0) does not exist: a symmetric-log scale keeps 0 on the axis, linear below the constant.
      y["scale"] = {{"type", "symlog"}, {"constant", smallest_error / 10.0}};
      y["axis"] = {{"format", ".1e"}};
      subtitle.push_back("y: relative L2 error on a symmetric-log scale; an error of exactly 0 sits at 0");
    } else if (zero_error) {
      y["scale"] = {{"zero", true}};
      subtitle.push_back("y: relative L2 error; every plotted error is exactly 0");
    } else {
      y["scale"] = {{"type", "log"}};
      y["axis"] = {{"format", ".0e"}};
      subtitle.push_back("y: relative L2 error, log scale");
    }
  } else if (y_field == "memory") {
    y["title"] = "memory (bytes)";
    y["scale"] = {{"type", "log"}};
    y["axis"] = {{"format", "~s"}};
  } else {
    y["title"] = nullptr;
  }
  std::string title = group.problem;
  if (!by_error) {
    std::vector<std::string> lacking;
    for (const auto& m : group.missing) {
      if (m.objective == "error") lacking = m.variants;
    }
    std::string who;
    for (const auto& name : lacking) who += (who.empty() ? "" : ", ") + pareto_label(group, name);
    title +=
        by_memory ? ": error not recorded, latency against memory" : ": error and memory not recorded, latency only";
    if (!who.empty()) subtitle.push_back("no error recorded for " + who);
  }
  if (by_memory && by_error) subtitle.push_back("point size: peak memory");
  if (!by_memory && !group.missing.empty() && by_error) subtitle.push_back("memory not recorded for every variant");
  if (!not_plotted.empty()) {
    std::string who;
    for (const auto& v : not_plotted) who += (who.empty() ? "" : ", ") + v;
    subtitle.push_back("not plotted, lacking the y value: " + who);
  }

  const json x = {{"field", "latency"},
                  {"type", "quantitative"},
                  {"title", std::string("median latency (") + unit.name + ")"},
                  {"scale", position_scale(smallest, largest)},
                  {"axis", {{"format", tick_format(smallest, largest)}}}};
  const json color = {{"field", "status"},
                      {"type", "nominal"},
                      {"title", "status"},
                      {"scale", {{"domain", kStatuses}, {"range", kStatusColors}}}};
  const json shape = {{"field", "status"},
                      {"type", "nominal"},
                      {"title", "status"},
                      {"scale", {{"domain", kStatuses}, {"range", kStatusShapes}}}};
  const json tooltip = json::array({{{"field", "variant"}},
                                    {{"field", "latency_text"}, {"title", "median latency"}},
                                    {{"field", "error"}, {"title", "rel. L2 error"}, {"format", ".3e"}},
                                    {{"field", "memory_text"}, {"title", "memory"}},
                                    {{"field", "status"}},
                                    {{"field", "dominated_by"}, {"title", "dominated by / failure"}},
                                    {{"field", "p_frontier"}, {"title", "P(frontier)"}, {"format", ".2f"}}});
  json eligible_points = {{"transform", json::array({{{"filter", "datum.status !== 'failed accuracy'"}}})},
                          {"mark", {{"type", "point"}, {"filled", true}, {"opacity", 0.85}}},
                          {"encoding", {{"x", x}, {"y", y}, {"color", color}, {"shape", shape}, {"tooltip", tooltip}}}};
  if (by_memory && by_error) {
    eligible_points["encoding"]["size"] = {{"field", "memory"},
                                           {"type", "quantitative"},
                                           {"title", "peak memory (bytes)"},
                                           {"scale", {{"range", {40, 500}}, {"zero", false}}},
                                           {"legend", {{"format", "~s"}}}};
  } else {
    eligible_points["mark"]["size"] = 120;
  }
  // A layer with no data would only warn about an empty extent.
  const auto count = [&](const std::string& status) {
    return std::count_if(values.begin(), values.end(), [&](const json& v) { return v["status"] == status; });
  };
  json layers = json::array({{{"mark", {{"type", "rule"}, {"opacity", 0.6}}},
                              {"encoding",
                               {{"x", {{"field", "lower"}, {"type", "quantitative"}}},
                                {"x2", {{"field", "upper"}}},
                                {"y", y},
                                {"color", color}}}}});
  if (count("frontier") > 1) {
    layers.push_back({{"transform", json::array({{{"filter", "datum.status === 'frontier'"}}})},
                      {"mark", {{"type", "line"}, {"strokeDash", {4, 3}}, {"color", kStatusColors[0]}}},
                      {"encoding", {{"x", x}, {"y", y}, {"order", {{"field", "latency"}, {"type", "quantitative"}}}}}});
  }
  if (count("frontier") + count("dominated") > 0) layers.push_back(eligible_points);
  if (count("failed accuracy") > 0) {
    layers.push_back({{"transform", json::array({{{"filter", "datum.status === 'failed accuracy'"}}})},
                      {"mark", {{"type", "point"}, {"size", 140}, {"strokeWidth", 2}}},
                      {"encoding", {{"x", x}, {"y", y}, {"color", color}, {"shape", shape}, {"tooltip", tooltip}}}});
  }
  // Every point again, unseen, for report.js to label with Vega's label transform: labels that never
  // overlap each other or a point (a Vega-Lite text layer would print them over each other).
  layers.push_back({{"name", kLabelledLayer},
                    {"mark", {{"type", "point"}, {"size", 120}, {"opacity", 0}}},
                    {"encoding", {{"x", x}, {"y", y}}}});
  json spec = {{"title", {{"text", title}, {"subtitle", subtitle}}},
               {"width", kChartWidth},
               {"height", y_field == "variant" ? json(24 * std::max<std::size_t>(values.size(), 2)) : json(300)},
               {"data", {{"values", values}}},
               {"layer", layers},
               {"usermeta", {{"gbxLabels", {{"layer", kLabelledLayer}, {"field", "variant"}}}}}};
  return Chart{
      "pareto-" + std::to_string(number_in_page), "pareto", {{"data-problem", group.problem}}, std::move(spec)};
}

std::optional<Chart> throughput_chart(const ReportModel& model) {
  json points = json::array();
  json bars = json::array();
  struct Roof {
    double flops;
    double bytes;
    std::string label;
  };
  std::vector<Roof> roofs;
  double smallest_ai = std::numeric_limits<double>::infinity();
  double largest_ai = -std::numeric_limits<double>::infinity();
  const bool several = model.runs.size() > 1;
  for (const auto& run : model.runs) {
    for (const auto& row : run.benchmarks) {
      if (row.skipped) continue;
      const std::string series = several ? run.label : family_of(row.name);
      if (row.gflops && row.arithmetic_intensity && *row.gflops > 0.0 && *row.arithmetic_intensity > 0.0) {
        points.push_back({{"series", series},
                          {"run", run.label},
                          {"name", row.name},
                          {"label", row.label},
                          {"ai", *row.arithmetic_intensity},
                          {"gflops", *row.gflops},
                          {"fraction", finite_or_null(row.fraction_of_peak)}});
        smallest_ai = std::min(smallest_ai, *row.arithmetic_intensity);
        largest_ai = std::max(largest_ai, *row.arithmetic_intensity);
        if (row.peak_flops && row.peak_bytes && *row.peak_flops > 0.0 && *row.peak_bytes > 0.0) {
          const bool known = std::any_of(roofs.begin(), roofs.end(), [&](const Roof& r) {
            return r.flops == *row.peak_flops && r.bytes == *row.peak_bytes;
          });
          if (!known) {
            roofs.push_back({*row.peak_flops, *row.peak_bytes,
                             row.precision + " " + (row.region == "cpu" ? "CPU" : "GPU") + ": " +
                                 format_three_digits_compact(*row.peak_flops / 1e9) + " GFLOP/s, " +
                                 format_three_digits_compact(*row.peak_bytes / 1e9) + " GB/s"});
          }
        }
      } else if (row.gbytes && row.fraction_of_peak_bandwidth) {
        bars.push_back({{"series", series},
                        {"run", run.label},
                        {"name", row.name},
                        {"label", row.label},
                        {"gbytes", *row.gbytes},
                        {"fraction", *row.fraction_of_peak_bandwidth}});
      }
    }
  }
  if (points.empty() && bars.empty()) return std::nullopt;

  const json color = {{"field", "series"}, {"type", "nominal"}, {"title", several ? "run" : "family"}};
  json charts = json::array();
  if (!points.empty()) {
    json roof_values = json::array();
    for (const auto& roof : roofs) {
      const double ridge = roof.flops / roof.bytes;
      smallest_ai = std::min(smallest_ai, ridge);
      largest_ai = std::max(largest_ai, ridge);
    }
    const double from = smallest_ai / 4.0;
    const double to = largest_ai * 4.0;
    for (const auto& roof : roofs) {
      std::vector<double> ai;
      for (int k = 0; k <= 48; ++k) ai.push_back(from * std::pow(to / from, k / 48.0));
      ai.push_back(roof.flops / roof.bytes);
      std::sort(ai.begin(), ai.end());
      for (const double a : ai) {
        roof_values.push_back(
            {{"roof", roof.label}, {"ai", a}, {"gflops", std::min(roof.flops, a * roof.bytes) / 1e9}});
      }
    }
    const json x = {{"field", "ai"},
                    {"type", "quantitative"},
                    {"title", "arithmetic intensity (FLOP/byte)"},
                    {"scale", {{"type", "log"}}}};
    const json y = {{"field", "gflops"}, {"type", "quantitative"}, {"title", "GFLOP/s"}, {"scale", {{"type", "log"}}}};
    json layers = json::array();
    if (!roof_values.empty()) {
      layers.push_back({{"data", {{"values", roof_values}}},
                        {"mark", {{"type", "line"}, {"color", "#555555"}, {"strokeWidth", 1.5}}},
                        {"encoding",
                         {{"x", x},
                          {"y", y},
                          {"strokeDash",
                           {{"field", "roof"},
                            {"type", "nominal"},
                            {"title", "roof (recorded peaks)"},
                            {"legend", {{"labelLimit", 400}}}}},
                          {"tooltip", json::array({{{"field", "roof"}}})}}}});
    }
    layers.push_back(
        {{"data", {{"values", points}}},
         {"mark", {{"type", "point"}, {"filled", true}, {"size", 70}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"color", color},
           {"tooltip", json::array({{{"field", "run"}},
                                    {{"field", "label"}, {"title", "benchmark"}},
                                    {{"field", "gflops"}, {"title", "GFLOP/s"}, {"format", ".3~s"}},
                                    {{"field", "ai"}, {"title", "FLOP/byte"}, {"format", ".3~g"}},
                                    {{"field", "fraction"}, {"title", "of peak"}, {"format", ".1%"}}})}}}});
    charts.push_back({{"title",
                       {{"text", "Achieved GFLOP/s against arithmetic intensity"},
                        {"subtitle",
                         "roofline-like: the roofs are min(peak FLOP/s, intensity x peak bandwidth) "
                         "from the peaks the record holds"}}},
                      {"width", kChartWidth},
                      {"height", 320},
                      {"layer", layers}});
  }
  if (!bars.empty()) {
    json encoding = {{"x",
                      {{"field", "fraction"},
                       {"type", "quantitative"},
                       {"title", "fraction of peak bandwidth"},
                       {"axis", {{"format", "%"}}}}},
                     {"y",
                      {{"field", "label"},
                       {"type", "nominal"},
                       {"title", nullptr},
                       {"sort", nullptr},
                       {"axis", {{"labelLimit", 320}}}}},
                     {"color", color},
                     {"tooltip", json::array({{{"field", "run"}},
                                              {{"field", "label"}, {"title", "benchmark"}},
                                              {{"field", "gbytes"}, {"title", "GB/s"}, {"format", ".3~g"}},
                                              {{"field", "fraction"}, {"title", "of peak"}, {"format", ".1%"}}})}};
    if (several) encoding["yOffset"] = {{"field", "run"}, {"type", "nominal"}, {"sort", run_labels(model)}};
    std::size_t labels = 0;
    std::set<std::string> seen;
    for (const auto& bar : bars) labels += seen.insert(bar["label"].get<std::string>()).second ? 1 : 0;
    charts.push_back(
        {{"title",
          {{"text", "Bandwidth-only benchmarks: fraction of the peak bandwidth"},
           {"subtitle", "the rule marks the recorded peak"}}},
         {"width", kChartWidth},
         {"height", 22 * std::max<std::size_t>(labels, 2) * (several ? model.runs.size() : 1)},
         {"layer", json::array({{{"data", {{"values", bars}}}, {"mark", "bar"}, {"encoding", encoding}},
                                {{"data", {{"values", json::array({json::object()})}}},
                                 {"mark", {{"type", "rule"}, {"color", "#333333"}, {"strokeDash", {4, 3}}}},
                                 {"encoding", {{"x", {{"datum", 1}}}}}}})}});
  }
  json spec =
      charts.size() == 1 ? charts[0] : json{{"vconcat", charts}, {"resolve", {{"scale", {{"color", "independent"}}}}}};
  return Chart{"throughput", "throughput", {}, std::move(spec)};
}

}  // namespace gbx::tools::html
