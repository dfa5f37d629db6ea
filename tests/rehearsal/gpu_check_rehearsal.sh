#!/usr/bin/env bash
# The rehearsal of scripts/gpu-check, as the GPU machine will see it (docs/gpu-check.md). Run by
# .ci/run as its last step (as root: it needs a mount namespace), it
#   1. runs scripts/gpu-prepare here (apt-get download into .deps; it fails without the report's
#      npm assets),
#   2. copies the tree as the device tool does (tracked and untracked-but-not-ignored files, plus
#      .deps) to another path, and checks that the copy (the tree and .deps) fits the 64 MiB that
#      travels,
#   3. in a mount namespace (unshare -m) hides the Debian dev packages the build uses (headers,
#      CMake configs, pkg-config files, libraries; tests/rehearsal/hide_plan.py) and Python's
#      jsonschema, cuts the network off (unshare -n: a loopback only), and checks all three,
#   4. runs the copy's scripts/gpu-check --no-device there: the very command sequence the device
#      runs, all of it (the same build targets, `ctest -L gpu`, the probe, both suites, the report),
#      with only the budget stretched for 2 cores, and an extra warning flag (-Wfloat-equal, which
#      gbx's code trips) standing in for a newer host compiler's new warnings: gpu-check must
#      configure with GBX_WERROR=OFF for the build to get through,
#   5. checks what came back: the result files within the device tool's limits (8 files, 16 MiB
#      each); that the GPU-tests step ran the gpu-labelled tests and nothing else; that each step,
#      projected onto the device's 16 cores (the build's time scaled by cores, the others as
#      measured), fits its cap in the 8-minute plan; and the binaries' libraries in .deps.
# It fails if any step fails.
#
# GBX_REHEARSAL_DIR=DIR keeps the copy and its build there (a second run then rebuilds only what
# changed); by default a temporary folder is used and removed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/scripts/lib.sh"
started=$SECONDS
log() { printf 'rehearsal: %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

((EUID == 0)) || fail "needs root, for a mount namespace (unshare -m); .ci/run runs it as root in CI"
command -v unshare >/dev/null || fail "needs unshare (util-linux)"
gbx_find_cuda
command -v nvcc >/dev/null || fail "needs nvcc (/usr/local/cuda/bin/nvcc): scripts/gpu-check builds with CUDA on"

if [[ -n ${GBX_REHEARSAL_DIR:-} ]]; then
  work=$GBX_REHEARSAL_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d /tmp/gbx-rehearsal.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
tree=$work/tree out=$work/out poison=$work/poison
rm -rf "$out" "$poison"
mkdir -p "$tree" "$out"

# --- 1. prepare, as on the machine that builds the tree ----------------------------------------
log "scripts/gpu-prepare"
"$root/scripts/gpu-prepare" || fail "scripts/gpu-prepare failed (above)"

# --- 2. the tree as the device tool copies it, at another path --------------------------------
# Tracked files and untracked ones git does not ignore; a symlinked node_modules (a worktree's) is
# not what the device gets either.
# A kept copy (GBX_REHEARSAL_DIR) is emptied first but for its build folder: no stale file may stay.
find "$tree" -mindepth 1 -maxdepth 1 ! -name build-gpu -exec rm -rf {} +
(cd "$root" && git ls-files -z -co --exclude-standard | grep -zv 'node_modules$' |
  tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$tree"
rm -rf "$tree/.deps" && cp -a "$root/.deps" "$tree/.deps"
# What travels is the tree and the carried .deps together: 64 MiB in all.
carried=$(du -sb --exclude=build-gpu "$tree" | cut -f1)
((carried <= 64 * 1024 * 1024)) ||
  fail "the tree and .deps come to $((carried >> 20)) MiB: more than the 64 MiB the device tool carries"
log "the tree and .deps: $((carried >> 20)) MiB of the 64 MiB that travel"

# --- 3. what to hide ------------------------------------------------------------------------
# The packages gpu-prepare unpacks, the dev packages scripts/lib.sh installs, any other BLAS or
# LAPACK headers, and jsonschema. libssl3 stays: cmake and git link it (its libcrypto.so link from
# libssl-dev is kept for the same reason; gpu-check's cache check covers it).
packages=$("$root/scripts/gpu-prepare" --list | grep -v '^#' | cut -d: -f2)
packages+=" ${GBX_DEBIAN_PACKAGES[*]} python3-jsonschema"
packages+=" $(dpkg-query -W -f='${Package}\n' 2>/dev/null | grep -E '^lib(open)?blas.*-dev$|^liblapack.*-dev$' | paste -sd' ')"
hide=$(tr ' ' '\n' <<<"$packages" | grep -E -- '-dev$|^libbenchmark1debian$|^libopenblas0|^libgfortran5$|^libquadmath0$|^python3-jsonschema$' |
  sort -u)
python3 "$here/hide_plan.py" $hide >"$work/plan.txt"
log "hiding $(grep -c '^tmpfs\|^pyhide' "$work/plan.txt") folders and $(grep -c '^poison' "$work/plan.txt") files of: $(paste -sd' ' <<<"$hide")"

mkdir -p "$poison/pyhide"
echo '#error "hidden by the gpu-check rehearsal: a Debian dev package header the GPU machine lacks"' >"$poison/header"
echo 'message(FATAL_ERROR "hidden by the gpu-check rehearsal: a Debian CMake file the GPU machine lacks")' >"$poison/cmake"
echo 'hidden by the gpu-check rehearsal' >"$poison/pc"
: >"$poison/library"  # empty: the linker and the loader both refuse it
echo 'raise ImportError("hidden by the gpu-check rehearsal: the GPU machine lacks it")' >"$poison/python"
cp "$poison/python" "$poison/pyhide/__init__.py"
: >"$poison/other"
# The GPU machine's python3 is a virtual environment without jsonschema: so is this one's (made from
# Debian's python3, whose own jsonschema is hidden below too).
rm -rf "$work/venv"
/usr/bin/python3 -m venv --without-pip "$work/venv" || fail "cannot make a virtual environment with /usr/bin/python3"

# --- 4. gpu-check in the namespace --------------------------------------------------------------
log "scripts/gpu-check --no-device in a mount namespace, in $tree"
# Written to a file: a script on bash's stdin could be read by the commands it runs.
cat >"$work/namespace.sh" <<'NAMESPACE'
set -euo pipefail
while read -r action a b; do
  case $action in
    tmpfs) mount -t tmpfs -o size=64k,mode=0755 gbx-hidden "$a" ;;
    pyhide) mount --bind "$POISON/pyhide" "$a" ;;
    poison) mount --bind "$POISON/$a" "$b" ;;
  esac
