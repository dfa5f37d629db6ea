#!/usr/bin/env bash
# An interrupted run keeps its finished benchmarks, says interrupted, stays sealed, exits non-zero.
set -u
bench=$1 gbx=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bench" --gbx_min_samples=5 --gbx_warmup=1 --benchmark_out="$dir/record.json" >"$dir/out" 2>"$dir/err"
rc=$?
[[ $rc -eq 130 ]] || fail "exit code $rc, expected 130 (128 + SIGINT)"
grep -q "interrupted by signal 2" "$dir/err" || fail "no interrupt message on stderr"
python3 - "$dir/record.json" <<'PY' || fail "record content"
import json, sys
record = json.load(open(sys.argv[1]))
names = [b["name"] for b in record["benchmarks"]]
assert record["gbx"]["interrupted"] is True, record["gbx"]["interrupted"]
assert names == ["interrupt/first/iterations:1/manual_time"], names
assert len(record["benchmarks"][0]["gbx"]["samples"]) == 5
PY
"$gbx" verify "$dir/record.json" >/dev/null || fail "the interrupted record is not intact"
echo "interrupted run: exit 130, first benchmark kept, record sealed"
