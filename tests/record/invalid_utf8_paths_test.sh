#!/usr/bin/env bash
# Every path that writes a record goes through the one finisher (writer/record_finisher.h): given an
# invalid UTF-8 byte in argv, each writes a valid, sealed record with the byte replaced and listed in
# gbx.invalid_utf8_replaced. The paths: one process, --gbx_processes, gbx ab (both designs), gbx merge (which the
# Slurm merge calls). usage: invalid_utf8_paths_test.sh BENCH_REDUCE GBX
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2
filter=$'--benchmark_filter=reduce/naive/n:4096/|\xff'
quick=(--gbx_min_samples=5 --gbx_max_samples=5 --gbx_warmup=1)

# A record is valid: strict JSON (no NaN), verified by gbx verify, with the replacement listed.
check_record() {
  local what=$1 path=$2
  expect_exit 0 "$what: gbx verify" "$gbx" verify "$path"
  python3 - "$path" "$what" <<'PY' || fail "$2: the record is not as expected"
import json, sys
path, what = sys.argv[1], sys.argv[2]
def no_constant(name):
    raise ValueError("non-finite number " + name)
record = json.load(open(path, encoding="utf-8", errors="strict"), parse_constant=no_constant)
gbx = record["gbx"]
replaced = gbx.get("invalid_utf8_replaced", [])
assert replaced, f"{what}: no gbx.invalid_utf8_replaced"
assert any("\ufffd" in part for part in gbx["command"]), f"{what}: the command keeps no U+FFFD: {gbx['command']}"
assert [b for b in record["benchmarks"] if b["name"].startswith("reduce/naive/n:4096")], f"{what}: no benchmark"
print(f"{what}: valid, {len(replaced)} string(s) replaced")
PY
}

mkdir -p "$dir/one" "$dir/processes" "$dir/ab" "$dir/merge"
expect_exit 0 "one process" "$bench" "$filter" "${quick[@]}" --gbx_out_dir="$dir/one"
check_record "one process" "$(ls "$dir"/one/*.json)"

expect_exit 0 "--gbx_processes=2" "$bench" "$filter" "${quick[@]}" --gbx_processes=2 --gbx_out_dir="$dir/processes"
check_record "--gbx_processes=2" "$(ls "$dir"/processes/*.json)"

# Both designs of gbx ab: interleaved blocks (the default) and whole processes. An A/A this short may
# be decided (0) or not (3); which is not what this test is about.
decided_or_not() {
  local what=$1 code=0
  shift
  "$@" >"$dir/out" 2>"$dir/err" || code=$?
  [[ $code == 0 || $code == 3 ]] || fail "$what: exit $code, expected 0 or 3: $(cat "$dir/err")"
}
mkdir -p "$dir/ab-blocks"
decided_or_not "gbx ab" "$gbx" ab --base "$bench" --candidate "$bench" --budget=60s -o "$dir/ab-blocks" --seed 7 \
  -- "$filter" "${quick[@]}"
for side in base candidate; do check_record "gbx ab ($side)" "$(ls "$dir"/ab-blocks/*-"$side".json)"; done
decided_or_not "gbx ab --whole-processes" "$gbx" ab --base "$bench" --candidate "$bench" --whole-processes \
  --processes 2 -o "$dir/ab" --seed 7 -- "$filter" "${quick[@]}"
for side in base candidate; do check_record "gbx ab --whole-processes ($side)" "$(ls "$dir"/ab/*-"$side".json)"; done

expect_exit 0 "a shard for gbx merge" "$bench" "${filter%%|*}" "${quick[@]}" --gbx_shard=0/1 \
  --benchmark_out="$dir/merge/shard0.json"
merged=$'merged-\xff.json'
expect_exit 0 "gbx merge" "$gbx" merge "$dir/merge/shard0.json" -o "$dir/merge/$merged"
check_record "gbx merge" "$dir/merge/$merged"
echo "invalid UTF-8 in argv: a valid record on every path"
