#include "report/report_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "report/load_chart.h"
#include "report/parallel.h"
#include "report/report_model_json.h"
#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "stats/statistics.h"
#include "text/benchmark_name.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;
using report_json::number_at;
using report_json::object_at;
using report_json::string_at;

double seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  return 1.0;
}

// The median of one repetition, in seconds: its gbx stats when there are some, else real_time.
std::optional<double> repetition_median(const json& entry) {
  if (const auto median = number_at(object_at(object_at(entry, "gbx"), "stats"), "median")) return median;
  if (const auto real_time = number_at(entry, "real_time"))
    return *real_time * seconds_per_unit(string_at(entry, "time_unit"));
  return std::nullopt;
}

void fill_statistics(BenchmarkRow& row, const std::vector<const json*>& entries) {
  const json& stats = object_at(object_at(*entries.front(), "gbx"), "stats");
  const auto recorded_median = number_at(stats, "median");
  if (entries.size() == 1 && recorded_median) {
    // One repetition: the record already holds the statistics, its bootstrap included.
    row.count = static_cast<std::size_t>(number_at(stats, "count").value_or(static_cast<double>(row.samples.size())));
    row.median = *recorded_median;
    const json& ci = object_at(stats, "median_ci");
    row.median_lower = number_at(ci, "lower");
    row.median_upper = number_at(ci, "upper");
    row.median_level = number_at(ci, "level").value_or(0.95);
    row.cv = number_at(stats, "cv");
    row.p99 = number_at(stats, "p99");
    return;
  }
  // Repetitions pooled, or plain Google Benchmark JSON: computed here from the pooled samples.
  row.count = row.samples.size();
  const auto summary = summarize(row.samples);
  if (!summary) return;
  row.median = summary->median;
  row.cv = summary->cv;
  row.p99 = summary->p99;
  if (row.samples.size() >= 2) {
    const BootstrapResult ci = bootstrap_interval(row.samples, BootstrapStatistic::median);
    if (ci.interval) {
      row.median_lower = ci.interval->lower;
      row.median_upper = ci.interval->upper;
      row.median_level = ci.interval->level;
    }
  }
}

void fill_gbx_facts(BenchmarkRow& row, const std::vector<const json*>& entries) {
  const std::string memory_key = row.region == "cpu" ? "host_peak_bytes" : "device_peak_bytes";
  row.memory_kind = row.region == "cpu" ? "host peak" : "device peak";
  bool checked = false;
  bool passed = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& gbx = object_at(*entries[i], "gbx");
    const json& accuracy = object_at(gbx, "accuracy");
    if (!accuracy.empty()) {
      checked = true;
      passed = passed && accuracy.value("passed", false);
      if (const auto error = number_at(accuracy, "rel_l2_error")) {
        row.rel_l2_error = std::max(row.rel_l2_error.value_or(*error), *error);
      }
    }
    if (const auto memory = number_at(object_at(gbx, "memory"), memory_key.c_str())) {
      row.memory_bytes = std::max(row.memory_bytes.value_or(*memory), *memory);
    }
    if (gbx.contains("flags") && gbx["flags"].is_array()) {
      for (const auto& flag : gbx["flags"]) {
        FlagNote note{string_at(flag, "flag"), string_at(flag, "message")};
        if (entries.size() > 1) note.message = "repetition " + std::to_string(i) + ": " + note.message;
        row.flags.push_back(std::move(note));
      }
    }
  }
  if (checked) row.accuracy_passed = passed;

  // Every rate is at the median, so the pooled median rescales the first repetition's.
  const json& throughput = object_at(object_at(*entries.front(), "gbx"), "throughput");
  const auto first_median = repetition_median(*entries.front());
  const double factor = first_median && row.median > 0.0 ? *first_median / row.median : 1.0;
  const auto scaled = [&](const char* key) -> std::optional<double> {
    if (const auto value = number_at(throughput, key)) return *value * factor;
    return std::nullopt;
  };
  row.gflops = scaled("gflops_per_second");
  row.gbytes = scaled("gbytes_per_second");
  row.fraction_of_peak = scaled("fraction_of_peak");
  row.fraction_of_peak_bandwidth = scaled("fraction_of_peak_bandwidth");
  row.arithmetic_intensity = number_at(throughput, "arithmetic_intensity");
  row.peak_flops = number_at(throughput, "peak_flops_per_second");
  row.peak_bytes = number_at(throughput, "peak_bytes_per_second");
}

