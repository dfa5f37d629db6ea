#include "analysis/pareto.h"
#include "text/escape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <map>
#include <ostream>
#include <random>
#include <utility>

#include "record/json_number.h"
#include "stats/bootstrap.h"
#include "stats/statistics.h"
#include "text/format.h"

namespace gbx {

namespace {

// Where a variant stands on each objective. Latency is an interval; a point (lower == upper) makes
// the same comparison a plain one, which is how the resamples compare their drawn medians.
struct Position {
  double latency_lower = 0.0;
  double latency_upper = 0.0;
  double error = 0.0;
  double memory = 0.0;
  double energy = 0.0;
  double throughput = 0.0;  // at the latency bound: higher is better
};

struct Used {
  bool error = false;
  bool memory = false;
  bool energy = false;
  bool throughput = false;
};

// Lower is better on every objective but throughput; on latency, "better" needs the intervals to separate.
bool dominates(const Position& a, const Position& b, Used used) {
  if (b.latency_upper < a.latency_lower) return false;  // a is worse on latency
  bool better = a.latency_upper < b.latency_lower;
  if (used.error) {
    if (a.error > b.error) return false;
    better = better || a.error < b.error;
  }
  if (used.memory) {
    if (a.memory > b.memory) return false;
    better = better || a.memory < b.memory;
  }
  if (used.energy) {
    if (a.energy > b.energy) return false;
    better = better || a.energy < b.energy;
  }
  if (used.throughput) {
    if (a.throughput < b.throughput) return false;
    better = better || a.throughput > b.throughput;
  }
  return better;
}

// The non-dominated positions. Never empty for a non-empty input: dominance here has no cycles (the
// exact objectives are orders and separated intervals are an interval order; docs/pareto.md).
std::vector<bool> frontier_of(const std::vector<Position>& positions, Used used) {
  std::vector<bool> on(positions.size(), true);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    for (std::size_t j = 0; j < positions.size() && on[i]; ++j) {
      if (j != i && dominates(positions[j], positions[i], used)) on[i] = false;
    }
  }
  return on;
}

std::optional<double> finite(std::optional<double> value) {
  return value && std::isfinite(*value) ? value : std::nullopt;
}

bool usable(const std::vector<double>& samples) {
  return !samples.empty() && std::all_of(samples.begin(), samples.end(), [](double x) { return std::isfinite(x); });
}

std::string percent_level(double level) {
  char text[16];
  std::snprintf(text, sizeof text, "%g%%", 100.0 * level);
  return text;
}

}  // namespace

