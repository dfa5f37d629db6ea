#!/usr/bin/env bash
# Shared by scripts/bench, scripts/test and scripts/gpu-check: install what is missing, configure, build.
set -euo pipefail

GBX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GBX_BUILD_DIR=${GBX_BUILD_DIR:-$GBX_ROOT/build}

# Debian packages the build and the tests need. The CUDA toolkit comes from NVIDIA, not Debian.
GBX_DEBIAN_PACKAGES=(
  cmake ninja-build g++ pkg-config git ccache
  libbenchmark-dev libgtest-dev libgmock-dev
  libboost-dev nlohmann-json3-dev libcli11-dev
  libssl-dev libopenblas-dev
  python3 python3-jsonschema clang-format-14 clang-tidy-14
)

# A single-node Slurm cluster for tests/scale_out/slurm_test.sh (docs/scale-out.md); only the tests need it.
GBX_SLURM_PACKAGES=(slurmctld slurmd slurm-client munge)

# The sanitizer and fuzz jobs' compiler: clang, its libFuzzer and its sanitizer runtimes (gbx_build_sanitized).
GBX_FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev)

gbx_log() { printf 'gbx: %s\n' "$*" >&2; }

# Runs one step of a job and says how long it took, and how long the job has run: CI shows only the
# end of its output, and a job that ran out of time must still say where the time went. With
# GBX_STEP_LOG set, each step's line is also appended there (.ci/run prints them all at the end).
gbx_step() {
  local name=$1 started=$SECONDS code=0
  shift
  gbx_log "step $name: started at ${SECONDS}s"
  # A subshell outside any || list, so that set -e holds inside the step's own functions.
  set +e
  (
    set -e
    "$@"
  )
  code=$?
  set -e
  local line="step $name: $((SECONDS - started))s (exit $code; ${SECONDS}s since the job started)"
  gbx_log "$line"
  [[ -z ${GBX_STEP_LOG:-} ]] || echo "$line" >>"$GBX_STEP_LOG"
  return "$code"
}

# Installs only the packages that are missing, so a machine that has everything makes no apt call.
gbx_install_deps() { gbx_install_missing "${GBX_DEBIAN_PACKAGES[@]}"; }

# Installs those of the given packages that are missing; no apt call when none is.
gbx_install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    gbx_have_package "$pkg" || missing+=("$pkg")
  done
  gbx_apt_install "${missing[@]}"
}

gbx_have_package() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == 'install ok installed' ]]; }

# apt-get install as root, or through sudo; no apt call at all when given no package.
gbx_apt_install() {
  if (($# == 0)); then
    return 0
  fi
  command -v apt-get >/dev/null || { gbx_log "missing packages ($*) and no apt-get"; return 1; }
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { gbx_log "missing packages ($*): run as root or install sudo"; return 1; }
    sudo=(sudo)
  fi
  gbx_log "installing $*"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The npm packages gbx report inlines (Vega, Vega-Lite) and the browser test drives (playwright-core),
# pinned by report/package-lock.json. npm writes node_modules/.package-lock.json last, so an
# install that is missing, interrupted or older than the lock is redone; a current one is left alone.
gbx_install_report_assets() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    gbx_apt_install nodejs npm
  fi
  local dir=$GBX_ROOT/report
  local stamp=$dir/node_modules/.package-lock.json
  if [[ -f $stamp && ! $dir/package-lock.json -nt $stamp ]]; then
    return 0
  fi
  gbx_log "installing the report's npm packages into $dir/node_modules"
  npm ci --prefix "$dir" --no-audit --no-fund >&2
}

# What the export tests check gbx export's files with (Ajv for Bencher's JSON Schema, zod for
# github-action-benchmark's parser), pinned by tests/export/package-lock.json; redone as above.
gbx_install_export_checkers() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    gbx_apt_install nodejs npm
  fi
  local dir=$GBX_ROOT/tests/export
  local stamp=$dir/node_modules/.package-lock.json
  if [[ -f $stamp && ! $dir/package-lock.json -nt $stamp ]]; then
    return 0
  fi
  gbx_log "installing the export tests' npm packages into $dir/node_modules"
  npm ci --prefix "$dir" --no-audit --no-fund >&2
}

# Headless Chromium for the browser test of the HTML report, and GNU time (/usr/bin/time) for the test
# of its peak memory; only the tests need them.
gbx_install_browser() {
  gbx_have_package chromium || gbx_apt_install chromium
  gbx_have_package time || gbx_apt_install time
}

gbx_install_slurm() { gbx_install_missing "${GBX_SLURM_PACKAGES[@]}"; }

# Finds nvcc where NVIDIA installs it when it is not on PATH.
gbx_find_cuda() {
  if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
  fi
}

# ccache for every build of the checkout (GBX_CCACHE=0: none). The base directory makes the compile
# commands of build/, build-gb-1.9.5/ and the others relative, so that one build's objects serve the
# next wherever the flags and the preprocessed source agree: CI's Google Benchmark 1.9.5 build then
# compiles only the files that include Google Benchmark's header. The sloppiness lets a fresh clone's
# headers (written seconds ago) be hashed in ccache's direct mode.
gbx_use_ccache() {
  [[ ${GBX_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null || return 1
  export CCACHE_BASEDIR=$GBX_ROOT CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-include_file_mtime,include_file_ctime}
}

# The sanitizer and fuzz jobs' one build (scripts/sanitize, scripts/fuzz), in $GBX_BUILD_DIR: clang
# with AddressSanitizer and UndefinedBehaviorSanitizer everywhere, libFuzzer in tests/fuzz's targets
# and its coverage in the layers they read records through (GBX_FUZZ), CUDA off (the CUDA runtime and
# ASan's shadow memory do not mix). -O1, as the sanitizers' documentation advises: it compiles about twice as fast as -O3 and still
# inlines enough for the tests to run in reasonable time. clang's warnings are not errors here:
# GCC 12's are, in every other build.
gbx_build_sanitized() {
  gbx_install_deps
  gbx_install_missing "${GBX_FUZZ_PACKAGES[@]}"
  gbx_build -DCMAKE_CXX_COMPILER=clang++-14 -DGBX_CUDA=OFF -DGBX_FUZZ=ON -DGBX_WERROR=OFF \
    -DGBX_SANITIZE=address,undefined "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
}

# Configures once and rebuilds only what changed; extra arguments go to cmake's configure step.
# GBX_BUILD_TARGETS (space-separated) builds only those targets, and what they need.
gbx_build() {
  gbx_find_cuda
  local launcher=()
  if gbx_use_ccache; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  fi
  if [[ ! -f $GBX_BUILD_DIR/CMakeCache.txt ]]; then
    cmake -S "$GBX_ROOT" -B "$GBX_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
  elif (($# > 0)); then
    cmake "$GBX_BUILD_DIR" "$@"
  fi
  local targets=()
  if [[ -n ${GBX_BUILD_TARGETS:-} ]]; then
    read -r -a targets <<<"$GBX_BUILD_TARGETS"
    targets=(--target "${targets[@]}")
  fi
  cmake --build "$GBX_BUILD_DIR" --parallel "$(nproc)" "${targets[@]}"
}