struct NameGroup {
  std::string name;
  std::vector<const json*> measured;
  const json* skipped = nullptr;
};

std::vector<BenchmarkRow> benchmark_rows(const LoadedRecord& record, bool keep_samples) {
  std::map<std::string, std::size_t> loaded_index;  // the loaded benchmarks are one per name
  for (std::size_t i = 0; i < record.benchmarks.size(); ++i) loaded_index[record.benchmarks[i].name] = i;
  std::vector<NameGroup> groups;
  std::map<std::string, std::size_t> index;
  for (const auto& entry : record.json["benchmarks"]) {
    if (string_at(entry, "run_type") != "iteration") continue;
    const std::string name = string_at(entry, "name");
    auto found = index.find(name);
    if (found == index.end()) {
      found = index.emplace(name, groups.size()).first;
      groups.push_back(NameGroup{name, {}, nullptr});
    }
    NameGroup& group = groups[found->second];
    if (entry.value("error_occurred", false)) {
      if (group.skipped == nullptr) group.skipped = &entry;
    } else {
      group.measured.push_back(&entry);
    }
  }

  std::vector<BenchmarkRow> measured;
  std::vector<BenchmarkRow> skipped;
  for (const auto& group : groups) {
    BenchmarkRow row;
    row.name = group.name;
    const json& first = group.measured.empty() ? *group.skipped : *group.measured.front();
    const json& gbx = object_at(first, "gbx");
    row.problem = string_at(gbx, "problem");
    row.variant = string_at(gbx, "variant");
    row.label = shown_benchmark_name(row.name);
    row.region = string_at(gbx, "region");
    row.precision = string_at(gbx, "precision");
    if (group.measured.empty()) {
      row.skipped = true;
      row.skip_reason = string_at(first, "error_message");
      const std::string prefix = "skipped: ";  // the driver's own words; the report says "skipped" already
      if (row.skip_reason.rfind(prefix, 0) == 0) row.skip_reason.erase(0, prefix.size());
      skipped.push_back(std::move(row));
      continue;
    }
    if (const auto loaded = loaded_index.find(row.name); loaded != loaded_index.end()) {
      row.samples = record.benchmarks[loaded->second].samples;
    }
    row.repetitions = group.measured.size();
    fill_statistics(row, group.measured);
    if (!keep_samples) std::vector<double>().swap(row.samples);
    if (record.has_gbx && first.contains("gbx")) {
      fill_gbx_facts(row, group.measured);
    } else {
      // Google Benchmark's own counter, when the benchmark declared its bytes.
      std::vector<double> rates;
      for (const json* entry : group.measured) {
        if (const auto rate = number_at(*entry, "bytes_per_second")) rates.push_back(*rate / 1e9);
      }
      if (const auto rate = median(rates)) row.gbytes = rate;
    }
    measured.push_back(std::move(row));
  }
  for (auto& row : skipped) measured.push_back(std::move(row));
  return measured;
}

std::vector<NotRunRow> not_run_rows(const json& record) {
  std::vector<NotRunRow> rows;
  const json& gbx = object_at(record, "gbx");
  if (!gbx.contains("not_run") || !gbx["not_run"].is_array()) return rows;
  for (const auto& item : gbx["not_run"]) {
    NotRunRow row;
    row.name = string_at(item, "name");
    row.family = string_at(item, "family");
    row.label = shown_benchmark_name(row.name);
    row.reason = string_at(item, "reason");
    row.reason_code = string_at(item, "reason_code");
    rows.push_back(std::move(row));
  }
  return rows;
}

RunReport summarize_run(const LoadedRecord& record, std::size_t index, bool keep_samples) {
  RunReport run;
  run.path = record.path;
  run.label = "#" + std::to_string(index + 1);
  run.has_gbx = record.has_gbx;
  const json& gbx = object_at(record.json, "gbx");
  run.run_id = string_at(gbx, "run_id");
  run.created = string_at(gbx, "created_utc");
  if (run.created.empty()) run.created = string_at(object_at(record.json, "context"), "date");
  run.created_unix = parse_iso8601(run.created);
  run.interrupted = gbx.value("interrupted", false);
  if (record.has_gbx) {
    run.checksum_status = "intact";  // load_record refuses any other
    run.environment = report_json::gbx_environment(record.json);
    run.protocol = report_json::protocol_facts(record.json);
  } else {
    run.checksum_status = "none: plain Google Benchmark JSON";
    run.environment = report_json::plain_environment(record.json);
    run.missing_facts = report_json::plain_missing_facts();
  }
  run.benchmarks = benchmark_rows(record, keep_samples);
  run.not_run = not_run_rows(record.json);
  return run;
}

