// Checks gbx export's files against each consumer's own rules, and against the record they came from:
//   node check_exports.mjs RECORD.json BMF.json GH_SMALLER.json GH_BIGGER.json CONBENCH.json
// Exit 0 when every check passes; 1 with one line per failure.
// - Bencher: its published BMF JSON Schema (bencher_bmf.schema.json) through Ajv, and the length limits
//   of its BMF page (a benchmark name at most 1024 characters, a measure slug at most 64).
// - github-action-benchmark: its custom tools' parser, src/extract.ts (BenchmarkResult, a zod schema:
//   name, value, unit coerced, range and extra optional; an empty array refused) rebuilt with the zod
//   the action depends on; its extractRangeInfo.ts pattern, which a range must match for the action to
//   rescale it; and a latency unit among those its normalizeValueByUnit.ts converts.
// - Conbench: conbench_result.schema.json (its API's rules, see there) through Ajv.
// - The record: every measured benchmark is there, none that did not run; a metric appears exactly
//   when the record has it (never as 0 for one it lacks); a process-level latency is the recorded one;
//   a plain benchmark's items_per_second is an item rate, never a FLOP rate; each user counter with a
//   finite value is there with that value (Bencher: a measure of its name; the action: an entry
//   "<benchmark> <counter>" with unit "" in the bigger-is-better file; Conbench: the latency result's
//   optional_benchmark_info.gbx.counters), and no other.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
const [recordPath, bmfPath, smallerPath, biggerPath, conbenchPath] = process.argv.slice(2);
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));
const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
};

