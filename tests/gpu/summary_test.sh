#!/usr/bin/env bash
# scripts/gpu-summary on hand-made records: the row of a benchmark that ran (median, interval,
# accuracy, fraction of peak at its clock), and its verdicts: exit 0 when every benchmark ran and
# passed, 1 when one did not run or failed its check (a skip passes with --no-device), 2 when the
# record cannot be read. The energy step's rows: resolved within the power limit, above it, not
# resolved.
source "$(dirname "$0")/../support/output_match.sh"
summary=$1

python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
ran = {"name": "gemm/cublas_bf16/m:4096/n:4096/k:4096/iterations:1/manual_time", "run_type": "iteration",
       "gbx": {"skipped": False, "precision": "bf16",
               "stats": {"median": 2.5e-4, "median_ci": {"lower": 2.4e-4, "upper": 2.6e-4, "level": 0.95}},
               "accuracy": {"passed": True, "rel_l2_error": 1.5e-3, "tolerance": 3.1e-2},
               "throughput": {"fraction_of_peak_flops": 0.5556, "fraction_of_peak_bandwidth": 0.01}}}
skipped = {"name": "reduce/cub/n:4096/iterations:1/manual_time", "run_type": "iteration", "error_occurred": True,
           "error_message": "skipped: no usable CUDA device", "gbx": {"skipped": True}}
wrong = json.loads(json.dumps(ran))
wrong["gbx"]["accuracy"]["passed"] = False
env = {"environment": {"peaks": {"gpu": {"method": "m", "clocks": {"bf16": {"hz": 1.83e9, "source": "s"}}}},
                       "gpus": [{"name": "NVIDIA H200", "compute_capability": "9.0", "sm_count": 132}],
                       "cuda": {"runtime_version": "13.0", "driver_version": "13.0"},
                       "host": {"cpu_model": "Intel Xeon Platinum 8480C", "logical_cpus": 16,
                                "virtualization": {"guest": True, "evidence": ["/proc/cpuinfo flags: hypervisor",
                                                                               'cpuid leaf 0x40000000: "KVMKVMKVM"']},
                                "clocksource": "tsc", "transparent_hugepage": "madvise"}}, "run_id": "r"}
for name, benchmarks in (("good", [ran]), ("skip", [ran, skipped]), ("wrong", [ran, wrong])):
    json.dump({"benchmarks": benchmarks, "gbx": env}, open(f"{d}/{name}.json", "w"))
# Today's records list such a benchmark under gbx.not_run, not in benchmarks.
not_run = dict(env, not_run=[{"name": "reduce/cub/n:4096/iterations:1/manual_time", "family": "reduce",
                              "reason": "no CUDA device (the CUDA runtime said cudaErrorNoDevice)",
                              "reason_code": "no_cuda_device"}])
json.dump({"benchmarks": [ran], "gbx": not_run}, open(f"{d}/not_run.json", "w"))
open(f"{d}/nan.json", "w").write('{"benchmarks": [], "x": NaN}')
# The energy step's record: --gbx_min_time=0.5, an H200's 700 W limit.
def spanned(name, gpu):
    return {"name": f"{name}/iterations:1/manual_time", "run_type": "iteration",
            "gbx": {"samples": [1e-3] * 480, "measurement": {"sampling_seconds": 0.5012, "batch": 2},
                    "energy": {"gpu": gpu, "cpu": None}}}
resolved = {"source": "NVML", "joules_per_run": 0.125, "lower": 0.1, "upper": 0.15, "average_watts": 412.4,
            "duty": 0.97, "joules": 120.0}
hot = dict(resolved, average_watts=702.3)
unresolved = {"source": "NVML", "joules_per_run": None, "lower": None, "upper": None, "average_watts": None,
              "unavailable": "not resolved: the span, 0.1 s, held 1 step(s) of the counter"}
energy_env = dict(env, protocol={"min_time_seconds": 0.5})
energy_env["environment"] = dict(env["environment"], gpus=[dict(env["environment"]["gpus"][0],
                                                                 nvml_at_start={"power_limit_mw": 700000})])
