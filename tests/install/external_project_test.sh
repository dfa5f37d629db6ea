#!/usr/bin/env bash
# Installs gbx from a build tree into a fresh prefix, then configures, builds and runs a project
# outside gbx's tree against that prefix alone: the check that the installed package is usable.
# Usage: external_project_test.sh build=DIR work=DIR [config=TYPE] [cmake=PATH] [ninja=PATH]
#                                 [prefix_path=A|B] [cuda_compiler=NVCC]
#   Arguments are key=value because CTest drops empty ones. config: gbx's build type (Release when
#   empty); prefix_path: gbx's own CMAKE_PREFIX_PATH with '|' between entries, so that dependencies
#   found outside the system (scripts/gpu-check's sysroot) are found again; cuda_compiler: the nvcc
#   gbx was built with, empty without CUDA.
set -euo pipefail
source "$(dirname "$0")/../support/output_match.sh"

build_dir='' work='' config='' cmake=cmake ninja=ninja prefix_path='' cuda_compiler=''
for arg in "$@"; do
  case $arg in
    build=*) build_dir=${arg#*=} ;;
    work=*) work=${arg#*=} ;;
    config=*) config=${arg#*=} ;;
    cmake=*) cmake=${arg#*=} ;;
    ninja=*) ninja=${arg#*=} ;;
    prefix_path=*) prefix_path=${arg#*=} ;;
    cuda_compiler=*) cuda_compiler=${arg#*=} ;;
    *) echo "external_project_test.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
[[ -n $build_dir && -n $work ]] || { echo "external_project_test.sh: build= and work= are required" >&2; exit 2; }
config=${config:-Release}
prefix_path=${prefix_path//|/;}

# A fresh prefix each time: nothing from an earlier install can hide a missing file.
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

"$cmake" --install "$build_dir" --prefix "$prefix" --config "$config" >"$work/install.log"

# The installed gbx first, then wherever gbx's build found its dependencies.
args=(-S "$here/external_project" -B "$work/build" -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja"
      -DCMAKE_BUILD_TYPE="$config" "-DCMAKE_PREFIX_PATH=$prefix${prefix_path:+;$prefix_path}")
# The consumer compiles no CUDA, but the package re-finds the toolkit; hand it the same nvcc.
if [[ -n $cuda_compiler ]]; then
  args+=(-DCUDAToolkit_ROOT="$(dirname "$(dirname "$cuda_compiler")")")
fi
expect_exit 0 "configuring the external project" "$cmake" "${args[@]}"
expect_output "the external project found gbx" "$dir/out" '^-- gbx '
grep -E -- '^-- gbx ' "$dir/out"
# The build's own log: its error is at the end, past what a mismatch shows.
"$cmake" --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the external project"; }

# Only the public headers are installed: the umbrella, the one a consumer names, and under gbx/detail
# what it includes.
[[ $(ls "$prefix/include") == gbx ]] || fail "include/ holds more than gbx/: $(ls "$prefix/include")"
[[ $(ls "$prefix/include/gbx" | tr '\n' ' ') == "detail gbx.h " ]] ||
  fail "include/gbx holds more than gbx.h and detail/: $(ls "$prefix/include/gbx")"
for private in record environment kernels reporters tools writer analysis report cli; do
  [[ ! -e $prefix/include/gbx/detail/$private ]] || fail "a private folder was installed: include/gbx/detail/$private"
done
# Of the statistics, only the value types a record holds (stats/estimates.h); the algorithms stay private.
for installed in "$prefix"/include/gbx/detail/stats/*; do
  [[ ! -e $installed || $(basename "$installed") == estimates.h ]] ||
    fail "a private statistics header was installed: $installed"
done
[[ -f $prefix/include/gbx/gbx.h ]] || fail "include/gbx/gbx.h was not installed"

out=$work/out.json
"$work/build/consumer_bench" --gbx_min_samples=3 --gbx_warmup=1 --benchmark_out="$out"

python3 - "$out" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
names = [b["name"] for b in record.get("benchmarks", [])]
ours = [b for b in record["benchmarks"] if b["name"].startswith("consumer_sum/pairwise/")]
if not ours:
    sys.exit(f"no consumer_sum/pairwise benchmark in the record; names: {names}")
if any(b.get("error_occurred") for b in ours) or "gbx" not in ours[0]:
    sys.exit(f"consumer_sum/pairwise did not run cleanly: {ours[0]}")
short = [b for b in record["benchmarks"] if b["name"].startswith("consumer_scale/loop/n:256")]
if not short or short[0].get("error_occurred") or short[0]["gbx"].get("axes") != {"n": 256}:
    sys.exit(f"the short-form benchmark did not run with its axes: {short or names}")
print(f"ok: {ours[0]['name']} and {short[0]['name']} in {sys.argv[1]}")
PY

# The installed gbx tool verifies the record and, with the charting libraries installed beside it
# (when the build tree had them), writes its HTML report without being told where they are.
expect_exit 0 "the installed gbx verifies the record" "$prefix/bin/gbx" verify "$out"
expect_output "the installed gbx verifies the record" "$dir/out" ': intact \(sha256 [0-9a-f]{64}\)$'
if [[ -f $prefix/share/gbx/report/node_modules/vega/build/vega.min.js ]]; then
  (cd "$work" && env -u GBX_REPORT_ASSETS "$prefix/bin/gbx" report "$out" -o "$work/report.html")
  expect_output "the installed gbx's HTML report" "$work/report.html" '<html'
  echo "ok: the installed gbx wrote $work/report.html"
else
  echo "note: no charting libraries in the build tree, so the installed report was not tried"
fi

