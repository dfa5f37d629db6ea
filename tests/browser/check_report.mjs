// Loads a gbx HTML report in headless Chromium and checks what a reader would see:
//   node check_report.mjs --report R.html --screenshot OUT.png --record A.json [--record B.json ...]
//                         [--expect-kinds ecdf,pareto,throughput,compare|trend]
// Fails on any console error or page error, any request that leaves the file (the report must be
// self-contained), a render that does not finish "ok", a chart without a rendered data mark, an
// expected chart kind that is absent, a benchmark measured in a record without its table row or
// its ECDF chart, a table that does not sort by its Median column when the header is clicked, a
// first screen (1,400 x 900) that does not show the results table's first row or that scrolls
// sideways, and two labels of one chart (point labels, or one axis's tick labels) that overlap.
// Exit code 0: pass; 1: fail, every failure listed; 2: bad usage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';

const kTimeoutMs = 60000;
// The first screen the report is laid out for (issue 14).
const kScreen = {width: 1400, height: 900};
// Text boxes may touch: glyph boxes are taller than the ink, so overlap counts beyond this many pixels.
const kOverlapTolerancePx = 1;
const kChromium = '/usr/bin/chromium';
// Without the background-networking flags this Chromium opens connections of its own at start.
const kChromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                        '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// The only URLs a self-contained report may touch.
const kLocalSchemes = new Set(['file:', 'data:', 'about:']);

function usage(message) {
  console.error(`check_report: ${message}`);
  console.error('usage: node check_report.mjs --report R.html --screenshot OUT.png --record A.json ' +
                '[--record B.json ...] [--expect-kinds ecdf,pareto,throughput,compare|trend]');
  process.exit(2);
}

function parseArguments(argv) {
  const options = {records: [], kinds: []};
  for (let i = 0; i < argv.length; ++i) {
    const value = argv[i + 1];
    if (value === undefined) usage(`${argv[i]} needs a value`);
    switch (argv[i]) {
      case '--report': options.report = value; break;
      case '--screenshot': options.screenshot = value; break;
      case '--record': options.records.push(value); break;
      case '--expect-kinds': options.kinds = value.split(',').filter(Boolean); break;
      default: usage(`unknown argument ${argv[i]}`);
    }
    ++i;
  }
  if (!options.report || !options.screenshot || options.records.length === 0) {
    usage('--report, --screenshot and at least one --record are required');
  }
  if (!fs.existsSync(options.report)) usage(`${options.report}: no such file`);
  options.names = options.records.map(measuredNames);
  return options;
}

// The benchmark names a report must show for a record: measured iteration rows, once each.
function measuredNames(recordPath) {
  let record;
  try {
    record = JSON.parse(fs.readFileSync(recordPath, 'utf8'));
  } catch (error) {
    usage(`${recordPath}: cannot read the record: ${error.message}`);
  }
  if (!Array.isArray(record.benchmarks)) usage(`${recordPath}: the record has no "benchmarks" array`);
  const names = record.benchmarks.filter((row) => row.run_type === 'iteration' && !row.error_occurred)
                                 .map((row) => row.name);
  return [...new Set(names)];
}

function loadPlaywright() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const manifest = path.join(here, '..', '..', 'report', 'package.json');
  try {
    return createRequire(manifest)('playwright-core');
  } catch (error) {
    console.error(`check_report: cannot load playwright-core next to ${manifest}: run ` +
                  `npm ci --prefix report (${error.message})`);
    process.exit(2);
  }
}

