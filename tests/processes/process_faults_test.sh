#!/usr/bin/env bash
# Fault isolation under --gbx_processes: benchmarks that segfault, abort, exit or hang are recorded
# failed with their cause, the healthy ones around them are measured in every process, the exit code
# is 1, the record is sealed and valid, progress lines are written, and no temporary file is left.
# Then: repetitions (aggregates recomputed over the merged repetitions), and an interrupted run.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2 schema=$3
# Under AddressSanitizer (scripts/sanitize) the deliberate segfault would be caught by ASan's SEGV
# handler and end as exit code 1; let it die of the signal, as it does in every other build.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"

mkdir "$dir/out"
# The eight that run or fail here (faulty_bench's faults/unavailable, which skips, is gbx ab's).
"$bench" --gbx_processes=2 --gbx_order_seed=11 --gbx_benchmark_timeout=3 --gbx_min_samples=5 --gbx_warmup=1 \
  --benchmark_filter='poison|first|segfault|second|abort|hang|exit|third' \
  --gbx_progress=on --benchmark_out="$dir/out/faults.json" >"$dir/stdout" 2>"$dir/stderr"
rc=$?
[[ $rc -eq 1 ]] || { cat "$dir/stderr"; fail "exit code $rc, expected 1 (benchmarks failed)"; }
[[ $(ls -A "$dir/out") == faults.json ]] || fail "files left beside the record: $(ls -A "$dir/out")"
"$gbx" verify "$dir/out/faults.json" >/dev/null || fail "the record is not intact"
/usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$dir/out/faults.json" >/dev/null || fail "schema"
# 8 benchmarks x 2 processes, one progress line each as it finishes (stderr is not a terminal: plain
# lines); a line naming one still running, written when 10 s pass without a line, is not counted.
expect_count "progress lines" "$dir/stderr" 16 '^\[[0-9]+/16\] faults/[a-z_]+ [0-9.]+ s'
expect_output "the final progress line" "$dir/stderr" '^\[16/16\] '
expect_output "progress shows the failures" "$dir/stderr" 'FAILED'
/usr/bin/python3 - "$dir/out/faults.json" <<'PY' || fail "record content"
import json, statistics, sys
record = json.load(open(sys.argv[1]))
processes = record["gbx"]["processes"]
assert processes["count"] == 2 and processes["order_seed"] == 11 and processes["isolated"] is True, processes
assert record["gbx"]["protocol"]["processes"] == 2
by_name = {b["name"].split("/")[1]: b for b in record["benchmarks"]}
assert len(record["benchmarks"]) == 8, [b["name"] for b in record["benchmarks"]]
for name in ("first", "second", "third"):
    b = by_name[name]
    assert not b.get("error_occurred", False), b
    groups = b["gbx"]["process_samples"]
    assert [g["process"] for g in groups] == [0, 1], groups
    assert [g["count"] for g in groups] == [5, 5], groups
    samples = b["gbx"]["samples"]
    assert len(samples) == 10 and b["samples"] == 10
    medians = [statistics.median(samples[:5]), statistics.median(samples[5:])]
    assert abs(b["real_time"] - statistics.median(medians) * 1e9) <= 1e-6 * b["real_time"], (b["real_time"], medians)
causes = {"segfault": "SIGSEGV", "abort": "SIGABRT", "exit": "exited with code 3", "hang": "--gbx_benchmark_timeout",
          "poison": "simulated sticky error"}
for name, cause in causes.items():
    b = by_name[name]
    assert b["error_occurred"] is True, b
    assert cause in b["error_message"], (name, b["error_message"])
    assert "samples" not in b.get("gbx", {}), b
# Each process goes on in a fresh child after each death and after each failure (the poison, which
# the healthy benchmarks would otherwise see): 5 more launches, less one when its order ends with a
# faulty benchmark.
runs = processes["runs"]
faulty = ("segfault", "abort", "exit", "hang", "poison")
for index in (0, 1):
    mine = [r for r in runs if r["index"] == index]
    order = [name.split("/")[1] for name in mine[0]["order"]]
    expected = 5 + (0 if order[-1] in faulty else 1)
    assert len(mine) == expected, (index, order, len(mine))
    assert sum(r["exit"]["code"] == 0 for r in mine) == expected - 4, mine
