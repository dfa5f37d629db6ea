#!/usr/bin/env bash
# A record written before the layout move (issue 11) by main's bench_reduce at 3cf0708 (its
# gbx.environment.source.commit), kept in fixtures/: today's gbx still verifies, compares,
# analyses and reports it.
# Usage: pre_layout_record_test.sh GBX RECORD NODE_MODULES WORK_DIR
set -eo pipefail
source "$(dirname "$0")/../support/output_match.sh"
gbx=$1 record=$2 node_modules=$3 work=$4
rm -rf "$work"
mkdir -p "$work"

"$gbx" verify "$record"

# Against itself every benchmark is found on both sides; 0 (no change) or 3 (a one-process record
# cannot establish a change) are answers, 2 would be a refusal to read it.
rc=0
"$gbx" compare "$record" "$record" >"$work/compare.txt" 2>&1 || rc=$?
[[ $rc == 0 || $rc == 3 ]] || { cat "$work/compare.txt"; echo "gbx compare exited $rc" >&2; exit 1; }
expect_output "compare finds both sides" "$work/compare.txt" '^reduce/naive/n:4096 .* same$'
expect_output "compare finds both sides" "$work/compare.txt" '^reduce/kahan/n:4096 .* same$'

"$gbx" pareto --format=json "$record" >"$work/pareto.json"
python3 -c 'import json, sys; groups = json.load(open(sys.argv[1])); assert groups, groups' "$work/pareto.json"

"$gbx" report --format=markdown "$record" -o "$work/report.md"
expect_output "the Markdown report" "$work/report.md" 'reduce/naive'
if [[ -d $node_modules/vega ]]; then
  "$gbx" report --assets "$node_modules" "$record" -o "$work/report.html"
  expect_output "the HTML report" "$work/report.html" 'reduce/kahan'
fi
echo "ok: $record verifies, compares, analyses and reports"