std::string trend_sentence(const ReportModel& model, const TrendSeries& series) {
  const TrendPoint& first = series.points.front();
  const TrendPoint& last = series.points.back();
  const RunReport& first_run = model.runs[first.run];
  const RunReport& last_run = model.runs[last.run];
  std::string s = series.label + ": ";
  if (series.points.size() == 1)
    return s + "measured only in run " + first_run.label + ", " + format_duration(first.median) + ".";
  s += format_duration(first.median) + " in " + first_run.label;
  if (!first_run.created.empty()) s += " (" + first_run.created + ")";
  s += " to " + format_duration(last.median) + " in " + last_run.label;
  if (!last_run.created.empty()) s += " (" + last_run.created + ")";
  if (first.median > 0.0) s += ", " + format_signed_percent(last.median / first.median - 1.0);
  if (!first.lower || !first.upper || !last.lower || !last.upper) return s + "; no interval to judge the change by.";
  const bool overlap = !(*last.lower > *first.upper || *last.upper < *first.lower);
  return s + (overlap ? "; the intervals overlap: no clear change."
                      : "; the intervals do not overlap: the change exceeds the sampling noise.");
}

std::vector<TrendSeries> trend_series(const ReportModel& model) {
  std::vector<TrendSeries> series;
  std::map<std::string, std::size_t> index;
  for (const std::size_t run : model.by_date) {
    for (const auto& row : model.runs[run].benchmarks) {
      if (row.skipped) continue;
      auto found = index.find(row.name);
      if (found == index.end()) {
        found = index.emplace(row.name, series.size()).first;
        series.push_back(TrendSeries{row.name, row.label, {}, "", {}});
      }
      series[found->second].points.push_back(TrendPoint{run, row.median, row.median_lower, row.median_upper});
    }
  }
  // Each series' permutation tests are its own (seeded per series): run side by side, they give the same.
  for_each_index(series.size(), worker_count(series.size()), [&](std::size_t i) {
    TrendSeries& s = series[i];
    s.sentence = trend_sentence(model, s);
    if (s.points.size() < 3) return;
    for (const ChangePoint& p : series_change_points(s)) {
      s.change_points.push_back(TrendChangePoint{p.index, p.relative_change, p.p_value});
    }
  });
  return series;
}

// The samples, which the loaded benchmarks hold too, out of a record's JSON: of a thousand benchmarks of
// a thousand samples, they are most of the tree.
void drop_sample_arrays(json& record) {
  for (auto& entry : record["benchmarks"]) {
    if (entry.is_object() && entry.contains("gbx") && entry["gbx"].is_object()) entry["gbx"].erase("samples");
  }
}

}  // namespace

std::vector<NotRunReason> not_run_reasons(const RunReport& run) {
  std::vector<NotRunReason> reasons;
  for (const auto& row : run.not_run) {
    auto found =
        std::find_if(reasons.begin(), reasons.end(), [&](const NotRunReason& r) { return r.reason == row.reason; });
    if (found == reasons.end()) found = reasons.insert(reasons.end(), NotRunReason{row.reason, {}, true, ""});
    found->rows.push_back(&row);
    // The codes that only a CUDA benchmark gets (docs/json-format.md): no_cuda_device, cuda_*.
    found->cuda = found->cuda && (row.reason_code == "no_cuda_device" || row.reason_code.rfind("cuda", 0) == 0);
  }
  for (auto& r : reasons) {
    const std::size_t n = r.rows.size();
    r.sentence = std::to_string(n) + (r.cuda ? " CUDA" : "") + (n == 1 ? " benchmark" : " benchmarks") +
                 " not run: " + (r.reason.empty() ? "no reason given" : r.reason);
  }
  return reasons;
}

std::vector<std::string> flags_present(const std::vector<RunReport>& runs) {
  std::vector<std::string> flags;
  for (const auto& run : runs) {
    for (const auto& row : run.benchmarks) {
      for (const auto& note : row.flags) {
        if (std::find(flags.begin(), flags.end(), note.flag) == flags.end()) flags.push_back(note.flag);
      }
    }
  }
  return flags;
}

