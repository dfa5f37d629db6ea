#!/usr/bin/env bash
# Shards of the CPU suite chosen three ways (--gbx_shard, GBX_SHARD_*, a Slurm array task), their
# records, `gbx merge` of them and what it refuses, and the cost-balanced plan (docs/scale-out.md).
# usage: merge_test.sh BENCH_ALL GBX RESEAL_RECORD SCHEMA
set -euo pipefail
bench=$1
gbx=$2
reseal=$3
schema=$4
source "$(dirname "$0")/../support/output_match.sh"
validate() { /usr/bin/python3 "$here/../record/validate_record.py" "$schema" "$@" >/dev/null || fail "schema: $*"; }

filter='--benchmark_filter=^reduce/(naive|pairwise|kahan|double)/|^gemm/cpu_(naive|blocked)/m:256'
# A time bound far beyond the run, so that every benchmark takes its 6 samples even on a loaded machine
# (the default 10 s cut the 16M-element reductions short once, under a parallel CI build).
flags=("$filter" --gbx_warmup=1 --gbx_min_samples=6 --gbx_max_samples=6 --gbx_max_time=600 --gbx_processes=2
  --benchmark_format=console)
cd "$dir"
"$bench" "$filter" --benchmark_list_tests >selection.txt

"$bench" "${flags[@]}" --gbx_shard=0/3 --benchmark_out=s0.json >/dev/null
GBX_SHARD_INDEX=1 GBX_SHARD_COUNT=3 "$bench" "${flags[@]}" --benchmark_out=s1.json >/dev/null
# --array=10-12: task 12 is shard 2.
SLURM_ARRAY_TASK_ID=12 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=3 "$bench" "${flags[@]}" --benchmark_out=s2.json \
  >/dev/null
validate s0.json s1.json s2.json
python3 - selection.txt s0.json s1.json s2.json <<'EOF'
import json, sys
selection = open(sys.argv[1]).read().split()
seen = []
for index, path in enumerate(sys.argv[2:]):
    record = json.load(open(path))
    shard = record["gbx"]["shard"]
    assert shard["index"] == index and shard["count"] == 3, shard
    assert shard["selection_size"] == len(selection) and shard["plan"]["method"] == "name_hash", shard
    ran = [b["run_name"] for b in record["benchmarks"]]
    assert ran and sorted(ran) == sorted(shard["benchmarks"]), (path, ran, shard["benchmarks"])
    seen += ran
assert sorted(seen) == sorted(selection), "the shards are not complete and disjoint"
assert json.load(open("s2.json"))["gbx"]["shard"]["source"] == "SLURM_ARRAY_TASK_ID"
EOF

# The merge, and the commands that read records.
expect_exit 0 "merge s2.json s0.json s1.json -o merged.json" "$gbx" merge s2.json s0.json s1.json -o merged.json
validate merged.json
python3 - selection.txt merged.json <<'EOF'
import json, sys
selection = open(sys.argv[1]).read().split()
merged = json.load(open(sys.argv[2]))
names = [b["run_name"] for b in merged["benchmarks"]]
assert sorted(names) == sorted(selection), names
merge = merged["gbx"]["merge"]
assert merge["complete"] and [s["index"] for s in merge["shards"]] == [0, 1, 2], merge
for row in merged["benchmarks"]:
    assert len(row["gbx"]["samples"]) == 12, row["name"]  # 6 from each of 2 processes
    assert merge["shards"][row["gbx"]["shard"]]["environment"]["host"]["hostname"]
assert "shard" not in merged["gbx"] and "processes" in merge["shards"][1]
EOF
expect_exit 0 "verify merged.json" "$gbx" verify merged.json
expect_exit 0 "compare merged.json merged.json" "$gbx" compare merged.json merged.json
expect_exit 0 "pareto merged.json" "$gbx" pareto merged.json
expect_exit 0 "report merged.json s0.json --format markdown" "$gbx" report merged.json s0.json --format markdown
expect_output "the report shows the merged record" "$dir/out" 'merged\.json'

# What merge refuses, and says.
expect_exit 2 "merge s0.json s2.json -o partial.json" "$gbx" merge s0.json s2.json -o partial.json
expect_output "merge s0.json s2.json -o partial.json: says missing shard(s) of 3: 1" "$dir/err" \
  "$(literal "missing shard(s) of 3: 1")"
[[ ! -e partial.json ]] || fail "an incomplete merge wrote a record"
expect_exit 2 "merge s0.json s1.json s1.json s2.json -o twice.json" \
  "$gbx" merge s0.json s1.json s1.json s2.json -o twice.json
expect_output "merge s0.json s1.json s1.json s2.json -o twice.json: says shard 1 is given twice" "$dir/err" \
  "$(literal "shard 1 is given twice")"
