#!/usr/bin/env bash
# gbx report end to end: three real runs of bench_reduce; Markdown over one, two and three runs against
# regex cases; HTML over one, two and three runs against the HTML contract (docs/report.md); plain
# Google Benchmark JSON; bad inputs and missing assets (exit 2, the file named, nothing written).
source "$(dirname "$0")/../support/output_match.sh"
gbx=$1 bench=$2 npm_assets=$3
# Matches, not lines: the HTML holds many elements on one line.
occurrences() { grep -o -E -- "$1" "$2" | wc -l; }

# The charting libraries: the npm ones when installed; else stand-ins, since these checks run no script
# (the browser test does). The hostile stand-in holds "</script>", which the report must escape.
fake="$dir/fake_modules"
hostile="$dir/hostile_modules"
mkdir -p "$fake/vega/build" "$fake/vega-lite/build" "$hostile/vega/build" "$hostile/vega-lite/build"
echo 'var vega = {};' >"$fake/vega/build/vega.min.js"
echo 'var vegaLite = {};' >"$fake/vega-lite/build/vega-lite.min.js"
echo 'var vega = {}; var s = "</script><script>alert(1)</SCRIPT>";' >"$hostile/vega/build/vega.min.js"
cp "$fake/vega-lite/build/vega-lite.min.js" "$hostile/vega-lite/build/"
assets=$fake
if [[ -f "$npm_assets/vega/build/vega.min.js" && -f "$npm_assets/vega-lite/build/vega-lite.min.js" ]]; then
  assets=$npm_assets
fi

# Three runs, a second apart so that their dates order them.
mkdir -p "$dir/runs"
for i in 1 2 3; do
  # The load flags ask for reduce/n=4096's sweep: the default suite's own runs only where it is valid on
  # the machine at hand (docs/load.md), which a loaded one is not.
  "$bench" --benchmark_filter='n:4096' --gbx_min_samples=10 --gbx_max_samples=20 --gbx_max_time=0.5 \
    --gbx_concurrency=1,2 --gbx_load_seconds=0.05 \
    --gbx_out_dir="$dir/runs" >"$dir/bench$i.log" 2>&1 || fail "bench run $i: $(tail -5 "$dir/bench$i.log")"
  [[ $i -lt 3 ]] && sleep 1.1