RowCounts count_rows(const RunReport& run) {
  RowCounts counts;
  for (const auto& row : run.benchmarks) {
    if (row.skipped) {
      ++counts.skipped;
      continue;
    }
    ++counts.measured;
    if (row.accuracy_passed && !*row.accuracy_passed) ++counts.failed;
    if (!row.flags.empty()) ++counts.flagged;
  }
  return counts;
}

VerdictCounts count_verdicts(const Comparison& comparison) {
  VerdictCounts counts;
  for (const auto& row : comparison.rows) {
    switch (row.verdict) {
      case Verdict::slower:
        ++counts.slower;
        break;
      case Verdict::faster:
        ++counts.faster;
        break;
      case Verdict::same:
        ++counts.same;
        break;
      case Verdict::inconclusive:
        ++counts.inconclusive;
        break;
      case Verdict::unreplicated:
        ++counts.unreplicated;
        break;
      case Verdict::insufficient:
        ++counts.insufficient;
        break;
    }
  }
  return counts;
}

std::string undecided_kinds(const VerdictCounts& counts) {
  std::string text;
  const std::pair<std::size_t, const char*> kinds[] = {{counts.unreplicated, "unreplicated"},
                                                       {counts.insufficient, "insufficient"},
                                                       {counts.inconclusive, "inconclusive"}};
  for (const auto& [count, kind] : kinds) {
    if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
  }
  return text;
}

std::string undecided_reasons(const VerdictCounts& counts) {
  std::string text;
  const auto add = [&](std::size_t count, const std::string& kind, const std::string& why) {
    if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + kind + " (" + why + ")";
  };
  add(counts.unreplicated, "unreplicated",
      "one process on a side, so the variation between processes was not measured: --gbx_processes");
  add(counts.insufficient, "insufficient", "fewer than " + std::to_string(kMinSamplesPerSide) + " samples on a side");
  add(counts.inconclusive, "inconclusive", "the interval neither clears the noise band nor lies inside it");
  return text;
}

std::string run_commit(const RunReport& run) {
  for (const auto& [key, value] : run.environment) {
    if (key == "commit") return value.substr(0, value.find(' '));
  }
  return {};
}

std::vector<ChangePoint> series_change_points(const TrendSeries& series, double alpha, std::uint64_t seed) {
  std::vector<double> medians, lower, upper;
  for (const TrendPoint& p : series.points) {
    medians.push_back(p.median);
    lower.push_back(p.lower && std::isfinite(*p.lower) ? *p.lower : p.median);
    upper.push_back(p.upper && std::isfinite(*p.upper) ? *p.upper : p.median);
  }
  return detect_change_points(medians, lower, upper, alpha, seed);
}

ReportModel build_report_model(const std::vector<std::string>& paths, bool keep_samples) {
  ReportModel model;
  // Each record is read, checked and summarised on its own, several at a time (report/parallel.h); its
  // JSON tree is dropped once the run is summarised, so the model's memory does not grow by a tree per
  // run (issue 13). A comparison keeps its two records, without samples.
  model.runs.resize(paths.size());
  std::vector<LoadedRecord> compared(paths.size() == 2 ? 2 : 0);
  for_each_index(paths.size(), worker_count(paths.size()), [&](std::size_t i) {
    LoadedRecord record = load_record(paths[i]);  // BadRecord names the file
    model.runs[i] = summarize_run(record, i, keep_samples);
    if (i + 1 == paths.size()) {
      model.pareto = pareto_from_record(record.json);  // plain JSON gives none
      for (const std::string& problem : load_problems(record.json)) {
        model.load.push_back(LoadCharts{problem, latency_throughput_chart(record.json, problem),
                                        p99_offered_load_chart(record.json, problem)});
      }
      model.load_knees = load_knee_markdown(record.json);
      model.scaling = scaling_charts(record.json);
    }
    if (paths.size() == 2) {
      drop_sample_arrays(record.json);
      compared[i] = std::move(record);
    }
  });
  if (compared.size() == 2) model.comparison = compare_loaded(compared[0], compared[1]);
  compared.clear();

  for (std::size_t i = 0; i < model.runs.size(); ++i) model.by_date.push_back(i);
  std::stable_sort(model.by_date.begin(), model.by_date.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = model.runs[a].created_unix;
    const auto& y = model.runs[b].created_unix;
    if (x && y) return *x < *y;
    return x.has_value() && !y.has_value();
  });
  if (model.runs.size() >= 3) model.trends = trend_series(model);
  return model;
}

const RunReport& pareto_run(const ReportModel& model) { return model.runs.back(); }

}  // namespace gbx::tools