ParetoGroup analyze_pareto(const std::string& problem, const std::vector<ParetoCandidate>& candidates,
                           const ParetoOptions& options) {
  ParetoGroup group;
  group.problem = problem;
  group.level = options.level;
  group.resamples = options.resamples;

  std::vector<MedianLawSampler> laws;
  MissingObjective no_latency{"latency", {}};
  BootstrapOptions interval_options;
  interval_options.level = options.level;
  for (const ParetoCandidate& candidate : candidates) {
    if (candidate.accuracy_failed) {
      group.failed.push_back(candidate);
      continue;
    }
    const BootstrapResult median_ci =
        usable(candidate.latency_samples)
            ? bootstrap_interval(candidate.latency_samples, BootstrapStatistic::median, interval_options)
            : BootstrapResult{};
    if (!median_ci.interval) {
      no_latency.variants.push_back(candidate.name);
      continue;
    }
    ParetoVariant v;
    v.name = candidate.name;
    v.variant = candidate.variant;
    v.latency_median = median_ci.estimate;
    v.latency_lower = median_ci.interval->lower;
    v.latency_upper = median_ci.interval->upper;
    v.error = finite(candidate.error);
    v.memory_bytes = finite(candidate.memory_bytes);
    v.memory_kind = candidate.memory_kind;
    v.energy_joules = finite(candidate.energy_joules);
    v.throughput_at_bound = finite(candidate.throughput_at_bound);
    group.variants.push_back(std::move(v));
    laws.emplace_back(candidate.latency_samples);
  }

  // An objective counts only when every eligible variant has it: comparing some variants on it and
  // not others would make "non-dominated" mean different things for different variants.
  MissingObjective no_error{"error", {}};
  MissingObjective no_memory{"memory", {}};
  MissingObjective no_energy{"energy", {}};
  // Throughput at the latency bound is considered only when some variant ran a load sweep with a bound.
  MissingObjective no_throughput{"throughput_at_bound", {}};
  bool any_energy = false;
  bool any_throughput = false;
  for (const ParetoVariant& v : group.variants) {
    if (!v.error) no_error.variants.push_back(v.name);
    if (!v.memory_bytes) no_memory.variants.push_back(v.name);
    if (!v.energy_joules) no_energy.variants.push_back(v.name);
    if (!v.throughput_at_bound) no_throughput.variants.push_back(v.name);
    any_energy = any_energy || v.energy_joules.has_value();
    any_throughput = any_throughput || v.throughput_at_bound.has_value();
  }
  // Energy is measured only where a counter is readable: named missing only when some variant has it.
  if (!any_energy) no_energy.variants.clear();
  if (!any_throughput) no_throughput.variants.clear();
  const Used used{no_error.variants.empty(), no_memory.variants.empty(), any_energy && no_energy.variants.empty(),
                  any_throughput && no_throughput.variants.empty()};
  group.objectives.push_back("latency");
  if (used.error) group.objectives.push_back("error");
  if (used.memory) group.objectives.push_back("memory");
  if (used.energy) group.objectives.push_back("energy");
  if (used.throughput) group.objectives.push_back("throughput_at_bound");
  for (MissingObjective* missing : {&no_latency, &no_error, &no_memory, &no_energy, &no_throughput}) {
    if (!missing->variants.empty()) group.missing.push_back(std::move(*missing));
  }

  const std::size_t count = group.variants.size();
  std::vector<Position> positions(count);
  for (std::size_t i = 0; i < count; ++i) {
    const ParetoVariant& v = group.variants[i];
    positions[i] = {v.latency_lower,
                    v.latency_upper,
                    v.error.value_or(0.0),
                    v.memory_bytes.value_or(0.0),
                    v.energy_joules.value_or(0.0),
                    v.throughput_at_bound.value_or(0.0)};
  }
  const std::vector<bool> on_frontier = frontier_of(positions, used);
  for (std::size_t i = 0; i < count; ++i) {
    ParetoVariant& v = group.variants[i];
    v.on_frontier = on_frontier[i];
    if (v.on_frontier) continue;
    // Dominance through overlapping intervals is not transitive, so a dominated variant's dominators
    // need not include a frontier one: prefer one that is, then the fastest.
    std::optional<std::size_t> best;
    for (std::size_t j = 0; j < count; ++j) {
      if (j == i || !dominates(positions[j], positions[i], used)) continue;
      const auto rank = [&](std::size_t k) {
        return std::make_pair(!on_frontier[k], group.variants[k].latency_median);
      };
      if (!best || rank(j) < rank(*best)) best = j;
    }
    if (best) v.dominated_by = group.variants[*best].name;
  }

  // Frontier probabilities: every variant's median drawn jointly from its exact bootstrap law (the
  // variants were measured independently, so their draws are independent), the frontier recomputed
  // with point comparisons, membership counted.
  std::vector<std::size_t> hits(count, 0);
  std::mt19937_64 engine(options.seed);
  std::vector<Position> drawn = positions;
  for (std::size_t r = 0; r < options.resamples; ++r) {
    for (std::size_t i = 0; i < count; ++i) drawn[i].latency_lower = drawn[i].latency_upper = laws[i].draw(engine);
    const std::vector<bool> member = frontier_of(drawn, used);
    for (std::size_t i = 0; i < count; ++i) hits[i] += member[i] ? 1 : 0;
  }
  for (std::size_t i = 0; i < count; ++i) {
    group.variants[i].frontier_probability =
        options.resamples == 0 ? std::numeric_limits<double>::quiet_NaN()
                               : static_cast<double>(hits[i]) / static_cast<double>(options.resamples);
  }
  return group;
}