// Runs in the page: what the DOM shows, without judging it.
function inspectPage() {
  const marksOf = (chart) => {
    let count = 0;
    // Vega's SVG renderer puts every data mark's items under g.role-mark; axes, legends and titles
    // have roles of their own. Group items are containers, so only their leaves count, and a path
    // that draws nothing (no or NaN geometry) is not a rendered mark.
    for (const group of chart.querySelectorAll('svg g.role-mark')) {
      for (const item of group.children) {
        if (item.tagName.toLowerCase() === 'g') continue;
        const d = item.getAttribute('d');
        if (item.tagName.toLowerCase() === 'path' && (!d || d.includes('NaN'))) continue;
        ++count;
      }
    }
    return count;
  };
  const charts = [...document.querySelectorAll('.gbx-chart')].map((chart) => ({
    id: chart.id,
    kind: chart.dataset.kind || '',
    name: chart.dataset.name ?? null,
    hasSvg: chart.querySelector('svg') !== null,
    marks: marksOf(chart),
    points: Number(chart.dataset.points ?? 0),
  }));
  // Labels that can be read: shown, not transparent, not empty; their boxes in page pixels.
  const shown = (element, chart) => {
    if (element.textContent.trim() === '') return false;
    for (let e = element; e && e !== chart; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
      if (Number(e.getAttribute('opacity') ?? 1) === 0 || Number(e.getAttribute('fill-opacity') ?? 1) === 0) return false;
    }
    return true;
  };
  const boxes = (elements, chart) => elements.filter((e) => shown(e, chart)).map((e) => {
    const r = e.getBoundingClientRect();
    return {text: e.textContent.trim(), left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  });
  // Each set of labels that must not overlap: a chart's point labels (text marks), each axis's ticks.
  const labelSets = (chart) => [
    {what: 'point labels', boxes: boxes([...chart.querySelectorAll('svg g.role-mark text')], chart)},
    ...[...chart.querySelectorAll('svg g.role-axis')].map((axis) => (
      {what: 'axis labels', boxes: boxes([...axis.querySelectorAll('g.role-axis-label text')], chart)})),
  ];
  const labels = Object.fromEntries([...document.querySelectorAll('.gbx-chart')].map((c) => [c.id, labelSets(c)]));
  const table = document.querySelector('table.gbx-benchmarks');
  const firstRow = table?.tBodies[0]?.rows[0];
  const firstScreen = {
    scrollY: window.scrollY,
    table: table ? table.getBoundingClientRect().toJSON() : null,
    firstRow: firstRow ? firstRow.getBoundingClientRect().toJSON() : null,
    pageWidth: document.documentElement.scrollWidth,
  };
  const tables = {};
  for (const table of document.querySelectorAll('table.gbx-benchmarks')) {
    const rows = tables[table.dataset.run] ??= [];
    for (const row of table.querySelectorAll('tr[data-name]')) {
      rows.push({name: row.dataset.name, skipped: row.dataset.skipped === 'true'});
    }
  }
  return {charts, tables, labels, firstScreen};
}

async function check(options, failures) {
  const {chromium} = loadPlaywright();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gbx-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: kChromium, headless: true, args: kChromiumFlags, timeout: kTimeoutMs,
      viewport: kScreen,
    });
    // Anything that would leave the file is counted as a failure and refused before it goes out.
    const isLocal = (url) => kLocalSchemes.has(new URL(url).protocol);
    context.on('request', (request) => {
      if (!isLocal(request.url())) failures.push(`network request (the report must be self-contained): ${request.url()}`);
    });
    await context.route('**/*', (route) => (isLocal(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
    const page = context.pages()[0] ?? await context.newPage();
    page.setDefaultTimeout(kTimeoutMs);
    page.on('websocket', (socket) => failures.push(`websocket opened: ${socket.url()}`));
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));

    await page.goto(pathToFileURL(path.resolve(options.report)).href, {timeout: kTimeoutMs});
    try {
      await page.waitForFunction(() => ['ok', 'error'].includes(document.documentElement.dataset.gbxRendered),
                                 null, {timeout: kTimeoutMs});
      const state = await page.evaluate(() => document.documentElement.dataset.gbxRendered);
      if (state !== 'ok') failures.push(`the report's charts did not render: data-gbx-rendered="${state}"`);
    } catch {
      failures.push(`the report did not finish rendering within ${kTimeoutMs / 1000} s ` +
                    '(document.documentElement.dataset.gbxRendered never became "ok")');
    }

    const seen = await page.evaluate(inspectPage);
    const summary = judge(seen, options, failures);
    await checkSorting(page, failures);
    fs.mkdirSync(path.dirname(path.resolve(options.screenshot)), {recursive: true});
    await page.screenshot({path: options.screenshot, fullPage: true, timeout: kTimeoutMs});
    return summary;
  } finally {
    if (context) await context.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

// The first table, sorted by its Median column with a click and reversed with a second one.
async function checkSorting(page, failures) {
  const header = page.locator('table.gbx-benchmarks').first().locator('thead th', {hasText: /^Median$/});
  if (await header.count() !== 1) {
    failures.push('the benchmark table has no "Median" column header to sort by');
    return;
  }
  const medians = () => page.evaluate(() => {
    const table = document.querySelector('table.gbx-benchmarks');
    const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent.trim() === 'Median');
    return [...table.tBodies[0].rows]
        .map((row) => row.cells[column]?.dataset.sort)
        .filter((key) => key !== undefined && key !== '')
        .map(Number);
  });
  const sorted = (values, sign) => values.every((value, i) => i === 0 || sign * (value - values[i - 1]) >= 0);
  await header.click();
  const ascending = await medians();
  if (ascending.length === 0) {
    failures.push('the "Median" column has no sort keys (data-sort)');
    return;
  }
  if (!sorted(ascending, 1)) {
    failures.push(`a click on "Median" did not sort the table ascending: ${ascending.join(', ')}`);
  }
  await header.click();
  const descending = await medians();
  if (!sorted(descending, -1)) {
    failures.push(`a second click on "Median" did not reverse the order: ${descending.join(', ')}`);
  }
}

