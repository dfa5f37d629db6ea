#include "tools/report_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "stats/bootstrap.h"
#include "reporters/console_table.h"
#include "stats/statistics.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;

std::optional<double> number_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return std::nullopt;
  const double value = object[key].get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

const json& object_at(const json& object, const char* key) {
  static const json empty = json::object();
  if (!object.is_object() || !object.contains(key) || !object[key].is_object()) return empty;
  return object[key];
}

std::string string_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return "";
  const json& value = object[key];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_null()) return "";
  return value.dump();
}

// The value, or why it is missing when the record says (`<key>_unavailable`), or nothing.
std::string fact_or_reason(const json& object, const char* key) {
  std::string value = string_at(object, key);
  if (!value.empty()) return value;
  const std::string reason = string_at(object, (std::string(key) + "_unavailable").c_str());
  return reason.empty() ? "" : "unavailable (" + reason + ")";
}

void add_fact(std::vector<Fact>& facts, const std::string& label, const std::string& value) {
  if (!value.empty()) facts.emplace_back(label, value);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : separator) + parts[i];
  return text;
}

// "a", "a and b", "a, b and c".
std::string join_words(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return join(parts, "");
  return join(std::vector<std::string>(parts.begin(), parts.end() - 1), ", ") + " and " + parts.back();
}

std::string peak_text(const json& peak) {
  std::vector<std::string> parts;
  for (const auto& [precision, value] : object_at(peak, "flops_per_second").items()) {
    if (value.is_number()) parts.push_back(format_three_digits_compact(value.get<double>() / 1e9) + " GFLOP/s " + precision);
  }
  if (const auto bytes = number_at(peak, "bytes_per_second")) {
    parts.push_back(format_three_digits_compact(*bytes / 1e9) + " GB/s");
  }
  if (parts.empty()) return string_at(peak, "unavailable");
  return join(parts, ", ");
}

std::vector<Fact> gbx_environment(const json& record) {
  const json& gbx = object_at(record, "gbx");
  const json& environment = object_at(gbx, "environment");
  const json& host = object_at(environment, "host");
  const json& build = object_at(environment, "build");
  const json& source = object_at(environment, "source");
  std::vector<Fact> facts;
  add_fact(facts, "host", string_at(host, "hostname"));
  add_fact(facts, "CPU", fact_or_reason(host, "cpu_model"));
  std::vector<std::string> cores;
  if (const auto n = number_at(host, "physical_cores")) cores.push_back(format_three_digits_compact(*n) + " physical");
  if (const auto n = number_at(host, "logical_cpus")) cores.push_back(format_three_digits_compact(*n) + " logical");
  if (const auto n = number_at(host, "allowed_cpus")) cores.push_back(format_three_digits_compact(*n) + " allowed");
  if (host.contains("smt") && host["smt"].is_boolean()) cores.push_back(host["smt"].get<bool>() ? "SMT on" : "SMT off");
  add_fact(facts, "cores", join(cores, ", "));
  if (const auto bytes = number_at(host, "memory_total_bytes")) add_fact(facts, "memory", format_bytes(*bytes));
  std::vector<std::string> os;
  for (const char* key : {"distribution", "os", "kernel", "machine"}) {
    if (!string_at(host, key).empty()) os.push_back(string_at(host, key));
  }
  add_fact(facts, "OS", join(os, ", "));
  add_fact(facts, "governor", fact_or_reason(host, "governor"));
  std::vector<std::string> gpus;
  if (environment.contains("gpus") && environment["gpus"].is_array()) {
    for (const auto& gpu : environment["gpus"]) {
      std::string text = string_at(gpu, "name");
      std::vector<std::string> details;
      if (!string_at(gpu, "compute_capability").empty())
        details.push_back("sm " + string_at(gpu, "compute_capability"));
      if (!string_at(gpu, "driver_version").empty()) details.push_back("driver " + string_at(gpu, "driver_version"));
      if (!string_at(gpu, "runtime_version").empty()) details.push_back("runtime " + string_at(gpu, "runtime_version"));
      if (!details.empty()) text += " (" + join(details, ", ") + ")";
      gpus.push_back(text);
    }
  }
  if (gpus.empty()) {
    const std::string reason = string_at(environment, "gpus_unavailable");
    add_fact(facts, "GPUs", reason.empty() ? "none" : "none (" + reason + ")");
  } else {
    add_fact(facts, "GPUs", join(gpus, "; "));
  }
  std::string compiler = string_at(build, "compiler");
  if (!string_at(build, "flags").empty()) compiler += " " + string_at(build, "flags");
  add_fact(facts, "compiler", compiler);
  add_fact(facts, "build type", string_at(build, "build_type"));
  std::string benchmark_version = string_at(build, "google_benchmark");
  if (!string_at(build, "google_benchmark_library_build_type").empty()) {
    benchmark_version += " (library built as " + string_at(build, "google_benchmark_library_build_type") + ")";
  }
  add_fact(facts, "Google Benchmark", benchmark_version);
  add_fact(facts, "CUDA toolkit", string_at(build, "cuda_toolkit"));
  add_fact(facts, "cuBLAS", string_at(build, "cublas"));
  add_fact(facts, "OpenBLAS", string_at(build, "openblas"));
  std::string commit = string_at(source, "commit");
  if (!commit.empty()) {
    commit = commit.substr(0, 12);
    if (source.contains("dirty") && source["dirty"] == true) commit += " (dirty: uncommitted changes)";
    if (!string_at(source, "branch").empty()) commit += " on " + string_at(source, "branch");
  }
  add_fact(facts, "commit", commit);
  const json& peaks = object_at(environment, "peaks");
  add_fact(facts, "CPU peak", peak_text(object_at(peaks, "cpu")));
  add_fact(facts, "GPU peak", peak_text(object_at(peaks, "gpu")));
  if (gbx.contains("command") && gbx["command"].is_array()) {
    std::vector<std::string> argv;
    for (const auto& arg : gbx["command"]) argv.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
    add_fact(facts, "command", join(argv, " "));
  }
  return facts;
}

