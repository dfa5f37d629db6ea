#!/usr/bin/env bash
# The command line of a bench binary, as a user meets it: every bad flag or unwritable output
# exits 2 with a message naming it, before any benchmark runs; a good run writes a strict-JSON
# record that follows the protocol it was given.
#
# Usage: cli_flags_test.sh path/to/bench_reduce
source "$(dirname "$0")/support/output_match.sh"

bench=$(realpath "${1:?usage: cli_flags_test.sh path/to/bench_reduce}") || exit 1
# Anything a misparsed flag writes lands here, not in the build tree.
mkdir "$dir/cwd" && cd "$dir/cwd" || exit 1
filter=--benchmark_filter=reduce/naive/n:4096

# run WHAT CODE ARGS...: runs the bench binary, stdout and stderr to $dir/out and $dir/err.
run() {
  local what=$1 code=$2
  shift 2
  expect_exit "$code" "$what" timeout 120 "$bench" "$@"
}

# refused "WORDS THE MESSAGE MUST CONTAIN" ARGS...: exit 2, a message naming each word on
# stderr, and no benchmark run.
refused() {
  local words=$1
  shift
  echo "case: refuses $*"
  run "refuses $*" 2 "$@"
  local word
  while IFS= read -r word; do
    [ -z "$word" ] && continue
    expect_output "refuses $*: the message names '$word'" "$dir/err" "$(literal "$word")"
  done <<<"$words"
  # A Google Benchmark result row names the benchmark and its arguments.
  expect_count "refuses $*: no benchmark ran" "$dir/out" 0 'reduce/'
}

# Bad values: the message names the flag and the value. The bad flag comes last so that, if it
# were accepted, only the one small benchmark would run.
refused $'--gbx_warmup\n-1' "$filter" --gbx_warmup=-1
refused $'--gbx_warmup\nabc' "$filter" --gbx_warmup=abc
refused $'--gbx_warmup\n2.5' "$filter" --gbx_warmup=2.5
refused $'--gbx_min_samples\n0' "$filter" --gbx_min_samples=0
refused $'--gbx_min_samples\n-4' "$filter" --gbx_min_samples=-4
refused $'--gbx_max_samples\nmany' "$filter" --gbx_max_samples=many
refused $'--gbx_max_time\n0' "$filter" --gbx_max_time=0
refused $'--gbx_max_time\n-1' "$filter" --gbx_max_time=-1
refused $'--gbx_max_time\ninf' "$filter" --gbx_max_time=inf
refused $'--gbx_max_time\nnan' "$filter" --gbx_max_time=nan
refused $'--gbx_max_time\nsoon' "$filter" --gbx_max_time=soon
refused $'--gbx_cache\nlukewarm' "$filter" --gbx_cache=lukewarm
refused $'--gbx_min_samples=10\n--gbx_max_samples=5' "$filter" --gbx_min_samples=10 --gbx_max_samples=5
refused '--gbx_foo=1' "$filter" --gbx_foo=1
# A missing or empty value: the flag is named (an empty value has nothing else to show).
refused '--gbx_warmup' "$filter" --gbx_warmup
refused '--gbx_warmup' "$filter" --gbx_warmup=
refused '--gbx_out_dir' "$filter" --gbx_out_dir=
# Output formats gbx does not write.
refused $'--benchmark_out_format\nxml' "$filter" --benchmark_out_format=xml
refused $'--benchmark_format\nxml' "$filter" --benchmark_format=xml

# Unwritable outputs are found before anything runs.
refused '/nonexistent-dir' "$filter" --benchmark_out=/nonexistent-dir/x.json
[ ! -e /nonexistent-dir ] || fail "/nonexistent-dir was created"
refused "/proc/gbx-cli-test-$$" "$filter" "--gbx_out_dir=/proc/gbx-cli-test-$$/records"

refused $'--gbx_target_rel_ci\n0' "$filter" --gbx_target_rel_ci=0
refused $'--gbx_target_rel_ci\n2' "$filter" --gbx_target_rel_ci=2

