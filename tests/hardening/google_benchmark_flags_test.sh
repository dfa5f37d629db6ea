#!/usr/bin/env bash
# Google Benchmark's flags under gbx (issue 14): each works, or is refused with exit 2 naming the flag
# and gbx's own; none is accepted and ignored. An empty selection or a bad filter regex exits 2
# naming the filter, and writes no record.
# Usage: google_benchmark_flags_test.sh path/to/bench_reduce
source "$(dirname "$0")/../support/output_match.sh"
bench=$(realpath "${1:?usage: google_benchmark_flags_test.sh path/to/bench_reduce}") || exit 1
cd "$dir" || exit 1
filter=--benchmark_filter=reduce/naive/n:4096
quick=(--gbx_min_samples=3 --gbx_warmup=0)

# run CODE WHAT ARGS...: the bench binary, stdout and stderr to $dir/out and $dir/err.
run() {
  local code=$1 what=$2
  shift 2
  expect_exit "$code" "$what" timeout 120 "$bench" "$@"
}
# refused "WORD|WORD..." ARGS...: exit 2, stderr names every word, no benchmark ran, no record.
refused() {
  local words=$1 word
  shift
  echo "case: refuses $*"
  rm -rf "$dir/records"
  run 2 "refuses $*" "$@" "--gbx_out_dir=$dir/records"
  IFS='|' read -ra list <<<"$words"
  for word in "${list[@]}"; do
    expect_output "refuses $*: stderr names '$word'" "$dir/err" "$(literal "$word")"
  done
  expect_count "refuses $*: no benchmark ran" "$dir/out" 0 'reduce/'
  [ -z "$(ls -A "$dir/records" 2>/dev/null)" ] || fail "a record was written for: $*"
}

# Refused, naming gbx's flag for the same purpose.
refused '--benchmark_min_time=0.5|--gbx_min_time|--gbx_max_time|--gbx_min_samples' "$filter" --benchmark_min_time=0.5
refused '--benchmark_min_time=100x|--gbx_max_time' "$filter" --benchmark_min_time=100x
refused '--benchmark_min_warmup_time=1|--gbx_warmup' "$filter" --benchmark_min_warmup_time=1
refused '--benchmark_dry_run|--benchmark_list_tests' "$filter" --benchmark_dry_run
refused '--benchmark_perf_counters=CYCLES' "$filter" --benchmark_perf_counters=CYCLES
refused '--benchmark_counters_tabular=true|--benchmark_format=json' "$filter" --benchmark_counters_tabular=true
refused '--benchmark_color=true|plain text' "$filter" --benchmark_color=true
refused "--benchmark_time_unit=days|ns, us, ms or s" "$filter" --benchmark_time_unit=days
echo "case: refuses BENCHMARK_MIN_TIME in the environment"
BENCHMARK_MIN_TIME=2 run 2 "BENCHMARK_MIN_TIME" "$filter" "${quick[@]}"
expect_output "BENCHMARK_MIN_TIME" "$dir/err" "$(literal 'BENCHMARK_MIN_TIME=2 (in the environment)')"

# Filters: a bad regular expression, and one that matches nothing, in one process and in several.
refused "--benchmark_filter=(|not a regular expression" '--benchmark_filter=('
refused "--benchmark_filter='nomatch'|no benchmark matched|--benchmark_list_tests" --benchmark_filter=nomatch
refused "--benchmark_filter='nomatch'|no benchmark matched" --benchmark_filter=nomatch --gbx_processes=2

# Accepted: colour off or auto (the table is plain text either way), a negated filter.
for ok in --benchmark_color=false --benchmark_color=auto --benchmark_counters_tabular=false; do
  echo "case: accepts $ok"
  run 0 "$ok" "$filter" "${quick[@]}" "$ok"
done

# --benchmark_time_unit sets the unit of every gbx row of the record, repetitions and aggregates,
# in one process and merged from several: real_time is the median sample in that unit.
for processes in 1 2; do
  for unit in ms ns; do
    echo "case: --benchmark_time_unit=$unit with $processes process(es)"
    run 0 "--benchmark_time_unit=$unit with $processes process(es)" "$filter" "${quick[@]}" --benchmark_repetitions=2 \
      "--benchmark_time_unit=$unit" "--gbx_processes=$processes" "--benchmark_out=$dir/unit.json"
    python3 - "$dir/unit.json" "$unit" "$processes" <<'PY' || fail "time unit $unit not applied"
import json, statistics, sys
record, unit, processes = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
scale = {"ns": 1e9, "ms": 1e3}[unit]
rows = record["benchmarks"]
assert rows and all(b["time_unit"] == unit for b in rows), [(b["name"], b["time_unit"]) for b in rows]
for b in rows:
    if b["run_type"] == "iteration" and processes == 1:
        median = statistics.median(b["gbx"]["samples"]) * scale
        assert abs(b["real_time"] - median) <= 1e-9 * median, (b["real_time"], median)
assert any(b["run_type"] == "aggregate" for b in rows) or processes > 1
PY
  done
done

# Flags that work as Google Benchmark documents them.
echo "case: --benchmark_context lands in the record's context"
run 0 "--benchmark_context" "$filter" "${quick[@]}" --benchmark_context=build=ci42 "--benchmark_out=$dir/context.json"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["context"]["build"] == "ci42"' "$dir/context.json" ||
  fail "no context key"
# gbx initialises Google Benchmark once per pass; the context is added once, without its warning.
expect_count "--benchmark_context added once" "$dir/err" 0 'Failed to add custom context'
echo "case: --benchmark_enable_random_interleaving keeps every repetition's samples"
run 0 "--benchmark_enable_random_interleaving" --benchmark_filter='reduce/naive/n:4096|reduce/kahan/n:4096' \
  "${quick[@]}" --benchmark_repetitions=2 --benchmark_enable_random_interleaving=true \
  "--benchmark_out=$dir/interleaved.json"
python3 - "$dir/interleaved.json" <<'PY' || fail "interleaving lost repetitions"
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
assert len(rows) == 4, len(rows)
assert all(len(b["gbx"]["samples"]) == 3 for b in rows)
PY
echo "PASS"
