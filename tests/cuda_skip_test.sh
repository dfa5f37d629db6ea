#!/usr/bin/env bash
# A CUDA bench binary on a machine without a usable device: it exits 0, writes no benchmark entry
# (a dashboard would read one as a 0 s result) and lists every benchmark under gbx.not_run with a
# plain reason; the console says so on one line, and --gbx_list_not_run names them. Every gbx tool
# takes such a record. On a machine with a device (nvidia-smi -L lists one) the same script checks
# instead that every benchmark ran: there a skip is a failure.
#
# Usage: cuda_skip_test.sh path/to/bench_all path/to/gbx (its CUDA variants are selected by name)
source "$(dirname "$0")/support/output_match.sh"

bench=$(realpath "${1:?usage: cuda_skip_test.sh path/to/bench_all path/to/gbx}") || exit 1
gbx=$(realpath "${2:?usage: cuda_skip_test.sh path/to/bench_all path/to/gbx}") || exit 1
cd "$dir" || exit 1

if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect=ran
else
  expect=skipped
fi
echo "case: the CUDA variants of bench_all, --gbx_min_samples=3, expecting every benchmark $expect"

expect_exit 0 "the CUDA variants" timeout 240 "$bench" --benchmark_filter="/(cuda|cub)" --gbx_min_samples=3 \
  "--benchmark_out=$dir/out.json"
[ -s "$dir/out.json" ] || fail "no record written"

python3 - "$dir/out.json" "$expect" <<'PY' || fail "record check failed"
import json, sys

def refuse(token):
    raise ValueError("non-finite token " + token)

record = json.load(open(sys.argv[1]), parse_constant=refuse)
expect = sys.argv[2]
benchmarks = record["benchmarks"]
not_run = record["gbx"].get("not_run", [])
if expect == "skipped":
    assert benchmarks == [], [b["name"] for b in benchmarks]
    assert len(not_run) >= 40, len(not_run)
    for n in not_run:
        assert "/cuda" in n["name"] or "/cub" in n["name"], n
        assert n["reason_code"] in ("no_cuda_device", "cuda_driver_missing", "cuda_driver_too_old",
                                    "cuda_stub_library"), n
        assert "cudaError" in n["reason"], n  # the runtime's error name, after the plain words
        assert n["family"] in ("reduce", "gemm", "bandwidth"), n
        assert "=" in n["problem"] and n["problem"].startswith(n["family"] + "/"), n  # reduce/n=4096
    print(len(not_run), "not run:", not_run[0]["reason"])
else:
    assert benchmarks, "no benchmark entries"
    assert not not_run, not_run
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

if [ "$expect" = skipped ]; then
  count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["gbx"]["not_run"]))' "$dir/out.json")
  expect_output "one line for the benchmarks not run" "$dir/out" \
    "^$count CUDA benchmarks not run: [a-z].*; --gbx_list_not_run lists them$"
  expect_count "a benchmark that did not run has no console row" "$dir/out" 0 'cuda_atomic'
  expect_exit 0 "--gbx_list_not_run" timeout 240 "$bench" --benchmark_filter="reduce/cub" --gbx_min_samples=3 \
    --gbx_list_not_run
  expect_output "--gbx_list_not_run names reduce/cub/n:4096" "$dir/out" '^  reduce/cub/n:4096$'
  # Every tool takes a record in which nothing ran: report and pareto exit 0, compare cannot decide (3).
  expect_exit 0 "gbx verify" "$gbx" verify "$dir/out.json"
  expect_exit 0 "gbx report" "$gbx" report --format=markdown "$dir/out.json" -o "$dir/report.md"
  expect_exit 0 "gbx pareto" "$gbx" pareto "$dir/out.json"
  expect_exit 3 "gbx compare on a record where nothing ran" "$gbx" compare "$dir/out.json" "$dir/out.json"
fi
echo "PASS"
