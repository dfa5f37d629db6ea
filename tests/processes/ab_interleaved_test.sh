#!/usr/bin/env bash
# gbx ab's interleaved design (docs/gating.md): two sealed records whose gbx.ab.blocks alternate
# base and candidate block by block in the recorded orders, a comparison that gbx compare redoes from
# the records alone, every row with its mde and a summary line; the plan printed first; and each bad
# input with its message: a bad or too small --budget, a worker that dies or hangs, base and candidate
# listing different benchmarks, incompatible binaries, SIGTERM (both records keep what finished), and
# two variants of one binary.
source "$(dirname "$0")/../support/output_match.sh"
# Under AddressSanitizer (scripts/sanitize) the deliberate segfault would be caught by ASan's SEGV
# handler and end as an abort; let it die of the signal, as it does in every other build.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
bench=$1 gbx=$2 schema=$3
flags=(--benchmark_filter='first|second|third' --gbx_warmup=1)
ab=("$gbx" ab --base "$bench" --candidate "$bench" --processes 3 --blocks 2 --budget 5m --seed 4 --progress off)

mkdir "$dir/aa" "$dir/tmp"
TMPDIR="$dir/tmp" "${ab[@]}" --format json -o "$dir/aa" -- "${flags[@]}" >"$dir/aa.json" 2>"$dir/aa.err"
rc=$?
# The workers' shared random inputs (processes/shared_inputs.h) go with the run.
[[ -z $(ls -A "$dir/tmp") ]] || fail "gbx ab left behind in TMPDIR: $(ls -A "$dir/tmp")"
[[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] || { cat "$dir/aa.err"; fail "A/A exit code $rc"; }
expect_output "the plan, then the look" "$dir/aa.err" \
  'gbx ab: plan: 3 benchmarks, 2 interleaved block pairs.*workers on CPU [0-9]+.* 3 pairs fit the budget of 300 s' \
  'look after 3 worker pairs'
# 3 pairs cannot give the exact test a p that passes Benjamini-Hochberg for one row of 3 alone (7 can):
# the run says so before it spends its budget.
expect_output "the pairs the test needs" "$dir/aa.err" \
  'gbx ab: note: with 3 worker pairs the weighted-sign-flip test cannot call one changed benchmark among 3 by itself at --fdr 0.05 .*it needs 7 pairs\): give --processes 7, or compare fewer benchmarks'
base=$(ls "$dir"/aa/*-base.json) && candidate=$(ls "$dir"/aa/*-candidate.json) || fail "records not written"
for record in "$base" "$candidate"; do
  "$gbx" verify "$record" >/dev/null || fail "$record is not intact"
  /usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$record" >/dev/null || fail "schema: $record"
done
/usr/bin/python3 - "$base" "$candidate" "$dir/aa.json" "$rc" <<'PY' || fail "records and comparison"
import json, sys
base, candidate = (json.load(open(p)) for p in sys.argv[1:3])
comparison = json.load(open(sys.argv[3]))
rc = int(sys.argv[4])
blocks = {}
for record, role, other in ((base, "base", candidate), (candidate, "candidate", base)):
    ab = record["gbx"]["ab"]
    assert ab["role"] == role and ab["partner_run_id"] == other["gbx"]["run_id"], ab["role"]
    assert ab["design"] == "interleaved blocks" and ab["seed"] == 4 and ab["blocks_per_pair"] == 2
    # --blocks fixes the block pairs per pair: every split of each row keeps 2 (the samples per block
    # are planned again after every pair, from the first).
    assert ab["block_split"] == "fixed by --blocks", ab["block_split"]
    # --affinity auto (the default): the one CPU every worker was pinned to is recorded.
    assert isinstance(ab["cpu"], int) and ab["cpu"] >= 0, ab["cpu"]
    for r in ab["rows"]:
        assert r["splits"][0] == {"from_pair": 0, "samples_per_block": r["samples_per_block"],
                                  "block_pairs_per_pair": 2}, r["splits"]
        assert all(s["block_pairs_per_pair"] == 2 for s in r["splits"]), r["splits"]
        assert [s["from_pair"] for s in r["splits"]] == sorted({s["from_pair"] for s in r["splits"]}), r["splits"]
    for b in ab["blocks"]:
        assert b["side"] == role and len(b["samples"]) >= 1, b
        blocks[(b["row"], b["pair"], b["block"], role)] = b
    # Each pair's process is a fresh one: one pid per pair and side.
    pids = {b["pair"]: set() for b in ab["blocks"]}
    for b in ab["blocks"]:
        pids[b["pair"]].add(b["pid"])
    assert sorted(pids) == [0, 1, 2] and all(len(p) == 1 for p in pids.values()), pids
    assert len({next(iter(p)) for p in pids.values()}) == 3, pids
# 3 benchmarks x 3 pairs x 2 block pairs, each side once; the side of order 0 started first and had
# finished before the other started (alternated, not overlapping), and both orders occur.
assert len(blocks) == 3 * 3 * 2 * 2, len(blocks)
orders = set()
for (row, pair, block, role), b in blocks.items():
    if role != "base":
        continue
    c = blocks[(row, pair, block, "candidate")]
    first, second = (b, c) if b["order"] == 0 else (c, b)
    assert {b["order"], c["order"]} == {0, 1}, (b["order"], c["order"])
    assert first["end_ns"] <= second["start_ns"], (first["end_ns"], second["start_ns"])
    orders.add(b["order"])
assert orders == {0, 1}, "the coin never changed the order"
rows = comparison["rows"]
assert len(rows) == 3 and all(r["unit"] == "worker pair" and r["pairs"] == 3 for r in rows), rows
assert all("mde" in r and r["mde"] is not None and r["mde"] > 0 for r in rows), [r.get("mde") for r in rows]
# --futility (on by default): each look lists the rows it stopped as the budget left could not decide
# them (none can be here: --processes 3 reaches its last look first), and each row says whether it was.
assert all(look["futile"] == [] for look in base["gbx"]["ab"]["looks"]), base["gbx"]["ab"]["looks"]
assert all(r["stopped_for_futility"] is False for r in rows), rows
verdicts = [r["verdict"] for r in rows]
expected = 1 if "slower" in verdicts else 3 if set(verdicts) - {"faster", "same"} else 0
assert rc == expected, (rc, verdicts)
s = comparison["summary"]
assert s["slower"] + s["faster"] + s["same"] + s["inconclusive"] == 3, s
assert s["line"].startswith("summary: ") and "geometric-mean ratio" in s["line"], s
PY
"$gbx" compare --format json "$base" "$candidate" >"$dir/compare.json"
/usr/bin/python3 - "$dir/aa.json" "$dir/compare.json" <<'PY' || fail "gbx compare does not redo the paired analysis"
import json, sys
a, c = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda j: [{k: v for k, v in r.items()} for r in j["rows"]]
assert strip(a) == strip(c), (strip(a), strip(c))
assert a["summary"] == c["summary"]
PY
expect_exit "$rc" "gbx compare on the two records: the same exit" "$gbx" compare "$base" "$candidate"
expect_output "the console summary" "$dir/out" '^summary: [0-9]+ slower, [0-9]+ faster, [0-9]+ same, [0-9]+ inconclusive'
# The test across pairs is recorded (the weighted sign flip by default), and compare can redo the run
# with another one.
"$gbx" compare --format json --pair-test=t "$base" "$candidate" >"$dir/compare-t.json" || true
"$gbx" compare --format json --pair-test=signed-rank "$base" "$candidate" >"$dir/compare-signed.json" || true
/usr/bin/python3 - "$base" "$dir/compare.json" "$dir/compare-t.json" "$dir/compare-signed.json" <<'PY' || fail "the pair test is not recorded or not redone"
import json, sys
record, weighted, t, signed = (json.load(open(p)) for p in sys.argv[1:5])
assert record["gbx"]["ab"]["pair_test"] == "weighted-sign-flip", record["gbx"]["ab"].get("pair_test")
assert all(r["test"] == "weighted-sign-flip-exact" for r in weighted["rows"]), [r["test"] for r in weighted["rows"]]
assert all(r["test"] in ("sign-flip-exact", "paired-t") for r in t["rows"]), [r["test"] for r in t["rows"]]
assert all(r["test"] == "signed-rank-exact" for r in signed["rows"]), [r["test"] for r in signed["rows"]]
PY
expect_exit 2 "an unknown pair test" "$gbx" compare --pair-test=median "$base" "$candidate"
echo "A/A: two sealed records of interleaved blocks; gbx compare redoes the paired analysis from them (exit $rc)"

# A worker that dies, and one that hangs: that benchmark failed with the cause, the rest compared.
# One that cannot run here (a CUDA benchmark without a device) says why, not "no complete block pair".
mkdir "$dir/faults"
expect_exit 3 "faulty workers" "${ab[@]}" --benchmark-timeout 3 -o "$dir/faults" -- \
  --benchmark_filter='first|segfault|hang|unavailable' --gbx_warmup=1
expect_output "the dead and the hung worker named" "$dir/err" 'unavailable.* skipped: no such device here' \
  'segfault.* failed: base: worker pid [0-9]+ died of SIGSEGV' \
  'hang.* failed: base: a block was still running after 3 s \(--benchmark-timeout\)'
expect_output "the healthy benchmark compared" "$dir/out" 'unavailable.*failed' \
  'faults/first.* +3 +(same|inconclusive|slower|faster)' 'segfault.*failed' 'hang.*failed' \
  'unavailable.*: failed: skipped: no such device here' 'summary: .*3 failed'
echo "faults: a dead and a hung worker fail their benchmarks with the cause, one that cannot run here says why; the rest go on"

# Different listings: the common benchmarks compared, the others listed.
printf '#!/usr/bin/env bash\nexec %q "$@" --benchmark_filter=%q\n' "$bench" 'first|second' >"$dir/fewer"
chmod +x "$dir/fewer"
mkdir "$dir/fewer.out"
"$gbx" ab --base "$bench" --candidate "$dir/fewer" --processes 3 --blocks 1 --budget 5m --seed 4 --progress off \
  -o "$dir/fewer.out" -- "${flags[@]}" >"$dir/out" 2>"$dir/err"
expect_output "the one only the base lists" "$dir/err" 'only the base lists faults/third'
expect_output "two rows compared, the third listed" "$dir/out" 'faults/first' 'faults/second' 'only in .*: faults/third'
echo "listings that differ: the common ones compared, the others listed"

# Incompatible binaries: refused before anything runs, exit 2 as compare.
printf '#!/usr/bin/env bash\nif [[ " $* " == *" --gbx_describe=3 "* ]]; then %q "$@" 3>&1 >&2 | sed "s/\\"build_type\\":\\"[^\\"]*\\"/\\"build_type\\":\\"Other\\"/" >&3; else exec %q "$@"; fi\n' \
  "$bench" "$bench" >"$dir/other"
chmod +x "$dir/other"
mkdir "$dir/other.out"
expect_exit 2 "incompatible binaries" "$gbx" ab --base "$bench" --candidate "$dir/other" -o "$dir/other.out" -- "${flags[@]}"
expect_output "what differs" "$dir/err" 'not compatible' 'build type +base: [A-Za-z]+ +candidate: Other'
[[ -z $(ls "$dir/other.out") ]] || fail "records written for incompatible binaries"
echo "incompatible binaries: exit 2 before anything runs, naming what differs"

# Two variants of one binary, interleaved the same way.
mkdir "$dir/variants"
"$gbx" ab --base "$bench" --base-filter 'first' --candidate-filter 'second' --processes 3 --blocks 1 --budget 5m \
  --seed 4 --progress off -o "$dir/variants" --format json -- --gbx_warmup=1 >"$dir/variants.json" 2>"$dir/err"
/usr/bin/python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
assert [r['name'] for r in rows] == ['faults/first/iterations:1/manual_time vs faults/second/iterations:1/manual_time'], rows
assert [r['shown_name'] for r in rows] == ['faults/first vs faults/second'], rows
assert rows[0]['pairs'] == 3, rows
" "$dir/variants.json" || fail "variants: $(cat "$dir/err")"
echo "variants: faults/first against faults/second inside one binary"

# Bad budgets.
expect_exit 2 "an unparsable budget" "$gbx" ab --base "$bench" --candidate "$bench" --budget=soon -o "$dir" -- "${flags[@]}"
expect_output "the flag named" "$dir/err" "invalid value 'soon' for --budget"
expect_exit 2 "a budget too small for one look" "$gbx" ab --base "$bench" --candidate "$bench" --budget=50ms -o "$dir" \
  -- "${flags[@]}"
expect_output "too small named" "$dir/err" '--budget=50ms is too small for one look'
echo "bad budgets: exit 2 naming --budget"
expect_exit 2 "an unknown --futility" "$gbx" ab --base "$bench" --candidate "$bench" --futility=maybe -o "$dir" \
  -- "${flags[@]}"
expect_output "the flag named" "$dir/err" "--futility: maybe not in \\{on,off\\}"
# Bad CPUs for the workers.
expect_exit 2 "an unparsable --affinity" "$gbx" ab --base "$bench" --candidate "$bench" --affinity=fast -o "$dir" \
  -- "${flags[@]}"
expect_output "the flag named" "$dir/err" "invalid value 'fast' for --affinity: expected auto, none or a CPU number"
expect_exit 2 "a CPU gbx may not run on" "$gbx" ab --base "$bench" --candidate "$bench" --affinity=1000 -o "$dir" \
  -- "${flags[@]}"
expect_output "the CPU named" "$dir/err" "invalid value '1000' for --affinity: CPU 1000 is not one this process may run on"

# SIGTERM once the run is under way: both records keep the blocks that finished.
mkdir "$dir/stop"
# (a margin of 0.1% so that no benchmark is decided the same early, and no futility stop, which would
# end such a run at its first look, 2.5 s in on a quiet machine: the run goes on)
"$gbx" ab --base "$bench" --candidate "$bench" --budget 10m --equivalence 0.001 --futility off --seed 4 --progress off \
  -o "$dir/stop" -- "${flags[@]}" >"$dir/stop.out" 2>"$dir/stop.err" &
parent=$!
for _ in $(seq 600); do
  grep -q 'plan:' "$dir/stop.err" 2>/dev/null && break
  sleep 0.1
done
sleep 1
kill -TERM "$parent"
wait "$parent" && rc=0 || rc=$?
[[ $rc -eq 143 ]] || { cat "$dir/stop.err"; fail "SIGTERM: exit $rc, not 143"; }
expect_output "the interruption said" "$dir/stop.err" 'interrupted by signal 15; both records keep what finished'
for record in "$dir"/stop/*.json; do
  "$gbx" verify "$record" >/dev/null || fail "$record is not intact after SIGTERM"
  /usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['gbx']['interrupted'] is True and len(r['gbx']['ab']['blocks']) > 0
" "$record" || fail "$record lost its blocks"
done
[[ $(ls "$dir"/stop/*.json | wc -l) -eq 2 ]] || fail "SIGTERM: not both records"
echo "SIGTERM: both records sealed with the blocks that finished"
