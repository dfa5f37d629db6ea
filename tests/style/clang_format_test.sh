#!/usr/bin/env bash
# Every C++ and CUDA source in the repository is as .clang-format lays it out. A failure names each file;
# `clang-format-14 -i FILE` fixes it.
set -euo pipefail
root=$1
format=$(command -v clang-format-14 || command -v clang-format || true)
[[ -n $format ]] || { echo "SKIP: no clang-format (scripts/lib.sh installs clang-format-14)"; exit 77; }
cd "$root"
# Every folder but the build trees, git's own and npm's: a new layer is checked without an edit here.
mapfile -t files < <(find . \( -path ./.git -o -path './build*' -o -name node_modules -o -path ./.deps \) -prune -o \
  -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) -print | sort)
((${#files[@]} > 100)) || { echo "FAIL: only ${#files[@]} sources found under $root"; exit 1; }
bad=()
for file in "${files[@]}"; do
  "$format" --dry-run --Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done
if ((${#bad[@]} > 0)); then
  printf 'FAIL: not clang-formatted: %s\n' "${bad[@]}"
  exit 1
fi
echo "${#files[@]} sources clang-formatted"
