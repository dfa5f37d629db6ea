#!/usr/bin/env bash
# scripts/gpu-summary on hand-made records: the row of a benchmark that ran (median, interval,
# accuracy, fraction of peak at its clock), and its verdicts: exit 0 when every benchmark ran and
# passed, 1 when one did not run or failed its check (a skip passes with --no-device), 2 when the
# record cannot be read. The energy step's rows: resolved within the power limit, above it, not
# resolved.
source "$(dirname "$0")/../support/output_match.sh"
summary=$1

python3 - "$dir" "$here" <<'PY'
import json, sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from summary_hopper_records import DEVICES, environment
ran = {"name": "gemm/cublas_bf16/m:4096/n:4096/k:4096/iterations:1/manual_time", "run_type": "iteration",
       "gbx": {"skipped": False, "precision": "bf16",
               "stats": {"median": 2.5e-4, "median_ci": {"lower": 2.4e-4, "upper": 2.6e-4, "level": 0.95}},
               "accuracy": {"passed": True, "rel_l2_error": 1.5e-3, "tolerance": 3.1e-2},
               "throughput": {"fraction_of_peak_flops": 0.5556, "fraction_of_peak_bandwidth": 0.01}}}
skipped = {"name": "reduce/cub/n:4096/iterations:1/manual_time", "run_type": "iteration", "error_occurred": True,
           "error_message": "skipped: no usable CUDA device", "gbx": {"skipped": True}}
wrong = json.loads(json.dumps(ran))
wrong["gbx"]["accuracy"]["passed"] = False
# An H200's environment, its peaks as gbx computes them (summary_hopper_records.py).
env = {"environment": dict(environment(*DEVICES["h200"]),
                           host={"cpu_model": "Intel Xeon Platinum 8480C", "logical_cpus": 16,
                                 "virtualization": {"guest": True, "evidence": ["/proc/cpuinfo flags: hypervisor",
                                                                                'cpuid leaf 0x40000000: "KVMKVMKVM"']},
                                 "clocksource": "tsc", "transparent_hugepage": "madvise"}), "run_id": "r"}
for name, benchmarks in (("good", [ran]), ("skip", [ran, skipped]), ("wrong", [ran, wrong])):
    json.dump({"benchmarks": benchmarks, "gbx": env}, open(f"{d}/{name}.json", "w"))
# Today's records list such a benchmark under gbx.not_run, not in benchmarks.
not_run = dict(env, not_run=[{"name": "reduce/cub/n:4096/iterations:1/manual_time", "family": "reduce",
                              "reason": "no CUDA device (the CUDA runtime said cudaErrorNoDevice)",
                              "reason_code": "no_cuda_device"}])
json.dump({"benchmarks": [ran], "gbx": not_run}, open(f"{d}/not_run.json", "w"))
open(f"{d}/nan.json", "w").write('{"benchmarks": [], "x": NaN}')
# A rehearsal's record: no device, no GPU peaks.
bare = dict(env, environment=dict(env["environment"], gpus=[], gpus_unavailable="no CUDA device",
                                  peaks={"gpu": {"unavailable": "no usable CUDA device"}}))
json.dump({"benchmarks": [skipped], "gbx": bare}, open(f"{d}/bare.json", "w"))
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
energy_env = dict(env, protocol={"min_time_seconds": 0.5})  # the H200's environment holds its 700 W limit
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
  '^\| `gemm/cublas_sgemm/m:4096/n:4096/k:4096` \| 501\.2 ms \| 480 x 2 \| 0\.125 J \| \[0\.1, 0\.15\] J \| 412 W \| 735 W \| 0\.97 \| ok \|$'
expect_output "the least span, the limit and its tolerance" "$dir/energy.md" \
  '^`--gbx_min_time=0\.5`; the device.s power limit: 700 W; a row may read up to 35\.0 W above it \(NVIDIA.s stated power accuracy, the larger of 5 W and 5%\) plus one step of the energy counter over its span \(`Allowed`\)\.$'
expect_output "the energy verdict" "$dir/energy.md" '^- Energy: 1 benchmarks sampled for at least 0\.5 s, 1 resolved\.$'
# 702 W against 700 W: within the sensors' 5% (a record without the counter's step allows that alone).
python3 "$summary" "$dir/good.json" "$dir/energy_hot.md" --energy "$dir/energy_hot.json" >/dev/null ||
  fail "an average power within the limit's tolerance failed"
expect_output "within the tolerance" "$dir/energy_hot.md" '\| 702 W \| 735 W \| 0\.97 \| ok: above the 700 W limit, within its tolerance \|$'
python3 "$summary" "$dir/good.json" "$dir/energy_short.md" --energy "$dir/energy_short.json" >/dev/null &&
  fail "an unresolved energy row passed on a device"
expect_output "the unresolved row, with why" "$dir/energy_short.md" '^\| `reduce/cub/n:4096` \| .* \| \*\*not resolved\*\*: not resolved: the span, 0\.1 s'
expect_output "the failure in the verdict" "$dir/energy_short.md" '2 benchmarks sampled for at least 0\.5 s, 1 resolved, 1 \*\*failed\*\*: reduce/cub/n:4096: not resolved'
python3 "$summary" "$dir/good.json" "$dir/energy_rehearsal.md" --energy "$dir/energy_short.json" --no-device >/dev/null ||
  fail "an unresolved energy row failed a rehearsal"