function overlapping(a, b) {
  const t = kOverlapTolerancePx;
  return a.left < b.right - t && b.left < a.right - t && a.top < b.bottom - t && b.top < a.bottom - t;
}

// The results table's first row on the first screen, with nothing to scroll sideways; no two labels of
// a set overlapping.
function judgeLayout(seen, failures) {
  const screen = seen.firstScreen;
  if (!screen.table || !screen.firstRow) {
    failures.push('no results table (table.gbx-benchmarks) with a row');
  } else if (screen.scrollY !== 0 || screen.firstRow.bottom > kScreen.height || screen.firstRow.top < 0) {
    failures.push(`the results table is not visible without scrolling at ${kScreen.width} x ${kScreen.height}: ` +
                  `its first row spans ${Math.round(screen.firstRow.top)} to ${Math.round(screen.firstRow.bottom)} px`);
  }
  if (screen.pageWidth > kScreen.width) {
    failures.push(`the page is ${screen.pageWidth} px wide: it scrolls sideways at ${kScreen.width} px`);
  } else if (screen.table && screen.table.right > kScreen.width) {
    failures.push(`the results table ends at ${Math.round(screen.table.right)} px, past ${kScreen.width} px`);
  }
  let counted = 0;
  for (const [id, sets] of Object.entries(seen.labels)) {
    for (const set of sets) {
      counted += set.boxes.length;
      for (let i = 0; i < set.boxes.length; ++i) {
        for (let j = i + 1; j < set.boxes.length; ++j) {
          if (overlapping(set.boxes[i], set.boxes[j])) {
            failures.push(`chart ${id}: the ${set.what} "${set.boxes[i].text}" and "${set.boxes[j].text}" overlap`);
          }
        }
      }
    }
  }
  return counted;
}

function judge(seen, options, failures) {
  const labels = judgeLayout(seen, failures);
  if (seen.charts.length === 0) failures.push('the report has no .gbx-chart');
  let marks = 0;
  const kindCounts = {};
  for (const chart of seen.charts) {
    marks += chart.marks;
    kindCounts[chart.kind] = (kindCounts[chart.kind] ?? 0) + 1;
    const label = `chart ${chart.id} (${chart.kind}${chart.name ? ` ${chart.name}` : ''})`;
    if (!chart.hasSvg) failures.push(`${label}: no svg was rendered`);
    else if (chart.marks === 0) failures.push(`${label}: rendered empty, no data mark`);
    // A scaling chart draws each point twice (latency, throughput) or at least once, with its lines.
    if (chart.kind === 'scaling' && chart.marks < chart.points) {
      failures.push(`${label}: ${chart.marks} marks drawn for ${chart.points} points along its axis`);
    }
  }
  for (const kind of options.kinds) {
    if (!kindCounts[kind]) failures.push(`no chart of the expected kind "${kind}"`);
  }
  let rows = 0;
  options.records.forEach((recordPath, run) => {
    const names = options.names[run];
    if (names.length === 0) failures.push(`${recordPath}: the record measured no benchmark, nothing to check`);
    const tableRows = seen.tables[String(run)];
    if (!tableRows) {
      failures.push(`no table.gbx-benchmarks[data-run="${run}"] for ${recordPath}`);
    }
    rows += tableRows?.length ?? 0;
    for (const name of names) {
      const row = tableRows?.find((candidate) => candidate.name === name);
      if (tableRows && !row) failures.push(`run ${run} (${recordPath}): no table row for ${name}`);
      if (row?.skipped) failures.push(`run ${run} (${recordPath}): ${name} was measured but its row says skipped`);
      if (!seen.charts.some((chart) => chart.kind === 'ecdf' && chart.name === name)) {
        failures.push(`run ${run} (${recordPath}): no ecdf chart for ${name}`);
      }
    }
  });
  const kinds = Object.entries(kindCounts).map(([kind, count]) => `${kind} ${count}`).join(', ');
  return `${seen.charts.length} charts (${kinds}), ${rows} rows, ${marks} marks, ${labels} labels apart`;
}

const options = parseArguments(process.argv.slice(2));
const failures = [];
let summary = '';
try {
  summary = await check(options, failures);
} catch (error) {
  failures.push(`the browser check could not run: ${error.message}`);
}
if (failures.length > 0) {
  console.log(`check_report: FAIL ${options.report}: ${failures.length} failure(s)${summary ? `; ${summary}` : ''}`);
  for (const failure of failures) console.log(`  - ${failure}`);
  process.exit(1);
}
console.log(`check_report: PASS ${options.report}: ${summary}; screenshot ${options.screenshot}`);