// What the record says, by the rules of docs/dashboards.md.
const record = read(recordPath);
// The console's name: Google Benchmark's less gbx's constant suffix.
const shown = (name) => name.replace(/\/iterations:1\/manual_time$/, '');
const notRun = new Set((record.gbx.not_run ?? []).map((n) => shown(n.name)));
// A row's keys that are not user counters: Google Benchmark's own (its json_reporter.cc) and gbx's.
const notCounters = new Set([
  'name', 'family_index', 'per_family_instance_index', 'run_name', 'run_type', 'repetitions', 'repetition_index',
  'threads', 'iterations', 'real_time', 'cpu_time', 'time_unit', 'aggregate_name', 'aggregate_unit', 'label',
  'error_occurred', 'error_message', 'skipped', 'skip_message', 'cpu_coefficient', 'real_coefficient', 'big_o', 'rms',
  'allocs_per_iter', 'max_bytes_used', 'total_allocated_bytes', 'net_heap_growth', 'items_per_second',
  'bytes_per_second', 'gbx', 'samples', 'batch',
]);
const counterPrefix = 'counter:';  // a user counter among a benchmark's metrics, by name
const expected = new Map();  // dashboard name -> {entry, metrics, counters}
for (const entry of record.benchmarks) {
  const g = entry.gbx ?? {};
  if (entry.run_type !== 'iteration') continue;
  const label = shown(entry.name);
  if (entry.error_occurred || g.skipped) {
    notRun.add(label);
    continue;
  }
  // An axis the name carries ("n:4096", or a plain benchmark's bare "4096") is not added again.
  const parts = label.split('/');
  const axes = Object.entries(g.axes ?? {})
    .filter(([k, v]) => !parts.some((part) => part.startsWith(`${k}:`) || part === String(v)))
    .map(([k, v]) => `${k}=${v}`);
  const name = axes.length ? `${label} [${axes.join(',')}]` : label;
  const metrics = new Set(['latency']);
  const counter = g.region === 'cpu' ? g.energy?.cpu : g.energy?.gpu;
  if (typeof counter?.joules_per_run === 'number') metrics.add('energy');
  if (typeof g.accuracy?.rel_l2_error === 'number') metrics.add('relative-error');
  const memory = g.region === 'cpu' ? g.memory?.host_peak_bytes : g.memory?.device_peak_bytes;
  if (typeof memory === 'number' && memory > 0) metrics.add('peak-memory');
  // A plain benchmark (Google Benchmark's loop) counts its own items; a gbx one's items are FLOPs.
  const plain = !entry.gbx || g.harness === 'google_benchmark';
  if (!plain && (g.declared?.flops_per_run > 0 || g.throughput?.gflops_per_second > 0)) metrics.add('flop-rate');
  if (plain && entry.items_per_second > 0) metrics.add('item-rate');
  if (g.declared?.bytes_per_run > 0 || g.throughput?.gbytes_per_second > 0 || (plain && entry.bytes_per_second > 0)) {
    metrics.add('byte-rate');
  }
  const counters = new Map();
  for (const [key, value] of Object.entries(entry)) {
    if (notCounters.has(key) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    counters.set(key, value);
    metrics.add(counterPrefix + key);
  }
  expected.set(name, { entry, metrics, counters });
}
const smallerIsBetter = new Set(['latency', 'energy', 'relative-error', 'peak-memory']);
const metricSlugs = new Set([...smallerIsBetter, 'flop-rate', 'item-rate', 'byte-rate']);

function checkAgainstRecord(format, found) {
  // found: dashboard name -> Map(metric -> {value, lower, upper} in the file's units)
  for (const name of notRun) check(!found.has(name), `${format}: '${name}' did not run, yet it is exported`);
  for (const [name, { entry, metrics, counters }] of expected) {
    const got = found.get(name);
    check(got, `${format}: measured benchmark '${name}' is missing`);
    if (!got) continue;
    const names = [...got.keys()].sort().join(',');
    check(names === [...metrics].sort().join(','), `${format}: '${name}' has metrics ${names}, the record ${[...metrics]}`);
    for (const [metric, m] of got) {
      if (metric.startsWith(counterPrefix)) {  // a counter may be 0: it must be the record's value
        const want = counters.get(metric.slice(counterPrefix.length));
        check(m.value === want, `${format}: '${name}' ${metric} is ${m.value}, the record ${want}`);
        continue;
      }
      check(Number.isFinite(m.value) && m.value !== 0, `${format}: '${name}' ${metric} is ${m.value}`);
      if (m.lower !== undefined) {
        check(m.lower <= m.value && m.value <= m.upper, `${format}: '${name}' ${metric} ${m.value} not in [${m.lower}, ${m.upper}]`);
      }
    }
    const h = entry.gbx.stats?.hierarchical;
    if (h && !h.single_process && got.has('latency')) {
      const l = got.get('latency');
      const scale = l.value / h.median;  // the file's unit
      const close = (a, b) => Math.abs(a - b) <= 1e-5 * Math.abs(b);
      check(close(l.lower / scale, h.lower) && close(l.upper / scale, h.upper) &&
              (Math.abs(scale - 1e9) < 1e-3 || Math.abs(scale - 1) < 1e-12),
            `${format}: '${name}' latency is not the process-level estimate ${h.median} [${h.lower}, ${h.upper}]`);
    }
  }
  for (const name of found.keys()) check(expected.has(name), `${format}: '${name}' is not a measured benchmark`);
}

// Bencher.
const ajv = new Ajv({ strict: false, allErrors: true });
const bmf = read(bmfPath);
const validBmf = ajv.compile(read(join(here, 'bencher_bmf.schema.json')));
check(validBmf(bmf), `bencher: not BMF: ${ajv.errorsText(validBmf.errors)}`);
const fromBmf = new Map();
for (const [name, measures] of Object.entries(bmf)) {
  check(name.length <= 1024, `bencher: benchmark name longer than 1024 characters: ${name}`);
  const metrics = new Map();
  for (const [slug, metric] of Object.entries(measures)) {
    check(slug.length <= 64, `bencher: measure slug longer than 64 characters: ${slug}`);
    check(('lower_value' in metric) === ('upper_value' in metric), `bencher: '${name}' ${slug} has one bound`);
    // A measure that is not one of gbx's is a user counter's.
    const key = metricSlugs.has(slug) ? slug : counterPrefix + slug;
    metrics.set(key, { value: metric.value, lower: metric.lower_value, upper: metric.upper_value });
  }
  fromBmf.set(name, metrics);
}
checkAgainstRecord('bencher', fromBmf);

// github-action-benchmark.
const BenchmarkResult = z.object({
  name: z.coerce.string(),
  value: z.coerce.number(),
  range: z.coerce.string().optional(),
  unit: z.coerce.string(),
  extra: z.coerce.string().optional(),
});
const rangePattern = /(?<prefix>(\+-|±)\s*)(?<value>\d.*)/;
const fromGithub = new Map();
for (const [path, smaller] of [[smallerPath, true], [biggerPath, false]]) {
  const raw = read(path);
  const parsed = z.array(BenchmarkResult).safeParse(raw);
  check(parsed.success, `github: ${path} is not an array of BenchmarkResult: ${parsed.error?.message}`);
  check(Array.isArray(raw) && raw.length > 0, `github: ${path} is empty, which the action refuses`);
  if (!parsed.success) continue;
  const names = new Set();
  for (const [i, b] of raw.entries()) {
    check(typeof b.value === 'number' && Number.isFinite(b.value), `github: ${path}[${i}].value is not a finite number`);
    // The parser coerces a missing unit to the text "undefined", which the charts would then show.
    check(typeof b.unit === 'string', `github: ${path}[${i}] has no unit`);
    check(!names.has(b.name), `github: ${path}: '${b.name}' twice (one chart per name)`);
    names.add(b.name);
    check(/testbed: .+/.test(b.extra ?? ''), `github: '${b.name}' names no testbed`);
    if (b.unit === '') {  // a user counter, "<benchmark> <counter>", in the bigger-is-better file
      check(!smaller, `github: counter '${b.name}' is in the smaller-is-better file ${path}`);
      const owner = [...expected.keys()].find((name) => b.name.startsWith(`${name} `) &&
                                              expected.get(name).counters.has(b.name.slice(name.length + 1)));
      check(owner !== undefined, `github: '${b.name}' has no unit and is no benchmark's user counter`);
      if (owner === undefined) continue;
      if (!fromGithub.has(owner)) fromGithub.set(owner, new Map());
      fromGithub.get(owner).set(counterPrefix + b.name.slice(owner.length + 1), { value: b.value });
      continue;
    }
    const cut = b.name.lastIndexOf(' - ');
    const [name, metric] = [b.name.slice(0, cut), b.name.slice(cut + 3)];
    check(smallerIsBetter.has(metric) === smaller, `github: ${metric} is in the wrong file ${path}`);
    if (metric === 'latency') check(['s', 'ms', 'us', 'ns'].includes(b.unit), `github: latency unit ${b.unit}`);
    const m = { value: b.value };
    if (b.range !== undefined) {
      const match = b.range.match(rangePattern);
      check(match && !Number.isNaN(Number(match.groups.value)), `github: range '${b.range}' is not one the action reads`);
      const interval = b.extra.match(/interval \[([^,]+), ([^\]]+)\]/);
      check(interval, `github: '${b.name}' has a range but no interval in extra`);
      if (interval) [m.lower, m.upper] = [Number(interval[1]), Number(interval[2])];
    }
    if (!fromGithub.has(name)) fromGithub.set(name, new Map());
    fromGithub.get(name).set(metric, m);
  }
}
checkAgainstRecord('github', fromGithub);

