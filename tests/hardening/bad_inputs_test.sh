#!/usr/bin/env bash
# Every bad input to verify, compare, pareto and report exits 2 naming the file and the fault (the
# crashers of issue 13, kept in tests/fuzz/corpus); bad flags exit 2; writes that fail are failures;
# and no finished run is lost to invalid UTF-8 or a closed pipe.
set -u
gbx=$1 bench=$2 corpus=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Runs a command, keeping its exit code in $code and its stderr in $dir/err.
run() { "$@" >"$dir/out" 2>"$dir/err"; code=$?; }

"$bench" --benchmark_filter='/n:4096/' --gbx_min_samples=6 --gbx_warmup=1 --benchmark_out="$dir/good.json" \
  >/dev/null 2>&1 || fail "bench run failed"

# The crashers: each command exits 2 (verify: 2, or 1 when only the seal is wrong), names the file,
# and never aborts. The seeds are readable.
for input in "$corpus"/crash-*.json; do
  name=$(basename "$input")
  for command in compare pareto report; do
    case $command in
      compare) run "$gbx" compare "$dir/good.json" "$input" ;;
      pareto) run "$gbx" pareto "$input" ;;
      report) run "$gbx" report "$input" --format=markdown ;;
    esac
    [[ $code -eq 2 ]] || fail "$command $name: exit $code, not 2: $(cat "$dir/err")"
    grep -qF "$input" "$dir/err" || fail "$command $name: the message does not name the file: $(cat "$dir/err")"
  done
  run "$gbx" verify "$input"
  [[ $code -eq 1 || $code -eq 2 ]] || fail "verify $name: exit $code: $(cat "$dir/err")"
done
grep -q 'beyond the range of a double' <("$gbx" pareto "$corpus/crash-number-overflow.json" 2>&1) || fail "1e999 not named"
grep -q 'nesting deeper' <("$gbx" verify "$corpus/crash-deep-nesting.json" 2>&1) || fail "deep nesting not named by verify"
grep -q '"benchmarks" appears twice' <("$gbx" verify "$corpus/crash-duplicate-benchmarks.json" 2>&1) ||
  fail "verify accepts a duplicate benchmarks array"
grep -q 'gbx.problem has the wrong type (number)' <("$gbx" report "$corpus/crash-wrong-type-problem.json" 2>&1) ||
  fail "a wrong-typed problem is not named"
run "$gbx" pareto "$dir"
[[ $code -eq 2 ]] && grep -q 'a directory' "$dir/err" || fail "a directory as input: exit $code, $(cat "$dir/err")"

# A valid record whose benchmarks were all skipped is accepted; compare cannot decide (3).
skipped=$corpus/seed-skipped-only.json
run "$gbx" pareto "$skipped"
[[ $code -eq 0 ]] || fail "pareto refuses a skipped-only record: $(cat "$dir/err")"
run "$gbx" report "$skipped" --format=markdown
[[ $code -eq 0 ]] && grep -q skipped "$dir/out" || fail "report refuses a skipped-only record: $(cat "$dir/err")"
run "$gbx" compare "$skipped" "$dir/good.json"
[[ $code -eq 3 ]] && grep -q 'nothing to compare' "$dir/err" || fail "compare on a skipped-only record: exit $code"

# NaN thresholds would turn the gate off.
for flag in --fdr=nan --noise-band=nan --fdr=inf; do
  run "$gbx" compare "$dir/good.json" "$dir/good.json" "$flag"
  [[ $code -eq 2 ]] || fail "$flag accepted (exit $code)"
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
  for command in "verify $dir/good.json" "env" "report $dir/good.json --format=markdown" "pareto $dir/good.json"; do
    # shellcheck disable=SC2086
    "$gbx" $command >/dev/full 2>"$dir/err"
    code=$?
    [[ $code -ne 0 ]] || fail "gbx $command into /dev/full exits 0"
    grep -q 'cannot write to standard output' "$dir/err" || fail "gbx $command: $(cat "$dir/err")"
  done
fi

# Invalid UTF-8 in the environment or argv: printed or recorded with U+FFFD, never lost.
run env GBX_TEST_BAD=$'\xff' "$gbx" env
[[ $code -eq 0 ]] || fail "gbx env with invalid UTF-8 in the environment: exit $code: $(cat "$dir/err")"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$dir/out" || fail "gbx env printed invalid JSON"
run env OPENBLAS_BAD=$'\xfe' "$bench" --benchmark_filter=$'naive/n:4096/|\xff' --gbx_min_samples=5 --gbx_warmup=1 \
  --benchmark_out="$dir/utf8.json"
[[ $code -eq 0 ]] || fail "bench with invalid UTF-8 in argv: exit $code: $(cat "$dir/err")"
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
  run "$bench" --benchmark_repetitions="$value" --benchmark_filter=none
  [[ $code -eq 2 ]] && grep -q 'benchmark_repetitions' "$dir/err" || fail "--benchmark_repetitions=$value: exit $code"
done
run "$bench" --benchmark_filter='^no such benchmark$'
[[ $code -eq 2 ]] && grep -q 'no benchmark matched' "$dir/err" || fail "a filter matching nothing: exit $code: $(cat "$dir/err")"
echo "bad inputs refused, runs kept"