signals = sorted(r["exit"]["signal"] or "" for r in runs)
assert signals.count("SIGSEGV") == 2 and signals.count("SIGABRT") == 2 and signals.count("SIGKILL") == 2, signals
assert sum(r["exit"]["timed_out"] for r in runs) == 2, runs
assert sum(r["exit"]["code"] == 3 for r in runs) == 2, runs
# Each process's first launch was asked for the whole selection, in an order of its own.
first = [r["order"] for r in runs if r["order"] and len(r["order"]) == 8]
assert len(first) == 2 and sorted(first[0]) == sorted(first[1]), first
PY
# The validator must be able to fail: process groups that do not partition the samples.
/usr/bin/python3 - "$dir/out/faults.json" "$dir/bad_groups.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
entry = next(b for b in record["benchmarks"] if "process_samples" in b.get("gbx", {}))
entry["gbx"]["process_samples"][0]["count"] += 1
json.dump(record, open(sys.argv[2], "w"))
PY
/usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$dir/bad_groups.json" >/dev/null &&
  fail "process groups that do not partition the samples passed"
rm "$dir/bad_groups.json"
echo "faults: recorded failed with their causes; healthy benchmarks measured in both processes"

# Progress without processes: one plain line per finished benchmark.
"$bench" --benchmark_filter='first|second' --gbx_min_samples=3 --gbx_warmup=0 --gbx_progress=on \
  >/dev/null 2>"$dir/progress" || fail "single-process run"
expect_output "progress" "$dir/progress" '^\[1/2\] faults/first [0-9.]+ s, ETA [0-9]+' '^\[2/2\] faults/second [0-9.]+ s$'
"$bench" --benchmark_filter='first' --gbx_min_samples=3 --gbx_warmup=0 >/dev/null 2>"$dir/progress"
expect_empty "no progress on a non-terminal by default" "$dir/progress"

# The same seed gives the same orders; repetitions give aggregates over the merged repetitions.
"$bench" --gbx_processes=3 --gbx_order_seed=11 --benchmark_filter='first|second|third' --benchmark_repetitions=2 \
  --gbx_min_samples=4 --gbx_warmup=1 --benchmark_out="$dir/reps.json" --benchmark_format=csv >"$dir/csv" 2>"$dir/err" ||
  fail "repetitions run: $(cat "$dir/err")"
expect_output "the CSV aggregate row" "$dir/csv" '^"faults/first/iterations:1/manual_time_mean"'
/usr/bin/python3 - "$dir/reps.json" <<'PY' || fail "repetitions content"
import json, statistics, sys
record = json.load(open(sys.argv[1]))
rows = record["benchmarks"]
for name in ("first", "second", "third"):
    full = f"faults/{name}/iterations:1/manual_time"
    reps = [b for b in rows if b["name"] == full and b["run_type"] == "iteration"]
    assert len(reps) == 2 and all(len(b["gbx"]["process_samples"]) == 3 for b in reps), reps
    mean = next(b for b in rows if b["name"] == full + "_mean")
    median = next(b for b in rows if b["name"] == full + "_median")
    assert abs(mean["real_time"] - statistics.mean(b["real_time"] for b in reps)) < 1e-9 * mean["real_time"]
    assert abs(median["real_time"] - statistics.median(b["real_time"] for b in reps)) < 1e-9 * median["real_time"]
PY
/usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$dir/reps.json" >/dev/null || fail "schema (reps)"
echo "repetitions: aggregates recomputed over the merged repetitions"

# SIGTERM to the parent while a benchmark hangs: the child is stopped, the finished work kept.
"$bench" --gbx_processes=2 --gbx_order_seed=5 --benchmark_filter='first|hang' --gbx_min_samples=3 --gbx_warmup=0 \
  --gbx_progress=on --benchmark_out="$dir/interrupted.json" >"$dir/int.out" 2>"$dir/int.err" &
parent=$!
# Progress names a benchmark once it has finished: wait for one (or for the hang to hold things up).
for _ in $(seq 50); do grep -q '^\[1/4\]' "$dir/int.err" 2>/dev/null && break; sleep 0.1; done
sleep 0.5
kill -TERM "$parent"
wait "$parent"
rc=$?
[[ $rc -eq 143 ]] || fail "interrupted run: exit code $rc, expected 143"
pgrep -P "$parent" >/dev/null && fail "a child outlived its parent"
/usr/bin/python3 - "$dir/interrupted.json" <<'PY' || fail "interrupted record"
import json, sys
record = json.load(open(sys.argv[1]))
assert record["gbx"]["interrupted"] is True
for b in record["benchmarks"]:
    assert not b.get("error_occurred", False), b   # an interrupted benchmark is dropped, not failed
    assert "hang" not in b["name"], b
PY
"$gbx" verify "$dir/interrupted.json" >/dev/null || fail "the interrupted record is not intact"
echo "interrupted: exit 143, finished work kept, record sealed"
