#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <vector>

#include "model/run_record.h"
#include "reporters/plain_protocol.h"

namespace gbx {

// A plain benchmark's instance as gbx reports it: its warm-up repetitions dropped, each group of
// repetitions the user asked for turned into one row whose samples are the group's repetitions
// (seconds per iteration, real or manual time as Google Benchmark reports it), and, for more than
// one group, aggregate rows over the groups' medians.
struct PlainRows {
  bool plain = false;  // false: a gbx benchmark's runs (their label carries a record id), left as they are
  std::vector<benchmark::BenchmarkReporter::Run> runs;
  std::vector<std::optional<detail::RunRecord>>
      records;  // one per run (an aggregate has its first row's); none for errors
};

// runs: one instance's repetitions, as Google Benchmark hands them to ReportRuns (its aggregates
// come in a call of their own, for plain_aggregates).
PlainRows collapse_plain_runs(const std::vector<benchmark::BenchmarkReporter::Run>& runs, const PlainLayout& layout);

// The aggregate rows of a plain instance whose repetitions became rows: recomputed over the rows'
// medians when there are several, none for one (its samples are the repetitions they summarised).
PlainRows plain_aggregates(const std::vector<benchmark::BenchmarkReporter::Run>& aggregates, const PlainRows& rows);

// A Google Benchmark run name's arguments ("n:4096/8") as axes: named ones by their name, the
// others as arg0, arg1, ... by position.
std::vector<detail::AxisValue> axes_from_run_args(const std::string& args);

}  // namespace gbx
