#!/usr/bin/env bash
# gbx compare end to end: verdicts and exit codes on crafted records, real gbx records (an A/A pair
# and an incompatible pair), the three formats, and every kind of bad input (exit 2, the file named).
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2

# Plain Google Benchmark JSON: 100 repetitions per benchmark, 1% noise; "moved" is 10% slower in
# the candidate, "steady" is the same.
python3 - "$dir" <<'PY'
import json, random, sys
random.seed(7)
def record(scale):
    rows = []
    for name, factor in (("steady", 1.0), ("moved", scale)):
        for i in range(100):
            rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 100,
                         "repetition_index": i, "threads": 1, "iterations": 1000,
                         "real_time": 1000.0 * factor * random.lognormvariate(0, 0.01),
                         "cpu_time": 1000.0, "time_unit": "ns", "family_index": 0, "per_family_instance_index": 0})
    return {"context": {"caches": []}, "benchmarks": rows}
json.dump(record(1.0), open(sys.argv[1] + "/plain_base.json", "w"))
json.dump(record(1.10), open(sys.argv[1] + "/plain_slower.json", "w"))
json.dump(record(0.90), open(sys.argv[1] + "/plain_faster.json", "w"))
PY

# Google Benchmark's repetitions run in one process: a 10% slowdown there is unreplicated (exit 3),
# never slower, and the sentence says what to run instead.
expect_exit 3 "a single-process 10% slowdown" "$gbx" compare "$dir/plain_base.json" "$dir/plain_slower.json"
expect_output "a single-process 10% slowdown" "$dir/out" \
  '^moved: unreplicated: 10\.[0-9]% slower within one process, ratio 1\.[01][0-9]{2} \[1\.[01][0-9]{2}, 1\.[01][0-9]{2}\] 95% CI, p < 0\.001 \(BH-adjusted\); but both records have one process, so the variation between processes was not measured .*--gbx_processes=10, or gbx ab --processes 10'
expect_output "steady is the same" "$dir/out" '^steady: the same within \+/-2\.0%'
expect_output "plain JSON says fewer facts were available" "$dir/out" 'fewer facts were available'
expect_exit 3 "a single-process speed-up" "$gbx" compare "$dir/plain_base.json" "$dir/plain_faster.json"
expect_output "a single-process speed-up" "$dir/out" '^moved: unreplicated: 10\.[0-9]% faster within one process'

expect_exit 3 "markdown" "$gbx" compare --format=markdown "$dir/plain_base.json" "$dir/plain_slower.json"
expect_output "markdown" "$dir/out" "^$(literal '| Benchmark | Base | Candidate | Ratio [95% CI] | p (BH) | Verdict |')\$" \
  '^\| moved \| .* \| \*\*unreplicated\*\* \|$'
expect_exit 3 "json" "$gbx" compare --format=json "$dir/plain_base.json" "$dir/plain_slower.json"
python3 - "$dir/out" <<'PY' || fail "json output"
import json, sys
out = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in out["rows"]}
assert rows["moved"]["verdict"] == "unreplicated" and rows["steady"]["verdict"] == "same", rows
assert rows["moved"]["unit"] == "sample" and rows["moved"]["processes"] == {"base": 1, "candidate": 1}, rows
assert out["fewer_facts"] is True and out["compatible"] is True
PY
expect_exit 2 "an unknown format" "$gbx" compare --format=yaml "$dir/plain_base.json" "$dir/plain_slower.json"
expect_output "an unknown format" "$dir/err" "^gbx compare: invalid value 'yaml' for --format"

# Real records: two runs of the same benchmarks (A/A) are compatible and compare.
for run in a b; do
  "$bench" --benchmark_filter='reduce/(naive|kahan)/n:4096' --gbx_min_samples=20 --gbx_warmup=2 \
    --benchmark_out="$dir/$run.json" >/dev/null 2>&1 || fail "bench run $run"
