#!/usr/bin/env bash
# Plain Google Benchmark benchmarks under gbx::main (tests/plain/plain_bench.cc): each gets samples,
# an interval and a record entry; Google Benchmark's flags work for them; every output format
# survives a mix of plain and gbx benchmarks; and `gbx compare R R` decides them.
# Usage: plain_test.sh PLAIN_BENCH GBX
set -euo pipefail
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2
fast=(--gbx_min_samples=30 --gbx_max_samples=30 --gbx_warmup=2 --benchmark_min_time=0.05)

# The console: a median with its interval for the manual-time benchmark, and a footer saying how.
expect_exit 0 "the console run" "$bench" "${fast[@]}" --gbx_out_dir="$dir/records"
expect_output "the console rows" "$dir/out" \
  '^BM_copy/4096 +[0-9.]+ [nuµm]?s +\[[0-9.]+, [0-9.]+\] [nuµm]?s +[0-9.]+% +30 ' \
  '^BM_manual/n:2048/manual_time +[0-9.]+ [nuµm]?s +\[' \
  '^Vectors/sum/1024 +[0-9.]+' '^BM_fill<float> +[0-9.]+' '^BM_string/short_text +[0-9.]+' \
  '^scale/loop/n:1024 +[0-9.]+' \
  '^plain Google Benchmark benchmarks: 1 warm-up repetition discarded, .*30 per --benchmark_repetitions'
record=$(ls "$dir"/records/*.json)

python3 - "$record" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
rows = {b["name"]: b for b in record["benchmarks"]}
plain = [n for n in rows if n.startswith(("BM_", "Vectors/"))]
if len(plain) != 6:
    sys.exit(f"expected 6 plain rows, got {sorted(rows)}")
for name in plain:
    g = rows[name].get("gbx")
    if not g or len(g.get("samples", [])) != 30 or g.get("harness") != "google_benchmark":
        sys.exit(f"{name}: no gbx section with 30 samples: {g}")
    ci = g["stats"].get("median_ci") or {}
    if not (ci.get("lower", 0) > 0 and ci["lower"] <= g["stats"]["median"] <= ci["upper"]):
        sys.exit(f"{name}: no interval around the median: {g['stats']}")
manual = rows["BM_manual/n:2048/manual_time"]
if manual["gbx"]["measurement"]["timer"] != "manual" or manual.get("elements") != 2048:
    sys.exit(f"manual time or the user counter lost: {manual}")
if manual["gbx"].get("axes") != {"n": 2048}:
    sys.exit(f"the named argument is not an axis: {manual['gbx'].get('axes')}")
copy = rows["BM_copy/65536"]
if abs(copy["gbx"]["declared"]["bytes_per_run"] - 65536) > 1 or not copy.get("bytes_per_second"):
    sys.exit(f"SetBytesProcessed lost: {copy['gbx']['declared']}, {copy.get('bytes_per_second')}")
if "items_per_second" not in rows["Vectors/sum/1024"]:
    sys.exit("SetItemsProcessed lost")
if "samples" not in rows["scale/loop/n:1024/iterations:1/manual_time"]["gbx"]:
    sys.exit("the gbx benchmark lost its samples")
print("ok: record")
PY

# A record against itself: every row compared on its 30 samples, none slower, faster, insufficient
# or unreplicated, and the gate passes (whether a row is `same` depends on this machine's noise).
expect_exit 0 "gbx compare R R" "$gbx" compare "$record" "$record" --format json
python3 - "$dir/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
verdicts = {r["name"]: r["verdict"] for r in rows}
if len(rows) != 7 or any(v not in ("same", "inconclusive") for v in verdicts.values()):
    sys.exit(f"a row undecided for want of samples, or called a change: {verdicts}")
short = [r["name"] for r in rows if r["samples"] != {"base": 30, "candidate": 30}]
if short:
    sys.exit(f"rows compared without their 30 samples: {short}")
print(f"ok: compare R R: {verdicts}")
PY

# --benchmark_repetitions: one row per repetition, and aggregates over their medians.
expect_exit 0 "repetitions" "$bench" "${fast[@]}" --benchmark_filter='BM_copy/4096' --benchmark_repetitions=3 \
  --benchmark_format=json
python3 - "$dir/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
reps = [r for r in rows if r["run_type"] == "iteration"]
mean = [r for r in rows if r.get("aggregate_name") == "mean"]
if len(reps) != 3 or len(mean) != 1 or any(len(r["gbx"]["samples"]) != 30 for r in reps):
    sys.exit(f"expected 3 repetitions of 30 samples and a mean: {[r['name'] for r in rows]}")
expected = sum(r["real_time"] for r in reps) / 3
if abs(mean[0]["real_time"] - expected) > 1e-6 * expected:
    sys.exit(f"the mean {mean[0]['real_time']} is not the mean of the medians {expected}")
print("ok: repetitions")
PY

# CSV on stdout and in --benchmark_out, the record kept, where a later row has a counter the first
# has not (Google Benchmark's CSV printer alone aborts there): a plain row without user counters
# before one with, and plain rows before a gbx one.
for filter in 'BM_copy/4096|BM_manual|scale' 'Vectors|scale'; do
  expect_exit 0 "CSV ($filter)" "$bench" "${fast[@]}" --benchmark_filter="$filter" --benchmark_format=csv \
    --benchmark_out="$dir/out.csv" --benchmark_out_format=csv --gbx_out_dir="$dir/csv"
  expect_output "CSV on stdout" "$dir/out" '^name,iterations,real_time' '^"?(BM_|Vectors|scale)' '^"?(BM_|Vectors|scale)'
  expect_output "CSV in the file" "$dir/out.csv" '^name,iterations,real_time' '^"?(BM_|Vectors|scale)' '^"?(BM_|Vectors|scale)'
done
[[ $(ls "$dir"/csv/*.json | wc -l) == 2 ]] || fail "a CSV run lost its record: $(ls "$dir/csv")"

# Google Benchmark's flags that make no sense for plain benchmarks are still refused, naming the flag.
expect_exit 2 "a bad --benchmark_min_time" "$bench" --benchmark_min_time=-3
expect_output "its message" "$dir/err" "$(literal --benchmark_min_time=-3)"
echo "ok"
