#include "analysis/run_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "record/json_number.h"
#include "stats/hierarchical.h"
#include "text/format.h"

namespace gbx {

namespace {

// `method` is a stable identifier for programs; `description` is the statistics layer's own words.
nlohmann::json interval_json(const std::optional<detail::Interval>& interval, const char* method) {
  if (!interval) return nullptr;
  return {{"lower", finite_or_null(interval->lower)},
          {"upper", finite_or_null(interval->upper)},
          {"level", finite_or_null(interval->level)},
          {"method", method},
          {"description", interval->method}};
}

nlohmann::json interval_json(const std::optional<detail::QuantileInterval>& q) {
  if (!q) return nullptr;
  nlohmann::json j = interval_json(std::optional<detail::Interval>(q->interval), "order_statistic");
  j["requested_level"] = finite_or_null(q->requested_level);
  j["reaches_level"] = q->ranks.reaches_level;
  return j;
}

nlohmann::json interval_json(const BootstrapResult& b) {
  if (!b.interval) return nullptr;
  nlohmann::json j =
      interval_json(b.interval, b.method == BootstrapMethod::bca ? "bootstrap_bca" : "bootstrap_percentile");
  // exact and saddlepoint distributions draw nothing: resamples and seed are then 0.
  j["distribution"] = to_string(b.distribution);
  j["resamples"] = b.resamples;
  j["seed"] = b.seed;
  if (b.degenerate) j["degenerate"] = b.reason;
  return j;
}

// Why sampling ended short of the protocol's goal. Only a --gbx_target_rel_ci run has a target to miss;
// otherwise the goal was min_samples and any --gbx_min_time span, and max_time or max_samples (or nothing
// gbx can name) cut it short.
void add_stop_flag(const detail::RunRecord& record, RunAnalysis& a) {
  const detail::Measurement& m = record.measurement;
  const std::string taken = std::to_string(m.samples.size()) + " samples";
  if (record.stopping.rule == "target_rel_ci") {
    const std::string why = m.time_bound_reached ? "max_time" : (m.sample_bound_reached ? "max_samples" : "a bound");
    a.flags.push_back({"target_not_reached", record.stopping.achieved_rel_ci,
                       "stopped at " + why + " after " + taken + ", before the median's CI reached +/-" +
                           format_percent(record.stopping.target_rel_ci)});
    return;
  }
  if (record.stopping.min_time_seconds > 0.0 && m.sampling_seconds < record.stopping.min_time_seconds) {
    const std::string why = m.time_bound_reached ? "max_time" : "max_samples";
    a.flags.push_back({"min_time_not_reached", m.sampling_seconds,
                       "stopped at " + why + " after " + taken + " spanning " + format_duration(m.sampling_seconds) +
                           ", short of the " + format_duration(record.stopping.min_time_seconds) +
                           " that --gbx_min_time asked"});
    return;
  }
  if (m.time_bound_reached) {
    a.flags.push_back({"time_bound_reached", static_cast<double>(m.samples.size()),
                       "max_time reached after " + taken + ", fewer than min_samples"});
  } else {
    a.flags.push_back(
        {"too_few_samples", static_cast<double>(m.samples.size()), "only " + taken + ", fewer than min_samples"});
  }
}

std::string reasons_text(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Flags from the clocks sampled during the benchmark (environment/clock_sampler.h).
void add_clock_flags(const detail::ClockObservation& c, RunAnalysis& a) {
  const auto share = [&c](std::int64_t readings) {
    return c.readings > 0 ? static_cast<double>(readings) / static_cast<double>(c.readings) : 0.0;
  };
  if (c.thermal_readings > 0) {
    a.flags.push_back({"throttled_thermal", share(c.thermal_readings),
                       "THROTTLED (thermal) in " + format_percent(share(c.thermal_readings)) + " of clock readings"});
  }
  if (c.power_readings > 0) {
    a.flags.push_back({"throttled_power", share(c.power_readings),
                       "THROTTLED (power) in " + format_percent(share(c.power_readings)) + " of clock readings (" +
                           reasons_text(c.throttle_reasons) + ")"});
  }
  if (c.clock_changed && c.sm_mhz_min && c.sm_mhz_max) {
    char text[96];
    std::snprintf(text, sizeof text, "SM clock changed: %.0f-%.0f MHz", *c.sm_mhz_min, *c.sm_mhz_max);
    a.flags.push_back({"clock_changed", (*c.sm_mhz_max - *c.sm_mhz_min) / *c.sm_mhz_max, text});
  }
}

void add_flags(const detail::RunRecord& record, RunAnalysis& a) {
  const auto& o = a.outliers;
  if (o.tukey && o.tukey->count() > 0) {
    const auto severe = o.tukey->low_severe.size() + o.tukey->high_severe.size();
    const auto count = o.tukey->count();
    a.flags.push_back({"outliers", static_cast<double>(count),
                       std::to_string(count) + (count == 1 ? " sample" : " samples") + " far from the rest" +
                           (severe > 0 ? " (" + std::to_string(severe) + " extreme)" : "")});
  }
  if (o.slow_start && o.slow_start->flagged) {
    a.flags.push_back(
        {"slow_start", o.slow_start->relative_excess,
         "first " + std::to_string(o.slow_start->head_count) + " samples slower" +
             (o.slow_start->relative_excess ? " by " + format_percent(*o.slow_start->relative_excess) : "")});
  }
  if (o.autocorrelation && o.autocorrelation->flagged) {
    a.flags.push_back({"autocorrelation", o.autocorrelation->lag1,
                       "lag-1 autocorrelation " + std::to_string(o.autocorrelation->lag1).substr(0, 5)});
  }
  if (o.drift && o.drift->flagged) {
    a.flags.push_back({"drift", o.drift->relative_change,
                       "second half's median differs" +
                           (o.drift->relative_change ? " by " + format_percent(*o.drift->relative_change) : "")});
  }
  if (record.accuracy && !record.accuracy->passed) {
    const Accuracy& acc = *record.accuracy;
    char text[160];
    std::snprintf(text, sizeof text, "ACCURACY FAILED: rel L2 error %.3g > tolerance %.3g%s", acc.rel_l2_error,
                  acc.tolerance,
                  acc.nan_count > 0 ? (", " + std::to_string(acc.nan_count) + " NaN outputs").c_str() : "");
    a.flags.push_back({"accuracy_failed", acc.rel_l2_error, text + (acc.note.empty() ? "" : ": " + acc.note)});
  }
  const detail::Measurement& m = record.measurement;
  if (!record.stopping.reached) add_stop_flag(record, a);
  if (!a.throughput.above_peak.empty()) {
    a.flags.push_back({"above_peak", a.throughput.fraction_of_peak, "ABOVE PEAK: " + a.throughput.above_peak});
  }
  if (const auto& clocks = record.observed.clocks) add_clock_flags(*clocks, a);
  if (m.warmup.mode == "auto" && !m.warmup.steady) {
    a.flags.push_back({"no_steady_state", static_cast<double>(m.warmup.samples),
                       "NO STEADY STATE: warm-up stopped at " + m.warmup.stopped + " after " +
                           std::to_string(m.warmup.runs) + " runs, the timings or the SM clock still changing"});
  }
  if (m.below_resolution) {
    a.flags.push_back(
        {"below_resolution", m.timer_resolution_seconds, "cold samples shorter than 100 timer resolutions"});
  }
  // docs/load.md: the load flags are raised only for a sweep the user asked for; the default suite's own
  // sweep runs only where it is valid and keeps what it found in gbx.load, off the console.
  if (record.load && record.load->requested) {
    // A level whose lambda W and L disagree was measured over a wrong window, or miscounted.
    std::string levels;
    std::string independent;
    std::string costly;
    double worst = 0.0;
    double worst_independent = 0.0;
    double worst_overhead = 0.0;
    const auto add = [](std::string& list, const std::string& level) { list += (list.empty() ? "" : ", ") + level; };
    const auto note = [&](const std::string& level, bool violated, const std::optional<detail::LittlesLawCheck>& check,
                          bool independent_violated, const std::optional<detail::LittlesLawCheck>& independent_check,
                          const detail::HarnessOverhead& overhead) {
      if (violated) add(levels, level);
      if (violated && check) worst = std::max(worst, check->relative_gap);
      if (independent_violated) add(independent, level);
      if (independent_violated && independent_check) {
        worst_independent = std::max(worst_independent, independent_check->relative_gap);
      }
      if (overhead.exceeded) add(costly, level);
      if (overhead.exceeded) worst_overhead = std::max(worst_overhead, overhead.fraction_of_service);
    };
    for (const auto& level : record.load->closed_loop) {
      note("c=" + std::to_string(level.concurrency), level.littles_law_violated, level.littles_law,
           level.independent_littles_law_violated, level.independent_littles_law, level.overhead);
    }
    for (const auto& level : record.load->open_loop) {
      char load[32];
      std::snprintf(load, sizeof load, "%gx load", level.offered_load);
      note(load, level.littles_law_violated, level.littles_law, level.independent_littles_law_violated,
           level.independent_littles_law, level.overhead);
    }
    if (!levels.empty()) {
      a.flags.push_back(
          {"littles_law_violated", worst,
           "load: Little's law off by up to " + format_percent(worst) + " at " + levels + " (window too short?)"});
    }
    if (!independent.empty()) {
      a.flags.push_back({"independent_littles_law_violated", worst_independent,
                         "load: lambda W off the sampled number in flight by up to " +
                             format_percent(worst_independent) + " at " + independent});
    }
    if (!costly.empty()) {
      a.flags.push_back(
          {"harness_overhead", worst_overhead,
           "load: the harness costs up to " + format_percent(worst_overhead) + " of the service time at " + costly});
    }
  }
}

}  // namespace

RunAnalysis analyze_run(const detail::RunRecord& record, const AnalysisOptions& options) {
  RunAnalysis a;
  if (!record.error.empty()) return a;
  const std::vector<double>& samples = record.measurement.samples;
  a.summary = summarize(samples);
  a.median_ci = bootstrap_interval(samples, BootstrapStatistic::median, options.bootstrap);
  // No median is known closer than half a tick of one sample (docs/gating.md, quantized samples).
  const detail::Measurement& m = record.measurement;
  const double per_run = m.batch >= 1 ? m.timer_resolution_seconds / static_cast<double>(m.batch) : 0.0;
  const double tick = std::isfinite(per_run) ? per_run : 0.0;  // unknown in some older records
  const BootstrapResult unwidened_median = a.median_ci;
  if (a.median_ci.interval) widen_for_resolution(*a.median_ci.interval, tick);
  a.mean_ci = bootstrap_interval(samples, BootstrapStatistic::mean, options.bootstrap);
  a.mean_t_ci = student_t_interval(samples, options.bootstrap.level);
  if (a.summary) {  // present only for non-empty, finite samples: sort them once for the three intervals
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    a.median_order_ci = quantile_interval_sorted(sorted, 0.5, options.bootstrap.level);
    if (a.median_order_ci) widen_for_resolution(a.median_order_ci->interval, tick);
    a.p90_ci = quantile_interval_sorted(sorted, 0.90, options.bootstrap.level);
    a.p99_ci = quantile_interval_sorted(sorted, 0.99, options.bootstrap.level);
  }
  a.outliers = analyze_outliers(samples);
  if (a.summary) {
    const Peak* peak = record.region == "cpu" ? options.cpu_peak : options.gpu_peak;
    // The working set picks the bandwidth roof: the memory the benchmark allocated, else what it moves.
    const auto& allocated = record.region == "cpu" ? record.memory.host_peak_bytes : record.memory.device_bytes;
    const std::optional<double> working_set = allocated && *allocated > 0
                                                  ? std::optional<double>(static_cast<double>(*allocated))
                                              : record.bytes_per_run > 0.0 ? std::optional<double>(record.bytes_per_run)
                                                                           : std::nullopt;
    a.throughput = compute_throughput(record.flops_per_run, record.bytes_per_run, a.summary->median, peak,
                                      record.precision, working_set);
  }
  a.hierarchical =
      options.process_groups != nullptr && options.process_groups->size() > 1
          ? hierarchical_median(*options.process_groups, options.process_resolution_seconds, options.bootstrap.level)
          : single_process_median(samples, unwidened_median, tick, options.bootstrap.level);
  add_flags(record, a);
  return a;
}

nlohmann::json hierarchical_json(const std::optional<HierarchicalEstimate>& estimate) {
  if (!estimate) return nullptr;
  const HierarchicalEstimate& e = *estimate;
  nlohmann::json plan = nullptr;
  if (e.plan) {
    const HierarchicalPlan& p = *e.plan;
    plan = {{"target_relative_half_width", finite_or_null(p.target_relative_half_width)},
            {"level", finite_or_null(p.level)},
            {"processes", p.processes},
            {"samples_per_process", p.samples_per_process},
            {"expected_relative_half_width", finite_or_null(p.expected_relative_half_width)},
            {"process_seconds", finite_or_null(p.process_seconds)},
            {"sample_seconds", finite_or_null(p.sample_seconds)},
            {"total_seconds", finite_or_null(p.total_seconds)},
            {"reachable", p.reachable}};
  }
  return {{"processes", e.processes},
          {"samples_per_process", e.samples_per_process},
          {"median", finite_or_null(e.median)},
          {"lower", finite_or_null(e.lower)},
          {"upper", finite_or_null(e.upper)},
          {"level", finite_or_null(e.level)},
          {"method", e.method},
          {"resolution_seconds", finite_or_null(e.resolution_seconds)},
          {"between_process_cv", finite_or_null(e.between_process_cv)},
          {"within_process_cv", finite_or_null(e.within_process_cv)},
          {"plan", plan},
          {"single_process", e.single_process}};
}

nlohmann::json stats_json(const RunAnalysis& a) {
  if (!a.summary) return nullptr;
  const Summary& s = *a.summary;
  return {{"count", s.count},
          {"mean", finite_or_null(s.mean)},
          {"stddev", finite_or_null(s.stddev)},
          {"cv", finite_or_null(s.cv)},
          {"min", finite_or_null(s.min)},
          {"max", finite_or_null(s.max)},
          {"median", finite_or_null(s.median)},
          {"p90", finite_or_null(s.p90)},
          {"p99", finite_or_null(s.p99)},
          {"median_ci", interval_json(a.median_ci)},
          {"mean_ci", interval_json(a.mean_ci)},
          {"p90_ci", interval_json(a.p90_ci)},
          {"p99_ci", interval_json(a.p99_ci)},
          {"median_ci_order_statistic", interval_json(a.median_order_ci)},
          {"mean_ci_student_t", interval_json(a.mean_t_ci, "student_t")},
          {"hierarchical", hierarchical_json(a.hierarchical)}};
}

nlohmann::json outliers_json(const RunAnalysis& a) {
  nlohmann::json j = nlohmann::json::object();
  if (const auto& t = a.outliers.tukey) {
    j["tukey"] = {{"q1", finite_or_null(t->q1)},   {"q3", finite_or_null(t->q3)}, {"iqr", finite_or_null(t->iqr)},
                  {"low_severe", t->low_severe},   {"low_mild", t->low_mild},     {"high_mild", t->high_mild},
                  {"high_severe", t->high_severe}, {"count", t->count()}};
  } else {
    j["tukey"] = nullptr;
  }
  if (const auto& z = a.outliers.modified_z) {
    j["modified_z"] = {{"median", finite_or_null(z->median)},
                       {"mad", finite_or_null(z->mad)},
                       {"mad_was_zero", z->mad_was_zero},
                       {"threshold", kModifiedZThreshold},
                       {"max_abs_score", finite_or_null(z->max_abs_score)},
                       {"indices", z->outliers}};
  } else {
    j["modified_z"] = nullptr;
  }
  if (const auto& s = a.outliers.slow_start) {
    j["slow_start"] = {{"head_count", s->head_count},
                       {"head_median", finite_or_null(s->head_median)},
                       {"rest_median", finite_or_null(s->rest_median)},
                       {"relative_excess", finite_or_null(s->relative_excess)},
                       {"flagged", s->flagged}};
  } else {
    j["slow_start"] = nullptr;
  }
  if (const auto& r = a.outliers.autocorrelation) {
    j["autocorrelation"] = {
        {"lag1", finite_or_null(r->lag1)}, {"threshold", finite_or_null(r->threshold)}, {"flagged", r->flagged}};
  } else {
    j["autocorrelation"] = nullptr;
  }
  if (const auto& d = a.outliers.drift) {
    j["drift"] = {{"first_half_median", finite_or_null(d->first_half_median)},
                  {"second_half_median", finite_or_null(d->second_half_median)},
                  {"relative_change", finite_or_null(d->relative_change)},
                  {"flagged", d->flagged}};
  } else {
    j["drift"] = nullptr;
  }
  return j;
}

nlohmann::json flags_json(const RunAnalysis& a) {
  nlohmann::json flags = nlohmann::json::array();
  for (const auto& f : a.flags)
    flags.push_back({{"flag", f.name}, {"value", finite_or_null(f.value)}, {"message", f.message}});
  return flags;
}

}  // namespace gbx
