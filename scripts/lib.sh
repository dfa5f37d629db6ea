#!/usr/bin/env bash
# Shared by scripts/bench, scripts/test and scripts/gpu-check: install what is missing, configure, build.
set -euo pipefail

GBX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GBX_BUILD_DIR=${GBX_BUILD_DIR:-$GBX_ROOT/build}

# Debian packages the build and the tests need. The CUDA toolkit comes from NVIDIA, not Debian.
GBX_DEBIAN_PACKAGES=(
  cmake ninja-build g++ pkg-config git
  libbenchmark-dev libgtest-dev libgmock-dev
  libboost-dev nlohmann-json3-dev libcli11-dev
  libssl-dev libopenblas-dev libfmt-dev
  python3 python3-jsonschema
)

gbx_log() { printf 'gbx: %s\n' "$*" >&2; }

# Installs only the packages that are missing, so a machine that has everything makes no apt call.
gbx_install_deps() {
  local missing=() pkg
  for pkg in "${GBX_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  command -v apt-get >/dev/null || { gbx_log "missing packages (${missing[*]}) and no apt-get"; return 1; }
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { gbx_log "missing packages (${missing[*]}): run as root or install sudo"; return 1; }
    sudo=(sudo)
  fi
  gbx_log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Finds nvcc where NVIDIA installs it when it is not on PATH.
gbx_find_cuda() {
  if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
  fi
}

# Configures once and rebuilds only what changed; extra arguments go to cmake's configure step.
gbx_build() {
  gbx_find_cuda
  if [[ ! -f $GBX_BUILD_DIR/CMakeCache.txt ]]; then
    cmake -S "$GBX_ROOT" -B "$GBX_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  elif (($# > 0)); then
    cmake "$GBX_BUILD_DIR" "$@"
  fi
  cmake --build "$GBX_BUILD_DIR" --parallel "$(nproc)"
}
