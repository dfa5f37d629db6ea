#!/usr/bin/env bash
# Installs gbx from a build tree into a fresh prefix, then configures, builds and runs a project outside
# gbx's tree against that prefix alone, as a user's project would be: the check that the installed
# package is usable, and that the record describes the user's build and source, not gbx's.
# Usage: external_project_test.sh build=DIR work=DIR [config=TYPE] [cmake=PATH] [ninja=PATH]
#                                 [prefix_path=A|B] [cuda_compiler=NVCC] [git=GIT]
#   Arguments are key=value because CTest drops empty ones. config: gbx's build type (Release when
#   empty); prefix_path: gbx's own CMAKE_PREFIX_PATH with '|' between entries, so that dependencies
#   found outside the system (scripts/gpu-check's sysroot) are found again; cuda_compiler: the nvcc
#   gbx was built with, empty without CUDA; git: the git to make the project's repository with.
#
# The outside project (tests/install/external_project) is copied into a git repository of its own, made
# here, and built with another build type than gbx's (Debug, or RelWithDebInfo when gbx is Debug). It
# holds gbx benchmarks in both forms, plain Google Benchmark functions, a CUDA benchmark in a .cu file
# (with CUDA), a program with its own main() linked with gbx::gbx, and a BENCHMARK_MAIN() file linked
# with gbx::main that must fail to link.
set -euo pipefail
source "$(dirname "$0")/../support/output_match.sh"

build_dir='' work='' config='' cmake=cmake ninja=ninja prefix_path='' cuda_compiler='' git=git
for arg in "$@"; do
  case $arg in
    build=*) build_dir=${arg#*=} ;;
    work=*) work=${arg#*=} ;;
    config=*) config=${arg#*=} ;;
    cmake=*) cmake=${arg#*=} ;;
    ninja=*) ninja=${arg#*=} ;;
    prefix_path=*) prefix_path=${arg#*=} ;;
    cuda_compiler=*) cuda_compiler=${arg#*=} ;;
    git=*) git=${arg#*=} ;;
    *) echo "external_project_test.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
