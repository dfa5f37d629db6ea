#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "model/protocol.h"
#include "model/run_record.h"

namespace gbx {

// What identifies one run of a bench binary.
struct RecordHeader {
  std::string run_id;       // a UUID v4
  std::string created_utc;  // ISO 8601
  std::vector<std::string> command;
  detail::Protocol protocol;
  bool interrupted = false;  // SIGINT/SIGTERM stopped the run: only finished benchmarks are kept
  nlohmann::json environment = nlohmann::json::object();
  nlohmann::json sections = nlohmann::json::object();  // more keys of gbx at the top, e.g. "shard"
};

std::string new_run_id();
// ISO 8601 UTC time, e.g. 2026-11-30T04:17:41Z; compact=true gives 20261130T041741Z for file names.
std::string utc_timestamp(bool compact = false);

// Google Benchmark writes NaN and Infinity as bare words, which JSON parsers reject: this
// turns every such token outside strings into null.
std::string replace_non_finite_with_null(const std::string& json_text);

// The record: Google Benchmark's JSON, every key kept, plus a `gbx` object at the top and in each
// benchmark entry. entries[i] is the fixture record behind benchmarks[i], if any; entries of
// benchmarks that an interrupt stopped are left out. analyses[i], when given, holds the statistics of
// entries[i]; otherwise they are computed here.
// The `gbx` object of one benchmark entry (an aggregate row gets only problem, variant and region).
// The statistics are computed here when analysis is null.
nlohmann::json entry_json(const detail::RunRecord& record, bool aggregate, const RunAnalysis* analysis = nullptr);

// Whether entries[i]'s row is left out of `benchmarks`: a benchmark an interrupt stopped, or one
// that could not run here (listed in gbx.not_run instead, so that dashboards reading `benchmarks`
// never take it for a 0 s result).
bool left_out_of_benchmarks(const std::optional<detail::RunRecord>& entry);

// One gbx.not_run item: {name, family, problem, variant, reason, reason_code}.
nlohmann::json not_run_json(const std::string& name, const detail::RunRecord& record);

nlohmann::json build_record(const std::string& google_benchmark_json,
                            const std::vector<std::optional<detail::RunRecord>>& entries, const RecordHeader& header,
                            const std::vector<std::optional<RunAnalysis>>* analyses = nullptr);

}  // namespace gbx
