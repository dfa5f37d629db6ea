#!/usr/bin/env bash
# A candidate whose output fails its accuracy check fails the gate whatever its speed: gbx ab (two
# variants of one binary, exact against 1% off) calls the row inaccurate and exits 1, and so does
# gbx compare of its two records (the pairing) and of two plain records (the same benchmark, built
# wrong in the candidate's run); a base that fails where the candidate passes is said, not failed.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2
ab=("$gbx" ab --base "$bench" --processes 3 --blocks 1 --budget 5m --seed 4 --progress off)

expect_exit() {
  local want=$1 what=$2 rc=0
  shift 2
  "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  [[ $rc == "$want" ]] || { cat "$dir/out" "$dir/err"; fail "$what: exit $rc, expected $want"; }
}

mkdir "$dir/wrong" "$dir/fixed" "$dir/plain"
expect_exit 1 "gbx ab, the candidate wrong" "${ab[@]}" --base-filter exact --candidate-filter wrong --format json \
  -o "$dir/wrong"
cp "$dir/out" "$dir/wrong.json"
/usr/bin/python3 - "$dir/wrong.json" <<'PY' || fail "gbx ab's JSON row (above)"
import json, sys
j = json.load(open(sys.argv[1]))
row = j["rows"][0]
assert row["shown_name"] == "accuracy/exact/n:4096 vs accuracy/wrong/n:4096", row["shown_name"]
assert row["verdict"] == "inaccurate", row
assert row["timing_verdict"] in ("slower", "faster", "same", "inconclusive", "unreplicated"), row
assert row["accuracy_failure"]["base"] is None, row
assert "rel L2 error 0.01" in row["accuracy_failure"]["candidate"], row
assert "inaccurate: the candidate failed its accuracy check (rel L2 error 0.01" in row["sentence"], row
assert j["summary"]["inaccurate"] == 1 and j["summary"]["line"].endswith("1 inaccurate"), j["summary"]
PY
echo "gbx ab: the wrong candidate is inaccurate, exit 1"

expect_exit 1 "gbx compare of gbx ab's records" "$gbx" compare "$dir"/wrong/*-base.json "$dir"/wrong/*-candidate.json
expect_output "gbx compare of gbx ab's records" "$dir/out" \
  '^accuracy/exact/n:4096 vs accuracy/wrong/n:4096 +[0-9.]+ .* inaccurate$' \
  ': inaccurate: the candidate failed its accuracy check \(rel L2 error 0\.01 > tolerance .*\) where the base passed; its timing: ' \
  '^summary: .*, 1 inaccurate'
echo "gbx compare of the records: inaccurate, exit 1"

# The other way round: the base is wrong, the candidate fixes it. Not a regression.
rc=0
"${ab[@]}" --base-filter wrong --candidate-filter exact -o "$dir/fixed" >"$dir/out" 2>"$dir/err" || rc=$?
[[ $rc == 0 || $rc == 3 ]] || { cat "$dir/out" "$dir/err"; fail "a fixed candidate: exit $rc, expected 0 or 3"; }
expect_output "a fixed candidate" "$dir/out" \
  '; the base failed its accuracy check \(rel L2 error 0\.01 > tolerance .*\) and the candidate passed$'
echo "a candidate that fixes a wrong base: said, exit $rc"

# Two plain records of the same benchmark, exact in the base's run and wrong in the candidate's.
ACCURACY_BENCH_ERROR=0 "$bench" --benchmark_filter=wrong --gbx_min_samples=20 \
  --benchmark_out="$dir/plain/base.json" >/dev/null 2>&1 || fail "the base's plain run"
"$bench" --benchmark_filter=wrong --gbx_min_samples=20 --benchmark_out="$dir/plain/candidate.json" >/dev/null 2>&1
expect_exit 1 "gbx compare of plain records" "$gbx" compare "$dir/plain/base.json" "$dir/plain/candidate.json" --format json
/usr/bin/python3 - "$dir/out" <<'PY' || fail "gbx compare's JSON row (above)"
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
assert row["verdict"] == "inaccurate" and row["timing_verdict"] != "inaccurate", row
assert row["accuracy_failure"] == {"base": None, "candidate": row["accuracy_failure"]["candidate"]}, row
assert "rel L2 error 0.01" in row["accuracy_failure"]["candidate"], row
PY
expect_exit 1 "gbx compare of plain records, markdown" "$gbx" compare "$dir/plain/base.json" "$dir/plain/candidate.json" \
  --format markdown
expect_output "the pull-request comment" "$dir/out" '1 inaccurate \(failed the accuracy check\)' '\| \*\*inaccurate\*\* \|$'
echo "gbx compare of plain records: inaccurate, exit 1"
echo PASS