done
"$gbx" compare "$dir/a.json" "$dir/b.json" >"$dir/out" 2>"$dir/err"
rc=$?
[[ $rc -eq 0 || $rc -eq 3 ]] || fail "A/A compare of single-process records exit $rc (never 1): $(cat "$dir/out" "$dir/err")"
expect_output "A/A rows name the benchmark as the console does" "$dir/out" '^reduce/naive/n:4096 +[0-9.]+ [nuµm]?s '
expect_output "A/A sentences name the benchmark as the console does" "$dir/out" '^reduce/naive/n:4096: '
expect_count "no problem-and-variant name" "$dir/out" 0 'reduce/n=4096'
expect_count "no constant suffix" "$dir/out" 0 'iterations:1/manual_time'
expect_count "gbx records do not say fewer facts" "$dir/out" 0 'fewer facts'
"$gbx" compare --format=json "$dir/a.json" "$dir/b.json" >"$dir/out.json" 2>"$dir/err"
python3 - "$dir/out.json" <<'PY' || fail "json: name is Google Benchmark's, shown_name the console's"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert sorted(r["name"] for r in rows) == ["reduce/kahan/n:4096/iterations:1/manual_time",
                                           "reduce/naive/n:4096/iterations:1/manual_time"], rows
assert all(r["shown_name"] == r["name"][:-len("/iterations:1/manual_time")] for r in rows), rows
PY

# A different protocol is incompatible: exit 2 and both values shown, unless allowed.
"$bench" --benchmark_filter='reduce/naive/n:4096' --gbx_min_samples=10 --gbx_cache=cold \
  --benchmark_out="$dir/cold.json" >/dev/null 2>&1 || fail "cold bench run"
expect_exit 2 "incompatible records" "$gbx" compare "$dir/a.json" "$dir/cold.json"
expect_output "incompatible records: the differing field" "$dir/err" 'protocol: cache +base: hot +candidate: cold'
"$gbx" compare --allow-incompatible "$dir/a.json" "$dir/cold.json" >"$dir/out" 2>"$dir/err"
rc=$?
[[ $rc -eq 0 || $rc -eq 3 ]] || fail "--allow-incompatible exit $rc"
expect_output "--allow-incompatible marks the rows" "$dir/out" 'INCOMPATIBLE'

# Bad inputs: each exits 2 with a message that names the file.
bad() {
  local name=$1
  expect_exit 2 "$name" "$gbx" compare "$dir/a.json" "$dir/$name"
  expect_output "$name: the message names the file" "$dir/err" "$(literal "$name")"
  expect_output "$name: the fault" "$dir/err" "$(literal "$2")"
  echo "bad input $name: $(head -1 "$dir/err")"
}
head -c 300 "$dir/b.json" >"$dir/truncated.json"
bad truncated.json "not valid JSON"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
text = open(d + "/b.json").read()
open(d + "/nan.json", "w").write(text.replace('"samples": [', '"samples": [NaN, ', 1))
record = json.loads(text)
missing = json.loads(text); del missing["benchmarks"][0]["time_unit"]; json.dump(missing, open(d + "/missing.json", "w"))
version = json.loads(text); version["gbx"]["schema_version"] = 2; json.dump(version, open(d + "/version.json", "w"))
tampered = json.loads(text); tampered["benchmarks"][0]["gbx"]["samples"][0] *= 2; json.dump(tampered, open(d + "/tampered.json", "w"))
empty = json.loads(text); empty["benchmarks"] = []; json.dump(empty, open(d + "/empty.json", "w"))
wrong = json.loads(text); wrong["benchmarks"][0]["real_time"] = "fast"; json.dump(wrong, open(d + "/wrongtype.json", "w"))
PY
bad nan.json "non-finite"
bad missing.json "time_unit"
bad version.json "schema_version"
bad tampered.json "checksum mismatch"
bad empty.json "empty"
bad wrongtype.json "wrong type"
bad absent.json "cannot open"
echo "gbx compare: verdicts, formats, gate and bad inputs behave"
