#!/usr/bin/env bash
# Real runs' records validate against the documented schema and hold no NaN or Infinity:
# CPU benchmarks with repetitions (aggregate rows), CUDA benchmarks (skipped without a device), a
# cold adaptive run.
# The validator needs Python's jsonschema (Debian's python3-jsonschema, which scripts/lib.sh
# installs). Where no python3 has it (the GPU machine's python3 is a virtual environment without
# it) the test is skipped, exit 77 with the reason, rather than failed.
source "$(dirname "$0")/../support/output_match.sh"
bench_all=$1 schema=$2
python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import jsonschema' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [[ -z $python ]]; then
  echo "SKIPPED: no python3 here can import jsonschema ($(command -v python3 || echo 'no python3 on PATH');" \
       "/usr/bin/python3 $([[ -x /usr/bin/python3 ]] && echo 'lacks it' || echo 'absent')); install python3-jsonschema"
  exit 77
fi
"$bench_all" --gbx_min_samples=8 --gbx_warmup=2 --benchmark_repetitions=2 \
  --benchmark_filter='n:4096|copy' --benchmark_out="$dir/reps.json" >/dev/null 2>&1 || fail "repetitions run failed"
"$bench_all" --gbx_min_samples=10 --gbx_cache=cold --gbx_target_rel_ci=0.5 --gbx_max_samples=40 \
  --benchmark_filter='reduce/kahan/n:4096' --benchmark_out="$dir/cold.json" >/dev/null 2>&1 || fail "cold run failed"
"$python" "$here/validate_record.py" "$schema" "$dir/reps.json" "$dir/cold.json" || fail "schema validation"
# The validator must be able to fail: a record missing its run id, and one with a NaN sample.
"$python" - "$dir/reps.json" "$dir/broken.json" "$dir/nan.json" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
del record["gbx"]["run_id"]
json.dump(record, open(sys.argv[2], "w"))
text = open(sys.argv[1]).read().replace('"samples": [', '"samples": [NaN, ', 1)
open(sys.argv[3], "w").write(text)
PY
"$python" "$here/validate_record.py" "$schema" "$dir/broken.json" >/dev/null && fail "a record without run_id passed"
"$python" "$here/validate_record.py" "$schema" "$dir/nan.json" >/dev/null && fail "a record with NaN passed"
for record in "$dir/reps.json" "$dir/cold.json"; do
  expect_count "bare NaN or Infinity tokens" "$record" 0 '\b(NaN|Infinity|inf|nan)\b'
done
echo "records valid against $(basename "$schema")"