std::vector<ParetoGroup> pareto_from_record(const LoadedRecord& record, const ParetoOptions& options) {
  std::vector<std::string> problems;  // first-seen order
  std::map<std::string, std::vector<ParetoCandidate>> by_problem;
  for (const LoadedBenchmark& benchmark : record.benchmarks) {
    if (!benchmark.has_problem) continue;
    if (by_problem.find(benchmark.problem) == by_problem.end()) problems.push_back(benchmark.problem);
    ParetoCandidate c;
    c.name = benchmark.name;
    c.variant = benchmark.variant;
    c.latency_samples = benchmark.samples;  // every repetition's, pooled
    c.error = benchmark.error;
    c.memory_bytes = benchmark.memory_bytes;
    c.memory_kind = benchmark.memory_kind;
    c.accuracy_failed = benchmark.accuracy_failed;
    c.failure = benchmark.failure;
    c.energy_joules = benchmark.energy_joules;
    c.throughput_at_bound = benchmark.throughput_at_bound;
    by_problem[benchmark.problem].push_back(std::move(c));
  }
  std::vector<ParetoGroup> groups;
  groups.reserve(problems.size());
  for (const std::string& problem : problems) groups.push_back(analyze_pareto(problem, by_problem[problem], options));
  // A swept benchmark's problem is the tuple of its axes that are not the variant's.
  for (ParetoGroup& group : groups) {
    for (const LoadedBenchmark& benchmark : record.benchmarks) {
      if (benchmark.has_problem && benchmark.problem == group.problem && !benchmark.problem_axes.is_null()) {
        group.axes = benchmark.problem_axes;
        break;
      }
    }
  }
  return groups;
}

std::vector<ParetoGroup> pareto_from_record(const nlohmann::json& record, const ParetoOptions& options) {
  try {
    return pareto_from_record(read_record(record, "the record", SealRequirement::not_yet_sealed), options);
  } catch (const BadRecord&) {
    return {};  // a record the reader refuses has no problems to analyse
  } catch (const nlohmann::json::exception&) {
    return {};  // nor one it cannot read: the record being written must still be written
  }
}

nlohmann::json pareto_json(const std::vector<ParetoGroup>& groups) {
  nlohmann::json out = nlohmann::json::array();
  for (const ParetoGroup& group : groups) {
    nlohmann::json g;
    g["problem"] = group.problem;
    if (!group.axes.is_null()) g["axes"] = group.axes;
    g["objectives"] = group.objectives;
    g["missing"] = nlohmann::json::array();
    for (const MissingObjective& m : group.missing)
      g["missing"].push_back({{"objective", m.objective}, {"variants", m.variants}});
    g["level"] = finite_or_null(group.level);
    g["resamples"] = group.resamples;
    g["method"] = "latency dominance: the median's " + percent_level(group.level) +
                  " BCa interval (exact bootstrap law) must lie wholly below the other's; error and memory "
                  "compare exactly. frontier_probability: the share of " +
                  std::to_string(group.resamples) +
                  " joint resamples, each variant's median drawn independently from its exact bootstrap law, "
                  "in which the variant is non-dominated";
    g["variants"] = nlohmann::json::array();
    for (const ParetoVariant& v : group.variants) {
      g["variants"].push_back({{"name", v.name},
                               {"variant", v.variant},
                               {"latency",
                                {{"median", finite_or_null(v.latency_median)},
                                 {"lower", finite_or_null(v.latency_lower)},
                                 {"upper", finite_or_null(v.latency_upper)}}},
                               {"error", finite_or_null(v.error)},
                               {"memory_bytes", finite_or_null(v.memory_bytes)},
                               {"memory_kind", v.memory_kind},
                               {"energy_joules", finite_or_null(v.energy_joules)},
                               {"throughput_at_bound_per_second", finite_or_null(v.throughput_at_bound)},
                               {"on_frontier", v.on_frontier},
                               {"dominated_by", v.dominated_by ? nlohmann::json(*v.dominated_by) : nlohmann::json()},
                               {"frontier_probability", finite_or_null(v.frontier_probability)}});
    }
    g["failed_accuracy"] = nlohmann::json::array();
    for (const ParetoCandidate& c : group.failed) {
      g["failed_accuracy"].push_back({{"name", c.name},
                                      {"variant", c.variant},
                                      {"error", finite_or_null(finite(c.error))},
                                      {"reason", c.failure}});
    }
    out.push_back(std::move(g));
  }
  return out;
}

