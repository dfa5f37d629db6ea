#!/usr/bin/env bash
# The README stays a front page: at most LIMIT words as `wc -w` counts them (code included). What does
# not fit belongs in docs/, linked from the README or docs/README.md.
set -euo pipefail
readme=$1/README.md
limit=${2:-1300}
[[ -f $readme ]] || { echo "FAIL: no $readme"; exit 1; }
words=$(wc -w <"$readme")
if ((words > limit)); then
  echo "FAIL: README.md has $words words, over $limit: move a section to docs/ and link it"
  exit 1
fi
echo "README.md has $words words (limit $limit)"
