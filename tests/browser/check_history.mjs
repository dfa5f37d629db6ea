// Loads a gbx history page (report/history_page.h) in headless Chromium and checks what a reader sees:
//   node check_history.mjs --page H.html --screenshot OUT.png --benchmarks N --changes N
// Fails on any console or page error, any request that leaves the file, a render that does not finish
// "ok", a trend chart without a drawn data mark, a count of trend charts other than N benchmarks, a
// latest-changes table whose rows are not N, or whose first row is not on the first screen
// (1,400 x 900), and a page that scrolls sideways. Exit 0: pass; 1: fail, each failure listed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';

const kTimeoutMs = 120000;
const kScreen = {width: 1400, height: 900};
const kChromium = '/usr/bin/chromium';
const kChromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                        '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const kLocalSchemes = new Set(['file:', 'data:', 'about:']);

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) =>
  (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
for (const key of ['page', 'screenshot', 'benchmarks', 'changes']) {
  if (args[key] === undefined) {
    console.error(`check_history: --${key} is required`);
    process.exit(2);
  }
}
const here = path.dirname(fileURLToPath(import.meta.url));
const {chromium} = createRequire(path.join(here, '..', '..', 'report', 'package.json'))('playwright-core');
const failures = [];
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gbx-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: kChromium, headless: true, args: kChromiumFlags, timeout: kTimeoutMs, viewport: kScreen,
});
try {
  const isLocal = (url) => kLocalSchemes.has(new URL(url).protocol);
  await context.route('**/*', (route) => {
    if (!isLocal(route.request().url())) failures.push(`network request: ${route.request().url()}`);
    return isLocal(route.request().url()) ? route.continue() : route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(kTimeoutMs);
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  await page.goto(pathToFileURL(path.resolve(args.page)).href);
  await page.waitForFunction(() => ['ok', 'error'].includes(document.documentElement.dataset.gbxRendered));
  const seen = await page.evaluate(() => {
    const table = document.querySelector('table.gbx-changes');
    const first = table?.tBodies[0]?.rows[0];
    return {
      rendered: document.documentElement.dataset.gbxRendered,
      charts: [...document.querySelectorAll('.gbx-chart')].map((c) => ({
        id: c.id, kind: c.dataset.kind, svg: c.querySelector('svg') !== null,
        marks: c.querySelectorAll('g.role-mark path, g.role-mark line, g.role-mark rect, g.role-mark circle').length,
      })),
      rows: table ? table.tBodies[0].rows.length : 0,
      firstRow: first ? first.getBoundingClientRect().toJSON() : null,
      scrollY: window.scrollY,
      pageWidth: document.documentElement.scrollWidth,
    };
  });
  if (seen.rendered !== 'ok') failures.push(`the charts did not render: data-gbx-rendered="${seen.rendered}"`);
  const trends = seen.charts.filter((c) => c.kind === 'trend');
  if (trends.length !== Number(args.benchmarks)) failures.push(`${trends.length} trend charts, not ${args.benchmarks}`);
  for (const c of trends) {
    if (!c.svg || c.marks === 0) failures.push(`chart ${c.id}: nothing drawn`);
  }
  if (seen.rows !== Number(args.changes)) failures.push(`${seen.rows} rows of latest changes, not ${args.changes}`);
  if (Number(args.changes) > 0 && (!seen.firstRow || seen.scrollY !== 0 || seen.firstRow.bottom > kScreen.height)) {
    failures.push(`the latest changes' first row is not on the first screen: ${JSON.stringify(seen.firstRow)}`);
  }
  if (seen.pageWidth > kScreen.width) failures.push(`the page is ${seen.pageWidth} px wide`);
  await page.screenshot({path: args.screenshot, fullPage: false});
} finally {
  await context.close();
  fs.rmSync(profile, {recursive: true, force: true});
}
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`check_history: ${failures.length === 0 ? 'PASS' : 'FAIL'} ${args.page}`);
process.exit(failures.length === 0 ? 0 : 1);