[[ -n $build_dir && -n $work ]] || { echo "external_project_test.sh: build= and work= are required" >&2; exit 2; }
config=${config:-Release}
prefix_path=${prefix_path//|/;}
command -v "$git" >/dev/null || { echo "SKIPPED: no git ('$git') to make the outside project's repository"; exit 77; }
program_config=Debug
[[ $config != Debug ]] || program_config=RelWithDebInfo

# A fresh prefix each time: nothing from an earlier install can hide a missing file.
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build_dir" --prefix "$prefix" --config "$config" >"$work/install.log"

# gbx's own commit, as the installed tool reports it ("unknown (why)" without one).
gbx_commit=$("$prefix/bin/gbx" version | sed -n 's/^source commit: \([0-9a-f]\{40,64\}\).*/\1/p')

# The outside project in a repository of its own, with a private git configuration (the user's own
# hooks or signing must not change the answer), and with no way up into gbx's checkout around it.
project=$work/project
cp -R "$here/external_project" "$project"
export GIT_CEILING_DIRECTORIES=$work
git_here() {
  GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 "$git" -C "$project" -c user.name=gbx -c user.email=gbx@localhost "$@"
}
git_here init -q -b main
git_here add -A
git_here commit -q -m "outside project"
outside_commit=$(git_here rev-parse HEAD)
[[ $outside_commit != "$gbx_commit" ]] || fail "the outside repository's commit is gbx's: $outside_commit"

# The installed gbx first, then wherever gbx's build found its dependencies.
configure() {  # DIR BUILD_TYPE
  local args=(-S "$project" -B "$1" -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja" -DCMAKE_BUILD_TYPE="$2"
              "-DCMAKE_PREFIX_PATH=$prefix${prefix_path:+;$prefix_path}")
  # The package re-finds the toolkit, and the project's .cu file needs the same nvcc.
  if [[ -n $cuda_compiler ]]; then
    args+=(-DCUDAToolkit_ROOT="$(dirname "$(dirname "$cuda_compiler")")" -DCMAKE_CUDA_COMPILER="$cuda_compiler")
  fi
  expect_exit 0 "configuring the external project ($2)" "$cmake" "${args[@]}"
}
configure "$work/build" "$program_config"
expect_output "the external project found gbx" "$dir/out" '^-- gbx '
grep -E -- '^-- gbx ' "$dir/out"
# The build's own log: its error is at the end, past what a mismatch shows.
"$cmake" --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the external project"; }

# BENCHMARK_MAIN() linked with gbx::main: the link fails on two main()s, one of them gbx's file, whose
# comment says what to do instead.
expect_exit 1 "linking BENCHMARK_MAIN() with gbx::main" "$cmake" --build "$work/build" --target consumer_benchmark_main
expect_output "the duplicate main() names gbx's" "$dir/out" "multiple definition of .main.*gbx_main\.cc|gbx_main\.cc.*multiple definition of .main"
echo "ok: BENCHMARK_MAIN() with gbx::main does not link: $(grep -m1 -o 'multiple definition of .main.' "$dir/out")"
grep -q 'gbx::gbx' "$prefix/share/gbx/gbx_main.cc" || fail "gbx_main.cc does not say to link gbx::gbx for one's own main()"

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

# Each output format runs to the end: the console table, JSON and CSV on stdout.
bench=$work/build/consumer_bench
flags=(--gbx_min_samples=3 --gbx_warmup=1)
expect_exit 0 "consumer_bench, console" "$bench" "${flags[@]}"
expect_output "the console table" "$dir/out" 'consumer_scale/loop/n:256' 'protocol:'
expect_exit 0 "consumer_bench, --benchmark_format=json" "$bench" "${flags[@]}" --benchmark_format=json
cp "$dir/out" "$work/stdout.json"
expect_exit 0 "consumer_bench, --benchmark_format=csv" "$bench" "${flags[@]}" --benchmark_format=csv
expect_output "the CSV" "$dir/out" '^name,' 'consumer_scale/loop/n:256'
out=$work/out.json
expect_exit 0 "consumer_bench, --benchmark_out" "$bench" "${flags[@]}" --benchmark_out="$out"

python3 - "$out" "$work/stdout.json" "$outside_commit" "$gbx_commit" "$program_config" "$config" \
  "${cuda_compiler:+cuda}" <<'PY'
import json, sys
path, stdout_path, outside_commit, gbx_commit, program_config, gbx_config, cuda = sys.argv[1:8]
record = json.load(open(path))
names = [b["name"] for b in record.get("benchmarks", [])]
ours = [b for b in record["benchmarks"] if b["name"].startswith("consumer_sum/pairwise/")]
if not ours:
    sys.exit(f"no consumer_sum/pairwise benchmark in the record; names: {names}")
if any(b.get("error_occurred") for b in ours) or "gbx" not in ours[0]:
    sys.exit(f"consumer_sum/pairwise did not run cleanly: {ours[0]}")
short = [b for b in record["benchmarks"] if b["name"].startswith("consumer_scale/loop/n:256")]
if not short or short[0].get("error_occurred") or short[0]["gbx"].get("axes") != {"n": 256}:
    sys.exit(f"the short-form benchmark did not run with its axes: {short or names}")
print(f"ok: {ours[0]['name']} and {short[0]['name']} in {path}")

# The record describes the outside project's build and source, and gbx's own apart.
environment = record["gbx"]["environment"]
build, source = environment["build"], environment["source"]
facts = {"source.commit": source.get("commit"), "source.dirty": source.get("dirty"),
         "source.branch": source.get("branch"), "build.build_type": build.get("build_type"),
         "build.optimized": build.get("optimized"), "build.gbx.build_type": build.get("gbx", {}).get("build_type")}
expected = {"source.commit": outside_commit, "source.dirty": False, "source.branch": "main",
            "build.build_type": program_config, "build.optimized": program_config != "Debug",
            "build.gbx.build_type": gbx_config}
wrong = {key: (facts[key], want) for key, want in expected.items() if facts[key] != want}
if wrong:
    sys.exit("the record does not describe the outside project's build (got, expected): " + json.dumps(wrong) +
             "\nbuild: " + json.dumps(build) + "\nsource: " + json.dumps(source))
if gbx_commit and (source["commit"] == gbx_commit or source.get("gbx", {}).get("commit") != gbx_commit):
    sys.exit(f"gbx's commit {gbx_commit} is not kept apart as source.gbx.commit: {json.dumps(source)}")
print(f"ok: source.commit {outside_commit[:12]} (gbx's {gbx_commit[:12] or 'unknown'} under source.gbx), "
      f"build type {program_config} (gbx's {gbx_config})")

# The JSON on stdout is the same kind of record.
if json.load(open(stdout_path))["gbx"]["environment"]["source"]["commit"] != outside_commit:
    sys.exit("the record printed by --benchmark_format=json names another commit")

# Plain Google Benchmark functions run under gbx's main() beside gbx's own.
plain = {name: [b for b in record["benchmarks"] if b["name"].startswith(name)]
         for name in ("plain_accumulate/1024", "plain_manual/manual_time")}
missing = [name for name, entries in plain.items() if not entries or any(b.get("error_occurred") for b in entries)]
if missing:
    sys.exit(f"plain Google Benchmark functions missing or failed: {missing}; names: {names}")
if not any("elements" in b for b in plain["plain_manual/manual_time"]):
    sys.exit(f"plain_manual's user counter is not in its entry: {plain['plain_manual/manual_time']}")
# Each plain function's repetitions are its samples, 3 here (--gbx_min_samples), with an interval.
for name, entries in plain.items():
    iteration = [b for b in entries if b.get("run_type") == "iteration"]
    g = iteration[0].get("gbx", {}) if iteration else {}
    ci = g.get("stats", {}).get("median_ci") or {}
    if len(g.get("samples", [])) != 3 or g.get("harness") != "google_benchmark" or not ci.get("upper"):
        sys.exit(f"{name} has no 3 samples and interval: {iteration}")
print(f"ok: plain functions {sorted(plain)}")

# The CUDA benchmark: built where gbx has CUDA; run and passed where a device is, else listed as not run.
if cuda:
    entries = [b for b in record["benchmarks"] if b["name"].startswith("consumer_cuda/triple/")]
    not_run = [n for n in record["gbx"].get("not_run", []) if "consumer_cuda" in json.dumps(n)]
    if entries and not entries[0].get("skipped"):
        accuracy = entries[0]["gbx"].get("accuracy", {})
        if entries[0].get("error_occurred") or accuracy.get("passed") is not True:
            sys.exit(f"consumer_cuda ran but failed: {entries[0]}")
        print("ok: consumer_cuda ran on the device and passed its check")
    elif not_run or (entries and entries[0].get("skipped")):
        print(f"ok: consumer_cuda built, not run here: {(not_run or entries)[0]}")
    else:
        sys.exit(f"consumer_cuda is neither in the record nor listed as not run; names: {names}")
PY

# Its own main(): the program's setup runs, then gbx's. Enough samples for gbx compare to decide.
own=$work/own.json
own_flags=(--gbx_min_samples=8 --gbx_warmup=1)
expect_exit 0 "consumer_own_main" "$work/build/consumer_own_main" "${own_flags[@]}" --benchmark_out="$own"
expect_output "its own main() ran first" "$dir/err" '^own main: set up before gbx$'
python3 - "$own" <<'PY'
import json, sys
entries = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"].startswith("own_main_scale/loop/")]
if not entries or entries[0]["gbx"].get("accuracy", {}).get("passed") is not True:
    sys.exit(f"own_main_scale did not run and pass after its main()'s setup: {entries}")
print("ok: consumer_own_main ran its own main(), then gbx::run_main")
PY

# Another build type is another build: gbx compare and gbx ab refuse it (exit 2, naming both), unless
# told --allow-incompatible.
configure "$work/build-release" Release
"$cmake" --build "$work/build-release" --target consumer_own_main >"$work/build-release.log" 2>&1 ||
  { cat "$work/build-release.log"; fail "building the Release consumer_own_main"; }
release=$work/own-release.json
expect_exit 0 "consumer_own_main (Release)" "$work/build-release/consumer_own_main" "${own_flags[@]}" \
  --benchmark_out="$release"
expect_exit 2 "gbx compare of a $program_config and a Release record" "$prefix/bin/gbx" compare "$own" "$release"
expect_output "compare names both build types" "$dir/err" 'not compatible' \
  "build type +base: $program_config +candidate: Release"
# A verdict, whichever (one process a side is "unreplicated", exit 3), but not the refusal.
"$prefix/bin/gbx" compare "$own" "$release" --allow-incompatible >"$dir/out" 2>&1 && code=0 || code=$?
((code != 2)) || { cat "$dir/out"; fail "gbx compare --allow-incompatible still refused (exit 2)"; }
expect_output "--allow-incompatible goes on" "$dir/out" 'INCOMPATIBLE'
mkdir "$work/ab"
expect_exit 2 "gbx ab of a $program_config and a Release binary" "$prefix/bin/gbx" ab \
  --base "$work/build/consumer_own_main" --candidate "$work/build-release/consumer_own_main" -o "$work/ab" -- "${own_flags[@]}"
expect_output "gbx ab names both build types" "$dir/err" 'not compatible' \
  "build type +base: $program_config +candidate: Release"
echo "ok: gbx compare and gbx ab refuse $program_config against Release; --allow-incompatible goes on"

# The dashboards get the outside project's commit.
expect_exit 0 "gbx export --format conbench" "$prefix/bin/gbx" export "$out" --format conbench \
  --repository https://github.com/example/consumer -o "$work/conbench.json"
python3 - "$work/conbench.json" "$outside_commit" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
commits = {r.get("github", {}).get("commit") for r in (results if isinstance(results, list) else [results])}
if commits != {sys.argv[2]}:
    sys.exit(f"gbx export gives Conbench the commits {commits}, not the outside project's {sys.argv[2]}")
print(f"ok: gbx export gives Conbench the outside commit {sys.argv[2][:12]}")
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
