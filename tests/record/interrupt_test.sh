#!/usr/bin/env bash
# An interrupted run keeps its finished benchmarks, says interrupted, stays sealed, exits non-zero.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2

expect_exit 130 "an interrupted run (128 + SIGINT)" "$bench" --gbx_min_samples=5 --gbx_warmup=1 \
  --benchmark_out="$dir/record.json"
expect_output "the interrupt message" "$dir/err" 'interrupted by signal 2'
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