for name, rows in (("energy_good", [spanned("gemm/cublas_sgemm/m:4096/n:4096/k:4096", resolved)]),
                   ("energy_hot", [spanned("gemm/cuda_tiled/m:4096/n:4096/k:4096", hot)]),
                   ("energy_short", [spanned("reduce/cub/n:16777216", resolved), spanned("reduce/cub/n:4096", unresolved)])):
    json.dump({"benchmarks": rows, "gbx": energy_env}, open(f"{d}/{name}.json", "w"))
figure = {"name": "CUDA event resolution", "value": 0.032, "unit": "us", "expectation": "<= 0.5 us", "plausible": True}
sweep = [{"working_set_bytes": 2**25, "of_l2": 0.5, "hot_passes": 64, "hot_bytes_per_second": 9e12,
          "cold_bytes_per_second": 3e12, "cold_launch_seconds": 1.4e-5, "cold_over_hot": 3.0}]
json.dump({"device": {"name": "NVIDIA H200"}, "figures": [figure], "l2_sweep": sweep}, open(f"{d}/probe.json", "w"))
implausible = dict(figure, name="SGEMM 4096^3: register-blocked / cuBLAS", value=1.4, plausible=False)
json.dump({"device": {"name": "NVIDIA H200"}, "figures": [figure, implausible]}, open(f"{d}/probe_bad.json", "w"))
# A figure above its informative bound (the NVML call's cost) is a finding in its text, not a failure.
finding = dict(figure, name="NVML call on the host: median wall time (the slower of energy and SM clock)", value=3.5,
               unit="ms", expectation="**finding**: above 1 ms (energy 3.5 ms, SM clock 3.4 ms)")
old_sweep = [{k: v for k, v in sweep[0].items() if k not in ("hot_passes", "cold_launch_seconds")}]
json.dump({"device": {"name": "NVIDIA H200"}, "figures": [figure, finding], "l2_sweep": old_sweep},
          open(f"{d}/probe_v1.json", "w"))
PY

python3 "$summary" "$dir/good.json" "$dir/good.md" >/dev/null || fail "a clean record did not pass"
expect_output "the device" "$dir/good.md" 'NVIDIA H200 \(sm_90, 132 SMs\)'
expect_output "the host, virtual or not" "$dir/good.md" \
  '^Host: Intel Xeon Platinum 8480C, 16 logical CPUs; virtual machine: yes \(/proc/cpuinfo flags: hypervisor, cpuid leaf 0x40000000: "KVMKVMKVM"\); clocksource tsc; transparent huge pages madvise\.$'
expect_output "the row of a benchmark that ran" "$dir/good.md" \
  '^\| `gemm/cublas_bf16/m:4096/n:4096/k:4096` \| 250 us \| \[240 us, 260 us\] \| passed 1\.50e-03 \(tolerance 3\.10e-02\) \| 55\.6% of bf16 FLOP/s at 1830 MHz \|$'

python3 "$summary" "$dir/skip.json" "$dir/skip.md" >/dev/null && fail "a skipped benchmark passed on a device"
expect_output "the skip listed" "$dir/skip.md" '^- not run: `reduce/cub/n:4096`: skipped: no usable CUDA device$'
python3 "$summary" "$dir/skip.json" "$dir/skip.md" --no-device >/dev/null || fail "a skip failed --no-device"
python3 "$summary" "$dir/not_run.json" "$dir/not_run.md" >/dev/null && fail "a gbx.not_run benchmark passed on a device"
expect_output "gbx.not_run listed" "$dir/not_run.md" '^- not run: `reduce/cub/n:4096`: not run: no CUDA device'
python3 "$summary" "$dir/not_run.json" "$dir/not_run.md" --no-device >/dev/null || fail "gbx.not_run failed --no-device"
python3 "$summary" "$dir/wrong.json" "$dir/wrong.md" --no-device >/dev/null && fail "a failed accuracy check passed"
expect_output "the failed check marked" "$dir/wrong.md" '\*\*FAILED\*\*'
python3 "$summary" "$dir/nan.json" "$dir/nan.md" >/dev/null 2>&1
[[ $? == 2 ]] || fail "a record with NaN did not exit 2"
# The probe and the cold suite: a figure that fails its check is shown and fails the summary.
python3 "$summary" "$dir/good.json" "$dir/all.md" --cold "$dir/good.json" --probe "$dir/probe.json" >/dev/null ||
  fail "a clean record, cold record and probe did not pass"
