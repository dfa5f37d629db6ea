// Writes small reports that follow the HTML contract of docs/report.md, one good and one per fault
// the browser check must catch, with the record they claim to show:
//   node fixture_pages.mjs NODE_MODULES_DIR OUT_DIR
// The pages inline the real Vega and Vega-Lite, so a good page renders as a real report does.
import fs from 'node:fs';
import path from 'node:path';

const [modules, out] = process.argv.slice(2);
if (!modules || !out) {
  console.error('usage: node fixture_pages.mjs NODE_MODULES_DIR OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, {recursive: true});

const measured = ['fake/sum/n:64/manual_time', 'fake/kahan/n:64/manual_time'];
// Two repetitions of each measured benchmark, and a skipped one that needs neither row nor chart.
const record = {
  context: {},
  benchmarks: [
    ...measured.flatMap((name) => [0, 1].map((repetition) => ({name, run_type: 'iteration', repetition_index: repetition}))),
    {name: measured[0] + '_mean', run_type: 'aggregate'},
    {name: 'fake/cuda/n:64/manual_time', run_type: 'iteration', error_occurred: true},
  ],
};
fs.writeFileSync(path.join(out, 'record.json'), JSON.stringify(record));

const ecdf = (values) => ({
  data: {values: values.map((ns, i) => ({ns, fraction: (i + 1) / values.length}))},
  mark: {type: 'line', interpolate: 'step-after', point: true},
  encoding: {x: {field: 'ns', type: 'quantitative'}, y: {field: 'fraction', type: 'quantitative'}},
});
const pareto = {
  data: {values: [{variant: 'sum', ns: 10, error: 1e-6}, {variant: 'kahan', ns: 14, error: 1e-9}]},
  mark: 'point',
  encoding: {x: {field: 'ns', type: 'quantitative'}, y: {field: 'error', type: 'quantitative', scale: {type: 'log'}}},
};

function charts() {
  return [
    {id: 'ecdf-0', kind: 'ecdf', name: measured[0], spec: ecdf([10, 11, 12])},
    {id: 'ecdf-1', kind: 'ecdf', name: measured[1], spec: ecdf([14, 15])},
    {id: 'pareto-0', kind: 'pareto', problem: 'fake/n=64', spec: pareto},
  ];
}

const escapeScript = (text) => text.replace(/<\/script/gi, '<\\/script');
const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const library = (file) => `<script>${escapeScript(fs.readFileSync(path.join(modules, file), 'utf8'))}</script>`;

const render = `<script>
(function () {
  var specs = JSON.parse(document.getElementById('gbx-specs').textContent);
  var views = {};
  var pending = Object.keys(specs).map(function (id) {
    try {
      var view = new vega.View(vega.parse(vegaLite.compile(specs[id]).spec),
                               {renderer: 'svg', container: document.getElementById(id), hover: true});
      views[id] = view;
      return view.runAsync();
    } catch (error) {
      return Promise.reject(error);
    }
  });
  var ready = Promise.all(pending).then(
      function () { document.documentElement.dataset.gbxRendered = 'ok'; },
      function (error) { console.error('gbx report: ' + error); document.documentElement.dataset.gbxRendered = 'error'; });
  window.gbxReport = {views: views, ready: ready};
})();
</script>`;

// Sorts the table by the clicked column's data-sort numbers; the unsortable page leaves it out.
const sortScript = `<script>
document.querySelectorAll('table.gbx-benchmarks thead th').forEach(function (th, column) {
  th.addEventListener('click', function () {
    var ascending = th.dataset.order !== 'asc';
    th.dataset.order = ascending ? 'asc' : 'desc';
    var body = th.closest('table').tBodies[0];
    var key = function (row) { var c = row.cells[column]; return c && c.dataset.sort ? Number(c.dataset.sort) : Infinity; };
    Array.prototype.slice.call(body.rows)
        .sort(function (a, b) { return ascending ? key(a) - key(b) : key(b) - key(a); })
        .forEach(function (row) { body.appendChild(row); });
  });
});
</script>`;

// Medians in nanoseconds, deliberately not in order.
const medianOf = {[measured[0]]: 11, [measured[1]]: 9};

// Two labels drawn at the same place: what the report's label placement must never produce.
const overlapping = {
  data: {values: [{variant: 'openblas_sgemm', ns: 10, error: 1e-6}, {variant: 'cpu_blocked', ns: 10, error: 1e-6}]},
  layer: [{mark: 'point'}, {mark: {type: 'text', align: 'left', dx: 6}, encoding: {text: {field: 'variant'}}}],
  encoding: {x: {field: 'ns', type: 'quantitative'}, y: {field: 'error', type: 'quantitative', scale: {type: 'log'}}},
};

function page({chartList = charts(), rows = measured, extraScript = '', sorting = sortScript, before = ''}) {
  const specs = Object.fromEntries(chartList.map((chart) => [chart.id, chart.spec]));
  const containers = chartList.map((chart) => {
    const extra = chart.name ? ` data-name="${escapeAttribute(chart.name)}"`
                             : chart.problem ? ` data-problem="${escapeAttribute(chart.problem)}"` : '';
    return `<div class="gbx-chart" id="${chart.id}" data-kind="${chart.kind}"${extra}></div>`;
  });
  const tableRows = rows.map((name) => `<tr data-name="${escapeAttribute(name)}"><td>${escapeAttribute(name)}</td>` +
                                       `<td data-sort="${medianOf[name] * 1e-9}">${medianOf[name]} ns</td></tr>`);
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>fixture report</title>
${library('vega/build/vega.min.js')}
${library('vega-lite/build/vega-lite.min.js')}
</head><body>
${before}
<table class="gbx-benchmarks" data-run="0"><thead><tr><th>Benchmark</th><th>Median</th></tr></thead>
<tbody>
${tableRows.join('\n')}
<tr data-name="fake/cuda/n:64/manual_time" data-skipped="true"><td colspan="2">skipped</td></tr>
</tbody></table>
${containers.join('\n')}
<script type="application/json" id="gbx-specs">${JSON.stringify(specs).replace(/<\//g, '<\\/')}</script>
${extraScript}
${sorting}
${render}
</body></html>
`;
}

const emptyCharts = charts();
emptyCharts[1].spec = ecdf([]);
const pages = {
  'good.html': page({}),
  'console_error.html': page({extraScript: '<script>console.error("something broke");</script>'}),
  'empty_chart.html': page({chartList: emptyCharts}),
  'missing_row.html': page({rows: measured.slice(0, 1)}),
  'network.html': page({extraScript: '<img src="http://127.0.0.1:9/logo.png" alt="">'}),
  'unsortable.html': page({sorting: ''}),
  'buried.html': page({before: '<div style="height: 1000px">a long preamble</div>'}),
  'wide.html': page({before: '<div style="width: 1800px">a wide banner</div>'}),
  'overlap.html': page({chartList: [...charts(), {id: 'pareto-1', kind: 'pareto', problem: 'p', spec: overlapping}]}),
};
for (const [name, html] of Object.entries(pages)) fs.writeFileSync(path.join(out, name), html);
console.log(`fixture pages written to ${out}: ${Object.keys(pages).join(' ')}`);
