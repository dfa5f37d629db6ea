#!/usr/bin/env bash
# The report of real runs in a real browser: three short runs of bench_all, the HTML report over
# one, two and three of them, each loaded in headless Chromium by check_report.mjs. The screenshots
# stay in the build tree as artefacts.
#   browser_test.sh BENCH_ALL GBX NODE_MODULES_DIR SCREENSHOT_DIR
set -u
bench=$1 gbx=$2 node_modules=$3 artefacts=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/browser_prerequisites.sh"
gbx_require_browser "$node_modules"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# One problem with several variants (pareto), throughput (the roofline-like chart), little time.
records=()
for run in 1 2 3; do
  "$bench" --benchmark_filter='reduce/.*/n:4096|gemm/(cpu_naive|cpu_blocked|openblas_sgemm|openblas_dgemm)/m:256/|bandwidth/.*/n:65536' \
    --gbx_min_samples=10 --gbx_max_samples=30 --gbx_max_time=0.5 --gbx_out_dir="$dir/runs" >"$dir/out" 2>"$dir/err"
  rc=$?
  # An accuracy failure exits 1 and still writes its record, which the report must show.
  [[ $rc -eq 0 || $rc -eq 1 ]] || fail "bench run $run exited $rc: $(cat "$dir/err")"
  record=$(sed -n 's/^gbx: record written to //p' "$dir/err")
  [[ -f $record ]] || fail "bench run $run wrote no record: $(cat "$dir/err")"
  records+=("$record")
done

# report NAME KINDS RECORD...: writes the report over the records and checks it in the browser.
report() {
  local name=$1 kinds=$2
  shift 2
  local html=$dir/$name.html screenshot=$artefacts/$name.png record_flags=() record
  for record in "$@"; do record_flags+=(--record "$record"); done
  "$gbx" report "$@" -o "$html" --assets "$node_modules" >"$dir/out" 2>&1 ||
    fail "gbx report over $# run(s) exited $?: $(cat "$dir/out")"
  rm -f "$screenshot"
  node "$here/check_report.mjs" --report "$html" --screenshot "$screenshot" "${record_flags[@]}" \
    --expect-kinds "$kinds" || fail "the report over $# run(s) does not render as it must"
  [[ -s $screenshot ]] || fail "no screenshot at $screenshot"
  echo "screenshot: $screenshot"
}

# A sweep along an axis set on the command line (the short form's --gbx_axis): its scaling chart.
"$bench" --benchmark_filter='bandwidth/memcpy/' --gbx_axis=n=2^10:2^16:2 --gbx_min_samples=10 --gbx_max_samples=30 \
  --gbx_max_time=0.5 --gbx_out_dir="$dir/sweep" >"$dir/out" 2>"$dir/err" || fail "the sweep exited $?: $(cat "$dir/err")"
sweep=$(sed -n 's/^gbx: record written to //p' "$dir/err")
[[ -f $sweep ]] || fail "the sweep wrote no record: $(cat "$dir/err")"

report report-1run ecdf,pareto,throughput "${records[0]}"
report report-sweep ecdf,scaling "$sweep"
report report-2runs ecdf,pareto,throughput,compare "${records[0]}" "${records[1]}"
report report-3runs ecdf,pareto,throughput,trend "${records[@]}"
echo "the reports over one, two and three real runs render in Chromium"
