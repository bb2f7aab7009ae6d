package report

import "html/template"

// overviewTemplate is the scan's HTML page. html/template escapes every
// value where it lands; values from logs are sanitized before (no control
// character reaches the page), and none goes into an attribute but the
// numbers and our own class names.
var overviewTemplate = template.Must(template.New("overview").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>runaway scan</title>
<style>{{.Style}}
svg .waste{fill:var(--loop)}svg .spark-onset{stroke:var(--runaway);stroke-width:1.5}svg .spark-base{fill:var(--soft)}
svg .sev-runaway{fill:var(--runaway)}svg .sev-suspicious{fill:var(--suspicious)}
</style>
</head>
<body>
<h1>runaway scan</h1>
<p class="lead">Which runs ran away, why, and what it cost. Click a column to sort; a run links to its findings.</p>
{{if .Partial}}<p><strong>Partial report:</strong> these sources could not be read, so the counts cover only part of the input:</p>
<ul>{{range .Failed}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
<dl class="summary">
{{- range .Summary}}
<dt>{{.Label}}</dt><dd>{{.Value}}</dd>
{{- end}}
</dl>
{{with .Causes}}
<h2>Flagged runs by root cause</h2>
<svg class="chart causes" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="flagged runs by root cause">
{{- template "marks" .}}
</svg>
<p class="legend"><span><i style="background:#cf222e"></i>runaway</span><span><i style="background:#9a6700"></i>suspicious</span></p>
{{end}}
{{with .Hist}}
<h2>Wasted steps per flagged run</h2>
<p class="note">Flagged runs by the steps they spent from the onset of their loop to their end, in bins that double.</p>
<svg class="chart histogram" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="histogram of wasted steps">
<line class="axis" x1="0" y1="{{.Axis}}" x2="{{.Width}}" y2="{{.Axis}}"></line>
{{- template "marks" .}}
</svg>
{{end}}
<h2>Flagged runs</h2>
{{if .Runs}}
<p class="note">{{if .Cut}}Showing the {{.Shown}} worst of {{.Flagged}} flagged runs (runaway first, then the most wasted steps); the page lists at most {{.Shown}} so that it stays small. The json, ndjson and parquet outputs list every run.{{else}}All {{.Flagged}} flagged runs, runaway first, then the most wasted steps.{{end}}
The timeline column shows each finding's steps over the run, the wasted part shaded.</p>
{{- if .Timelines}}
<p class="note">{{if eq .TimelineCount .Shown}}Every run listed shows its step-by-step timeline in its section.{{else if .TimelineCount}}{{.TimelineCount}} of the {{.Shown}} runs listed, the first in this order, show their step-by-step timeline in their section.{{else}}No run shows its step-by-step timeline here: {{.TimelinesWhy}}.{{end}}</p>
{{- end}}
<div class="scroll"><table class="sortable runs">
<thead><tr><th data-type="num" class="num">#</th><th>run</th><th data-type="num">verdict</th><th>root cause</th><th data-type="num" class="num">onset</th><th data-type="num" class="num">steps</th><th data-type="num" class="num">wasted steps</th><th data-type="num" class="num">wasted cost</th><th>timeline</th><th>evidence</th></tr></thead>
<tbody>
{{- range .Runs}}
<tr><td class="num" data-sort="{{.Rank}}">{{.Rank}}</td><td><a href="#{{.Anchor}}"><code>{{.RunID}}</code></a></td><td data-sort="{{.VerdictRank}}"><span class="verdict v-{{.Verdict}}">{{.Verdict}}</span></td><td>{{.Cause}}</td><td class="num" data-sort="{{.OnsetSort}}">{{.Onset}}</td><td class="num" data-sort="{{.Steps}}">{{.StepsText}}</td><td class="num" data-sort="{{.WastedSteps}}">{{.WastedStepsText}}</td><td class="num" data-sort="{{.CostSort}}">{{.Cost}}</td><td>{{template "spark" .Spark}}</td><td>{{.Headline}}</td></tr>
{{- end}}
</tbody>
</table></div>
{{range .Runs}}
<section class="run" id="{{.Anchor}}">
<h3>Run <code>{{.RunID}}</code> <span class="verdict v-{{.Verdict}}">{{.Verdict}}</span> {{.Cause}}</h3>
<p>{{.Headline}}</p>
<p class="note">onset step {{.Onset}}; {{.WastedStepsText}} of {{.StepsText}} steps wasted ({{.Cost}}). {{if .Timeline}}Step by step below; with the folded steps, the guards replayed and the memory: <code>{{.Command}}</code>{{else if $.Timelines}}Step-by-step timeline left out of this page ({{$.TimelinesWhy}}): <code>{{.Command}}</code>{{else}}Step by step: <code>{{.Command}}</code>{{end}}</p>
{{- with .Timeline}}
{{.}}
{{- end}}
<ul class="findings">
{{- range .Findings}}
<li><strong>{{.Detector}}</strong> {{.Slug}} ({{.Severity}}, {{.Cause}}): {{.Message}}<br><span class="note">evidence: {{.Evidence}}{{range .Keys}}; key <code>{{.}}</code>{{end}}</span><br><span class="note">fix: {{.Guard}}</span></li>
{{- end}}
</ul>
</section>
{{end}}
{{else}}
<p>No runaway or suspicious runs.</p>
{{end}}
<script>{{.Script}}</script>
</body>
</html>
{{define "spark"}}<svg class="spark" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="findings over the run"><rect class="spark-base" x="0" y="0" width="{{.Width}}" height="{{.Height}}"></rect>{{with .Waste}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>{{end}}{{range .Bars}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>{{end}}{{if ge .Onset 0}}<line class="spark-onset" x1="{{.Onset}}" y1="0" x2="{{.Onset}}" y2="{{.Height}}"></line>{{end}}</svg>{{end}}{{define "marks"}}
{{- range .Bars}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{- end}}
{{- range .Labels}}
<text x="{{.X}}" y="{{.Y}}"{{if .Anchor}} text-anchor="{{.Anchor}}"{{end}}>{{.Text}}</text>
{{- end}}
{{- end}}
`))
