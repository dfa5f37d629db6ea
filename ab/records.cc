#include "ab/records.h"

#include <exception>
#include <iostream>
#include <ostream>

#include "writer/record_finisher.h"

namespace gbx::tools {

std::optional<int> write_side_records(const std::function<nlohmann::json(int)>& record_of, const std::string paths[2],
                                      int signal, std::ostream& err) {
  static const char* const roles[2] = {"base", "candidate"};
  try {
    for (int s = 0; s < 2; ++s) {
      write_record(record_of(s), {paths[s], "", std::nullopt, false}, std::cout);
      err << "gbx ab: " << roles[s] << " record written to " << paths[s] << "\n";
    }
  } catch (const std::exception& error) {
    err << "gbx ab: cannot write the records: " << error.what() << "\n";
    return 2;
  }
  if (signal != 0) {
    err << "gbx ab: interrupted by signal " << signal << "; both records keep what finished\n";
    return 128 + signal;
  }
  return std::nullopt;
}

void add_accuracy(std::vector<PairedResult>& rows, const LoadedRecord& base, const LoadedRecord& candidate) {
  for (PairedResult& row : rows) {
    for (const LoadedRecord* side : {&base, &candidate}) {
      // The row's benchmark on this side: its own name, which differs from the row's with two variants.
      std::string benchmark = row.name;
      for (const auto& listed : side->json["gbx"]["ab"].value("rows", nlohmann::json::array())) {
        if (listed.value("name", std::string()) == row.name && listed.contains("benchmark") &&
            listed["benchmark"].is_string()) {
          benchmark = listed["benchmark"].get<std::string>();
        }
      }
      for (const auto& b : side->benchmarks) {
        if (b.name != benchmark || !b.accuracy_failed) continue;
        (side == &base ? row.base_accuracy_failure : row.candidate_accuracy_failure) = b.failure;
      }
    }
  }
}

bool paired_records(const LoadedRecord& base, const LoadedRecord& candidate) {
  const nlohmann::json::json_pointer blocks("/gbx/ab/blocks");
  const nlohmann::json::json_pointer partner("/gbx/ab/partner_run_id");
  const nlohmann::json::json_pointer run("/gbx/run_id");
  for (const auto* r : {&base, &candidate}) {
    if (!r->json.contains(blocks) || !r->json[blocks].is_array() || !r->json.contains(partner)) return false;
  }
  return base.json.value(partner, std::string()) == candidate.json.value(run, std::string()) &&
         candidate.json.value(partner, std::string()) == base.json.value(run, std::string());
}

PairedComparison paired_from_records(const LoadedRecord& base, const LoadedRecord& candidate,
                                     std::optional<PairTest> test) {
  PairedComparison c;
  const nlohmann::json& ab = base.json["gbx"]["ab"];
  c.noise_band = ab.value("noise_band", 0.02);
  c.equivalence = ab.value("equivalence", kDefaultEquivalenceMargin);
  c.design = ab;
  c.design.erase("blocks");
  if (!test) test = parse_pair_test(ab.value("pair_test", std::string("t")));
  if (!test) test = PairTest::t;
  c.design["pair_test"] = to_string(*test);
  c.only_in_base = ab.value("only_in_base", std::vector<std::string>());
  c.only_in_candidate = ab.value("only_in_candidate", std::vector<std::string>());
  std::vector<AbBlock> blocks;
  for (const auto* r : {&base, &candidate}) {
    for (const auto& b : r->json["gbx"]["ab"]["blocks"]) blocks.push_back(block_from_json(b));
  }
  std::vector<std::string> names;
  std::vector<std::string> failures;
  for (const auto& row : ab.value("rows", nlohmann::json::array())) {
    names.push_back(row.value("name", std::string()));
    failures.emplace_back();
    // A side's failure is in both records' rows.
    for (const auto* r : {&base, &candidate}) {
      for (const auto& other : r->json["gbx"]["ab"].value("rows", nlohmann::json::array())) {
        if (other.value("name", std::string()) == names.back() && other.contains("failure") &&
            other["failure"].is_string()) {
          failures.back() = other["failure"].get<std::string>();
        }
      }
    }
  }
  std::vector<RecordedLook> looks;
  for (const auto& look : ab.value("looks", nlohmann::json::array())) {
    RecordedLook recorded{look.value("pairs", std::int64_t{0}),
                          look.value("planned_pairs", std::int64_t{1}),
                          look.value("final", false),
                          {}};
    for (const auto& futile : look.value("futile", nlohmann::json::array())) {
      recorded.futile.push_back({futile.value("name", std::string()), futile.value("reachable_pairs", std::size_t{0}),
                                 futile.value("chance_to_decide", 0.0)});
    }
    looks.push_back(std::move(recorded));
  }
  // One estimate of the pairs: a record that names another ("order-balanced-median", without the
  // pooled bounds) or none (before the field) is read all the same and replayed with this one.
  c.design["pair_estimate"] = kPairEstimateWinsorised;
  c.rows = replay_looks(names, failures, blocks, looks, c.noise_band, c.equivalence, ab.value("fdr", 0.05), *test);
  add_accuracy(c.rows, base, candidate);
  return c;
}

}  // namespace gbx::tools
