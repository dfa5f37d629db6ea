#!/usr/bin/env bash
# --gbx_axis as a user meets it on the default suite: a value no benchmark with that axis can run
# (negative, too large to allocate, outside a declared range) exits 2 before anything runs, naming
# the flag, the axis, the value and the fault; n=0 runs; an axis no benchmark has exits 2 naming
# which benchmarks have which axes; a selected benchmark without the axis (a class-form one) runs as
# registered and says so on stderr.
#
# Usage: axis_values_test.sh path/to/bench_all
source "$(dirname "$0")/support/output_match.sh"

bench=$(realpath "${1:?usage: axis_values_test.sh path/to/bench_all}") || exit 1
cd "$dir" || exit 1
quick=(--gbx_min_samples=3 --gbx_warmup=1 --gbx_progress=off)

# refused "WORDS THE MESSAGE MUST CONTAIN" ARGS...: exit 2, each word on stderr, no benchmark run.
refused() {
  local words=$1 word
  shift
  echo "case: refuses $*"
  expect_exit 2 "refuses $*" timeout 120 "$bench" "${quick[@]}" "$@"
  while IFS= read -r word; do
    [[ -z $word ]] || expect_output "refuses $*: the message names '$word'" "$dir/err" "$(literal "$word")"
  done <<<"$words"
  expect_count "refuses $*: no benchmark ran" "$dir/out" 0 'bandwidth/|reduce/'
}

# The README's short form (a power-of-two axis n, host_array<float>(n)): a negative count segfaulted.
refused $'gbx: --gbx_axis=n=-1: bandwidth/memcpy: value -1 for axis \'n\' is below its minimum 0' \
  --benchmark_filter=bandwidth/memcpy --gbx_axis=n=-1
refused $'--gbx_axis=n=4,-8\nvalue -8' --benchmark_filter=bandwidth/memcpy --gbx_axis=n=4,-8
refused $'--gbx_axis=n=2^62\nvalue 4611686018427387904 for axis \'n\' is too large to allocate' \
  --benchmark_filter=bandwidth/memcpy --gbx_axis=n=2^62
# Refused whatever the filter selects: the value is checked against every benchmark with the axis.
refused $'--gbx_axis=n=-1\nminimum 0' --benchmark_filter=reduce/naive --gbx_axis=n=-1
refused $'--gbx_axis=nope=4\nno benchmark has an axis named \'nope\'\nn (bandwidth/memcpy, bandwidth/triad)\nclass-form benchmarks have none' \
  --gbx_axis=nope=4

echo "case: n=0 runs"
expect_exit 0 "n=0" timeout 120 "$bench" "${quick[@]}" --benchmark_filter=bandwidth/memcpy --gbx_axis=n=0
expect_output "n=0 runs" "$dir/out" 'bandwidth/memcpy/n:0 '

# A class-form benchmark has no axes: it runs as registered (its n:4096 is an argument), warned once.
echo "case: a class-form benchmark under --gbx_axis"
expect_exit 0 "class form" timeout 120 "$bench" "${quick[@]}" '--benchmark_filter=^reduce/naive/n:4096/' \
  --benchmark_repetitions=2 --gbx_axis=n=2^10
expect_output "the class-form benchmark ran as registered" "$dir/out" 'reduce/naive/n:4096'
expect_count "warned once" "$dir/err" 1 \
  "$(literal "gbx: --gbx_axis=n=2^10: reduce/naive is a class-form benchmark, which has no axes")"
expect_output "what happens" "$dir/err" "$(literal "it runs as registered")"
echo "PASS"
