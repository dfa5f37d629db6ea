#!/usr/bin/env bash
# gbx export end to end (docs/dashboards.md): the recipes' commands on tests/export/export_record's
# record, each file checked by check_exports.mjs against its consumer's rules; then the same checker
# on files broken as a careless exporter would break them, each of which it must refuse.
#   export_test.sh GBX EXPORT_RECORD
set -euo pipefail
gbx=$1 make_record=$2
here=$(cd "$(dirname "$0")" && pwd)
if [[ ! -d $here/node_modules/ajv || ! -d $here/node_modules/zod ]]; then
  echo "skipped: tests/export/node_modules lacks ajv or zod (source scripts/lib.sh; gbx_install_export_checkers)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
mkdir results
"$make_record" results/run.json

# The recipes' commands, as docs/dashboards.md gives them.
"$gbx" export --format=bencher results/run.json -o bmf.json >bencher.out
"$gbx" export --format=github-action-benchmark results/run.json -o gbx-benchmark >github.out
"$gbx" export --format=conbench --repository https://github.com/example/project results/run.json \
  -o conbench.json >conbench.out
grep -qx 'testbed: NVIDIA H200 / Test CPU' bencher.out || { cat bencher.out; echo "FAIL: no testbed line"; exit 1; }
grep -qx 'commit: 0123456789abcdef' bencher.out || { cat bencher.out; echo "FAIL: no commit line"; exit 1; }

check() { node "$here/check_exports.mjs" results/run.json "$@"; }
check bmf.json gbx-benchmark-smaller-is-better.json gbx-benchmark-bigger-is-better.json conbench.json

# The plain benchmark's counter and item rate, and the gbx GEMM's FLOP rate, in each format by name: the
# checker derives what to expect from the record, and this says the record gave it those to expect.
node -e "
const fs = require('fs');
const read = (p) => JSON.parse(fs.readFileSync(p));
const [bmf, bigger, conbench] = [read('bmf.json'), read('gbx-benchmark-bigger-is-better.json'), read('conbench.json')];
const plain = 'BM_items/1024', gemm = 'gemm/openblas_sgemm/m:1024/n:1024/k:1024';
const entry = (name) => bigger.find((e) => e.name === name);
const result = (name, metric) => conbench.find((r) => r.tags.name === name && r.tags.metric === metric);
const faults = [];
const want = (ok, what) => { if (!ok) faults.push(what); };
want(bmf[plain]?.elements?.value === 2048 && bmf[plain]['item-rate'] && !bmf[plain]['flop-rate'], 'bencher: plain');
want(bmf[gemm]?.['flop-rate'] && !bmf[gemm]['item-rate'], 'bencher: gemm');
want(entry(plain + ' elements')?.value === 2048 && entry(plain + ' elements').unit === '', 'github: counter');
want(entry(plain + ' - item-rate') && !entry(plain + ' - flop-rate') && entry(gemm + ' - flop-rate'), 'github: rates');
want(result(plain, 'latency')?.optional_benchmark_info.gbx.counters?.elements === 2048, 'conbench: counter');
want(result(plain, 'item-rate')?.stats.unit === 'i/s' && !result(plain, 'flop-rate'), 'conbench: item rate');
want(result(gemm, 'flop-rate') && !result(gemm, 'item-rate'), 'conbench: gemm');
if (faults.length) { console.log('FAIL: ' + faults.join('; ')); process.exit(1); }
"