done
runs=("$dir"/runs/*.json)
[[ ${#runs[@]} -eq 3 ]] || fail "expected 3 records, got ${#runs[@]}"
one=("${runs[0]}")
two=("${runs[0]}" "${runs[1]}")
# Out of date order on purpose: the trend orders by date, not by the command line.
three=("${runs[2]}" "${runs[0]}" "${runs[1]}")

# What the records hold, to count against: measured names as the console shows them, and problems
# with two variants or more.
python3 - "${runs[0]}" >"$dir/expected" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
names, problems = [], {}
for b in record["benchmarks"]:
    if b["run_type"] != "iteration" or b.get("error_occurred"):
        continue
    if b["name"] not in names:
        names.append(b["name"])
        problems.setdefault(b["gbx"]["problem"], []).append(b["gbx"]["variant"])
print(len(names), sum(1 for v in problems.values() if len(v) >= 2), len(record["gbx"].get("not_run", [])))
suffix = "/iterations:1/manual_time"  # the console's name drops it (text/benchmark_name.h)
for name in names:
    print(name[: -len(suffix)] if name.endswith(suffix) else name)
PY
read -r measured pareto_problems not_run <"$dir/expected"
mapfile -t names < <(tail -n +2 "$dir/expected")
[[ $measured -ge 4 && $pareto_problems -ge 1 ]] || fail "the runs measured too little: $measured, $pareto_problems"

# ---- Markdown ----
markdown() {
  local out=$1
  shift
  "$gbx" report --format=markdown "$@" >"$out" 2>"$dir/err" || fail "markdown over $#: exit $? $(cat "$dir/err")"
}

for n in 1 2 3; do
  case $n in 1) set -- "${one[@]}" ;; 2) set -- "${two[@]}" ;; 3) set -- "${three[@]}" ;; esac
  md="$dir/report$n.md"
  markdown "$md" "$@"
  expect_output "title" "$md" '^# gbx report$'
  for i in $(seq 1 "$n"); do
    expect_output "run $i header" "$md" "^### Run #$i: \`[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\`$"
  done
  expect_count "one header line per run with its date and checksum status" "$md" "$n" \
    '^File `.*` \| created 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z \| checksum: intact$'
  expect_output "the protocol" "$md" '^\*\*Protocol:\*\* warm-up runs 10; samples 10 to 20;'
  for name in "${names[@]}"; do
    # The Markdown cell escapes '_' (text/escape.h): manual_time reads manual\_time.
    cell=${name//_/\\\\_}
    expect_count "$name: one table row per run with its median and interval" "$md" "$n" \
      "^\| ${cell//|/\\|} \| [0-9.]+ [mun]?s \| \[[0-9.]+ [mun]?s, [0-9.]+ [mun]?s\] \| [0-9.]+% \|"
  done
  expect_output "a Pareto section" "$md" '^### reduce/n=4096$'
  # Names as Markdown escapes them (cuda\_atomic: on a GPU the CUDA variants are in the sentence).
  expect_output "the Pareto conclusion" "$md" '^On reduce/n=4096, [a-z_\\]+( and [a-z_\\]+)* (is|are) on the frontier( \(.*\))?(; [a-z_\\]+ (is dominated by [a-z_\\]+|failed its accuracy check and is left out))*\.$'
  if [[ $n -eq 2 ]]; then
    expect_output "the comparison" "$md" '^## Comparison: #2 against #1$'
    for v in naive pairwise kahan double; do
      expect_output "a verdict row for $v" "$md" "^\| reduce/$v/n:4096 \| [0-9.]+ [mun]?s \| [0-9.]+ [mun]?s \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| (<0.001|[0-9.]+) \| \*\*(faster|slower|same|inconclusive|unreplicated|insufficient)\*\* \|$"
      expect_output "the $v sentence" "$md" "^- reduce/$v/n:4096: (.* faster|.* slower|the same within [^,]*|inconclusive|unreplicated: .*), ratio "
    done
  else
    expect_count "a comparison with $n runs" "$md" 0 '^## Comparison'
  fi
  if [[ $n -eq 3 ]]; then
    expect_output "the trend" "$md" '^## Trend over 3 runs, by date$'
    # The columns follow the dates, not the command line: the first given run is the newest.
    expect_output "trend columns by date" "$md" '^\| Benchmark \| #2 \(.*\) \| #3 \(.*\) \| #1 \(.*\) \| Change \|$'
    for v in naive pairwise kahan double; do
      expect_output "the $v trend sentence" "$md" "^- reduce/$v/n:4096: [0-9.]+ [mun]?s in #2 \(.*\) to [0-9.]+ [mun]?s in #1 \(.*\), [-+][0-9.]+%; the intervals (overlap: no clear change|do not overlap: the change exceeds the sampling noise)\.$"
    done
  else
    expect_count "a trend with $n runs" "$md" 0 '^## Trend'
  fi
  # The results first, the environment last (issue 14): the order of the sections.
  mapfile -t order < <(grep -E '^## ' "$md" | sed 's/^## //;s/ .*//' | head -2; grep -E '^## ' "$md" | sed 's/^## //;s/ .*//' | tail -1)
  [[ "${order[*]}" == "Summary Results Environment" ]] || fail "sections out of order: ${order[*]}"
  if [[ $not_run -gt 0 ]]; then
    # No GPU here: the CUDA reductions are listed as not run, one line per reason in the summary.
    summary_not_run=$(sed -n '/^## Summary$/,/^## Results$/p' "$md" | grep -E '^- [0-9]+ (CUDA )?benchmarks? not run: ' |
      awk '{ sum += $2 } END { print sum + 0 }')
    [[ $summary_not_run -eq $not_run ]] || fail "the summary counts $summary_not_run not run of $not_run"
  fi
  # reduce/n=4096 swept under load (docs/load.md): the last run's knees.
  expect_output "the load section" "$md" '^## Load$'
  expect_output "the pairwise variant's knee" "$md" '^\| pairwise \| (c=[0-9]+|[0-9.]+x|-) \| '
  expect_count "non-finite numbers" "$md" 0 '(^|[^A-Za-z])(NaN|nan|-?inf|Infinity)([^A-Za-z]|$)'
done

# -o writes the file (and Markdown needs no assets).
"$gbx" report --format=markdown --assets "$dir/nowhere" -o "$dir/written.md" "${two[@]}" >"$dir/out" 2>&1 ||
  fail "markdown -o: $(cat "$dir/out")"
cmp -s "$dir/written.md" "$dir/report2.md" || fail "markdown -o differs from stdout"

# ---- HTML ----
for n in 1 2 3; do
  case $n in 1) set -- "${one[@]}" ;; 2) set -- "${two[@]}" ;; 3) set -- "${three[@]}" ;; esac
  html="$dir/report$n.html"
  "$gbx" report --assets "$assets" -o "$html" "$@" >"$dir/out" 2>&1 || fail "html over $n: $(cat "$dir/out")"
  [[ -s "$html" ]] || fail "no HTML written over $n"
  [[ $(occurrences '<script type="application/json" id="gbx-specs">' "$html") -eq 1 ]] || fail "one gbx-specs script"
  kinds() { occurrences "<div class=\"gbx-chart\" id=\"[^\"]+\" data-kind=\"$1\"" "$html"; }
  [[ $(kinds ecdf) -eq $measured ]] || fail "$n runs: $(kinds ecdf) ecdf charts, expected one per benchmark ($measured)"
  [[ $(kinds pareto) -eq $pareto_problems ]] || fail "$n runs: $(kinds pareto) pareto charts, expected $pareto_problems"
  [[ $(kinds throughput) -eq 1 ]] || fail "$n runs: one throughput chart"
  [[ $(kinds load) -eq 1 ]] || fail "$n runs: $(kinds load) latency-throughput charts, expected one (reduce/n=4096)"
  [[ $(occurrences '<section id="load">' "$html") -eq 1 ]] || fail "$n runs: the load section"
  [[ $(kinds compare) -eq $((n == 2 ? 1 : 0)) ]] || fail "$n runs: $(kinds compare) compare charts"
  [[ $(kinds trend) -eq $((n == 3 ? measured : 0)) ]] || fail "$n runs: $(kinds trend) trend charts"
  [[ $(occurrences 'data-kind="ecdf" data-name="reduce/naive/n:4096/iterations:1/manual_time"' "$html") -eq 1 ]] ||
    fail "the ecdf chart names its benchmark"
  for i in $(seq 0 $((n - 1))); do
    [[ $(occurrences "<table class=\"gbx-benchmarks\" data-run=\"$i\">" "$html") -eq 1 ]] || fail "table of run $i"
  done
  [[ $(occurrences '<tr data-name="[^"]+">' "$html") -eq $((n * measured)) ]] ||
    fail "$n runs: $(occurrences '<tr data-name="[^"]+">' "$html") benchmark rows, expected $((n * measured))"
  [[ $(occurrences '(src|href) *= *["'"'"']?(https?:)?//' "$html") -eq 0 ]] || fail "a network src or href"
  [[ $(occurrences '<script' "$html") -eq $(occurrences '</script>' "$html") ]] || fail "an unbalanced script element"
  [[ $(occurrences 'checksum|Checksum' "$html") -ge 1 ]] || fail "the checksum status"
done
expect_count "missing facts for a gbx record" "$dir/report1.html" 0 'class="gbx-missing"'

# The inlined libraries cannot end their script element early.
"$gbx" report --assets "$hostile" -o "$dir/hostile.html" "${one[@]}" >/dev/null 2>&1 || fail "html, hostile assets"
[[ $(occurrences '<\\/script><script>alert\(1\)<\\/SCRIPT>' "$dir/hostile.html") -eq 1 ]] || fail "</script> not escaped"
"$gbx" report --assets "$fake" -o "$dir/fake.html" "${one[@]}" >/dev/null 2>&1 || fail "html with stand-in assets"
# GBX_REPORT_ASSETS is the second place looked in.
GBX_REPORT_ASSETS="$fake" "$gbx" report -o "$dir/env.html" "${one[@]}" >/dev/null 2>&1 || fail "GBX_REPORT_ASSETS"
cmp -s "$dir/env.html" "$dir/fake.html" || fail "GBX_REPORT_ASSETS did not give the same report"

# ---- Plain Google Benchmark JSON: a report of what it holds, and what it lacks ----
python3 - "$dir/plain.json" <<'PY'
import json, random, sys
random.seed(5)
rows = []
for name in ("BM_copy/64", "BM_sort<int>/8"):
    for i in range(8):
        rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 8,
                     "repetition_index": i, "threads": 1, "iterations": 1000,
                     "real_time": 50.0 * random.lognormvariate(0, 0.02), "cpu_time": 50.0, "time_unit": "ns"})
