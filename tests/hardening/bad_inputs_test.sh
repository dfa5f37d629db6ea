#!/usr/bin/env bash
# Every bad input to verify, compare, pareto and report exits 2 naming the file and the fault (the
# crashers of issue 13, kept in tests/fuzz/corpus); bad flags exit 2; writes that fail are failures;
# and no finished run is lost to invalid UTF-8 or a closed pipe.
source "$(dirname "$0")/../support/output_match.sh"
gbx=$1 bench=$2 corpus=$3
# Runs a command, keeping its exit code in $code, its stdout in $dir/out and its stderr in $dir/err.
run() { "$@" >"$dir/out" 2>"$dir/err"; code=$?; }

"$bench" --benchmark_filter='/n:4096/' --gbx_min_samples=6 --gbx_warmup=1 --benchmark_out="$dir/good.json" \
  >/dev/null 2>&1 || fail "bench run failed"

# The crashers: each command exits 2 (verify: 2, or 1 when only the seal is wrong), names the file,
# and never aborts. The seeds are readable.
for input in "$corpus"/crash-*.json; do
  name=$(basename "$input")
  for command in compare pareto report; do
    case $command in
      compare) expect_exit 2 "$command $name" "$gbx" compare "$dir/good.json" "$input" ;;
      pareto) expect_exit 2 "$command $name" "$gbx" pareto "$input" ;;
      report) expect_exit 2 "$command $name" "$gbx" report "$input" --format=markdown ;;
    esac
    expect_output "$command $name: the message names the file" "$dir/err" "$(literal "$input")"
  done
  run "$gbx" verify "$input"
  [[ $code -eq 1 || $code -eq 2 ]] || fail "verify $name: exit $code: $(cat "$dir/err")"
done
expect_exit 2 "1e999" "$gbx" pareto "$corpus/crash-number-overflow.json"
expect_output "1e999 is named" "$dir/err" 'beyond the range of a double'
run "$gbx" verify "$corpus/crash-deep-nesting.json"
expect_output "deep nesting is named by verify" "$dir/err" 'nesting deeper'
run "$gbx" verify "$corpus/crash-duplicate-benchmarks.json"
expect_output "verify names a duplicate benchmarks array" "$dir/err" '"benchmarks" appears twice'
expect_exit 2 "a wrong-typed problem" "$gbx" report "$corpus/crash-wrong-type-problem.json"
expect_output "a wrong-typed problem is named" "$dir/err" 'gbx\.problem has the wrong type \(number\)'
expect_exit 2 "a directory as input" "$gbx" pareto "$dir"
expect_output "a directory as input" "$dir/err" 'a directory'

# A valid record whose benchmarks were all skipped is accepted; compare cannot decide (3).
skipped=$corpus/seed-skipped-only.json
expect_exit 0 "pareto on a skipped-only record" "$gbx" pareto "$skipped"
expect_exit 0 "report on a skipped-only record" "$gbx" report "$skipped" --format=markdown
expect_output "report on a skipped-only record" "$dir/out" 'skipped'
expect_exit 3 "compare on a skipped-only record" "$gbx" compare "$skipped" "$dir/good.json"
expect_output "compare on a skipped-only record" "$dir/err" 'nothing to compare'

# NaN thresholds would turn the gate off.
for flag in --fdr=nan --noise-band=nan --fdr=inf; do
  expect_exit 2 "$flag" "$gbx" compare "$dir/good.json" "$dir/good.json" "$flag"
done

# -o must not overwrite an input record, nor replace a symbolic link.
cp "$dir/good.json" "$dir/keep.json"
run "$gbx" report "$dir/keep.json" -o "$dir/keep.json"
[[ $code -eq 2 ]] && cmp -s "$dir/good.json" "$dir/keep.json" || fail "report -o over its input: exit $code"
run "$gbx" report "$dir/keep.json" -o "$dir/./keep.json" --format=markdown
[[ $code -eq 2 ]] && cmp -s "$dir/good.json" "$dir/keep.json" || fail "report -o over its input (other spelling)"
touch "$dir/target.html" && ln -s "$dir/target.html" "$dir/link.html"
run "$gbx" report "$dir/good.json" -o "$dir/link.html" --format=markdown
[[ $code -eq 2 && -L $dir/link.html ]] || fail "report -o replaced a symbolic link (exit $code)"

