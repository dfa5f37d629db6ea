#!/usr/bin/env bash
# The Pareto analysis end to end: a real run records gbx.pareto and prints the summary below its table;
# `gbx pareto` prints it again from the record (console and JSON), and refuses bad input with exit 2.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2

"$bench" --benchmark_filter='n:4096' --gbx_min_samples=10 --gbx_max_samples=20 --gbx_max_time=0.5 \
  --gbx_out_dir="$dir/run" >"$dir/console" 2>"$dir/stderr" || fail "bench run: $(cat "$dir/stderr")"
record=$(ls "$dir"/run/*.json)
[[ -f $record ]] || fail "no record in $dir/run"

expect_output "the Pareto summary below the table" "$dir/console" '^Pareto \(latency, error, memory\) per problem$' \
  '^reduce/n=4096 \(compared on latency' '^  \* [a-z_]+ .* P\(frontier\)=[01]\.[0-9]{2}$'

python3 - "$record" <<'PY' || fail "gbx.pareto in the record"
import json, sys
record = json.load(open(sys.argv[1]))
groups = {g["problem"]: g for g in record["gbx"]["pareto"]}
group = groups["reduce/n=4096"]
assert group["objectives"][0] == "latency" and group["resamples"] == 2000, group
names = {b["name"] for b in record["benchmarks"] if b.get("gbx", {}).get("problem") == "reduce/n=4096"}
assert {v["name"] for v in group["variants"]} | {f["name"] for f in group["failed_accuracy"]} == names, names
assert any(v["on_frontier"] for v in group["variants"]), group
for v in group["variants"]:
    assert 0.0 <= v["frontier_probability"] <= 1.0, v
    assert v["latency"]["lower"] <= v["latency"]["median"] <= v["latency"]["upper"], v
    assert (v["dominated_by"] is None) == v["on_frontier"], v
    assert v["dominated_by"] is None or v["dominated_by"] in names, v
PY

# The command recomputes the same analysis from the samples.
expect_exit 0 "gbx pareto" "$gbx" pareto "$record"
sed -n '/^Pareto/,$p' "$dir/console" >"$dir/from_run"
sed -n '/^Pareto/,$p' "$dir/out" >"$dir/from_command"
[[ -s $dir/from_command ]] || fail "gbx pareto printed no summary: $(cat "$dir/out")"
diff "$dir/from_run" "$dir/from_command" || fail "the command's summary differs from the run's"
expect_exit 0 "gbx pareto --format=json" "$gbx" pareto --format=json "$record"
python3 - "$dir/out" "$record" <<'PY' || fail "the JSON output is not the recorded analysis"
import json, sys
assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))["gbx"]["pareto"]
PY
expect_exit 2 "an unknown format" "$gbx" pareto --format=yaml "$record"

# Plain Google Benchmark JSON is readable: exit 0 with a note.
python3 - "$dir/plain.json" <<'PY'
import json, sys
rows = [{"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
         "threads": 1, "iterations": 10, "real_time": 5.0, "cpu_time": 5.0, "time_unit": "ns"}]
json.dump({"context": {"caches": []}, "benchmarks": rows}, open(sys.argv[1], "w"))
PY
expect_exit 0 "plain Google Benchmark JSON" "$gbx" pareto "$dir/plain.json"
expect_output "plain Google Benchmark JSON: the note" "$dir/out" 'no gbx section'

# Bad input: exit 2 and a message that names the file and the fault.
head -c 300 "$record" >"$dir/truncated.json"
python3 - "$record" "$dir/tampered.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
record["benchmarks"][0]["gbx"]["samples"][0] *= 2
json.dump(record, open(sys.argv[2], "w"))
PY
for case in "truncated.json:not valid JSON" "tampered.json:checksum mismatch" "absent.json:cannot open"; do
  name=${case%%:*} fault=${case#*:}
  expect_exit 2 "$name" "$gbx" pareto "$dir/$name"
  expect_output "$name: the file and the fault named" "$dir/err" "${name//./\\.}: .*$fault"
done
echo "gbx pareto: recorded, printed, recomputed identically, and bad input refused"