json.dump({"context": {"date": "2026-01-02T03:04:05+01:00", "host_name": "h", "num_cpus": 8, "caches": []},
           "benchmarks": rows}, open(sys.argv[1], "w"))
PY
markdown "$dir/plain.md" "$dir/plain.json"
expect_output "plain checksum status" "$dir/plain.md" 'checksum: none: plain Google Benchmark JSON$'
expect_output "the missing facts" "$dir/plain.md" '^\*\*Missing facts\*\*'
for fact in 'raw samples' 'environment' 'protocol' 'accuracy' 'memory' 'Pareto' 'checksum'; do
  expect_output "missing fact: $fact" "$dir/plain.md" "^- $fact"
done
expect_output "a plain row with n = 8" "$dir/plain.md" '^\| BM\\_copy/64 \| [0-9.]+ ns \| \[.*\] \| .* \| 8 \|'
expect_output "a name escaped for Markdown" "$dir/plain.md" '^\| BM\\_sort&lt;int&gt;/8 \|'
"$gbx" report --assets "$assets" -o "$dir/plain.html" "$dir/plain.json" >/dev/null 2>&1 || fail "plain html"
[[ $(occurrences 'class="gbx-missing"' "$dir/plain.html") -eq 1 ]] || fail "the missing-facts box"
[[ $(occurrences 'data-name="BM_sort&lt;int&gt;/8"' "$dir/plain.html") -ge 2 ]] || fail "names escaped for HTML"

