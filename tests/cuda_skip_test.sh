#!/usr/bin/env bash
# A CUDA bench binary on a machine without a usable device: it exits 0 and reports every
# benchmark as skipped, in the runtime's own words. On a machine with a device (nvidia-smi -L
# lists one) the same script checks instead that every benchmark ran: there a skip is a failure.
#
# Usage: cuda_skip_test.sh path/to/bench_all (its CUDA variants are selected by name)
set -u

bench=$(realpath "${1:?usage: cuda_skip_test.sh path/to/bench_all}") || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

fail() {
  echo "FAIL: $*"
  echo "--- stdout"; cat "$tmp/stdout"
  echo "--- stderr"; cat "$tmp/stderr"
  exit 1
}

if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect=ran
else
  expect=skipped
fi
echo "case: the CUDA variants of bench_all, --gbx_min_samples=3, expecting every benchmark $expect"

timeout 240 "$bench" --benchmark_filter="/(cuda|cub)" --gbx_min_samples=3 "--benchmark_out=$tmp/out.json" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || fail "exit code $rc, expected 0"
[ -s "$tmp/out.json" ] || fail "no record written"

python3 - "$tmp/out.json" "$expect" <<'PY' || fail "record check failed"
import json, sys

def refuse(token):
    raise ValueError("non-finite token " + token)

record = json.load(open(sys.argv[1]), parse_constant=refuse)
expect = sys.argv[2]
benchmarks = record["benchmarks"]
assert benchmarks, "no benchmark entries"
for b in benchmarks:
    name = b["name"]
    assert "/cuda" in name or "/cub" in name, name
    g = b["gbx"]
    if expect == "skipped":
        assert b.get("error_occurred") is True, name
        message = b["error_message"]
        assert message.startswith("skipped: "), message
        assert "cudaError" in message, message  # the runtime's error name, e.g. cudaErrorNoDevice
        assert g["skipped"] is True, g
        assert "samples" not in g and "measurement" not in g, g
        assert g["memory"]["device_bytes"] is None and g["memory"]["device_bytes_unavailable"], g["memory"]
    else:
        assert not b.get("error_occurred", False), (name, b.get("error_message"))
        assert g["skipped"] is False, g
        if b["run_type"] == "iteration":
            assert len(g["samples"]) == 3, g["samples"]
            assert all(s is not None and s > 0 for s in g["samples"]), g["samples"]
            assert g["accuracy"]["passed"] is True, (name, g["accuracy"])
print(len(benchmarks), "entries", expect)
PY
echo "PASS"
