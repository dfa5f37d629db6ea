#!/usr/bin/env bash
# Real runs' records validate against the documented schema and hold no NaN or Infinity:
# CPU benchmarks with repetitions (aggregate rows), skipped CUDA benchmarks, a cold adaptive run.
set -u
bench_all=$1 schema=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bench_all" --gbx_min_samples=8 --gbx_warmup=2 --benchmark_repetitions=2 \
  --benchmark_filter='n:4096|copy' --benchmark_out="$dir/reps.json" >/dev/null 2>&1 || fail "repetitions run failed"
"$bench_all" --gbx_min_samples=10 --gbx_cache=cold --gbx_target_rel_ci=0.5 --gbx_max_samples=40 \
  --benchmark_filter='reduce/kahan/n:4096' --benchmark_out="$dir/cold.json" >/dev/null 2>&1 || fail "cold run failed"
/usr/bin/python3 "$here/validate_record.py" "$schema" "$dir/reps.json" "$dir/cold.json" || fail "schema validation"
# The validator must be able to fail: a record missing its run id, and one with a NaN sample.
/usr/bin/python3 - "$dir/reps.json" "$dir/broken.json" "$dir/nan.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
del record["gbx"]["run_id"]
json.dump(record, open(sys.argv[2], "w"))
text = open(sys.argv[1]).read().replace('"samples": [', '"samples": [NaN, ', 1)
open(sys.argv[3], "w").write(text)
PY
/usr/bin/python3 "$here/validate_record.py" "$schema" "$dir/broken.json" >/dev/null && fail "a record without run_id passed"
/usr/bin/python3 "$here/validate_record.py" "$schema" "$dir/nan.json" >/dev/null && fail "a record with NaN passed"
if grep -qE '\b(NaN|Infinity|inf|nan)\b' "$dir/reps.json" "$dir/cold.json"; then
  fail "a bare NaN or Infinity token in the JSON"
fi
echo "records valid against $(basename "$schema")"