std::vector<Fact> plain_environment(const json& record) {
  const json& context = object_at(record, "context");
  std::vector<Fact> facts;
  add_fact(facts, "host", string_at(context, "host_name"));
  std::string cpus = string_at(context, "num_cpus");
  if (!cpus.empty() && !string_at(context, "mhz_per_cpu").empty())
    cpus += " at " + string_at(context, "mhz_per_cpu") + " MHz";
  add_fact(facts, "CPUs", cpus);
  add_fact(facts, "CPU scaling enabled", string_at(context, "cpu_scaling_enabled"));
  add_fact(facts, "Google Benchmark library build", string_at(context, "library_build_type"));
  add_fact(facts, "executable", string_at(context, "executable"));
  return facts;
}

std::vector<Fact> protocol_facts(const json& record) {
  const json& protocol = object_at(object_at(record, "gbx"), "protocol");
  std::vector<Fact> facts;
  add_fact(facts, "warm-up runs", string_at(protocol, "warmup_runs"));
  add_fact(facts, "samples",
           string_at(protocol, "min_samples").empty()
               ? ""
               : string_at(protocol, "min_samples") + " to " + string_at(protocol, "max_samples"));
  add_fact(facts, "time bound per benchmark (s)", string_at(protocol, "max_time_seconds"));
  add_fact(facts, "cache", string_at(protocol, "cache"));
  if (protocol.contains("target_rel_ci")) {
    add_fact(facts, "target relative CI half-width",
             protocol["target_rel_ci"].is_number() ? string_at(protocol, "target_rel_ci") : "off");
  }
  add_fact(facts, "batch target (timer resolutions)", string_at(protocol, "batch_resolution_factor"));
  return facts;
}

const std::vector<std::string>& plain_missing_facts() {
  static const std::vector<std::string> facts = {
      "raw samples: each repetition's real_time serves as one sample, so n is the repetition count",
      "environment: only Google Benchmark's context (host, CPUs, library build) is known",
      "protocol: warm-up, sample counts, cache state and batching are unknown",
      "accuracy: no check against a reference",
      "memory: no peak memory",
      "throughput against a peak: no GFLOP/s, arithmetic intensity or fraction of peak",
      "Pareto analysis: no problem, variant or error to compare variants on",
      "checksum: the record is not sealed, so a change to it cannot be detected",
  };
  return facts;
}

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

std::vector<BenchmarkRow> benchmark_rows(const LoadedRecord& record) {
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
    row.label = row.problem.empty() ? row.name : row.problem + " " + row.variant;
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
    for (const auto& loaded : record.benchmarks) {
      if (loaded.name == row.name) row.samples = loaded.samples;
    }
    row.repetitions = group.measured.size();
    fill_statistics(row, group.measured);
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

RunReport summarize_run(const LoadedRecord& record, std::size_t index) {
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
    run.environment = gbx_environment(record.json);
    run.protocol = protocol_facts(record.json);
  } else {
    run.checksum_status = "none: plain Google Benchmark JSON";
    run.environment = plain_environment(record.json);
    run.missing_facts = plain_missing_facts();
  }
  run.benchmarks = benchmark_rows(record);
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
        series.push_back(TrendSeries{row.name, row.label, {}, ""});
      }
      series[found->second].points.push_back(TrendPoint{run, row.median, row.median_lower, row.median_upper});
    }
  }
  for (auto& s : series) s.sentence = trend_sentence(model, s);
  return series;
}

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

}  // namespace

std::optional<std::int64_t> parse_iso8601(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed) !=
          6 ||
      consumed != 19) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  }
  std::int64_t offset = 0;
  if (at < text.size()) {
    const std::string zone = text.substr(at);
    int zone_hours = 0, zone_minutes = 0;
    if (zone == "Z") {
      offset = 0;
    } else if ((zone[0] == '+' || zone[0] == '-') && zone.size() == 6 &&
               std::sscanf(zone.c_str() + 1, "%2d:%2d", &zone_hours, &zone_minutes) == 2) {
      offset = (zone[0] == '+' ? 1 : -1) * (std::int64_t{zone_hours} * 3600 + std::int64_t{zone_minutes} * 60);
    } else {
      return std::nullopt;
    }
  }
  const std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + std::int64_t{hour} * 3600 + std::int64_t{minute} * 60 + second - offset;
}