# An empty value is refused, and never takes the next argument as its value.
refused "''" --gbx_warmup= "$filter"
refused "''" --gbx_out_dir= "$filter"
# An existing directory as --benchmark_out is refused before anything runs.
mkdir "$dir/a_directory"
refused "$dir/a_directory" "$filter" "--benchmark_out=$dir/a_directory"
# --benchmark_display_aggregates_only is for the console: the record keeps the repetitions and
# their samples.
echo "case: --benchmark_display_aggregates_only keeps the samples in the record"
run "--benchmark_display_aggregates_only" 0 "$filter" --gbx_min_samples=3 --benchmark_repetitions=2 \
  --benchmark_display_aggregates_only=true "--benchmark_out=$dir/display_aggregates.json"
python3 -c 'import json, sys
record = json.load(open(sys.argv[1]))
rows = [b for b in record["benchmarks"] if b["run_type"] == "iteration"]
assert len(rows) == 2, "%d repetition rows in the record" % len(rows)' "$dir/display_aggregates.json" ||
  fail "the record lost the repetitions"

# A good run: exit 0, one row, and a strict-JSON record with the protocol's samples and warm-up.
echo "case: good run with --benchmark_out"
out="$dir/out.json"
run "a good run" 0 "$filter" --gbx_min_samples=5 --gbx_warmup=2 "--benchmark_out=$out"
expect_output "a good run: a result row on stdout" "$dir/out" 'reduce/'
[ -s "$out" ] || fail "no record at $out"
expect_count "a good run: non-finite tokens in the record" "$out" 0 '\b(NaN|-?Infinity|-?inf|-?nan)\b'
python3 - "$out" <<'EOF' || fail "record check failed"
import json, sys

def refuse(token):
    raise ValueError("non-finite token " + token)

with open(sys.argv[1]) as f:
    record = json.load(f, parse_constant=refuse)
assert record["gbx"]["schema_version"] == 1, record["gbx"]
assert record["gbx"]["protocol"]["min_samples"] == 5
assert record["gbx"]["protocol"]["warmup_runs"] == 2
entries = [b for b in record["benchmarks"] if "gbx" in b]
assert entries, "no benchmark entry carries gbx"
assert len(entries) == len(record["benchmarks"]), "an entry has no gbx"
for b in entries:
    assert b["name"].startswith("reduce/naive/n:4096"), b["name"]
    assert b.get("error_occurred", False) is False, b
    g = b["gbx"]
    assert len(g["samples"]) == 5, g["samples"]
    assert all(isinstance(s, float) and s > 0 for s in g["samples"]), g["samples"]
    assert g["measurement"]["warmup_runs"] == 2, g["measurement"]
    assert g["problem"] == "reduce/n=4096", g["problem"]
    assert b["label"] == "reduce/n=4096", b["label"]
    assert b["samples"] == 5, b
print("record ok:", len(entries), "entries")
EOF

echo "case: good run with --gbx_out_dir (directories created) and --benchmark_format=json"
records_dir="$dir/records/a/b"
run "a good run with --gbx_out_dir" 0 "$filter" --gbx_min_samples=3 --gbx_warmup=0 "--gbx_out_dir=$records_dir" \
  --benchmark_format=json
records=("$records_dir"/*.json)
[ "${#records[@]}" -eq 1 ] && [ -f "${records[0]}" ] || fail "expected one record in $records_dir: ${records[*]}"
name=$(basename "${records[0]}")
[[ $name =~ ^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.json$ ]] ||
  fail "record name $name"
# With --benchmark_format=json, stdout is the record itself.
python3 - "${records[0]}" "$dir/out" <<'EOF' || fail "record in --gbx_out_dir or on stdout is wrong"
import json, sys
def refuse(token):
    raise ValueError("non-finite token " + token)
saved = json.load(open(sys.argv[1]), parse_constant=refuse)
shown = json.load(open(sys.argv[2]), parse_constant=refuse)
assert saved == shown, "stdout is not the saved record"
assert saved["gbx"]["run_id"] in sys.argv[1], "the file is not named by its run id"
for b in saved["benchmarks"]:
    assert len(b["gbx"]["samples"]) == 3
    assert b["gbx"]["measurement"]["warmup_runs"] == 0
EOF

echo "PASS"
