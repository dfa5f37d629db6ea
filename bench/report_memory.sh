#!/usr/bin/env bash
# The HTML report's peak memory against the record's size (issue 13 item 8), over one to RUNS records
# of BENCHMARKS benchmarks x SAMPLES samples each:
#   bench/report_memory.sh BUILD_DIR [BENCHMARKS=1000] [SAMPLES=1000] [RUNS=3]
# Prints, per report: the runs, the records' total size, the peak resident size (/usr/bin/time -v),
# their ratio and the HTML's size. Needs the targets gbx and report_scale_record built.
set -eu
build=${1:?usage: bench/report_memory.sh BUILD_DIR [BENCHMARKS] [SAMPLES] [RUNS]}
benchmarks=${2:-1000} samples=${3:-1000} runs=${4:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
records=()
for seed in $(seq 1 "$runs"); do
  "$build/tests/report/report_scale_record" "$benchmarks" "$samples" "$dir/run$seed.json" "$seed"
  records+=("$dir/run$seed.json")
done
assets=${GBX_REPORT_ASSETS:-$(cd "$(dirname "$0")/.." && pwd)/report/node_modules}
printf '%-5s %12s %12s %7s %12s\n' runs record_MB peak_RSS_MB ratio html_MB
for n in $(seq 1 "$runs"); do
  /usr/bin/time -v "$build/cli/gbx" report "${records[@]:0:n}" -o "$dir/report.html" --assets "$assets" \
    >"$dir/out" 2>"$dir/time" || { cat "$dir/out" "$dir/time"; exit 1; }
  peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$dir/time")
  record_bytes=$(cat "${records[@]:0:n}" | wc -c)
  html_bytes=$(wc -c <"$dir/report.html")
  awk -v n="$n" -v r="$record_bytes" -v p="$peak_kb" -v h="$html_bytes" \
    'BEGIN { printf "%-5d %12.1f %12.1f %7.1f %12.1f\n", n, r / 1e6, p * 1024 / 1e6, p * 1024 / r, h / 1e6 }'
done
