#!/usr/bin/env bash
# The HTML report's memory stays within a small multiple of its records' size (issue 13 item 8):
# 300 benchmarks x 1000 samples (about 12 MB of record), reported over one and over two records.
# The bound is loose on purpose (a memory figure, never a time). bench/report_memory.sh prints the
# figures at full scale.
#   report_memory_test.sh GBX REPORT_SCALE_RECORD
source "$(dirname "$0")/../support/output_match.sh"
gbx=$1 generate=$2
[[ -x /usr/bin/time ]] || { echo "SKIPPED: /usr/bin/time (Debian package time) is not installed"; exit 77; }
# AddressSanitizer's shadow memory and quarantine multiply every allocation: no bound on our own use holds.
# GCC links its runtime as libasan.so; clang links it in statically, where its symbols name it.
if ldd "$gbx" 2>/dev/null | grep -q 'libasan' || nm -D "$gbx" 2>/dev/null | grep -q ' __asan_init$'; then
  echo "SKIPPED: gbx is built with AddressSanitizer (the sanitizer job), whose memory is not gbx's"
  exit 77
fi
# The charting libraries are not what is measured: small stand-ins.
mkdir -p "$dir/modules/vega/build" "$dir/modules/vega-lite/build"
echo 'var vega = {};' >"$dir/modules/vega/build/vega.min.js"
echo 'var vegaLite = {};' >"$dir/modules/vega-lite/build/vega-lite.min.js"
for seed in 1 2; do
  "$generate" 300 1000 "$dir/run$seed.json" "$seed" || fail "cannot generate record $seed"
done
# The bound: 8 times the records' size, plus 40 MB for the program itself (its libraries, the page's
# fixed part). Before the fix, one record took 60 times its size here.
limit=8 fixed_kb=40000
for runs in 1 2; do
  records=("$dir/run1.json")
  [[ $runs -eq 2 ]] && records+=("$dir/run2.json")
  /usr/bin/time -v "$gbx" report "${records[@]}" -o "$dir/report.html" --assets "$dir/modules" \
    >"$dir/out" 2>"$dir/time" || fail "gbx report over $runs record(s): $(cat "$dir/out" "$dir/time")"
  peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$dir/time")
  bytes=$(cat "${records[@]}" | wc -c)
  ratio=$(awk -v p="$peak_kb" -v b="$bytes" 'BEGIN { printf "%.1f", p * 1024 / b }')
  echo "$runs record(s), $((bytes / 1000000)) MB: peak resident $((peak_kb / 1000)) MB, ${ratio}x the records"
  awk -v p="$peak_kb" -v b="$bytes" -v l="$limit" -v f="$fixed_kb" 'BEGIN { exit !((p - f) * 1024 <= l * b) }' ||
    fail "the report over $runs record(s) peaked at ${ratio}x its records' size; the bound is ${limit}x + 40 MB"
done
echo "the report's memory stays within ${limit}x its records' size + 40 MB"