expect_output "the probe's figure" "$dir/all.md" '^\| CUDA event resolution \| 0\.032 us \| <= 0\.5 us \| ok \|$'
expect_output "the L2 sweep" "$dir/all.md" '^\| 32\.0 MiB \| 0\.5 \| 64 \| 9\.00 TB/s \| 3\.00 TB/s \| 3\.00 \|$'
expect_output "the L2 sweep's method" "$dir/all.md" '^L2 sweep \(read bandwidth; hot: read `Passes` times in one launch; cold'
python3 "$summary" "$dir/good.json" "$dir/v1.md" --probe "$dir/probe_v1.json" >/dev/null ||
  fail "a finding, or a sweep without hot_passes (version 1), failed the summary"
expect_output "the finding, ok" "$dir/v1.md" '^\| NVML call on the host: .* \| 3\.5 ms \| \*\*finding\*\*: above 1 ms .* \| ok \|$'
expect_output "a version 1 sweep" "$dir/v1.md" '^\| 32\.0 MiB \| 0\.5 \| 1 \| 9\.00 TB/s \| 3\.00 TB/s \| 3\.00 \|$'
expect_output "the cold suite" "$dir/all.md" '^## The CUDA suite, cold$'
expect_output "the verdict" "$dir/all.md" '^- verdict: counts$'
python3 "$summary" "$dir/good.json" "$dir/bad.md" --probe "$dir/probe_bad.json" >/dev/null &&
  fail "a probe figure that failed its check passed"
expect_output "the failed figure marked" "$dir/bad.md" '^\| SGEMM 4096\^3: register-blocked / cuBLAS \| 1\.4 us \| .* \| \*\*FAILED\*\* \|$'
expect_output "the failed figure in the verdict" "$dir/bad.md" 'Device probe: 2 figures, 1 failed their check: SGEMM'
python3 "$summary" "$dir/good.json" "$dir/none.md" --probe "$dir/absent.json" >/dev/null && fail "a missing probe passed"
python3 "$summary" "$dir/good.json" "$dir/none.md" --probe "$dir/absent.json" --no-device >/dev/null ||
  fail "a missing probe failed --no-device"
# The energy step: a resolved row within the power limit passes; above the limit, or not resolved
# (outside a rehearsal), fails.
python3 "$summary" "$dir/good.json" "$dir/energy.md" --energy "$dir/energy_good.json" >/dev/null ||
  fail "a resolved energy row within the power limit did not pass"
expect_output "the energy row" "$dir/energy.md" \
  '^\| `gemm/cublas_sgemm/m:4096/n:4096/k:4096` \| 501\.2 ms \| 480 x 2 \| 0\.125 J \| \[0\.1, 0\.15\] J \| 412 W \| 0\.97 \| ok \|$'
expect_output "the least span and the limit" "$dir/energy.md" '^`--gbx_min_time=0\.5`; the device.s power limit: 700 W\.$'
expect_output "the energy verdict" "$dir/energy.md" '^- Energy: 1 benchmarks sampled for at least 0\.5 s, 1 resolved\.$'
python3 "$summary" "$dir/good.json" "$dir/energy_hot.md" --energy "$dir/energy_hot.json" >/dev/null &&
  fail "an average power above the limit passed"
expect_output "above the limit marked" "$dir/energy_hot.md" '\| 702 W \| 0\.97 \| \*\*above the 700 W limit\*\* \|$'
python3 "$summary" "$dir/good.json" "$dir/energy_short.md" --energy "$dir/energy_short.json" >/dev/null &&
  fail "an unresolved energy row passed on a device"
expect_output "the unresolved row, with why" "$dir/energy_short.md" '^\| `reduce/cub/n:4096` \| .* \| \*\*not resolved\*\*: not resolved: the span, 0\.1 s'
expect_output "the failure in the verdict" "$dir/energy_short.md" '2 benchmarks sampled for at least 0\.5 s, 1 resolved, 1 \*\*failed\*\*: reduce/cub/n:4096: not resolved'
python3 "$summary" "$dir/good.json" "$dir/energy_rehearsal.md" --energy "$dir/energy_short.json" --no-device >/dev/null ||
  fail "an unresolved energy row failed a rehearsal"
echo PASS
