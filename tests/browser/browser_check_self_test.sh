#!/usr/bin/env bash
# The browser check can fail: pages that each break the HTML contract in one way (a console error, a
# chart whose data is empty, a missing table row, a request off the file, a table that does not sort, an absent chart kind) must
# each fail with the message for that fault, and the same page without the fault must pass. Also a
# results table below the first screen, a page wider than it, and two chart labels that overlap.
#   browser_check_self_test.sh NODE_MODULES_DIR
set -u
node_modules=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/browser_prerequisites.sh"
gbx_require_browser "$node_modules"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
node "$here/fixture_pages.mjs" "$node_modules" "$dir" || fail "cannot write the fixture pages"

# check PAGE EXPECTED_EXIT [KINDS]: runs the checker, leaves its output in $dir/out.
check() {
  node "$here/check_report.mjs" --report "$dir/$1" --screenshot "$dir/${1%.html}.png" \
    --record "$dir/record.json" --expect-kinds "${3:-ecdf,pareto}" >"$dir/out" 2>&1
  local rc=$?
  [[ $rc -eq $2 ]] || fail "$1: exit $rc, expected $2: $(cat "$dir/out")"
}
expect() { grep -qF -- "$1" "$dir/out" || fail "expected '$1' in: $(cat "$dir/out")"; }

check good.html 0
expect "check_report: PASS $dir/good.html: 3 charts (ecdf 2, pareto 1)"
[[ -s $dir/good.png ]] || fail "no screenshot written"
echo "$(head -1 "$dir/out")"

# The faulty pages differ from good.html in one place each, so each must fail for that reason alone.
check console_error.html 1
expect "1 failure(s)"
expect "console error: something broke"
check empty_chart.html 1
expect "1 failure(s)"
expect "chart ecdf-1 (ecdf fake/kahan/n:64/manual_time): rendered empty, no data mark"
check missing_row.html 1
expect "1 failure(s)"
expect "run 0 ($dir/record.json): no table row for fake/kahan/n:64/manual_time"
check network.html 1
expect "network request (the report must be self-contained): http://127.0.0.1:9/logo.png"
check unsortable.html 1
expect 'a click on "Median" did not sort the table ascending'
check buried.html 1
expect "1 failure(s)"
expect "the results table is not visible without scrolling at 1400 x 900"
check wide.html 1
expect "1 failure(s)"
expect "it scrolls sideways at 1400 px"
check overlap.html 1
expect "1 failure(s)"
expect 'chart pareto-1: the point labels "openblas_sgemm" and "cpu_blocked" overlap'
check good.html 1 ecdf,pareto,throughput
expect "1 failure(s)"
expect 'no chart of the expected kind "throughput"'
echo "the browser check fails on a console error, an empty chart, a missing row, a request off the file, a table that does not sort, a buried or too wide results table, overlapping labels and an absent chart kind"