done <"$WORK/plan.txt"
# The namespace must really hide them: otherwise the rehearsal proves nothing.
[[ $(command -v python3) == $WORK/venv/bin/python3 ]] || { echo "rehearsal: python3 is not the virtual environment's"; exit 1; }
for python in python3 /usr/bin/python3; do
  ! "$python" -c 'import jsonschema' 2>/dev/null || { echo "rehearsal: $python still imports jsonschema"; exit 1; }
done
for header in cblas.h openblas_config.h f77blas.h benchmark/benchmark.h boost/version.hpp gtest/gtest.h \
  nlohmann/json.hpp CLI/CLI.hpp openssl/sha.h; do
  if echo "#include <$header>" | c++ -E -x c++ - >/dev/null 2>&1; then
    echo "rehearsal: <$header> is still found on the system"
    exit 1
  fi
done
echo "rehearsal: the dev packages' headers, configs and libraries, and jsonschema, are hidden"
# No network, as on the device: a loopback only (brought up: local sockets are not the network).
ip link set lo up 2>/dev/null || true
if python3 -c 'import socket; socket.create_connection(("deb.debian.org", 80), timeout=3)' 2>/dev/null; then
  echo "rehearsal: the network is still reachable"
  exit 1
fi
echo "rehearsal: no network"
# A newer compiler's new warnings, stood in for by one GCC 12 has and gbx does not enable.
export CXXFLAGS=-Wfloat-equal
# The device's 8-minute plan, stretched for 2 shared cores: the build alone can take 20 minutes here.
export GBX_GPU_CHECK_BUDGET=${GBX_GPU_CHECK_BUDGET:-6400}
"$TREE/scripts/gpu-check" --no-device
# Every library of the dependencies comes from .deps, with the LD_LIBRARY_PATH gpu-check sets
# (OpenBLAS's libgfortran is a dependency of a dependency, which run paths do not reach).
libraries=$(LD_LIBRARY_PATH=$TREE/.deps/sysroot/usr/lib/x86_64-linux-gnu ldd "$TREE/build-gpu/bench/bench_all")
for library in libbenchmark libopenblas libgfortran libcrypto; do
  grep -q "$library.* => $TREE/.deps/sysroot/" <<<"$libraries" || {
    echo "rehearsal: $library does not resolve into .deps/sysroot:"; echo "$libraries"; exit 1; }
done
echo "rehearsal: bench_all's libraries resolve into .deps/sysroot"
NAMESPACE
rc=0
unshare -m -n --propagation private env WORK="$work" TREE="$tree" OUT="$out" POISON="$poison" PATH="$work/venv/bin:$PATH" \
  bash "$work/namespace.sh" || rc=$?