# Each break below must be caught: the checker is only worth its failures.
must_fail() {
  local what=$1
  shift
  if check "$@" >broken.out; then
    echo "FAIL: the checker accepted $what"
    exit 1
  fi
  echo "refused as it should: $what ($(grep -m1 FAIL broken.out))"
}
edit() {  # edit IN OUT JS: OUT = JS applied to IN's JSON as `d`
  node -e "const fs=require('fs'); let d=JSON.parse(fs.readFileSync('$1')); $3; fs.writeFileSync('$2', JSON.stringify(d))"
}
edit bmf.json b1.json "d['gemm/cpu_naive/m:1024/n:1024/k:1024']['relative-error']={value:0}"
must_fail "a missing error written as 0 (bencher)" b1.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit bmf.json b2.json "d['reduce/cuda_naive/n:4096']={latency:{value:0}}"
must_fail "a not-run benchmark (bencher)" b2.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit bmf.json b3.json "d['gemm/openblas_sgemm/m:1024/n:1024/k:1024'].latency.value='2e6'"
must_fail "a value that is a string (BMF schema)" b3.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit bmf.json b4.json "delete d['BM_items/1024'].elements"
must_fail "a user counter dropped (bencher)" b4.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit bmf.json b5.json "const p=d['BM_items/1024']; p['flop-rate']=p['item-rate']; delete p['item-rate']"
must_fail "a plain benchmark's item rate called a FLOP rate (bencher)" b5.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit bmf.json b6.json "d['BM_items/1024'].broken={value:0}"
must_fail "a counter the record holds as null written as 0 (bencher)" b6.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json conbench.json
edit gbx-benchmark-bigger-is-better.json g4.json "d=d.filter((e)=>e.name!=='BM_items/1024 elements')"
must_fail "a user counter dropped (github)" bmf.json gbx-benchmark-smaller-is-better.json g4.json conbench.json
edit gbx-benchmark-smaller-is-better.json g5.json "d.push({name:'BM_items/1024 elements',unit:'',value:2048,extra:'testbed: x'})"
must_fail "a user counter in the smaller-is-better file (github)" bmf.json g5.json g4.json conbench.json
edit gbx-benchmark-smaller-is-better.json g1.json "d[0].range='95% CI 1..2'"
must_fail "a range the action cannot read" bmf.json g1.json gbx-benchmark-bigger-is-better.json conbench.json
edit gbx-benchmark-smaller-is-better.json g2.json "d=d.map(({unit,...rest})=>rest)"
must_fail "entries without a unit (the action's parser)" bmf.json g2.json gbx-benchmark-bigger-is-better.json \
  conbench.json
edit gbx-benchmark-bigger-is-better.json g3.json "d=[]"
must_fail "an empty file (the action refuses it)" bmf.json gbx-benchmark-smaller-is-better.json g3.json conbench.json
edit conbench.json c1.json "d[0].stats.unit='J'"
must_fail "a unit Conbench does not know" bmf.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json c1.json
edit conbench.json c3.json "for (const r of d) if (r.tags.name==='BM_items/1024') delete r.optional_benchmark_info.gbx.counters"
must_fail "a user counter dropped (conbench)" bmf.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json c3.json
edit conbench.json c4.json "for (const r of d) if (r.tags.metric==='item-rate') r.tags.metric='flop-rate'"
must_fail "an item rate as a FLOP rate (conbench)" bmf.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json c4.json
edit conbench.json c2.json "delete d[0].machine_info"
must_fail "a result with no machine_info or cluster_info" bmf.json gbx-benchmark-smaller-is-better.json \
  gbx-benchmark-bigger-is-better.json c2.json

# Bad input: exit 2, naming the flag or the file, and nothing written.
set +e
"$gbx" export --format=bmf results/run.json -o x.json 2>err.txt
code=$?
set -e
[[ $code == 2 ]] && grep -q -- "--format" err.txt && [[ ! -e x.json ]] || { cat err.txt; echo "FAIL: bad --format"; exit 1; }
set +e
"$gbx" export --format=conbench results/run.json -o x.json 2>err.txt
code=$?
set -e
[[ $code == 2 ]] && grep -q -- "--repository" err.txt && [[ ! -e x.json ]] || { cat err.txt; echo "FAIL: no --repository"; exit 1; }
echo '{"benchmarks": 3}' >results/bad.json
set +e
"$gbx" export --format=bencher results/bad.json -o x.json 2>err.txt
code=$?
set -e
[[ $code == 2 ]] && grep -q "results/bad.json" err.txt && [[ ! -e x.json ]] || { cat err.txt; echo "FAIL: bad record"; exit 1; }
echo "export: every file passed its consumer's rules"
