#include "tools/html_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "record/json_number.h"
#include "reporters/console_table.h"
#include "reporters/escape.h"
#include "stats/statistics.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;

// The ECDF is drawn through at most this many points; more add nothing a reader can see.
constexpr std::size_t kMaxEcdfPoints = 1000;
constexpr int kChartWidth = 560;

const std::vector<std::string> kStatuses = {"frontier", "dominated", "failed accuracy"};
const std::vector<std::string> kStatusColors = {"#1b9e77", "#7570b3", "#d62728"};
const std::vector<std::string> kStatusShapes = {"circle", "square", "cross"};
const std::vector<std::string> kVerdicts = {"faster", "same", "inconclusive", "unreplicated", "insufficient", "slower"};
const std::vector<std::string> kVerdictColors = {"#1a9850", "#7f7f7f", "#e08214", "#8073ac", "#bababa", "#d73027"};

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The measured rows of every run, by benchmark name in first-seen order, with the runs that have it.
struct NamedRows {
  std::string name;
  std::string label;
  std::vector<std::pair<std::size_t, const BenchmarkRow*>> rows;  // run index, row
};

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

std::vector<std::string> run_labels(const ReportModel& model) {
  std::vector<std::string> labels;
  for (const auto& run : model.runs) labels.push_back(run.label);
  return labels;
}

// Log when the values are all positive and span more than a factor of log_above: one slow outlier
// would otherwise squeeze everything else into a corner.
json position_scale(double smallest, double largest, double log_above = 20.0) {
  if (smallest > 0.0 && largest / smallest > log_above) return {{"type", "log"}};
  return {{"zero", false}};
}

json run_color(const ReportModel& model) {
  json color = {{"field", "run"}, {"type", "nominal"}, {"title", "run"}, {"scale", {{"domain", run_labels(model)}}}};
  if (model.runs.size() == 1) color["legend"] = nullptr;
  return color;
}