expect_exit 0 "merge s0.json s2.json --allow-partial -o partial.json" \
  "$gbx" merge s0.json s2.json --allow-partial -o partial.json
python3 -c "import json; m = json.load(open('partial.json'))['gbx']['merge']; assert not m['complete'] and m['missing_shards'] == [1], m"
expect_exit 2 "merge merged.json s1.json -o bad.json" "$gbx" merge merged.json s1.json -o bad.json
expect_output "merge merged.json s1.json -o bad.json: says not a shard record" "$dir/err" \
  "$(literal "not a shard record")"
python3 - <<'EOF'
import json
record = json.load(open("s2.json"))
record["gbx"]["environment"]["gpus"] = [{"name": "NVIDIA H100 80GB HBM3"}]
json.dump(record, open("s2_h100.json", "w"))
record = json.load(open("s2.json"))
record["gbx"]["environment"]["source"]["commit"] = "0" * 40
json.dump(record, open("s2_other_commit.json", "w"))
EOF
"$reseal" s2_h100.json
"$reseal" s2_other_commit.json
expect_exit 2 "merge s0.json s1.json s2_h100.json -o bad.json" "$gbx" merge s0.json s1.json s2_h100.json -o bad.json
expect_output "merge s0.json s1.json s2_h100.json -o bad.json: says merge each environment group on its own" "$dir/err" \
  "$(literal "merge each environment group on its own")"
expect_exit 2 "merge s0.json s1.json s2_other_commit.json -o bad.json" \
  "$gbx" merge s0.json s1.json s2_other_commit.json -o bad.json
expect_output "merge s0.json s1.json s2_other_commit.json -o bad.json: says /gbx/environment/source/commit" "$dir/err" \
  "$(literal "/gbx/environment/source/commit")"
"$bench" "$filter" --gbx_min_samples=6 --gbx_max_samples=6 --gbx_shard=1/3 --benchmark_out=s1_one_process.json >/dev/null
expect_exit 2 "merge s0.json s1_one_process.json s2.json -o bad.json" \
  "$gbx" merge s0.json s1_one_process.json s2.json -o bad.json
expect_output "merge s0.json s1_one_process.json s2.json -o bad.json: says /gbx/protocol" "$dir/err" \
  "$(literal "/gbx/protocol")"

# A plan: the previous record's costs, longest first to the least loaded of two shards. The same
# greedy, written again here, must give what each shard lists.
"$bench" "$filter" --gbx_shard=0/2 --gbx_shard_plan=merged.json --benchmark_list_tests >plan0.txt
"$bench" "$filter" --gbx_shard=1/2 --gbx_shard_plan=merged.json --benchmark_list_tests >plan1.txt
"$bench" "$filter" --gbx_shard=0/2 --benchmark_list_tests >name0.txt
"$bench" "$filter" --gbx_shard=1/2 --benchmark_list_tests >name1.txt
python3 - merged.json plan0.txt plan1.txt name0.txt name1.txt <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
cost = {r["run_name"]: r["gbx"]["measurement"]["wall_seconds"] for r in rows}
loads, mine = [0.0, 0.0], [[], []]
for name in sorted(cost, key=lambda n: (-cost[n], n)):
    least = loads.index(min(loads))
    loads[least] += cost[name]
    mine[least].append(name)
for shard in (0, 1):
    listed = open(sys.argv[2 + shard]).read().split()
    assert sorted(listed) == sorted(mine[shard]), (shard, listed, mine[shard])
by_name = [sum(cost[name] for name in open(sys.argv[4 + shard]).read().split()) for shard in (0, 1)]
print("seconds per shard of 2 (the merged record's wall_seconds): planned by cost", [round(x, 3) for x in loads],
      "; by name", [round(x, 3) for x in by_name])
EOF

# A CUDA benchmark: without a device it is in gbx.not_run, which the merge accounts for and keeps.
cuda_filter='--benchmark_filter=^reduce/(naive|cuda_atomic)/n:4096/'
# A build without CUDA (the sanitizer job's) has no CUDA benchmark to shard: that part is left out.
if "$bench" "$cuda_filter" --benchmark_list_tests 2>/dev/null | grep -q cuda_atomic; then
  for i in 0 1; do
    "$bench" "$cuda_filter" --gbx_min_samples=6 --gbx_max_samples=6 --gbx_shard=$i/2 --benchmark_out=c$i.json \
      >/dev/null || fail "CUDA shard $i"
  done
  expect_exit 0 "merge c0.json c1.json -o cuda.json" "$gbx" merge c0.json c1.json -o cuda.json
  python3 - cuda.json <<'EOF'
