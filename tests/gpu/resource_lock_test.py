"""Every test that runs CUDA work holds RESOURCE_LOCK gpu (tests/CMakeLists.txt says why).

  resource_lock_test.py BUILD_DIR BENCH_ALL

From `ctest --show-only=json-v1` of BUILD_DIR: a test runs CUDA work when it is labelled gpu, or
when it runs a bench binary (directly, or through a script given its path) with a
--benchmark_filter that selects a CUDA benchmark (a name BENCH_ALL lists with cuda or cub in its
variant), or with no filter at all. Exit 1 names each such test without the lock. Filters built
from shell variables are not followed: a test that takes its filter from elsewhere must be
labelled gpu to be covered. Needs no device.
"""
import json
import os
import re
import shlex
import subprocess
import sys

BENCH_BINARIES = {"bench_all", "bench_reduce", "bench_gemm", "bench_bandwidth", "example_cuda_scale",
                  "harness_overhead"}


def cuda_benchmark_names(bench_all):
    listed = subprocess.run([bench_all, "--benchmark_list_tests"], capture_output=True, text=True, check=True)
    names = [n for n in listed.stdout.split() if re.search(r"/(cuda|cub)", n)]
    if not names:
        sys.exit(f"resource_lock_test: {bench_all} --benchmark_list_tests lists no CUDA benchmark")
    return names


def filters_in(text):
    """The --benchmark_filter values written out literally in a command line or a script."""
    values = []
    for line in text.splitlines():
        if "benchmark_filter=" not in line:
            continue
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            tokens = line.split()
        for token in tokens:
            if "benchmark_filter=" in token:
                values.append(token.split("benchmark_filter=", 1)[1])
    return values


def selects_cuda(text, cuda_names):
    """Why text's filters select CUDA work, or None; 'no filter' when it has none."""
    values = filters_in(text)
    if not values:
        return "runs a bench binary with no --benchmark_filter"
    for value in values:
        if "$" in value or value.startswith("-"):
            continue
        try:
            pattern = re.compile(value)
        except re.error:
            continue
        hit = next((n for n in cuda_names if pattern.search(n)), None)
        if hit:
            return f"--benchmark_filter={value} selects {hit}"
    return None


def why_cuda(test, cuda_names):
    properties = {p["name"]: p["value"] for p in test.get("properties", [])}
    labels = properties.get("LABELS", [])
    if "gpu" in labels:
        return "labelled gpu"
    command = test.get("command") or []
    if not any(os.path.basename(arg) in BENCH_BINARIES for arg in command):
        return None
    scripts = [arg for arg in command[1:] if arg.endswith((".sh", ".py")) and os.path.isfile(arg)]
    if os.path.basename(command[0]) in BENCH_BINARIES or not scripts:
        return selects_cuda(" ".join(shlex.quote(a) for a in command), cuda_names)
    return selects_cuda("\n".join(open(s, errors="replace").read() for s in scripts), cuda_names)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    build, bench_all = argv[1:]
    shown = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], capture_output=True, text=True,
                           check=True)
    tests = json.loads(shown.stdout)["tests"]
    cuda_names = cuda_benchmark_names(bench_all)
    unlocked, locked = [], 0
    for test in tests:
        reason = why_cuda(test, cuda_names)
        if reason is None:
            continue
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        if "gpu" in properties.get("RESOURCE_LOCK", []):
            locked += 1
        else:
            unlocked.append(f"{test['name']}: {reason}, without RESOURCE_LOCK gpu")
    print(f"resource_lock_test: {len(tests)} tests, {locked + len(unlocked)} run CUDA work, "
          f"{len(unlocked)} of them without RESOURCE_LOCK gpu")
    for line in unlocked:
        print("  " + line)
    return 1 if unlocked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
