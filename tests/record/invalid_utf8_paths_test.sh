#!/usr/bin/env bash
# Every path that writes a record goes through the one finisher (writer/record_finisher.h): given an
# invalid UTF-8 byte in argv, each writes a valid, sealed record with the byte replaced and listed in
# gbx.invalid_utf8_replaced. The paths: one process, --gbx_processes, gbx ab, gbx merge (which the
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

expect_exit 0 "gbx ab" "$gbx" ab "$bench" "$bench" --processes 2 -o "$dir/ab" --seed 7 -- "$filter" "${quick[@]}"
for side in base candidate; do check_record "gbx ab ($side)" "$(ls "$dir"/ab/*-"$side".json)"; done

expect_exit 0 "a shard for gbx merge" "$bench" "${filter%%|*}" "${quick[@]}" --gbx_shard=0/1 \
  --benchmark_out="$dir/merge/shard0.json"
merged=$'merged-\xff.json'
expect_exit 0 "gbx merge" "$gbx" merge "$dir/merge/shard0.json" -o "$dir/merge/$merged"
check_record "gbx merge" "$dir/merge/$merged"
echo "invalid UTF-8 in argv: a valid record on every path"
