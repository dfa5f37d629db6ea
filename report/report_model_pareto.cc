// The report's words on a Pareto group (its frontier as one sentence, a variant's label). The console's
// table of the same analysis is analysis/pareto.cc's print_pareto; the report writes prose, which a
// reader of a pull-request comment or a page takes in at once, so the two stay apart.
#include <algorithm>
#include <limits>

#include "report/report_model.h"
#include "report/report_model_json.h"

namespace gbx::tools {

using report_json::join;
using report_json::join_words;

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