# Each Hopper gpu-check may be lent, from stand-ins of its suite record, probe and energy record
# (summary_hopper_records.py): the device, the datasheet row and gbx's row it matched, and each
# computed peak beside the datasheet's dense figure.
python3 "$here/summary_hopper_records.py" "$dir" || fail "the Hopper stand-ins were not written"
hopper() {  # KEY: the summary of KEY's record and probe, which must pass
  python3 "$summary" "$dir/$1.json" "$dir/$1.md" --probe "$dir/$1-probe.json" >/dev/null || fail "$1 did not pass"
}
hopper h100_sxm
expect_output "H100 SXM" "$dir/h100_sxm.md" \
  '^- Peaks: NVIDIA H100 80GB HBM3 matched the datasheet row H100 SXM, gbx.s row H100 SXM; 7 computed peaks within 5% of the datasheet\.$' \
  '^Device: NVIDIA H100 80GB HBM3 \(sm_90, 132 SMs\)\.$' \
  '^Device: NVIDIA H100 80GB HBM3 \(sm_90, 132 SMs, 79\.2 GiB\)\.$' \
  '^gbx.s peak rows \(environment/peaks\.cc\): FLOP per SM per clock for sm_90; the tensor clock from the `H100 SXM` row, 1830 MHz\.$' \
  '^Datasheet row: H100 SXM \(132 SMs, 80 GB, 3\.35 TB/s, up to 700 W; the power limit read: 700 W\)\.$' \
  '^\| DRAM bandwidth \| 3\.352 TB/s \| - \| 3\.35 TB/s \| 1\.001 \| ok \|$' \
  'next:^\| fp64 \| 33\.45 TFLOP/s \| 1980 MHz \| 34 TFLOP/s \| 0\.984 \| ok \|$' \
  'next:^\| fp64_tensor \| 66\.91 TFLOP/s \| 1980 MHz \| 67 TFLOP/s \| 0\.999 \| ok \|$' \
  'next:^\| fp32 \| 66\.91 TFLOP/s \| 1980 MHz \| 67 TFLOP/s \| 0\.999 \| ok \|$' \
  'next:^\| tf32 \| 494\.7 TFLOP/s \| 1830 MHz \| 494\.5 TFLOP/s \| 1\.000 \| ok \|$' \
  'next:^\| fp16 \| 989\.4 TFLOP/s \| 1830 MHz \| 989\.5 TFLOP/s \| 1\.000 \| ok \|$' \
  'next:^\| bf16 \| 989\.4 TFLOP/s \| 1830 MHz \| 989\.5 TFLOP/s \| 1\.000 \| ok \|$'
hopper h100_pcie
expect_output "H100 PCIe" "$dir/h100_pcie.md" \
  '^- Peaks: NVIDIA H100 PCIe matched the datasheet row H100 PCIe, gbx.s row H100 PCIe; 7 computed' \
  '^Device: NVIDIA H100 PCIe \(sm_90, 114 SMs\)\.$' \
  'the tensor clock from the `H100 PCIe` row, 1620 MHz\.$' \
  '^Datasheet row: H100 PCIe \(114 SMs, 80 GB, 2\.0 TB/s, up to 350 W; the power limit read: 350 W\)\.$' \
  '^\| DRAM bandwidth \| 2\.039 TB/s \| - \| 2 TB/s \| 1\.020 \| ok \|$' \
  'next:^\| fp64 \| 25\.61 TFLOP/s \| 1755 MHz \| 26 TFLOP/s \| 0\.985 \| ok \|$' \
  '^\| tf32 \| 378\.2 TFLOP/s \| 1620 MHz \| 378 TFLOP/s \| 1\.001 \| ok \|$' \
  'next:^\| fp16 \| 756\.4 TFLOP/s \| 1620 MHz \| 756\.5 TFLOP/s \| 1\.000 \| ok \|$'
hopper h100_nvl
expect_output "H100 NVL" "$dir/h100_nvl.md" \
  '^- Peaks: NVIDIA H100 NVL matched the datasheet row H100 NVL, gbx.s row H100 NVL; 7 computed' \
  '^Datasheet row: H100 NVL \(132 SMs, 94 GB, 3\.9 TB/s, up to 400 W; the power limit read: 400 W\)\.$' \
  '^\| DRAM bandwidth \| 4\.023 TB/s \| - \| 3\.9 TB/s \| 1\.031 \| ok \|$' \
  'next:^\| fp64 \| 30\.16 TFLOP/s \| 1785 MHz \| 30 TFLOP/s \| 1\.005 \| ok \|$' \
  '^\| bf16 \| 835\.3 TFLOP/s \| 1545 MHz \| 835\.5 TFLOP/s \| 1\.000 \| ok \|$'