namespace {

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

void print_pareto(std::ostream& out, const std::vector<ParetoGroup>& groups) {
  bool headed = false;
  for (const ParetoGroup& group : groups) {
    if (group.variants.size() + group.failed.size() < 2) continue;
    if (!headed) out << "\nPareto (latency, error, memory) per problem\n";
    headed = true;

    // People read the variant label; the benchmark name stands in where labels are empty or repeat.
    std::map<std::string, std::size_t> uses;
    for (const auto& v : group.variants) ++uses[v.variant];
    for (const auto& c : group.failed) ++uses[c.variant];
    std::map<std::string, std::string> label_of;
    const auto add_label = [&](const std::string& name, const std::string& variant) {
      label_of[name] = terminal_text(variant.empty() || uses[variant] > 1 ? name : variant);
    };
    for (const auto& v : group.variants) add_label(v.name, v.variant);
    for (const auto& c : group.failed) add_label(c.name, c.variant);
    const auto label = [&](const std::string& name) {
      const auto found = label_of.find(name);
      return found == label_of.end() ? terminal_text(name) : found->second;
    };
    std::size_t width = 8;
    for (const auto& [name, shown] : label_of) width = std::max(width, shown.size() + 2);

    out << terminal_text(group.problem) << " (compared on " << joined(group.objectives) << ")\n";
    const auto columns = [&](char marker, const std::string& name, double median, const std::optional<double>& error,
                             const std::optional<double>& memory) {
      return std::string("  ") + marker + " " + pad(label(name), width) + pad_left(format_duration(median), 9) +
             "  error " + pad_left(format_scientific(error.value_or(NAN)), 8) + "  memory " +
             pad_left(format_bytes(memory.value_or(NAN)), 9);
    };
    for (const ParetoVariant& v : group.variants) {
      out << columns(v.on_frontier ? '*' : ' ', v.name, v.latency_median, v.error, v.memory_bytes)
          << "  P(frontier)=" << format_fixed(v.frontier_probability, 2);
      if (v.dominated_by) out << "  dominated by " << label(*v.dominated_by);
      out << "\n";
    }
    for (const ParetoCandidate& c : group.failed) {
      const double median_latency =
          usable(c.latency_samples) ? median(c.latency_samples).value_or(std::nan("")) : std::nan("");
      out << columns('x', c.name, median_latency, finite(c.error), finite(c.memory_bytes))
          << "  accuracy failed: " << terminal_text(c.failure) << "\n";
    }
    for (const MissingObjective& m : group.missing) {
      std::vector<std::string> labels;
      for (const std::string& name : m.variants) labels.push_back(label(name));
      if (m.objective == "latency") {
        out << "  note: left out, no usable latency samples: " << joined(labels) << "\n";
      } else {
        out << "  note: " << m.objective << " not compared: not recorded for " << joined(labels) << "\n";
      }
    }
    if (std::find(group.objectives.begin(), group.objectives.end(), "memory") != group.objectives.end()) {
      std::vector<std::string> kinds;
      for (const auto& v : group.variants) {
        if (std::find(kinds.begin(), kinds.end(), v.memory_kind) == kinds.end()) kinds.push_back(v.memory_kind);
      }
      if (kinds.size() > 1) out << "  note: memory compares " << joined(kinds) << " (each variant's own processor)\n";
    }
  }
  if (headed) {
    out << "* on the frontier: no variant is better on one objective and no worse on the others (on latency only when\n"
           "  the medians' intervals separate); x failed its accuracy check. P(frontier): the share of joint\n"
           "  resamples of the latencies in which the variant is on the frontier (docs/pareto.md)\n";
  }
}

}  // namespace gbx
