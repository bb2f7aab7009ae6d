package report

import "html/template"

// What every runaway HTML page shares: the security policy, the style and
// the table-sorting script. All of it is inline: a page is one file that
// works offline, loads nothing, and may be attached to an incident as is.

// HTMLPolicy is the pages' Content-Security-Policy: nothing may be loaded
// from anywhere (no network, no frames, no forms); only the page's own
// inline style and script run. Escaping keeps log text out of the markup;
// this keeps a mistake there from reaching the network.
const HTMLPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"

// HTMLStyle is the pages' stylesheet.
const HTMLStyle template.CSS = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--soft:#f6f8fa;--line:#d1d9e0;--runaway:#cf222e;--suspicious:#9a6700;--healthy:#1a7f37;--loop:rgba(207,34,46,.10)}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:24px auto;padding:0 24px;max-width:1500px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid var(--line);padding-bottom:4px;margin-top:36px}h3{font-size:15px;margin:22px 0 8px}
p.lead{color:var(--muted);margin-top:0}
code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
table{border-collapse:collapse;font-size:13px;margin:4px 0}th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.loop td{background:var(--loop)}tr.cont td{border-top:0}td.mark{color:var(--runaway);font-weight:700}
.verdict{font-weight:600;padding:1px 7px;border-radius:10px;font-size:12px;color:#fff;white-space:nowrap}
.v-runaway{background:var(--runaway)}.v-suspicious{background:var(--suspicious)}.v-healthy{background:var(--healthy)}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:8px 0}dt{color:var(--muted)}dd{margin:0}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:6px;padding:6px;margin:8px 0}
.note{color:var(--muted);font-size:13px}
ul.findings li{margin-bottom:6px}
table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:" \25B2"}table.sortable th[aria-sort=descending]::after{content:" \25BC"}
svg text{font:11px system-ui,sans-serif;fill:var(--fg)}svg .lane{fill:var(--muted)}svg .tick{fill:var(--muted);font-size:10px}
svg .loop{fill:var(--loop);stroke:rgba(207,34,46,.4)}
svg .onset{stroke:var(--runaway);stroke-width:2}svg .stop{stroke:#0969da;stroke-width:2;stroke-dasharray:4 3}
svg .marklabel{font-size:10px;font-weight:600}
.st-plan{fill:#8250df}.st-act{fill:#0969da}.st-eval{fill:#1a7f37}.st-recover{fill:#bc4c00}.st-stop{fill:#24292f}.st-other{fill:#afb8c1}.st-none{fill:#eaeef2}
svg .err{fill:#cf222e;stroke:#fff;stroke-width:.5}svg .empty{fill:#fff;stroke:#24292f;stroke-width:1.5}
svg .mem-write{fill:#6e7781}svg .mem-read{fill:#fff;stroke:#6e7781;stroke-width:1.2}
svg .mem-link{fill:none;stroke:#8c959f;stroke-width:1;opacity:.6}svg .contaminant-link{stroke:#cf222e;opacity:.8}
svg .mem-write.contaminant{fill:#cf222e}svg .mem-read.contaminant{stroke:#cf222e;fill:#ffebe9}
svg .finding.sev-runaway{fill:var(--runaway);opacity:.75}svg .finding.sev-suspicious{fill:var(--suspicious);opacity:.75}
svg .bar-runaway{fill:var(--runaway)}svg .bar-suspicious{fill:var(--suspicious)}svg .bar{fill:#0969da}svg .axis{stroke:var(--line)}
figure.timeline{margin:8px 0}.legend span{display:inline-block;margin-right:14px;font-size:12px;color:var(--muted)}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px;border-radius:2px}
`

// HTMLSortScript makes every table.sortable sortable by a click (or Enter)
// on a header: numbers by a cell's data-sort, text by its content; a second
// click reverses. The sort is stable, so ties keep the report's order.
const HTMLSortScript template.JS = `
(function () {
  function key(td) { var v = td.getAttribute("data-sort"); return v === null ? td.textContent.trim() : v; }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.tabIndex = 0;
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var num = th.getAttribute("data-type") === "num";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col]), y = key(b.cells[col]);
          var c = num ? parseFloat(x) - parseFloat(y) : (x < y ? -1 : x > y ? 1 : 0);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  });
})();
`
