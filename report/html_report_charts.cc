// The report's time charts: the ECDF of each benchmark's samples, the comparison of two runs and the
// trend over three or more; and report_charts(), every chart in page order.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "record/json_number.h"
#include "report/html_report_charts.h"
#include "text/format.h"

namespace gbx::tools {

namespace html {

using json = nlohmann::json;

namespace {

// The ECDF is drawn through at most this many points; more add nothing a reader can see.
constexpr std::size_t kMaxEcdfPoints = 1000;

const std::vector<std::string> kVerdicts = {"faster", "same", "inconclusive", "unreplicated", "insufficient", "slower"};
const std::vector<std::string> kVerdictColors = {"#1a9850", "#7f7f7f", "#e08214", "#8073ac", "#bababa", "#d73027"};

json run_color(const ReportModel& model) {
  json color = {{"field", "run"}, {"type", "nominal"}, {"title", "run"}, {"scale", {{"domain", run_labels(model)}}}};
  if (model.runs.size() == 1) color["legend"] = nullptr;
  return color;
}

// A number for CSV data: six significant digits are more than a chart can show.
void append_number(std::string& out, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  out += text;
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

}  // namespace

std::vector<NamedRows> rows_by_name(const ReportModel& model) {
  std::vector<NamedRows> named;
  std::map<std::string, std::size_t> index;
  for (std::size_t run = 0; run < model.runs.size(); ++run) {
    for (const auto& row : model.runs[run].benchmarks) {
      if (row.skipped) continue;
      auto found = index.find(row.name);
      if (found == index.end()) {
        found = index.emplace(row.name, named.size()).first;
        named.push_back(NamedRows{row.name, row.label, {}});
      }
      named[found->second].rows.emplace_back(run, &row);
    }
  }
  return named;
}

std::vector<const ParetoGroup*> shown_pareto_groups(const ReportModel& model) {
  std::vector<const ParetoGroup*> groups;
  for (const auto& group : model.pareto) {
    if (group.variants.size() + group.failed.size() >= 2) groups.push_back(&group);
  }
  return groups;
}

std::vector<std::string> run_labels(const ReportModel& model) {
  std::vector<std::string> labels;
  labels.reserve(model.runs.size());
  for (const auto& run : model.runs) labels.push_back(run.label);
  return labels;
}

json position_scale(double smallest, double largest, double log_above) {
  if (smallest > 0.0 && largest / smallest > log_above) return {{"type", "log"}};
  return {{"zero", false}};
}

std::string tick_format(double smallest, double largest) {
  const double magnitude = std::max(std::fabs(smallest), std::fabs(largest));
  if (!std::isfinite(magnitude) || magnitude == 0.0) return "~r";
  const double spread = std::max(largest - smallest, magnitude * 1e-3);
  const int digits = std::clamp(static_cast<int>(std::ceil(std::log10(magnitude / spread))) + 2, 2, 8);
  return "." + std::to_string(digits) + "~r";
}

Chart ecdf_chart(const ReportModel& model, const NamedRows& named, std::size_t number_in_page) {
  const TimeUnit unit = time_unit_for(named.rows.front().second->median);
  // The curve's points as CSV, which Vega-Lite parses: a thousand points per run of a thousand
  // benchmarks would take gigabytes as JSON objects in memory (issue 13) and tens of MB in the page.
  std::string points = "run,t,p,i\n";
  json bands = json::array();
  std::vector<std::string> notes;
  double smallest = std::numeric_limits<double>::infinity();
  double largest = -std::numeric_limits<double>::infinity();
  for (const auto& [run, row] : named.rows) {
    const std::string& label = model.runs[run].label;
    std::vector<double> sorted = row->samples;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    if (n == 0) continue;
    smallest = std::min(smallest, sorted.front() * unit.scale);
    largest = std::max(largest, sorted.back() * unit.scale);
    // Order statistics at evenly spaced quantiles when there are too many; ties keep the highest step.
    std::vector<std::size_t> indices;
    if (n <= kMaxEcdfPoints) {
      for (std::size_t i = 0; i < n; ++i) indices.push_back(i);
    } else {
      for (std::size_t k = 0; k < kMaxEcdfPoints; ++k) {
        indices.push_back(static_cast<std::size_t>(std::llround(static_cast<double>(k) * static_cast<double>(n - 1) /
                                                                static_cast<double>(kMaxEcdfPoints - 1))));
      }
    }
    std::size_t order = 0;
    const auto add_point = [&](double t, double p) {
      points += label;  // "#1": no comma or quote to escape
      points += ',';
      append_number(points, t);
      points += ',';
      append_number(points, p);
      points += ',' + std::to_string(order++) + '\n';
    };
    add_point(sorted.front() * unit.scale, 0.0);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      std::size_t i = indices[k];
      while (i + 1 < n && sorted[i + 1] == sorted[i]) ++i;  // the step's top at this value
      if (k + 1 < indices.size() && indices[k + 1] <= i) continue;
      add_point(sorted[i] * unit.scale, static_cast<double>(i + 1) / static_cast<double>(n));
    }
    std::string note = (model.runs.size() > 1 ? label + ": " : "") + "n = " + std::to_string(n);
    if (n > kMaxEcdfPoints) note += ", drawn through " + std::to_string(kMaxEcdfPoints) + " of its quantiles";
    notes.push_back(note);
    json band = {
        {"run", label},
        {"median", row->median * unit.scale},
        {"median_text", format_duration(row->median)},
        {"interval", row->median_lower && row->median_upper
                         ? "[" + format_duration(*row->median_lower) + ", " + format_duration(*row->median_upper) +
                               "] " + format_percent(row->median_level) + " CI"
                         : "no interval"}};
    band["lower"] = row->median_lower ? finite_or_null(*row->median_lower * unit.scale) : json(nullptr);
    band["upper"] = row->median_upper ? finite_or_null(*row->median_upper * unit.scale) : json(nullptr);
    bands.push_back(band);
  }
  const std::string x_title = std::string("time per run (") + unit.name + ")";
  json x_scale = position_scale(smallest, largest, 3.0);
  x_scale["nice"] = false;  // the samples' own range, not rounded out to decades
  const json x_axis = {{"format", tick_format(smallest, largest)}};
  const json color = run_color(model);
  const json band_tooltip = json::array({{{"field", "run"}},
                                         {{"field", "median_text"}, {"title", "median"}},
                                         {{"field", "interval"}, {"title", "interval"}}});
  json spec = {
      {"title",
       {{"text", named.label},
        {"subtitle",
         json::array({named.name, "ECDF of the raw samples; the rule is the median, the band its interval (" +
                                      joined(notes, "; ") + ")"})}}},
      {"width", kChartWidth},
      {"height", 200},
      {"layer",
       json::array({{{"data", {{"values", bands}}},
                     {"transform", json::array({{{"filter", "isValid(datum.lower) && isValid(datum.upper)"}}})},
                     {"mark", {{"type", "rect"}, {"opacity", 0.18}}},
                     {"encoding",
                      {{"x",
                        {{"field", "lower"},
                         {"type", "quantitative"},
                         {"title", x_title},
                         {"scale", x_scale},
                         {"axis", x_axis}}},
                       {"x2", {{"field", "upper"}}},
                       {"color", color},
                       {"tooltip", band_tooltip}}}},
                    {{"data", {{"values", bands}}},
                     {"mark", {{"type", "rule"}, {"strokeWidth", 2}}},
                     {"encoding",
                      {{"x", {{"field", "median"}, {"type", "quantitative"}, {"title", x_title}}},
                       {"color", color},
                       {"tooltip", band_tooltip}}}},
                    {{"data",
                      {{"values", std::move(points)},
                       {"format", {{"type", "csv"}, {"parse", {{"t", "number"}, {"p", "number"}, {"i", "number"}}}}}}},
                     {"mark", {{"type", "line"}, {"interpolate", "step-after"}}},
                     {"encoding",
                      {{"x", {{"field", "t"}, {"type", "quantitative"}, {"title", x_title}}},
                       {"y",
                        {{"field", "p"},
                         {"type", "quantitative"},
                         {"title", "fraction of samples <= t"},
                         {"scale", {{"domain", {0, 1}}}}}},
                       {"order", {{"field", "i"}, {"type", "quantitative"}}},
                       {"color", color}}}}})}};
  return Chart{"ecdf-" + std::to_string(number_in_page), "ecdf", {{"data-name", named.name}}, std::move(spec)};
}

Chart compare_chart(const ReportModel& model) {
  const Comparison& comparison = *model.comparison;
  json values = json::array();
  for (const auto& row : comparison.rows) {
    if (!row.ratio) continue;
    values.push_back({{"label", row.label},
                      {"name", row.name},
                      {"ratio", finite_or_null(row.ratio->ratio)},
                      {"lower", finite_or_null(row.ratio->lower)},
                      {"upper", finite_or_null(row.ratio->upper)},
                      {"verdict", to_string(row.verdict)},
                      {"p", finite_or_null(row.adjusted_p)},
                      {"sentence", row.sentence}});
  }
  std::string title =
      model.runs[1].label + " against " + model.runs[0].label + ": median ratio candidate / base with its 95% interval";
  std::vector<std::string> subtitle = {"the shaded band is the noise band, 1 +/- " +
                                       format_percent(comparison.noise_band) + "; left of 1 is faster"};
  if (!comparison.compatible()) {
    title = "INCOMPATIBLE records: " + title;
    std::string differences;
    for (const auto& d : comparison.differences) {
      differences += (differences.empty() ? "" : "; ") + d.what + " (" + d.base + " vs " + d.candidate + ")";
    }
    subtitle.push_back("these facts differ: " + differences);
  }
  const json y = {
      {"field", "label"}, {"type", "nominal"}, {"title", nullptr}, {"sort", nullptr}, {"axis", {{"labelLimit", 320}}}};
  const json x = {
      {"field", "ratio"}, {"type", "quantitative"}, {"title", "candidate / base"}, {"scale", {{"zero", false}}}};
  json spec = {
      {"title", {{"text", title}, {"subtitle", subtitle}}},
      {"width", kChartWidth},
      {"height", 24 * std::max<std::size_t>(values.size(), 2)},
      {"layer",
       json::array({{{"data",
                      {{"values",
                        json::array({{{"low", 1.0 - comparison.noise_band}, {"high", 1.0 + comparison.noise_band}}})}}},
                     {"mark", {{"type", "rect"}, {"color", "#999999"}, {"opacity", 0.15}}},
                     {"encoding", {{"x", {{"field", "low"}, {"type", "quantitative"}}}, {"x2", {{"field", "high"}}}}}},
                    {{"data", {{"values", json::array({json::object()})}}},
                     {"mark", {{"type", "rule"}, {"color", "#333333"}}},
                     {"encoding", {{"x", {{"datum", 1}}}}}},
                    {{"data", {{"values", values}}},
                     {"mark", {{"type", "rule"}, {"strokeWidth", 2}}},
                     {"encoding",
                      {{"x", {{"field", "lower"}, {"type", "quantitative"}}},
                       {"x2", {{"field", "upper"}}},
                       {"y", y},
                       {"color",
                        {{"field", "verdict"},
                         {"type", "nominal"},
                         {"scale", {{"domain", kVerdicts}, {"range", kVerdictColors}}}}}}}},
                    {{"data", {{"values", values}}},
                     {"mark", {{"type", "point"}, {"filled", true}, {"size", 80}}},
                     {"encoding",
                      {{"x", x},
                       {"y", y},
                       {"color",
                        {{"field", "verdict"},
                         {"type", "nominal"},
                         {"scale", {{"domain", kVerdicts}, {"range", kVerdictColors}}}}},
                       {"tooltip", json::array({{{"field", "sentence"}},
                                                {{"field", "p"}, {"title", "p (BH)"}, {"format", ".3g"}}})}}}}})}};
  return Chart{"compare", "compare", {}, std::move(spec)};
}

std::string run_axis_label(const RunReport& run) {
  return run.created.empty() ? run.label : run.label + " " + run.created;
}

Chart trend_chart(const ReportModel& model, const TrendSeries& series, std::size_t number_in_page) {
  const TimeUnit unit = time_unit_for(series.points.front().median);
  json values = json::array();
  double smallest = std::numeric_limits<double>::infinity();
  double largest = -std::numeric_limits<double>::infinity();
  for (const auto& point : series.points) {
    values.push_back({{"run", run_axis_label(model.runs[point.run])},
                      {"median", point.median * unit.scale},
                      {"lower", point.lower ? finite_or_null(*point.lower * unit.scale) : json(nullptr)},
                      {"upper", point.upper ? finite_or_null(*point.upper * unit.scale) : json(nullptr)},
                      {"median_text", format_duration(point.median)}});
    smallest = std::min({smallest, point.median, point.lower.value_or(point.median)});
    largest = std::max({largest, point.median, point.upper.value_or(point.median)});
  }
  smallest *= unit.scale;
  largest *= unit.scale;
  json order = json::array();
  for (const std::size_t run : model.by_date) order.push_back(run_axis_label(model.runs[run]));
  const json x = {{"field", "run"},
                  {"type", "ordinal"},
                  {"title", "run, by date"},
                  {"sort", order},
                  {"axis", {{"labelAngle", -20}, {"labelLimit", 220}}}};
  json y_scale = {{"zero", false}};
  if (largest - smallest < 1e-3 * std::fabs(largest)) {
    // A flat series: a band of +/- 1% around it, rather than a scale zoomed into rounding noise.
    const double middle = (smallest + largest) / 2.0;
    smallest = middle - 0.01 * std::fabs(middle);
    largest = middle + 0.01 * std::fabs(middle);
    y_scale["domain"] = {smallest, largest};
  }
  const json y = {{"field", "median"},
                  {"type", "quantitative"},
                  {"title", std::string("median (") + unit.name + ")"},
                  {"scale", y_scale},
                  {"axis", {{"format", tick_format(smallest, largest)}, {"tickCount", 5}}}};
  json layers = json::array(
      {{{"transform", json::array({{{"filter", "isValid(datum.lower) && isValid(datum.upper)"}}})},
        {"mark", {{"type", "rule"}, {"strokeWidth", 2}, {"opacity", 0.6}}},
        {"encoding", {{"x", x}, {"y", {{"field", "lower"}, {"type", "quantitative"}}}, {"y2", {{"field", "upper"}}}}}},
       {{"mark", {{"type", "line"}, {"point", {{"filled", true}, {"size", 60}}}}},
        {"encoding",
         {{"x", x},
          {"y", y},
          {"tooltip", json::array({{{"field", "run"}}, {{"field", "median_text"}, {"title", "median"}}})}}}}});
  // Change points, when the model has them: a dashed rule at the first run of each new segment.
  json steps = json::array();
  for (const auto& step : series.change_points) {
    if (step.index >= series.points.size()) continue;
    steps.push_back({{"run", run_axis_label(model.runs[series.points[step.index].run])},
                     {"change", format_signed_percent(step.relative_change) + " from here"}});
  }
  if (!steps.empty()) {
    layers.push_back({{"data", {{"values", steps}}},
                      {"mark", {{"type", "rule"}, {"color", "#cf222e"}, {"strokeDash", {5, 3}}, {"strokeWidth", 1.5}}},
                      {"encoding", {{"x", x}, {"tooltip", json::array({{{"field", "change"}, {"title", "step"}}})}}}});
  }
  json spec = {{"title", {{"text", series.label}, {"subtitle", series.name}}},
               {"width", kChartWidth},
               {"height", 200},
               {"data", {{"values", values}}},
               {"layer", std::move(layers)}};
  return Chart{"trend-" + std::to_string(number_in_page), "trend", {{"data-name", series.name}}, std::move(spec)};
}

}  // namespace html

std::vector<Chart> report_charts(const ReportModel& model) {
  using namespace html;
  std::vector<Chart> charts;
  if (model.comparison) charts.push_back(compare_chart(model));
  for (std::size_t i = 0; i < model.trends.size(); ++i) charts.push_back(trend_chart(model, model.trends[i], i));
  const auto named = rows_by_name(model);
  for (std::size_t i = 0; i < named.size(); ++i) charts.push_back(ecdf_chart(model, named[i], i));
  const auto groups = shown_pareto_groups(model);
  for (std::size_t i = 0; i < groups.size(); ++i) charts.push_back(pareto_chart(*groups[i], i));
  if (auto chart = throughput_chart(model)) charts.push_back(std::move(*chart));
  for (std::size_t i = 0; i < model.load.size(); ++i) {
    const LoadCharts& load = model.load[i];
    for (const auto& [spec, kind] : {std::pair<const json*, const char*>{&load.latency_throughput, "load"},
                                     std::pair<const json*, const char*>{&load.p99_offered_load, "load_offered"}}) {
      if (spec->is_null()) continue;
      charts.push_back(
          Chart{std::string(kind) + "-" + std::to_string(i), kind, {{"data-problem", load.problem}}, *spec});
    }
  }
  for (std::size_t i = 0; i < model.scaling.size(); ++i) {
    const ScalingChart& scaling = model.scaling[i];
    charts.push_back(Chart{"scaling-" + std::to_string(i),
                           "scaling",
                           {{"data-problem", scaling.problem},
                            {"data-axis", scaling.axis},
                            {"data-points", std::to_string(scaling.points)}},
                           scaling.spec});
  }
  return charts;
}

}  // namespace gbx::tools