hopper h200
expect_output "H200" "$dir/h200.md" \
  '^- Peaks: NVIDIA H200 matched the datasheet row H200 SXM, gbx.s row H200 SXM; 7 computed' \
  '^Datasheet row: H200 SXM \(132 SMs, 141 GB, 4\.8 TB/s, up to 700 W; the power limit read: 700 W\)\.$' \
  '^\| DRAM bandwidth \| 4\.917 TB/s \| - \| 4\.8 TB/s \| 1\.024 \| ok \|$' \
  'next:^\| fp64 \| 33\.45 TFLOP/s \| 1980 MHz \| 34 TFLOP/s \| 0\.984 \| ok \|$'
hopper gh200
expect_output "a GH200 is no H200" "$dir/gh200.md" '^- Peaks: NVIDIA GH200 480GB has no datasheet row; its peaks are not checked\.$'
# What fails: a name whose SMs are another board's, gbx's table matching another row, a peak off its
# datasheet, a peak not computed.
expect_exit 1 "an H100 PCIe with 132 SMs" python3 "$summary" "$dir/h100_pcie_132sms.json" "$dir/wrong.md"
expect_output "the SMs that are not the row's" "$dir/wrong.md" \
  '^- Peaks: NVIDIA H100 PCIe matched .*; 1 \*\*failed\*\*: 132 SMs, not 114\.$' '^The device is \*\*not that row\*\*: 132 SMs, not 114\.$'
expect_exit 1 "gbx's SXM row for an H100 PCIe" python3 "$summary" "$dir/h100_pcie_sxm_row.json" "$dir/wrong.md"
expect_output "the other row and its tensor peaks" "$dir/wrong.md" \
  '^gbx.s tensor clock row \*\*differs\*\*: H100 SXM, not H100 PCIe\.$' \
  '^\| tf32 \| 427\.3 TFLOP/s \| 1830 MHz \| 378 TFLOP/s \| 1\.130 \| \*\*differs\*\* \|$'
expect_exit 1 "a DRAM peak at half the datasheet's" python3 "$summary" "$dir/h100_sxm_half_dram.json" "$dir/wrong.md"
expect_output "the peak that differs" "$dir/wrong.md" \
  '^- Peaks: .*; 1 \*\*failed\*\*: DRAM bandwidth 1\.676 TB/s against 3\.35\.$' \
  '^\| DRAM bandwidth \| 1\.676 TB/s \| - \| 3\.35 TB/s \| 0\.500 \| \*\*differs\*\* \|$'
expect_exit 1 "a peak not computed" python3 "$summary" "$dir/h100_nvl_no_fp64_tensor.json" "$dir/wrong.md"
expect_output "the peak not computed" "$dir/wrong.md" '^- Peaks: .*; 1 \*\*failed\*\*: fp64_tensor not computed\.$'
python3 "$summary" "$dir/bare.json" "$dir/rehearsal.md" --no-device >/dev/null || fail "a rehearsal failed"
expect_output "a rehearsal's peaks" "$dir/rehearsal.md" '^- Peaks: no device \(expected in a rehearsal\)\.$' \
  'not:^## The device and its peaks$'
# The energy verdict's tolerance: the sensors' 5% of the limit plus one counter step over the span.
# An H100 PCIe at 350 W: 372 W passes only with both (17.5 W + 4.2 J / 0.5012 s = 25.9 W), 390 W fails.
energy() {  # KEY CASE CODE
  expect_exit "$3" "$1 at $2" python3 "$summary" "$dir/$1.json" "$dir/$1-$2.md" --energy "$dir/$1-energy-$2.json"
}
energy h100_pcie 349 0
expect_output "an H100 PCIe under its limit" "$dir/h100_pcie-349.md" '\| 349 W \| 376 W \| 0\.98 \| ok \|$'
energy h100_pcie 372 0
expect_output "an H100 PCIe just over its limit" "$dir/h100_pcie-372.md" \
  'power limit: 350 W; a row may read up to 17\.5 W above it' \
  '\| 372 W \| 376 W \| 0\.98 \| ok: above the 350 W limit, within its tolerance \|$'
energy h100_pcie 372-nostep 1
expect_output "without the counter's step, only the sensors' 5%" "$dir/h100_pcie-372-nostep.md" \
  '\| 372 W \| 368 W \| 0\.98 \| \*\*above the 350 W limit and its tolerance\*\* \|$'
energy h100_pcie 390 1
expect_output "an H100 PCIe clearly over its limit" "$dir/h100_pcie-390.md" \
  '^- Energy: 1 benchmarks .* 1 \*\*failed\*\*: gemm/cuda_tiled/m:4096/n:4096/k:4096: 390 W, above 376 W\.$' \
  '\| 390 W \| 376 W \| 0\.98 \| \*\*above the 350 W limit and its tolerance\*\* \|$'
energy h200 702 0
expect_output "an H200 just over its limit" "$dir/h200-702.md" '\| 702 W \| 761 W \| 0\.98 \| ok: above the 700 W limit, within'
energy h200 800 1
expect_output "an H200 clearly over its limit" "$dir/h200-800.md" '\| 800 W \| 761 W \| 0\.98 \| \*\*above the 700 W limit'
echo PASS
