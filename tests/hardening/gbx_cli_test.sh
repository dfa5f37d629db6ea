#!/usr/bin/env bash
# The gbx tool's command-line conventions (issue 14): --version and version, an unknown subcommand
# named with the list, - as standard input wherever a record is read, every error prefixed with its
# subcommand, and colour on a terminal only, with NO_COLOR honoured.
# Usage: gbx_cli_test.sh path/to/gbx path/to/a/sealed/record.json
source "$(dirname "$0")/../support/output_match.sh"
gbx=$(realpath "${1:?usage: gbx_cli_test.sh GBX RECORD}") record=$(realpath "${2:?usage: gbx_cli_test.sh GBX RECORD}")

echo "case: --version and version"
for form in --version version; do
  expect_exit 0 "gbx $form" "$gbx" "$form"
  expect_output "gbx $form" "$dir/out" '^gbx [0-9]+\.[0-9]+\.[0-9]+$' '^source commit: ([0-9a-f]{40}|unknown)' \
    '^Google Benchmark: [0-9]+\.[0-9]+'
done

echo "case: an unknown subcommand is named, with the list"
expect_exit 2 "gbx bogus" "$gbx" bogus "$record"
expect_output "gbx bogus: named" "$dir/err" "unknown subcommand 'bogus'"
expect_output "gbx bogus: the list" "$dir/err" "verify, compare, ab, env, pareto, report, trend, merge, slurm, version"
expect_exit 2 "no subcommand" "$gbx"
expect_output "no subcommand" "$dir/err" "a subcommand is required: verify, compare"

echo "case: every error carries its subcommand's prefix"
check_prefix() {  # PREFIX ARGS...
  local prefix=$1
  shift
  expect_exit 2 "gbx $*" "$gbx" "$@"
  expect_output "gbx $*: the '$prefix:' prefix" "$dir/err" "^$prefix: "
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
expect_exit 0 "verify -" "$gbx" verify - <"$record"
expect_output "verify -" "$dir/out" '^-: intact'
expect_exit 0 "pareto -" "$gbx" pareto --format=json - <"$record"
expect_exit 0 "report -" "$gbx" report --format=markdown - <"$record"
expect_output "report -" "$dir/out" '^# gbx report'
"$gbx" compare - "$record" <"$record" >"$dir/out" 2>"$dir/err"
code=$?
[[ $code -eq 0 || $code -eq 3 ]] || fail "compare - FILE: exit $code: $(cat "$dir/err")"
expect_exit 2 "compare - -" "$gbx" compare - - <"$record"
expect_output "compare - -" "$dir/err" '^gbx compare: - \(standard input\) is given twice'
expect_exit 2 "empty stdin" "$gbx" verify - </dev/null
expect_output "empty stdin" "$dir/err" '^gbx verify: -: standard input is empty'

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
expect_output "colour on a terminal" "$dir/tty" "$(literal "${esc}33munreplicated${esc}0m")"
NO_COLOR=1 script -qec "$compare" /dev/null >"$dir/tty" </dev/null
expect_count "colour despite NO_COLOR" "$dir/tty" 0 "$(literal "${esc}3")"
TERM=dumb script -qec "$compare" /dev/null >"$dir/tty" </dev/null
expect_count "colour on TERM=dumb" "$dir/tty" 0 "$(literal "${esc}3")"
$compare >"$dir/pipe" 2>&1
expect_output "a verdict into a pipe" "$dir/pipe" "unreplicated"
expect_count "colour into a pipe" "$dir/pipe" 0 "$(literal "$esc")"
echo "PASS"
