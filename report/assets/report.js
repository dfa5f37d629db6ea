// The gbx HTML report's own script, embedded into the gbx binary at build time
// (cmake/GbxEmbedFile.cmake): sortable tables, the secondary-columns switch, and the charts.
(function () {
  'use strict';

  // Click (or Enter on) a column header to sort by it; again to reverse. Empty cells stay last.
  document.querySelectorAll('table.gbx-benchmarks, table.gbx-sortable').forEach(function (table) {
    var headers = table.querySelectorAll('thead th');
    headers.forEach(function (th, column) {
      function sort() {
        var ascending = th.dataset.order !== 'asc';
        headers.forEach(function (h) { delete h.dataset.order; });
        th.dataset.order = ascending ? 'asc' : 'desc';
        var numeric = th.dataset.type === 'number';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        function key(row) {
          var c = row.cells[column];
          if (!c || c.colSpan > 1) return null;
          var text = c.dataset.sort !== undefined ? c.dataset.sort : c.textContent;
          if (numeric) return text === '' || isNaN(Number(text)) ? null : Number(text);
          return text;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (x === null || y === null) return (x === null) - (y === null);
          var order = numeric ? x - y : String(x).localeCompare(String(y));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (event) { if (event.key === 'Enter') sort(); });
    });
  });

  // The switch above the results shows or hides every table's secondary columns.
  document.querySelectorAll('input.gbx-all-columns').forEach(function (box) {
    box.addEventListener('change', function () {
      document.querySelectorAll('table.gbx-benchmarks').forEach(function (table) {
        table.classList.toggle('gbx-all-columns', box.checked);
      });
    });
  });

  function findMark(marks, name) {
    for (var i = 0; i < marks.length; ++i) {
      if (marks[i].name === name) return {list: marks, mark: marks[i]};
      var inner = marks[i].marks && findMark(marks[i].marks, name);
      if (inner) return inner;
    }
    return null;
  }

  // Point labels that never overlap (issue 14): Vega's label transform places each label beside its
  // point where it collides with no other label and no point, and hides the few it cannot place
  // (their names stay in the tooltip and the table). Vega-Lite cannot ask for it, so the compiled
  // Vega spec gets a text mark over the layer the Vega-Lite spec names in usermeta.gbxLabels.
  function addLabels(vg, labels) {
    var found = findMark(vg.marks || [], labels.layer + '_marks');
    if (!found) throw new Error('no mark named ' + labels.layer + '_marks to label');
    found.list.push({
      type: 'text', name: labels.layer + '_labels', from: {data: found.mark.name}, interactive: false,
      encode: {enter: {text: {field: 'datum.' + labels.field}, fontSize: {value: 11}, fill: {value: '#24292f'}}},
      transform: [{type: 'label', size: {signal: '[width, height]'}, offset: [3],
                   anchor: ['right', 'left', 'top', 'bottom', 'top-right', 'bottom-right', 'top-left', 'bottom-left']}]
    });
  }

  // Renders every chart, then tells the page (and a test) how it went: the HTML contract.
  var specs = JSON.parse(document.getElementById('gbx-specs').textContent);
  var views = {};
  var runs = [];
  document.querySelectorAll('.gbx-chart').forEach(function (el) {
    var spec = specs[el.id];
    if (!spec) { runs.push(Promise.reject(new Error('no spec for chart ' + el.id))); return; }
    try {
      var compiled = vegaLite.compile(spec).spec;
      if (spec.usermeta && spec.usermeta.gbxLabels) addLabels(compiled, spec.usermeta.gbxLabels);
      var view = new vega.View(vega.parse(compiled), {renderer: 'svg', container: el, hover: true});
      views[el.id] = view;
      runs.push(view.runAsync());
    } catch (error) {
      runs.push(Promise.reject(error));
    }
  });
  var ready = Promise.all(runs).then(function () {
    document.documentElement.dataset.gbxRendered = 'ok';
  }, function (error) {
    console.error('gbx report: a chart failed to render:', error);
    document.documentElement.dataset.gbxRendered = 'error';
  });
  window.gbxReport = {views: views, ready: ready};
})();