# A full disk on stdout is a failure, not a success.
if [[ -w /dev/full ]]; then
  for command in "verify $dir/good.json" "env $bench" "report $dir/good.json --format=markdown" "pareto $dir/good.json"; do
    # shellcheck disable=SC2086
    "$gbx" $command >/dev/full 2>"$dir/err"
    code=$?
    [[ $code -ne 0 ]] || fail "gbx $command into /dev/full exits 0"
    expect_output "gbx $command into /dev/full" "$dir/err" 'cannot write to standard output'
  done
fi

# Invalid UTF-8 in the environment or argv: printed or recorded with U+FFFD, never lost.
expect_exit 0 "gbx env with invalid UTF-8 in the environment" env GBX_TEST_BAD=$'\xff' "$gbx" env "$bench"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/out" || fail "gbx env printed invalid JSON"
expect_exit 0 "bench with invalid UTF-8 in argv" env OPENBLAS_BAD=$'\xfe' "$bench" \
  --benchmark_filter=$'naive/n:4096/|\xff' --gbx_min_samples=5 --gbx_warmup=1 --benchmark_out="$dir/utf8.json"
"$gbx" verify "$dir/utf8.json" >/dev/null 2>&1 || fail "the record with replaced UTF-8 is not intact"
python3 - "$dir/utf8.json" <<'PY' || fail "the record does not say what was replaced"
import json, sys
record = json.load(open(sys.argv[1]))
replaced = record["gbx"]["invalid_utf8_replaced"]
assert any(p.startswith("/gbx/command/") for p in replaced), replaced
assert "\ufffd" in " ".join(record["gbx"]["command"]), record["gbx"]["command"]
PY

# A closed stdout (| head -1) does not lose the record.
set -o pipefail
"$bench" --benchmark_filter='/n:4096/' --gbx_min_samples=5 --gbx_warmup=1 --gbx_out_dir="$dir/piped" 2>"$dir/err" | head -1 >/dev/null
ls "$dir"/piped/*.json >/dev/null 2>&1 || fail "no record written when stdout closed early: $(cat "$dir/err")"
"$gbx" verify "$dir"/piped/*.json >/dev/null || fail "the record written past a closed pipe is not intact"
set +o pipefail

# A SIGTERM that arrives before the run starts (here: pending from the start) reaches gbx's handler,
# installed first thing: the run ends as interrupted, with a record, not killed without one.
python3 - "$bench" "$dir/early" <<'PY' >/dev/null 2>&1
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
os.kill(os.getpid(), signal.SIGTERM)  # pending, and stays so across exec
os.execv(sys.argv[1], [sys.argv[1], "--benchmark_filter=naive/n:4096/", "--gbx_min_samples=5",
                       "--gbx_out_dir=" + sys.argv[2]])
PY
code=$?
[[ $code -eq 143 ]] || fail "a SIGTERM before the run started: exit $code, not 143"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["gbx"]["interrupted"] is True' "$dir"/early/*.json ||
  fail "no record marked interrupted after an early SIGTERM"

# Google Benchmark aborts on a negative repetition count; gbx refuses it first.
for value in -1 0 x; do
  expect_exit 2 "--benchmark_repetitions=$value" "$bench" --benchmark_repetitions="$value" --benchmark_filter=none
  expect_output "--benchmark_repetitions=$value" "$dir/err" 'benchmark_repetitions'
done
expect_exit 2 "a filter matching nothing" "$bench" --benchmark_filter='^no such benchmark$'
expect_output "a filter matching nothing" "$dir/err" 'no benchmark matched'
echo "bad inputs refused, runs kept"
