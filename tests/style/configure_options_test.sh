#!/usr/bin/env bash
# Every CMake option that docs/build.md documents configures, alone (at a value other than its
# default) and all together. The options are read from that table, so a documented option without a
# value here fails the test. usage: configure_options_test.sh SOURCE_DIR
set -euo pipefail
root=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

declare -A value=(
  [GBX_CUDA]=OFF
  [GBX_CUDA_ARCHITECTURES]=90-real
  [GBX_BUILD_TESTS]=OFF
  [GBX_BUILD_BENCH]=OFF
  [GBX_WERROR]=OFF
  [GBX_SANITIZE]=address,undefined
  [GBX_FUZZ]=ON
  [GBX_INSTALL_CMAKEDIR]=share/cmake/gbx
)
mapfile -t documented < <(grep -oE '^\| `GBX_[A-Z_]+`' "$root/docs/build.md" | grep -oE 'GBX_[A-Z_]+')
((${#documented[@]} > 0)) || { echo "configure_options: no option table in docs/build.md" >&2; exit 1; }

configure() {
  local name=$1
  shift
  if ! cmake -S "$root" -B "$dir/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >"$dir/$name.log" 2>&1; then
    echo "configure_options: FAIL: cmake $* did not configure:" >&2
    tail -20 "$dir/$name.log" >&2
    exit 1
  fi
  echo "configure_options: $* configures"
  rm -rf "${dir:?}/$name"
}

all=()
for option in "${documented[@]}"; do
  [[ -n ${value[$option]:-} ]] || { echo "configure_options: docs/build.md documents $option, which this test does not know" >&2; exit 1; }
  flags=("-D$option=${value[$option]}")
  # libFuzzer needs clang; without clang-14 here, GBX_FUZZ is configured with GCC, as scripts/fuzz would refuse.
  if [[ $option == GBX_FUZZ ]]; then
    command -v clang++-14 >/dev/null || { echo "configure_options: GBX_FUZZ skipped: no clang++-14"; continue; }
    flags+=(-DCMAKE_CXX_COMPILER=clang++-14)
  fi
  configure "$option" "${flags[@]}"
  [[ $option == GBX_FUZZ ]] || all+=("${flags[@]}")
done
configure all "${all[@]}"
echo "configure_options: ${#documented[@]} documented options configure alone and together"