import json, sys
record = json.load(open(sys.argv[1]))
ran = [b["run_name"] for b in record["benchmarks"]]
not_run = [(r["name"], r["shard"]) for r in record["gbx"].get("not_run", [])]
names = sorted(ran + [name for name, _ in not_run])
assert names == ["reduce/cuda_atomic/n:4096/iterations:1/manual_time", "reduce/naive/n:4096/iterations:1/manual_time"], names
assert record["gbx"]["merge"]["complete"] and all(shard in (0, 1) for _, shard in not_run), record["gbx"]["merge"]
EOF
else
  echo "no CUDA benchmarks in this build (GBX_CUDA=OFF): the CUDA shard part is left out"
fi

# A shard dealt nothing succeeds and writes nothing; bad values name the flag.
expect_exit 0 "--benchmark_filter=^reduce/naive/n:4096/ --gbx_shard=5/6 --benchmark_out=empty.json" \
  "$bench" '--benchmark_filter=^reduce/naive/n:4096/' --gbx_shard=5/6 --benchmark_out=empty.json
expect_output "--benchmark_filter=^reduce/naive/n:4096/ --gbx_shard=5/6 --benchmark_out=empty.json: says has no benchmark" "$dir/err" \
  "$(literal "has no benchmark")"
[[ ! -e empty.json ]] || fail "an empty shard wrote a record"
expect_exit 2 "filter --gbx_shard=3/3 --benchmark_list_tests" "$bench" "$filter" --gbx_shard=3/3 --benchmark_list_tests
expect_output "filter --gbx_shard=3/3 --benchmark_list_tests: says --gbx_shard" "$dir/err" "$(literal "--gbx_shard")"
expect_exit 2 "filter --gbx_shard=0/2 --gbx_shard_plan=missing.json --benchmark_list_tests" \
  "$bench" "$filter" --gbx_shard=0/2 --gbx_shard_plan=missing.json --benchmark_list_tests
expect_output "filter --gbx_shard=0/2 --gbx_shard_plan=missing.json --benchmark_list_tests: says --gbx_shard_plan" "$dir/err" \
  "$(literal "--gbx_shard_plan")"
expect_exit 2 "env SLURM_ARRAY_TASK_ID=1 bench filter --benchmark_list_tests" \
  env SLURM_ARRAY_TASK_ID=1 "$bench" "$filter" --benchmark_list_tests
expect_output "env SLURM_ARRAY_TASK_ID=1 bench filter --benchmark_list_tests: says SLURM_ARRAY_TASK_COUNT" "$dir/err" \
  "$(literal "SLURM_ARRAY_TASK_COUNT")"
# gbx slurm's script (the real cluster: slurm_test.sh).
expect_exit 0 "slurm --shards 4 --partition gpu --time 00:30:00 -o sharded --dry-run -- bench filter" \
  "$gbx" slurm --shards 4 --partition gpu --time 00:30:00 -o sharded --dry-run -- "$bench" "$filter"
for line in '#SBATCH --array=0-3' '#SBATCH --partition=gpu' '#SBATCH --gres=gpu:1' '#SBATCH --exclusive' \
  '#SBATCH --time=00:30:00' "#SBATCH --output=$dir/sharded/slurm-%A_%a.out" \
  "'$bench' '$filter' \"--benchmark_out=\$dir/shard-\$shard.json\""; do
  expect_output "the dry-run script has: $line" "$dir/out" "^$(literal "$line")\$"
done
[[ ! -e sharded ]] || fail "--dry-run created the output folder"
expect_exit 0 "slurm --shards 2 --cpu-only --shared --plan merged.json --dry-run -- bench" \
  "$gbx" slurm --shards 2 --cpu-only --shared --plan merged.json --dry-run -- "$bench"
expect_count "--cpu-only --shared asks for no GPU nor the node" "$dir/out" 0 '--gres|--exclusive|--partition'
expect_output "--plan is passed on" "$dir/out" "$(literal "'--gbx_shard_plan=$dir/merged.json'")"
expect_exit 2 "slurm --shards 2 --dry-run -- bench --gbx_shard=0/2" \
  "$gbx" slurm --shards 2 --dry-run -- "$bench" --gbx_shard=0/2
expect_output "slurm --shards 2 --dry-run -- bench --gbx_shard=0/2: says --gbx_shard=0/2" "$dir/err" \
  "$(literal "--gbx_shard=0/2")"
expect_exit 2 "slurm --shards 2 --time 1 hour --dry-run -- bench" \
  "$gbx" slurm --shards 2 --time "1 hour" --dry-run -- "$bench"
expect_output "slurm --shards 2 --time 1 hour --dry-run -- bench: says --time" "$dir/err" "$(literal "--time")"
expect_exit 2 "slurm --shards 0 --dry-run -- bench" "$gbx" slurm --shards 0 --dry-run -- "$bench"
expect_output "slurm --shards 0 --dry-run -- bench: says --shards" "$dir/err" "$(literal "--shards")"
echo "merge test passed"