# ---- Bad input: exit 2, the file and the fault named, nothing written ----
good=${runs[0]}
python3 - "$good" "$dir" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d = sys.argv[2]
open(d + "/truncated.json", "w").write(text[:len(text) // 2])
open(d + "/nan.json", "w").write(text.replace('"samples": [', '"samples": [NaN, ', 1))
record = json.loads(text)
record["benchmarks"][0]["gbx"]["samples"][0] *= 2
json.dump(record, open(d + "/tampered.json", "w"), indent=2)
PY
bad() {
  local name=$1 fault=$2
  shift 2
  for format in html markdown; do
    echo old >"$dir/kept.out"
    expect_exit 2 "$name ($format)" "$gbx" report --format=$format --assets "$assets" -o "$dir/kept.out" "$good" \
      "$dir/$name"
    expect_output "$name ($format): the message names the file" "$dir/err" "$(literal "$dir/$name")"
    expect_output "$name ($format): the fault" "$dir/err" "$(literal "$fault")"
    [[ $(cat "$dir/kept.out") == old ]] || fail "$name ($format): the output was touched"
    "$gbx" report --format=$format --assets "$assets" -o "$dir/new.out" "$good" "$dir/$name" >/dev/null 2>&1
    [[ ! -e "$dir/new.out" ]] || fail "$name ($format): an output was written"
  done
  echo "bad input $name: $(head -1 "$dir/err")"
}
bad absent.json "cannot open"
bad truncated.json "not valid JSON"
bad tampered.json "checksum mismatch"
bad nan.json "non-finite"
[[ -z $(find "$dir" -maxdepth 1 -name '*.tmp-*' -print) ]] || fail "a temporary file was left behind"

# Missing assets: exit 2, naming where it looked and how to install them; nothing written.
expect_exit 2 "missing assets" "$gbx" report --assets "$dir/nowhere" -o "$dir/none.html" "$good"
expect_output "the missing-assets message names where it looked" "$dir/err" "$(literal "$dir/nowhere")"
expect_output "the missing-assets message says how to install them" "$dir/err" 'npm ci --prefix report'
[[ ! -e "$dir/none.html" ]] || fail "a report was written without assets"
expect_exit 2 "a wrong GBX_REPORT_ASSETS" env GBX_REPORT_ASSETS="$dir/nowhere" "$gbx" report -o "$dir/none.html" "$good"
expect_output "a wrong GBX_REPORT_ASSETS" "$dir/err" 'GBX_REPORT_ASSETS'

# Usage errors are bad input too.
expect_exit 2 "an unknown format" "$gbx" report --format=pdf "$good"
expect_exit 2 "no record" "$gbx" report
echo "gbx report: Markdown and HTML over one, two and three runs, plain JSON and bad inputs behave"
