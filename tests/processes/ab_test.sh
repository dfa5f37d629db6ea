#!/usr/bin/env bash
# gbx ab with the same binary on both sides (an A/A check): two K-process records, interleaved in
# the recorded pair orders, sealed and valid, and the comparison `gbx compare` prints for them, with
# its exit code. Bad input exits 2.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2 schema=$3
flags=(--benchmark_filter='first|second|third' --gbx_min_samples=5 --gbx_warmup=1)

"$gbx" ab --whole-processes --base "$bench" --candidate "$bench" --processes 3 --seed 9 --format json -o "$dir" --progress on \
  -- "${flags[@]}" >"$dir/ab.json" 2>"$dir/ab.err"
rc=$?
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] || { cat "$dir/ab.err"; fail "exit code $rc"; }
base=$(ls "$dir"/*-base.json) && candidate=$(ls "$dir"/*-candidate.json) || fail "records not written"
[[ $(ls "$dir" | wc -l) -eq 4 ]] || fail "unexpected files: $(ls "$dir")"
for record in "$base" "$candidate"; do
  "$gbx" verify "$record" >/dev/null || fail "$record is not intact"
  /usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$record" >/dev/null || fail "schema: $record"
done
# One line as each finishes; a line naming one still running (10 s without a line) is not counted.
expect_count "progress lines (3 benchmarks x 3 processes x 2 sides)" "$dir/ab.err" 18 '^\[[0-9]+/18\] faults/[a-z_]+ [0-9.]+ s'
/usr/bin/python3 - "$base" "$candidate" "$dir/ab.json" "$rc" <<'PY' || fail "records and comparison"
import json, sys
base, candidate = (json.load(open(p)) for p in sys.argv[1:3])
comparison = json.load(open(sys.argv[3]))
rc = int(sys.argv[4])
for record, role, other in ((base, "base", candidate), (candidate, "candidate", base)):
    p = record["gbx"]["processes"]
    assert p["count"] == 3 and p["order_seed"] == 9, p
    assert p["ab"]["role"] == role and p["ab"]["partner_run_id"] == other["gbx"]["run_id"], p["ab"]
    assert [r["index"] for r in p["runs"]] == [0, 1, 2], p["runs"]
    assert record["gbx"]["protocol"]["processes"] == 3
    assert "--gbx_processes=3" in record["gbx"]["command"]
    for b in record["benchmarks"]:
        assert [g["count"] for g in b["gbx"]["process_samples"]] == [5, 5, 5], b["gbx"]["process_samples"]
# Interleaved: in pair i, the side named first started its process i before the other side's.
first = base["gbx"]["processes"]["ab"]["first_in_pair"]
assert first == candidate["gbx"]["processes"]["ab"]["first_in_pair"] and len(first) == 3, first
assert set(first) <= {"base", "candidate"}
pids = {"base": [r["pid"] for r in base["gbx"]["processes"]["runs"]],
        "candidate": [r["pid"] for r in candidate["gbx"]["processes"]["runs"]]}
sequence = sorted((pid, role) for role in pids for pid in pids[role])
expected = [role for f in first for role in (f, "candidate" if f == "base" else "base")]
assert [role for pid, role in sequence] == expected, (sequence, expected)
# The same processes of both sides ran the benchmarks in the same orders.
assert [r["order"] for r in base["gbx"]["processes"]["runs"]] == [r["order"] for r in candidate["gbx"]["processes"]["runs"]]
assert len(comparison["rows"]) == 3 and comparison["compatible"] is True, comparison
# gbx compare's exit codes: 1 for a slower row, else 3 when a row cannot be decided, else 0.
verdicts = [row["verdict"] for row in comparison["rows"]]
expected_rc = 1 if "slower" in verdicts else 3 if {"unreplicated", "insufficient"} & set(verdicts) else 0
assert rc == expected_rc, (rc, verdicts)
# Both sides have 3 processes: the process is the unit, so no row is unreplicated.
assert "unreplicated" not in verdicts, verdicts
PY
"$gbx" compare --format json "$base" "$candidate" >"$dir/compare.json"
cmp -s "$dir/ab.json" "$dir/compare.json" || fail "gbx ab and gbx compare print different comparisons"
echo "A/A: two sealed 3-process records, interleaved as recorded, compared as gbx compare does (exit $rc)"

expect_2() {
  local what=$1
  shift
  expect_exit 2 "$what" "$gbx" ab "$@"
  expect_output "$what: a message" "$dir/err" '.'
}
expect_2 "bad format" --base "$bench" --candidate "$bench" --format xml -o "$dir" -- "${flags[@]}"
expect_2 "missing binary" --base "$dir/none" --candidate "$bench" -o "$dir" -- "${flags[@]}"
expect_2 "a flag gbx ab owns" --base "$bench" --candidate "$bench" -o "$dir" -- --benchmark_out=x.json
expect_2 "a bad bench flag" --base "$bench" --candidate "$bench" -o "$dir" -- --gbx_min_samples=0
expect_2 "no output directory" --base "$bench" --candidate "$bench" -o "$dir/none" -- "${flags[@]}"
expect_exit 2 "a bad bench flag" "$gbx" ab --base "$bench" --candidate "$bench" -o "$dir" -- --gbx_min_samples=0
expect_output "the bad flag named" "$dir/err" 'gbx_min_samples'
echo "bad input: exit 2 with a message"