ReportModel build_report_model(const std::vector<std::string>& paths) {
  ReportModel model;
  std::vector<LoadedRecord> records;
  records.reserve(paths.size());
  for (const auto& path : paths) records.push_back(load_record(path));  // BadRecord names the file
  model.runs.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) model.runs.push_back(summarize_run(records[i], i));
  if (records.size() == 2) model.comparison = compare_loaded(records[0], records[1]);
  model.pareto = pareto_from_record(records.back().json);  // plain Google Benchmark JSON gives none

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

std::string pareto_label(const ParetoGroup& group, const std::string& name) {
  for (const auto& v : group.variants) {
    if (v.name == name) return v.variant.empty() ? v.name : v.variant;
  }
  for (const auto& f : group.failed) {
    if (f.name == name) return f.variant.empty() ? f.name : f.variant;
  }
  return name;
}

std::string pareto_sentence(const ParetoGroup& group) {
  const auto variant_of = [&](const std::string& name) { return pareto_label(group, name); };
  std::vector<const ParetoVariant*> frontier;
  for (const auto& v : group.variants) {
    if (v.on_frontier) frontier.push_back(&v);
  }
  std::vector<std::string> clauses;
  if (frontier.empty()) {
    clauses.push_back("On " + group.problem + ", no variant is on the frontier");
  } else {
    // The variant strictly best on one objective among the frontier's; none on a tie.
    const auto best = [&](auto key) -> std::string {
      const ParetoVariant* winner = nullptr;
      bool tie = false;
      for (const auto* v : frontier) {
        if (winner == nullptr || key(*v) < key(*winner)) {
          winner = v;
          tie = false;
        } else if (key(*v) == key(*winner)) {
          tie = true;
        }
      }
      return tie ? "" : winner->variant;
    };
    const bool uses_error = std::count(group.objectives.begin(), group.objectives.end(), "error") > 0;
    const bool uses_memory = std::count(group.objectives.begin(), group.objectives.end(), "memory") > 0;
    std::vector<std::pair<std::string, std::string>> roles;  // variant, role
    roles.emplace_back(best([](const ParetoVariant& v) { return v.latency_median; }), "fastest");
    if (frontier.size() > 1 && uses_error) {
      roles.emplace_back(
          best([](const ParetoVariant& v) { return v.error.value_or(std::numeric_limits<double>::infinity()); }),
          "most accurate");
    }
    if (frontier.size() > 1 && uses_memory) {
      roles.emplace_back(
          best([](const ParetoVariant& v) { return v.memory_bytes.value_or(std::numeric_limits<double>::infinity()); }),
          "least memory");
    }
    // One phrase per variant: "a fastest and least memory, b most accurate".
    std::vector<std::pair<std::string, std::vector<std::string>>> by_variant;
    for (const auto& [variant_of_role, role] : roles) {
      // A named copy: C++17 lambdas cannot capture a structured binding.
      const std::string& variant = variant_of_role;
      if (variant.empty()) continue;
      auto found =
          std::find_if(by_variant.begin(), by_variant.end(), [&](const auto& p) { return p.first == variant; });
      if (found == by_variant.end()) {
        by_variant.push_back({variant, {role}});
      } else {
        found->second.push_back(role);
      }
    }
    std::vector<std::string> phrases;
    phrases.reserve(by_variant.size());
    for (const auto& [variant, list] : by_variant) {
      phrases.push_back(frontier.size() == 1 ? join_words(list) : variant + " " + join_words(list));
    }
    std::vector<std::string> names;
    names.reserve(frontier.size());
    for (const auto* v : frontier) names.push_back(v->variant);
    clauses.push_back("On " + group.problem + ", " + join_words(names) + (names.size() == 1 ? " is" : " are") +
                      " on the frontier" + (phrases.empty() ? "" : " (" + join(phrases, ", ") + ")"));
  }
  for (const auto& v : group.variants) {
    if (v.dominated_by) clauses.push_back(v.variant + " is dominated by " + variant_of(*v.dominated_by));
  }
  for (const auto& f : group.failed) {
    clauses.push_back((f.variant.empty() ? f.name : f.variant) + " failed its accuracy check and is left out");
  }
  for (const auto& m : group.missing) {
    std::vector<std::string> labels;
    for (const auto& name : m.variants) labels.push_back(variant_of(name));
    if (m.objective == "latency") {
      clauses.push_back(join_words(labels) + (labels.size() == 1 ? " has" : " have") + " no usable samples and " +
                        (labels.size() == 1 ? "is" : "are") + " left out");
    } else {
      clauses.push_back(m.objective + " was not compared (not recorded for " + join_words(labels) + ")");
    }
  }
  return join(clauses, "; ") + ".";
}

}  // namespace gbx::tools
