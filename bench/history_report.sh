#!/usr/bin/env bash
# The history page's time and peak memory (issue 25): RUNS records of BENCHMARKS benchmarks x SAMPLES
# samples each, the last tenth with a tenth of the benchmarks 20% slower, then `gbx report` over all
# of them once:
#   bench/history_report.sh BUILD_DIR [RUNS=100] [BENCHMARKS=100] [SAMPLES=1000]
# Prints the records' total size, the wall time, the peak resident size (/usr/bin/time -v) and the
# page's size. Needs the targets gbx and report_scale_record built.
set -eu
build=${1:?usage: bench/history_report.sh BUILD_DIR [RUNS] [BENCHMARKS] [SAMPLES]}
runs=${2:-100} benchmarks=${3:-100} samples=${4:-1000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for seed in $(seq 1 "$runs"); do
  slower=0
  ((seed > runs - runs / 10)) && slower=$((benchmarks / 10))
  "$build/tests/report/report_scale_record" "$benchmarks" "$samples" "$dir/run$(printf %04d "$seed").json" "$seed" 1 "$slower"
done
assets=${GBX_REPORT_ASSETS:-$(cd "$(dirname "$0")/.." && pwd)/report/node_modules}
/usr/bin/time -v "$build/cli/gbx" report "$dir"/run*.json -o "$dir/history.html" --assets "$assets" \
  >"$dir/out" 2>"$dir/time" || { cat "$dir/out" "$dir/time"; exit 1; }
wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time")
peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$dir/time")
user=$(sed -n 's/^[[:space:]]*User time (seconds): //p' "$dir/time")
record_bytes=$(cat "$dir"/run*.json | wc -c)
html_bytes=$(wc -c <"$dir/history.html")
changes=$(grep -o '<tr class="gbx-slower"' "$dir/history.html" | wc -l)
awk -v n="$runs" -v b="$benchmarks" -v s="$samples" -v r="$record_bytes" -v w="$wall" -v u="$user" -v p="$peak_kb" \
  -v h="$html_bytes" -v c="$changes" 'BEGIN {
    printf "%d records x %d benchmarks x %d samples: records %.1f MB, wall %s, user %.2f s, peak RSS %.1f MB, page %.1f MB, %d slower steps listed\n",
      n, b, s, r / 1e6, w, u, p * 1024 / 1e6, h / 1e6, c }'
