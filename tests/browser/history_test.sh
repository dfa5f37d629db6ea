#!/usr/bin/env bash
# The history page (report/history_page.h) in a real browser: twelve generated records, the last four
# with three benchmarks 20% slower, so that the page has three change points to list first.
#   history_test.sh GBX SCALE_RECORD NODE_MODULES_DIR SCREENSHOT_DIR
set -u
gbx=$1 make_record=$2 node_modules=$3 artefacts=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/browser_prerequisites.sh"
gbx_require_browser "$node_modules"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for seed in $(seq 1 12); do
  "$make_record" 20 100 "$dir/run$seed.json" "$seed" 1 $((seed > 8 ? 3 : 0)) || fail "record $seed"
done
"$gbx" report "$dir"/run*.json -o "$dir/history.html" --assets "$node_modules" >"$dir/out" 2>&1 ||
  fail "gbx report over 12 records: $(cat "$dir/out")"
grep -q '<h1>gbx history: 12 runs, 20 benchmarks</h1>' "$dir/history.html" || fail "not the history page"
mkdir -p "$artefacts"
node "$here/check_history.mjs" --page "$dir/history.html" --screenshot "$artefacts/history-12runs.png" \
  --benchmarks 20 --changes 3 || fail "the history page does not render as it must"
echo "screenshot: $artefacts/history-12runs.png"