((rc == 0)) || fail "scripts/gpu-check --no-device failed in the namespace (exit $rc; log above, and $out/gpu-check.log)"

# --- 5. what would come back from the device ---------------------------------------------------
if grep -q 'Building CXX object' "$out/gpu-check.log"; then
  grep -q 'Wfloat-equal' "$out/gpu-check.log" ||
    fail "the stand-in warning (-Wfloat-equal) never fired: the -Werror check proved nothing"
else
  log "nothing was recompiled (GBX_REHEARSAL_DIR reused): the stand-in warning was not exercised this time"
fi
for file in gpu-check.log ctest-junit.xml gpu-suite.json gpu-suite-cold.json gpu-report.html gpu-summary.md gpu-records.tar.gz; do
  [[ -s $out/$file ]] || fail "gpu-check left no $file in \$OUT"
done
archived=$(tar -tzf "$out/gpu-records.tar.gz") || fail "gpu-records.tar.gz cannot be listed"
grep -qx './gpu-energy.json' <<<"$archived" || fail "gpu-records.tar.gz does not hold the energy step's record"
grep -q '^- Energy: ' "$out/gpu-summary.md" || fail "gpu-summary.md has no energy verdict"
count=$(find "$out" -type f | wc -l)
((count <= 8)) || fail "gpu-check left $count files in \$OUT: at most 8 come back"
big=$(find "$out" -type f -size +16M)
[[ -z $big ]] || fail "over the 16 MiB that come back per file: $big"

# The GPU-tests step ran the gpu-labelled tests, every one of them, and no other.
python3 - "$out/ctest-junit.xml" "$tree/build-gpu" <<'PY' || fail "the GPU-tests step did not run exactly the gpu-labelled tests (above)"
import json, subprocess, sys
import xml.etree.ElementTree as ET
ran = {case.get("name") for case in ET.parse(sys.argv[1]).getroot().iter("testcase")}
shown = json.loads(subprocess.run(["ctest", "--test-dir", sys.argv[2], "--show-only=json-v1"], capture_output=True,
                                  text=True, check=True).stdout)["tests"]
labelled = {t["name"] for t in shown
            if "gpu" in next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])}
extra, missing = sorted(ran - labelled), sorted(labelled - ran)
for name in extra:
    print(f"rehearsal: {name} ran in the GPU-tests step without the label gpu")
for name in missing:
    print(f"rehearsal: {name} is labelled gpu but did not run in the GPU-tests step")
print(f"rehearsal: the GPU-tests step ran {len(ran)} tests, {len(labelled)} are labelled gpu")
sys.exit(1 if extra or missing else 0)
PY

# The plan on the device: each step's CPU time here (which the other builds on a shared machine do
# not inflate, as they do the wall time), the build's divided among the device's 16 cores, within
# its cap of the 8-minute plan (the caps in scripts/gpu-check, unstretched). Configure runs mostly
# on one core: its wall time counts. A step that waits without using the CPU would read short here;
# without a device, none does.
python3 - "$out/gpu-check.log" "$tree/scripts/gpu-check" <<'PY' || fail "a step would overrun its cap on the device (above)"
import re, sys
log, script = open(sys.argv[1]).read(), open(sys.argv[2]).read()
caps = {k: int(v) for k, v in re.findall(r"\[([a-z-]+)\]=([0-9]+)", script.split("declare -A caps=(", 1)[1].split(")", 1)[0])}
budget = int(re.search(r"^default_budget=([0-9]+)$", script, re.M).group(1))
took = {k: (int(w), int(c)) for k, w, c in re.findall(r"^gpu-check:   ([a-z-]+) +([0-9]+)s +([0-9]+)s cpu  ", log, re.M)}
over, total = [], 0.0
for name, cap in caps.items():
    if name not in took:
        over.append(f"{name}: did not run")
        continue
    wall, cpu = took[name]
    projected = cpu / 16 if name == "build" else wall if name == "configure" else cpu
    total += projected
    print(f"rehearsal: {name:<10} {wall:5d}s wall, {cpu:5d}s cpu here; {projected:6.1f}s projected, cap {cap}s")
    if projected > cap:
        over.append(f"{name}: {projected:.0f}s projected against a cap of {cap}s")
print(f"rehearsal: {total:.0f}s projected of the {budget}s plan")
for line in over:
    print("rehearsal: " + line)
sys.exit(1 if over or total > budget else 0)
PY
log "PASSED in $((SECONDS - started))s: $(grep -c '<testcase' "$out/ctest-junit.xml") tests, results $(cd "$out" && ls | paste -sd' ')"