Chart ecdf_chart(const ReportModel& model, const NamedRows& named, std::size_t number_in_page) {
  const TimeUnit unit = time_unit_for(named.rows.front().second->median);
  json points = json::array();
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
    points.push_back({{"run", label}, {"t", sorted.front() * unit.scale}, {"p", 0.0}, {"i", order++}});
    for (std::size_t k = 0; k < indices.size(); ++k) {
      std::size_t i = indices[k];
      while (i + 1 < n && sorted[i + 1] == sorted[i]) ++i;  // the step's top at this value
      if (k + 1 < indices.size() && indices[k + 1] <= i) continue;
      points.push_back({{"run", label},
                        {"t", sorted[i] * unit.scale},
                        {"p", static_cast<double>(i + 1) / static_cast<double>(n)},
                        {"i", order++}});
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
  const json color = run_color(model);
  const json band_tooltip = json::array({{{"field", "run"}},
                                         {{"field", "median_text"}, {"title", "median"}},
                                         {{"field", "interval"}, {"title", "interval"}}});
  json spec = {
      {"title",
       {{"text", named.label},
        {"subtitle",
         json::array({named.name, "ECDF of the raw samples; the rule is the median, the band its interval (" +
                                      [&] {
                                        std::string joined;
                                        for (const auto& n : notes) joined += (joined.empty() ? "" : "; ") + n;
                                        return joined;
                                      }() +
                                      ")"})}}},
      {"width", kChartWidth},
      {"height", 200},
      {"layer",
       json::array({{{"data", {{"values", bands}}},
                     {"transform", json::array({{{"filter", "isValid(datum.lower) && isValid(datum.upper)"}}})},
                     {"mark", {{"type", "rect"}, {"opacity", 0.18}}},
                     {"encoding",
                      {{"x", {{"field", "lower"}, {"type", "quantitative"}, {"title", x_title}, {"scale", x_scale}}},
                       {"x2", {{"field", "upper"}}},
                       {"color", color},
                       {"tooltip", band_tooltip}}}},
                    {{"data", {{"values", bands}}},
                     {"mark", {{"type", "rule"}, {"strokeWidth", 2}}},
                     {"encoding",
                      {{"x", {{"field", "median"}, {"type", "quantitative"}, {"title", x_title}}},
                       {"color", color},
                       {"tooltip", band_tooltip}}}},
                    {{"data", {{"values", points}}},
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

std::vector<const ParetoGroup*> shown_pareto_groups(const ReportModel& model) {
  std::vector<const ParetoGroup*> groups;
  for (const auto& group : model.pareto) {
    if (group.variants.size() + group.failed.size() >= 2) groups.push_back(&group);
  }
  return groups;
}

bool uses(const ParetoGroup& group, const char* objective) {
  return std::count(group.objectives.begin(), group.objectives.end(), objective) > 0;
}

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
                  {"scale", position_scale(smallest, largest)}};
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
  layers.push_back({{"mark", {{"type", "text"}, {"align", "left"}, {"dx", 8}, {"dy", -6}, {"fontSize", 11}}},
                    {"encoding", {{"x", x}, {"y", y}, {"text", {{"field", "variant"}}}}}});
  json spec = {{"title", {{"text", title}, {"subtitle", subtitle}}},
               {"width", kChartWidth},
               {"height", y_field == "variant" ? json(24 * std::max<std::size_t>(values.size(), 2)) : json(300)},
               {"data", {{"values", values}}},
               {"layer", layers}};
  return Chart{
      "pareto-" + std::to_string(number_in_page), "pareto", {{"data-problem", group.problem}}, std::move(spec)};
}

std::string family_of(const std::string& name) { return name.substr(0, name.find('/')); }

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
  for (const auto& point : series.points) {
    values.push_back({{"run", run_axis_label(model.runs[point.run])},
                      {"median", point.median * unit.scale},
                      {"lower", point.lower ? finite_or_null(*point.lower * unit.scale) : json(nullptr)},
                      {"upper", point.upper ? finite_or_null(*point.upper * unit.scale) : json(nullptr)},
                      {"median_text", format_duration(point.median)}});
  }
  json order = json::array();
  for (const std::size_t run : model.by_date) order.push_back(run_axis_label(model.runs[run]));
  const json x = {{"field", "run"},
                  {"type", "ordinal"},
                  {"title", "run, by date"},
                  {"sort", order},
                  {"axis", {{"labelAngle", -20}, {"labelLimit", 220}}}};
  const json y = {{"field", "median"},
                  {"type", "quantitative"},
                  {"title", std::string("median (") + unit.name + ")"},
                  {"scale", {{"zero", false}}}};
  json spec = {
      {"title", {{"text", series.label}, {"subtitle", series.name}}},
      {"width", kChartWidth},
      {"height", 200},
      {"data", {{"values", values}}},
      {"layer",
       json::array(
           {{{"transform", json::array({{{"filter", "isValid(datum.lower) && isValid(datum.upper)"}}})},
             {"mark", {{"type", "rule"}, {"strokeWidth", 2}, {"opacity", 0.6}}},
             {"encoding",
              {{"x", x}, {"y", {{"field", "lower"}, {"type", "quantitative"}}}, {"y2", {{"field", "upper"}}}}}},
            {{"mark", {{"type", "line"}, {"point", {{"filled", true}, {"size", 60}}}}},
             {"encoding",
              {{"x", x},
               {"y", y},
               {"tooltip", json::array({{{"field", "run"}}, {{"field", "median_text"}, {"title", "median"}}})}}}}})}};
  return Chart{"trend-" + std::to_string(number_in_page), "trend", {{"data-name", series.name}}, std::move(spec)};
}

// ---- the page ------------------------------------------------------------------------------------

std::string cell(const std::string& text, const std::string& sort_key = "", const std::string& title = "") {
  std::string td = "<td";
  if (!sort_key.empty()) td += " data-sort=\"" + html_escape(sort_key) + "\"";
  if (!title.empty()) td += " title=\"" + html_escape(title) + "\"";
  return td + ">" + html_escape(text) + "</td>";
}

std::string sort_key(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "";
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", *value);
  return text;
}

std::string header_row(const std::vector<std::pair<std::string, bool>>& columns) {
  std::string row = "<tr>";
  for (const auto& [name, numeric] : columns) {
    row += std::string("<th scope=\"col\" tabindex=\"0\" data-type=\"") + (numeric ? "number" : "text") + "\">" +
           html_escape(name) + "</th>";
  }
  return row + "</tr>";
}

std::string chart_container(const Chart& chart) {
  std::string div =
      "<div class=\"gbx-chart\" id=\"" + html_escape(chart.id) + "\" data-kind=\"" + html_escape(chart.kind) + "\"";
  for (const auto& [key, value] : chart.attributes) div += " " + key + "=\"" + html_escape(value) + "\"";
  return div + "></div>\n";
}

std::string interval_text(const std::optional<double>& lower, const std::optional<double>& upper) {
  if (!lower || !upper) return "-";
  return "[" + format_duration(*lower) + ", " + format_duration(*upper) + "]";
}

void write_facts(std::ostringstream& page, const char* title, const std::vector<Fact>& facts) {
  if (facts.empty()) return;
  page << "<details open><summary>" << title << "</summary><table class=\"gbx-facts\"><tbody>\n";
  for (const auto& [label, value] : facts) {
    page << "<tr><th scope=\"row\">" << html_escape(label) << "</th><td>" << html_escape(value) << "</td></tr>\n";
  }
  page << "</tbody></table></details>\n";
}

void write_benchmark_table(std::ostringstream& page, const RunReport& run, std::size_t index) {
  page << "<table class=\"gbx-benchmarks\" data-run=\"" << index << "\">\n<thead>"
       << header_row({{"Benchmark", false},
                      {"Median", true},
                      {"95% CI", true},
                      {"CV", true},
                      {"p99", true},
                      {"n", true},
                      {"Error (rel. L2)", true},
                      {"Accuracy", false},
                      {"Memory", true},
                      {"GFLOP/s", true},
                      {"GB/s", true},
                      {"Of peak", true},
                      {"Flags", false}})
       << "</thead>\n<tbody>\n";
  for (const auto& row : run.benchmarks) {
    page << "<tr data-name=\"" << html_escape(row.name) << "\"" << (row.skipped ? " data-skipped=\"true\"" : "") << ">";
    page << "<td><span class=\"gbx-label\">" << html_escape(row.label) << "</span>"
         << (row.label != row.name ? "<br><code>" + html_escape(row.name) + "</code>" : "") << "</td>";
    if (row.skipped) {
      page << "<td colspan=\"12\" class=\"gbx-skipped\">skipped: " << html_escape(row.skip_reason) << "</td></tr>\n";
      continue;
    }
    const auto optional_text = [](const std::optional<double>& v, std::string (*format)(double)) {
      return v ? format(*v) : std::string("-");
    };
    std::string accuracy = "not checked";
    if (row.accuracy_passed) accuracy = *row.accuracy_passed ? "passed" : "FAILED";
    std::string flags;
    std::string flag_messages;
    for (const auto& flag : row.flags) {
      if (flags.find(flag.flag) == std::string::npos) flags += (flags.empty() ? "" : ", ") + flag.flag;
      flag_messages += (flag_messages.empty() ? "" : "\n") + flag.flag + ": " + flag.message;
    }
    page << cell(format_duration(row.median), sort_key(row.median))
         << cell(interval_text(row.median_lower, row.median_upper), sort_key(row.median_lower))
         << cell(optional_text(row.cv, format_percent), sort_key(row.cv))
         << cell(optional_text(row.p99, format_duration), sort_key(row.p99))
         << cell(std::to_string(row.count), std::to_string(row.count))
         << cell(optional_text(row.rel_l2_error, format_scientific), sort_key(row.rel_l2_error))
         << (row.accuracy_passed && !*row.accuracy_passed ? "<td class=\"gbx-bad\">" : "<td>") << accuracy << "</td>"
         << cell(row.memory_bytes ? format_bytes(*row.memory_bytes) + " " + row.memory_kind : "-",
                 sort_key(row.memory_bytes))
         << cell(optional_text(row.gflops, format_three_digits_compact), sort_key(row.gflops))
         << cell(optional_text(row.gbytes, format_three_digits_compact), sort_key(row.gbytes))
         << cell(optional_text(row.fraction_of_peak, format_percent), sort_key(row.fraction_of_peak))
         << cell(flags.empty() ? "-" : flags, "", flag_messages) << "</tr>\n";
  }
  page << "</tbody></table>\n";
}

void write_run(std::ostringstream& page, const RunReport& run, std::size_t index) {
  page << "<section class=\"gbx-run\" id=\"run-" << index << "\">\n<h2>Run " << html_escape(run.label) << ": "
       << (run.run_id.empty() ? "no run id" : "<code>" + html_escape(run.run_id) + "</code>") << "</h2>\n"
       << "<dl class=\"gbx-summary\"><dt>File</dt><dd><code>" << html_escape(run.path) << "</code></dd>"
       << "<dt>Created</dt><dd>" << html_escape(run.created.empty() ? "unknown" : run.created) << "</dd>"
       << "<dt>Checksum</dt><dd class=\"" << (run.has_gbx ? "gbx-ok" : "gbx-warn") << "\">"
       << html_escape(run.checksum_status) << "</dd></dl>\n";
  if (run.interrupted) {
    page << "<p class=\"gbx-warning\">Interrupted: the run was stopped; only finished benchmarks are kept.</p>\n";
  }
  if (!run.missing_facts.empty()) {
    page << "<div class=\"gbx-missing\"><h3>Missing facts</h3><p>This is plain Google Benchmark JSON, without a gbx "
            "section. It does not hold:</p><ul>\n";
    for (const auto& fact : run.missing_facts) page << "<li>" << html_escape(fact) << "</li>\n";
    page << "</ul></div>\n";
  }
  write_facts(page, "Environment", run.environment);
  write_facts(page, "Protocol", run.protocol);
  write_benchmark_table(page, run, index);
  page << "</section>\n";
}

void write_pareto_table(std::ostringstream& page, const ParetoGroup& group) {
  page << "<table class=\"gbx-pareto gbx-sortable\"><thead>"
       << header_row({{"Variant", false},
                      {"Median latency", true},
                      {"95% CI", true},
                      {"Error (rel. L2)", true},
                      {"Memory", true},
                      {"Frontier", false},
                      {"P(frontier)", true},
                      {"Dominated by", false}})
       << "</thead><tbody>\n";
  for (const auto& v : group.variants) {
    std::string dominated_by = "-";
    if (v.dominated_by) dominated_by = pareto_label(group, *v.dominated_by);
    page << "<tr>" << cell(v.variant, "", v.name) << cell(format_duration(v.latency_median), sort_key(v.latency_median))
         << cell(interval_text(v.latency_lower, v.latency_upper), sort_key(v.latency_lower))
         << cell(v.error ? format_scientific(*v.error) : "-", sort_key(v.error))
         << cell(v.memory_bytes ? format_bytes(*v.memory_bytes) : "-", sort_key(v.memory_bytes))
         << cell(v.on_frontier ? "yes" : "no")
         << cell(format_fixed(v.frontier_probability, 2), sort_key(v.frontier_probability)) << cell(dominated_by)
         << "</tr>\n";
  }
  for (const auto& f : group.failed) {
    const auto m = median(f.latency_samples);
    page << "<tr class=\"gbx-bad\">" << cell(f.variant, "", f.name) << cell(m ? format_duration(*m) : "-", sort_key(m))
         << cell("-") << cell(f.error ? format_scientific(*f.error) : "-", sort_key(f.error))
         << cell(f.memory_bytes ? format_bytes(*f.memory_bytes) : "-", sort_key(f.memory_bytes))
         << cell("failed accuracy") << cell("-") << cell(f.failure.empty() ? "-" : f.failure) << "</tr>\n";
  }
  page << "</tbody></table>\n";
}

void write_comparison(std::ostringstream& page, const ReportModel& model, const Chart& chart) {
  const Comparison& comparison = *model.comparison;
  page << "<section id=\"comparison\">\n<h2>Comparison: " << html_escape(model.runs[1].label) << " against "
       << html_escape(model.runs[0].label) << "</h2>\n<p>Base <code>" << html_escape(model.runs[0].path)
       << "</code>, candidate <code>" << html_escape(model.runs[1].path)
       << "</code>. Verdicts as <code>gbx compare</code> gives them (docs/compare.md): faster or slower needs a "
          "BH-adjusted p at most "
       << format_three_digits_compact(comparison.fdr) << " and a ratio interval wholly outside 1 &plusmn; "
       << html_escape(format_percent(comparison.noise_band))
       << ", on process-level values when both records have several processes; with one process on a side a "
          "change is only <em>unreplicated</em>, and a side with too few samples is <em>insufficient</em>.</p>\n";
  if (!comparison.compatible()) {
    page << "<div class=\"gbx-warning\"><strong>Warning: the records are not compatible</strong>, so this is not a "
            "sound comparison; every row is marked. These facts differ:<ul>\n";
    for (const auto& d : comparison.differences) {
      page << "<li>" << html_escape(d.what) << ": base <code>" << html_escape(d.base) << "</code>, candidate <code>"
           << html_escape(d.candidate) << "</code></li>\n";
    }
    page << "</ul></div>\n";
  }
  if (comparison.fewer_facts) page << "<p class=\"gbx-note\">Note: " << html_escape(kFewerFactsNote) << ".</p>\n";
  page << chart_container(chart);
  page << "<table class=\"gbx-compare gbx-sortable\"><thead>"
       << header_row({{"Benchmark", false},
                      {"Base", true},
                      {"Candidate", true},
                      {"Ratio", true},
                      {"95% CI", true},
                      {"p (BH)", true},
                      {"Verdict", false},
                      {"Sentence", false}})
       << "</thead><tbody>\n";
  for (const auto& row : comparison.rows) {
    const std::optional<double> ratio = row.ratio ? std::optional<double>(row.ratio->ratio) : std::nullopt;
    char interval[64] = "-";
    if (row.ratio) std::snprintf(interval, sizeof interval, "[%.3f, %.3f]", row.ratio->lower, row.ratio->upper);
    page << "<tr data-benchmark=\"" << html_escape(row.name) << "\" data-verdict=\"" << to_string(row.verdict) << "\">"
         << cell(row.label, "", row.name)
         << cell(format_duration(row.base_median.estimate), sort_key(row.base_median.estimate))
         << cell(format_duration(row.candidate_median.estimate), sort_key(row.candidate_median.estimate))
         << cell(ratio ? format_three_digits_compact(*ratio) : "-", sort_key(ratio))
         << cell(interval, sort_key(row.ratio ? std::optional<double>(row.ratio->lower) : std::nullopt))
         << cell(row.adjusted_p < 0.001 ? "<0.001" : format_three_digits_compact(row.adjusted_p), sort_key(row.adjusted_p))
         << "<td class=\"gbx-verdict-" << to_string(row.verdict) << "\">" << to_string(row.verdict)
         << (row.incompatible ? " (incompatible)" : "") << "</td>" << cell(row.sentence) << "</tr>\n";
  }
  page << "</tbody></table>\n";
  for (const auto& name : comparison.only_in_base)
    page << "<p>Only in the base: <code>" << html_escape(name) << "</code></p>\n";
  for (const auto& name : comparison.only_in_candidate) {
    page << "<p>Only in the candidate: <code>" << html_escape(name) << "</code></p>\n";
  }
  page << "</section>\n";
}

const char* const kStyle = R"css(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 0 auto;
       max-width: 1400px; padding: 1rem 2rem 4rem; color: #1f2328; line-height: 1.45; }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2rem; margin-top: 2.5rem; }
nav a { margin-right: 1rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .88rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; cursor: pointer; user-select: none; white-space: nowrap; }
thead th[data-order="asc"]::after { content: " \25B2"; } thead th[data-order="desc"]::after { content: " \25BC"; }
td[data-sort] { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.gbx-facts th { background: #f6f8fa; cursor: default; white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafbfc; }
dl.gbx-summary { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
dl.gbx-summary dt { font-weight: 600; } dl.gbx-summary dd { margin: 0; }
.gbx-ok { color: #1a7f37; } .gbx-warn, .gbx-bad { color: #b35900; } tr.gbx-bad td { color: #b42318; }
.gbx-skipped { color: #57606a; font-style: italic; }
.gbx-missing, .gbx-warning { border: 1px solid #d4a72c; background: #fff8c5; padding: .5rem 1rem; margin: .8rem 0; }
.gbx-missing h3 { margin: .2rem 0; }
.gbx-note { color: #57606a; }
.gbx-verdict-faster { color: #1a7f37; font-weight: 600; } .gbx-verdict-slower { color: #cf222e; font-weight: 600; }
.gbx-verdict-inconclusive { color: #9a6700; } .gbx-verdict-unreplicated { color: #6639ba; }
.gbx-verdict-insufficient { color: #57606a; }
.gbx-chart { margin: 1rem 0 1.5rem; min-height: 120px; }
.gbx-sentence { margin-top: 0; }
details summary { cursor: pointer; font-weight: 600; margin: .6rem 0 .2rem; }
)css";

// Renders every chart, then tells the page (and a test) how it went: the HTML contract.
const char* const kRenderScript = R"js(
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('gbx-specs').textContent);
  var views = {};
  var runs = [];
  document.querySelectorAll('.gbx-chart').forEach(function (el) {
    var spec = specs[el.id];
    if (!spec) { runs.push(Promise.reject(new Error('no spec for chart ' + el.id))); return; }
    try {
      var compiled = vegaLite.compile(spec).spec;
      var view = new vega.View(vega.parse(compiled), {renderer: 'svg', container: el, hover: true});
      views[el.id] = view;
      runs.push(view.runAsync());
    } catch (error) {
      runs.push(Promise.reject(error));
    }
  });
  var ready = Promise.all(runs).then(function () {
    document.documentElement.dataset.gbxRendered = 'ok';
  }, function (error) {
    console.error('gbx report: a chart failed to render:', error);
    document.documentElement.dataset.gbxRendered = 'error';
  });
  window.gbxReport = {views: views, ready: ready};
})();
)js";

// Click (or Enter on) a column header to sort by it; again to reverse. Empty cells stay last.
const char* const kSortScript = R"js(
(function () {
  'use strict';
  document.querySelectorAll('table.gbx-benchmarks, table.gbx-sortable').forEach(function (table) {
    var headers = table.querySelectorAll('thead th');
    headers.forEach(function (th, column) {
      function sort() {
        var ascending = th.dataset.order !== 'asc';
        headers.forEach(function (h) { delete h.dataset.order; });
        th.dataset.order = ascending ? 'asc' : 'desc';
        var numeric = th.dataset.type === 'number';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        function key(row) {
          var c = row.cells[column];
          if (!c || c.colSpan > 1) return null;
          var text = c.dataset.sort !== undefined ? c.dataset.sort : c.textContent;
          if (numeric) return text === '' || isNaN(Number(text)) ? null : Number(text);
          return text;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (x === null || y === null) return (x === null) - (y === null);
          var order = numeric ? x - y : String(x).localeCompare(String(y));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (event) { if (event.key === 'Enter') sort(); });
    });
  });
})();
)js";

}  // namespace

HtmlAssets read_assets(const std::string& node_modules) {
  return HtmlAssets{read_file(node_modules + "/vega/build/vega.min.js"),
                    read_file(node_modules + "/vega-lite/build/vega-lite.min.js")};
}

std::string html_escape(const std::string& text) { return html_text(text); }

std::string script_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    static const char kTag[] = "</script";
    bool match = i + sizeof kTag - 1 <= text.size();
    for (std::size_t k = 0; match && k < sizeof kTag - 1; ++k) {
      match = std::tolower(static_cast<unsigned char>(text[i + k])) == kTag[k];
    }
    if (match) {
      out += "<\\/";
      ++i;  // the '/' is written; the name follows as it was
      continue;
    }
    out += text[i];
  }
  return out;
}

std::vector<Chart> report_charts(const ReportModel& model) {
  std::vector<Chart> charts;
  if (model.comparison) charts.push_back(compare_chart(model));
  for (std::size_t i = 0; i < model.trends.size(); ++i) charts.push_back(trend_chart(model, model.trends[i], i));
  const auto named = rows_by_name(model);
  for (std::size_t i = 0; i < named.size(); ++i) charts.push_back(ecdf_chart(model, named[i], i));
  const auto groups = shown_pareto_groups(model);
  for (std::size_t i = 0; i < groups.size(); ++i) charts.push_back(pareto_chart(*groups[i], i));
  if (auto chart = throughput_chart(model)) charts.push_back(std::move(*chart));
  return charts;
}

std::string html_report(const ReportModel& model, const HtmlAssets& assets) {
  const std::vector<Chart> charts = report_charts(model);
  const auto of_kind = [&](const std::string& kind) {
    std::vector<const Chart*> list;
    for (const auto& chart : charts) {
      if (chart.kind == kind) list.push_back(&chart);
    }
    return list;
  };

  std::ostringstream page;
  page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>gbx report";
  if (model.runs.size() == 1 && !model.runs[0].run_id.empty()) page << " " << html_escape(model.runs[0].run_id);
  page << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>gbx report</h1>\n<p>" << model.runs.size()
       << (model.runs.size() == 1 ? " run" : " runs")
       << ". Medians come with their 95% intervals; read docs/report.md for how each chart is drawn.</p>\n<nav>";
  for (std::size_t i = 0; i < model.runs.size(); ++i) {
    page << "<a href=\"#run-" << i << "\">Run " << html_escape(model.runs[i].label) << "</a>";
  }
  if (model.comparison) page << "<a href=\"#comparison\">Comparison</a>";
  if (!model.trends.empty()) page << "<a href=\"#trend\">Trend</a>";
  page << "<a href=\"#distributions\">Distributions</a>";
  if (!of_kind("pareto").empty()) page << "<a href=\"#pareto\">Pareto</a>";
  if (!of_kind("throughput").empty()) page << "<a href=\"#throughput\">Throughput</a>";
  page << "</nav>\n";

  for (std::size_t i = 0; i < model.runs.size(); ++i) write_run(page, model.runs[i], i);
  if (model.comparison) write_comparison(page, model, *of_kind("compare").front());
  if (!model.trends.empty()) {
    page << "<section id=\"trend\">\n<h2>Trend over " << model.runs.size()
         << " runs, by date</h2>\n<p>Each benchmark's median with its interval, one point per run, oldest first.</p>\n";
    for (const Chart* chart : of_kind("trend")) page << chart_container(*chart);
    page << "<ul>\n";
    for (const auto& series : model.trends) page << "<li>" << html_escape(series.sentence) << "</li>\n";
    page << "</ul>\n</section>\n";
  }
  page << "<section id=\"distributions\">\n<h2>Distributions of the raw samples</h2>\n<p>The empirical CDF of "
          "each benchmark's samples: the fraction of runs that took at most t. A vertical rise is a cluster of "
          "equal times, a long flat tail a few slow runs."
       << (model.runs.size() > 1 ? " One line per run." : "") << "</p>\n";
  for (const Chart* chart : of_kind("ecdf")) page << chart_container(*chart);
  page << "</section>\n";
  const auto groups = shown_pareto_groups(model);
  if (!groups.empty()) {
    page << "<section id=\"pareto\">\n<h2>Pareto fronts (run " << html_escape(pareto_run(model).label)
         << ")</h2>\n<p>Latency, error and memory, all lower-is-better. A variant is dominated when another is at "
            "least as good on every objective and better on one, latency counting only when the intervals "
            "separate; the frontier is what is left. Variants that failed their accuracy check are shown apart and "
            "never on the frontier.</p>\n";
    const auto pareto = of_kind("pareto");
    for (std::size_t i = 0; i < groups.size(); ++i) {
      page << "<h3>" << html_escape(groups[i]->problem) << "</h3>\n"
           << chart_container(*pareto[i]) << "<p class=\"gbx-sentence\">" << html_escape(pareto_sentence(*groups[i]))
           << "</p>\n";
      write_pareto_table(page, *groups[i]);
    }
    page << "</section>\n";
  }
  if (const auto throughput = of_kind("throughput"); !throughput.empty()) {
    page << "<section id=\"throughput\">\n<h2>Throughput against the peak</h2>\n<p>Achieved GFLOP/s at the median "
            "against arithmetic intensity, under the roofs that the recorded peak FLOP/s and bandwidth draw; "
            "benchmarks that only move data are shown as a fraction of the peak bandwidth.</p>\n"
         << chart_container(*throughput.front()) << "</section>\n";
  }

  json specs = json::object();
  for (const auto& chart : charts) specs[chart.id] = chart.spec;
  std::string specs_text = specs.dump(-1, ' ', false, json::error_handler_t::replace);
  // In a script element "</" could end it early and "<!--" change how it is parsed.
  std::string safe;
  safe.reserve(specs_text.size());
  for (std::size_t i = 0; i < specs_text.size(); ++i) {
    if (specs_text.compare(i, 2, "</") == 0) {
      safe += "<\\/";
      ++i;
    } else if (specs_text.compare(i, 4, "<!--") == 0) {
      safe += "<\\u0021--";
      i += 3;
    } else {
      safe += specs_text[i];
    }
  }
  page << "<script type=\"application/json\" id=\"gbx-specs\">" << safe << "</script>\n"
       << "<script>" << script_safe(assets.vega) << "</script>\n"
       << "<script>" << script_safe(assets.vega_lite) << "</script>\n"
       << "<script>" << kSortScript << "</script>\n"
       << "<script>" << kRenderScript << "</script>\n</body>\n</html>\n";
  return page.str();
}

}  // namespace gbx::tools
