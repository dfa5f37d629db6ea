#!/usr/bin/env bash
# The gbx tool's command-line conventions (issue 14): --version and version, an unknown subcommand
# named with the list, - as standard input wherever a record is read, every error prefixed with its
# subcommand, and colour on a terminal only, with NO_COLOR honoured.
# Usage: gbx_cli_test.sh path/to/gbx path/to/a/sealed/record.json
set -u
gbx=$(realpath "${1:?usage: gbx_cli_test.sh GBX RECORD}") record=$(realpath "${2:?usage: gbx_cli_test.sh GBX RECORD}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() {
  "$@" >"$dir/out" 2>"$dir/err"
  code=$?
}

echo "case: --version and version"
for form in --version version; do
  run "$gbx" "$form"
  [[ $code -eq 0 ]] || fail "gbx $form: exit $code"
  grep -Eq '^gbx [0-9]+\.[0-9]+\.[0-9]+$' "$dir/out" || fail "gbx $form: no version: $(cat "$dir/out")"
  grep -Eq '^source commit: ([0-9a-f]{40}|unknown)' "$dir/out" || fail "gbx $form: no commit: $(cat "$dir/out")"
  grep -Eq '^Google Benchmark: [0-9]+\.[0-9]+' "$dir/out" || fail "gbx $form: no Google Benchmark: $(cat "$dir/out")"
done

echo "case: an unknown subcommand is named, with the list"
run "$gbx" bogus "$record"
[[ $code -eq 2 ]] || fail "gbx bogus: exit $code"
grep -q "unknown subcommand 'bogus'" "$dir/err" || fail "bogus not named: $(cat "$dir/err")"
grep -q "verify, compare, ab, env, pareto, report, trend, merge, slurm, version" "$dir/err" || fail "no list: $(cat "$dir/err")"
run "$gbx"
[[ $code -eq 2 ]] && grep -q "a subcommand is required: verify, compare" "$dir/err" || fail "no subcommand: $(cat "$dir/err")"

echo "case: every error carries its subcommand's prefix"
check_prefix() {  # PREFIX ARGS...
  local prefix=$1
  shift
  run "$gbx" "$@"
  [[ $code -eq 2 ]] || fail "gbx $*: exit $code"
  grep -q "^$prefix: " "$dir/err" || fail "gbx $*: no '$prefix:' prefix: $(cat "$dir/err")"
}
check_prefix "gbx compare" compare "$record"
check_prefix "gbx compare" compare --fdr=nan "$record" "$record"
check_prefix "gbx compare" compare --bogus "$record" "$record"
check_prefix "gbx verify" verify
check_prefix "gbx verify" verify "$dir/missing.json"
check_prefix "gbx pareto" pareto
check_prefix "gbx report" report
check_prefix "gbx report" report --format=pdf "$record"
check_prefix "gbx ab" ab --base x
check_prefix "gbx env" env --bogus
check_prefix "gbx" --bogus

echo "case: - reads standard input"
run "$gbx" verify - <"$record"
[[ $code -eq 0 ]] && grep -q '^-: intact' "$dir/out" || fail "verify -: exit $code: $(cat "$dir/out" "$dir/err")"
run "$gbx" pareto --format=json - <"$record"
[[ $code -eq 0 ]] || fail "pareto -: exit $code: $(cat "$dir/err")"
run "$gbx" report --format=markdown - <"$record"
[[ $code -eq 0 ]] && grep -q '^# gbx report' "$dir/out" || fail "report -: exit $code: $(cat "$dir/err")"
run "$gbx" compare - "$record" <"$record"
[[ $code -eq 0 || $code -eq 3 ]] || fail "compare - FILE: exit $code: $(cat "$dir/err")"
run "$gbx" compare - - <"$record"
[[ $code -eq 2 ]] && grep -q "^gbx compare: - (standard input) is given twice" "$dir/err" || fail "compare - -: $(cat "$dir/err")"
run "$gbx" verify - </dev/null
[[ $code -eq 2 ]] && grep -q "^gbx verify: -: standard input is empty" "$dir/err" || fail "empty stdin: $(cat "$dir/err")"

echo "case: colour on a terminal only, and never with NO_COLOR"
python3 - "$dir" <<'PY'
import json, random, sys
random.seed(7)
def record(scale):
    rows = []
    for i in range(100):
        rows.append({"name": "moved", "run_name": "moved", "run_type": "iteration", "repetitions": 100,
                     "repetition_index": i, "threads": 1, "iterations": 1000,
                     "real_time": 1000.0 * scale * random.lognormvariate(0, 0.01),
                     "cpu_time": 1000.0, "time_unit": "ns", "family_index": 0, "per_family_instance_index": 0})
    return {"context": {"caches": []}, "benchmarks": rows}
json.dump(record(1.0), open(sys.argv[1] + "/base.json", "w"))
json.dump(record(1.10), open(sys.argv[1] + "/slower.json", "w"))
PY
esc=$'\033['
compare="$gbx compare $dir/base.json $dir/slower.json"
script -qec "$compare" /dev/null >"$dir/tty" </dev/null
grep -qF "${esc}33munreplicated${esc}0m" "$dir/tty" || fail "no colour on a terminal: $(cat -v "$dir/tty")"
NO_COLOR=1 script -qec "$compare" /dev/null >"$dir/tty" </dev/null
if grep -qF "${esc}3" "$dir/tty"; then fail "colour despite NO_COLOR: $(cat -v "$dir/tty")"; fi
TERM=dumb script -qec "$compare" /dev/null >"$dir/tty" </dev/null
if grep -qF "${esc}3" "$dir/tty"; then fail "colour on TERM=dumb: $(cat -v "$dir/tty")"; fi
$compare >"$dir/pipe" 2>&1
grep -q "unreplicated" "$dir/pipe" || fail "no verdict: $(cat "$dir/pipe")"
if grep -qF "$esc" "$dir/pipe"; then fail "colour into a pipe: $(cat -v "$dir/pipe")"; fi
echo "PASS"
