#!/usr/bin/env bash
# The pages a gbx ab worker pair shares (extensions/pair_memory.h, processes/pair_memory_directory.h):
# by default both workers of a pair measure on one copy of each large host array, and every block says
# so in the record; two variants whose setups leave the same bytes share through the row's key; a
# candidate whose setup leaves other bytes keeps to its own pages and says why; --pair-memory=private
# shares nothing; a directory that is not a tmpfs shares nothing and says why; and the run removes
# what it made.
source "$(dirname "$0")/../support/output_match.sh"
bench=$1 gbx=$2 schema=$3
[[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs ]] || { echo "SKIP: /dev/shm is not a tmpfs here"; exit 0; }
shm=$(mktemp -d /dev/shm/gbx-pair-memory-test-XXXXXX)
trap 'rm -rf "$dir" "$shm"' EXIT
common=(--base "$bench" --blocks 2 --budget 5m --seed 3 --progress off --format json)
ab=("$gbx" ab "${common[@]}" --processes 3)

# run NAME [gbx ab flags] -- [bench flags]: the records' gbx.ab as JSON lines in $dir/NAME.ab
run() {
  local name=$1
  shift
  mkdir "$dir/$name"
  "${ab[@]}" -o "$dir/$name" "$@" >"$dir/$name.json" 2>"$dir/$name.err"
  local rc=$?
  [[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] || { cat "$dir/$name.err"; fail "$name: exit code $rc"; }
  for record in "$dir/$name"/*.json; do
    /usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$record" >/dev/null || fail "$name: schema: $record"
    /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["gbx"]["ab"]))' "$record"
  done >"$dir/$name.ab"
}

# check NAME PYTHON-EXPRESSION: true of every side's gbx.ab (ab) and its blocks (blocks)
check() {
  /usr/bin/python3 - "$dir/$1.ab" "$2" <<'PY' || fail "$1: $2"
import json, sys
sides = [json.loads(line) for line in open(sys.argv[1])]
assert len(sides) == 2, len(sides)
for ab in sides:
    blocks = ab["blocks"]
    assert blocks, "no blocks"
    assert eval(sys.argv[2]), (ab["pair_memory"], [(b["name"], b.get("shared_bytes"), b.get("private_bytes")) for b in blocks])
PY
}

# Too few pairs is refused before anything runs (it was a misleading "--budget is too small").
expect_exit 2 "two worker pairs" "$gbx" ab "${common[@]}" --processes 2 --candidate "$bench" -o "$dir" -- --benchmark_filter=same_a
expect_output "why two pairs are refused" "$dir/err" 'gbx ab: --processes 2 is too few: .* at least 3 worker pairs'

# One binary against itself: each side's two 1 MiB arrays on the pair's pages, in every block.
run shared --candidate "$bench" --pair-memory-dir "$shm" -- --benchmark_filter='pair/same_a' --gbx_warmup=1
check shared 'ab["pair_memory"].startswith("shared") and all(b["shared_bytes"] == 2 << 20 and b["private_bytes"] == 0 for b in blocks)'
[[ -z $(ls -A "$shm") ]] || fail "the pairs' arrays were left in $shm: $(ls -R "$shm")"

# Two variants with the same setup: their names differ, the row names the arrays, and they share.
run variants --candidate "$bench" --base-filter 'pair/same_a' --candidate-filter 'pair/same_b' --pair-memory-dir "$shm" \
  -- --gbx_warmup=1
check variants 'all(b["shared_bytes"] == 2 << 20 for b in blocks)'

# A candidate whose setup leaves other bytes: each side on its own pages, and the run says why once.
run other --candidate "$bench" --base-filter 'pair/same_a' --candidate-filter 'pair/other' --pair-memory-dir "$shm" \
  -- --gbx_warmup=1
check other 'all(b["shared_bytes"] + b["private_bytes"] == 2 << 20 for b in blocks) and any(b["private_bytes"] > 0 for b in blocks)'
expect_count "why the candidate keeps to its own pages" "$dir/other.err" 1 \
  'pair/same_a[^ ]* vs pair/other[^ ]*: the (base|candidate) measures on its own pages, not its pair.s: its setup left other bytes'

# --pair-memory=private: nothing shared, nothing in the blocks.
run private --candidate "$bench" --pair-memory private --pair-memory-dir "$shm" -- --benchmark_filter='pair/same_a'
check private 'ab["pair_memory"].startswith("private") and all("shared_bytes" not in b for b in blocks)'

# A directory on a disk: a file there would be written back while measured, so nothing is shared.
mkdir "$dir/ondisk"
if [[ $(stat -f -c %T "$dir/ondisk") != tmpfs ]]; then
  run disk --candidate "$bench" --pair-memory-dir "$dir/ondisk" -- --benchmark_filter='pair/same_a'
  check disk '"is not a tmpfs" in ab["pair_memory"] and all("shared_bytes" not in b for b in blocks)'
fi
[[ -z $(ls -A "$shm") ]] || fail "the pairs' arrays were left in $shm: $(ls -R "$shm")"
echo "pair memory: shared by default, by row for variants, private where the setups differ, off on request or off a tmpfs"
