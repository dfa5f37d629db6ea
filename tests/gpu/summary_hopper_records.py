"""Stand-ins for what scripts/gpu-check writes on each Hopper it may be lent, for tests/gpu/summary_test.sh:
DIR/<device>.json (the hot suite's record, with the peaks gbx computes from the device's attributes),
DIR/<device>-probe.json and DIR/<device>-energy-<case>.json, and records whose device, peaks or power
are wrong. The peaks follow environment/peaks.cc's rules (FLOP per SM per clock for sm_90 x SMs x the
highest SM clock, tf32/fp16/bf16 at the SKU row's sustained clock; 2 x memory clock x bus width); the
attributes are what each board reports (cudaDevAttrClockRate, MemoryClockRate, GlobalMemoryBusWidth).

  python3 summary_hopper_records.py DIR
"""
import copy
import json
import sys

# name, SMs, highest SM clock (MHz), memory clock (MHz), bus bits, memory bytes, gbx's SKU row and its
# sustained tensor clock (MHz), NVML's enforced power limit (W)
DEVICES = {
    "h100_sxm": ("NVIDIA H100 80GB HBM3", 132, 1980, 2619, 5120, 85_031_714_816, "H100 SXM", 1830, 700),
    "h100_pcie": ("NVIDIA H100 PCIe", 114, 1755, 1593, 5120, 85_031_714_816, "H100 PCIe", 1620, 350),
    "h100_nvl": ("NVIDIA H100 NVL", 132, 1785, 2619, 6144, 100_485_038_080, "H100 NVL", 1545, 400),
    "h200": ("NVIDIA H200", 132, 1980, 3201, 6144, 150_110_011_392, "H200 SXM", 1830, 700),
    # Not in the datasheet table: a GH200's name contains "H200" but is no H200 board.
    "gh200": ("NVIDIA GH200 480GB", 132, 1980, 2619, 6144, 102_005_473_280, "H200 SXM", 1830, 700),
}
PER_SM_PER_CLOCK = {"fp64": 128, "fp64_tensor": 256, "fp32": 256, "tf32": 2048, "fp16": 4096, "bf16": 4096}


def environment(name, sms, clock_mhz, memory_mhz, bus_bits, memory_bytes, sku, sustained_mhz, watts):
    highest = {"hz": clock_mhz * 1e6, "source": "the highest SM clock (cudaDevAttrClockRate)", "kind": "boost"}
    sustained = {"hz": sustained_mhz * 1e6, "kind": "sustained",
                 "source": f"NVIDIA's sustained tensor clock for the datasheet's figure ({sku}: 0 TFLOP/s dense bf16 "
                           f"= 4096 x {sms} SMs x {sustained_mhz / 1e3} GHz), below the highest SM clock"}
    clocks = {p: sustained if p in ("tf32", "fp16", "bf16") else highest for p in PER_SM_PER_CLOCK}
    flops = {p: n * sms * clocks[p]["hz"] for p, n in PER_SM_PER_CLOCK.items()}
    peaks = {"bytes_per_second": 2 * memory_mhz * 1e6 * bus_bits / 8, "flops_per_second": flops, "clocks": clocks,
             "flops_basis": "facts", "method": f"device attributes of {name}"}
    gpu = {"index": 0, "name": name, "compute_capability": "9.0", "sm_count": sms, "memory_bytes": memory_bytes,
           "memory_bus_width_bits": bus_bits, "nvml_at_start": {"power_limit_mw": watts * 1000}}
    return {"peaks": {"gpu": peaks}, "gpus": [gpu], "cuda": {"runtime_version": "13.0", "driver_version": "13.0"},
            "host": {"cpu_model": "x86-64", "logical_cpus": 16}}


def record(env, benchmarks, **head):
    return {"benchmarks": benchmarks, "gbx": dict(head, environment=env, run_id="r")}


def gemm():
    return {"name": "gemm/cublas_bf16/m:4096/n:4096/k:4096/iterations:1/manual_time", "run_type": "iteration",
            "gbx": {"precision": "bf16", "stats": {"median": 2.5e-4, "median_ci": {"lower": 2.4e-4, "upper": 2.6e-4}},
                    "accuracy": {"passed": True, "rel_l2_error": 1.5e-3, "tolerance": 3.1e-2},
                    "throughput": {"fraction_of_peak_flops": 0.5, "fraction_of_peak_bandwidth": 0.01}}}


def energy_row(watts, step_joules):
    per_run = watts * 0.5012 / 960
    gpu = {"source": "NVML", "joules_per_run": per_run, "lower": 0.9 * per_run, "upper": 1.1 * per_run,
           "average_watts": watts, "joules": watts * 0.5012, "seconds": 0.5012, "duty": 0.98}
    if step_joules is not None:
        gpu["resolution_joules"] = step_joules
    return {"name": "gemm/cuda_tiled/m:4096/n:4096/k:4096/iterations:1/manual_time", "run_type": "iteration",
            "gbx": {"samples": [1e-3] * 480, "measurement": {"sampling_seconds": 0.5012, "batch": 2},
                    "energy": {"gpu": gpu, "cpu": None}}}


def main(out):
    def write(name, value):
        with open(f"{out}/{name}.json", "w") as f:
            json.dump(value, f)

    envs = {key: environment(*facts) for key, facts in DEVICES.items()}
    for key, env in envs.items():
        write(key, record(env, [gemm()]))
        gpu = env["gpus"][0]
        write(f"{key}-probe", {"device": {k: gpu[k] for k in ("name", "compute_capability", "sm_count")},
                               "figures": [{"name": "CUDA event resolution", "value": 0.032, "unit": "us",
                                            "expectation": "<= 0.5 us", "plausible": True}]})
    # The power at the limit: the counter's step (resolution_joules) is what that board's counter shows.
    for key, watts, step in (("h200", 702.3, 12.9), ("h200", 800.0, 12.9), ("h100_pcie", 372.0, 4.2),
                             ("h100_pcie", 390.0, 4.2), ("h100_pcie", 372.0, None), ("h100_pcie", 349.0, 4.2)):
        case = f"{watts:.0f}" + ("" if step else "-nostep")
        write(f"{key}-energy-{case}", record(envs[key], [energy_row(watts, step)], protocol={"min_time_seconds": 0.5}))
    # An H100 PCIe by name with an SXM board's 132 SMs: gbx's table, matching names only, would use the
    # PCIe's tensor clock for it.
    wrong = copy.deepcopy(envs["h100_pcie"])
    wrong["gpus"][0]["sm_count"] = 132
    write("h100_pcie_132sms", record(wrong, [gemm()]))
    # gbx's table matched another row than the datasheet's for this device.
    other = environment(*DEVICES["h100_pcie"][:6], "H100 SXM", 1830, 350)
    write("h100_pcie_sxm_row", record(other, [gemm()]))
    # A DRAM peak off its datasheet: an H100 SXM whose memory clock read half what it is.
    slow = environment(*DEVICES["h100_sxm"][:3], 2619 / 2, *DEVICES["h100_sxm"][4:])
    write("h100_sxm_half_dram", record(slow, [gemm()]))
    # A peak gbx did not compute.
    missing = copy.deepcopy(envs["h100_nvl"])
    del missing["peaks"]["gpu"]["flops_per_second"]["fp64_tensor"]
    write("h100_nvl_no_fp64_tensor", record(missing, [gemm()]))


if __name__ == "__main__":
    main(sys.argv[1])