// Conbench.
const validResult = ajv.compile(read(join(here, 'conbench_result.schema.json')));
const results = read(conbenchPath);
check(Array.isArray(results) && results.length > 0, 'conbench: not a non-empty array of results');
const fromConbench = new Map();
const cases = new Set();
for (const [i, r] of results.entries()) {
  check(validResult(r), `conbench: result ${i}: ${ajv.errorsText(validResult.errors)}`);
  const key = JSON.stringify([r.run_id, r.tags, r.context]);
  check(!cases.has(key), `conbench: result ${i} repeats a case of its run: ${key}`);
  cases.add(key);
  const name = r.tags?.name;
  if (!fromConbench.has(name)) fromConbench.set(name, new Map());
  const gbx = r.optional_benchmark_info?.gbx ?? {};
  const metrics = fromConbench.get(name);
  const asMetric = (j) => ({ value: j.value, lower: j.lower, upper: j.upper });
  if (r.tags?.metric === 'latency') {
    metrics.set('latency', asMetric(gbx.latency_seconds));
    if (gbx.energy_joules_per_run) metrics.set('energy', asMetric(gbx.energy_joules_per_run));
    if (gbx.relative_l2_error !== undefined) metrics.set('relative-error', { value: gbx.relative_l2_error });
    for (const [counter, value] of Object.entries(gbx.counters ?? {})) metrics.set(counterPrefix + counter, { value });
    const h = expected.get(name)?.entry.gbx.stats?.hierarchical;
    if (h && !h.single_process) check(r.stats.data.length === h.processes, `conbench: '${name}' data is not per process`);
  } else if (r.tags?.metric === 'peak-memory') {
    metrics.set('peak-memory', { value: r.stats.data[0] });
  } else {
    metrics.set(r.tags?.metric, asMetric(gbx.rate));
  }
}
checkAgainstRecord('conbench', fromConbench);

for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${failures.length === 0 ? 'ok' : 'failed'}: ${expected.size} benchmarks, ${notRun.size} not run, ${failures.length} failures`);
process.exit(failures.length === 0 ? 0 : 1);
