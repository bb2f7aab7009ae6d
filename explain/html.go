package explain

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
)

// WriteHTML writes one self-contained page (inline style, no script
// needed, nothing loaded) with a section per run: summary, the SVG
// timeline, the folded timeline table, evidence, the guards replayed and
// the recommended guard. The model is sanitized first (no control
// character from a log reaches the page) and html/template escapes every
// string where it lands.
func WriteHTML(w io.Writer, runs []*Run) error {
	page := htmlPage{Policy: report.HTMLPolicy, Style: report.HTMLStyle}
	for k, r := range runs {
		page.Runs = append(page.Runs, htmlView(k, sanitized(r)))
	}
	if len(runs) > 0 {
		page.Title = "runaway explain: " + page.Runs[0].RunID
		if len(runs) > 1 {
			page.Title += fmt.Sprintf(" and %d more", len(runs)-1)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := explainTemplate.Execute(bw, page); err != nil {
		return err
	}
	return bw.Flush()
}

// TimelineSVG renders one run's SVG timeline, with its legend, as the
// explain page draws it: the same template, so a page that embeds it (the
// scan's overview) shows the same drawing, escaped the same way. The model
// is sanitized first, as WriteHTML does. Its style is report.HTMLStyle,
// which every runaway page already carries.
func TimelineSVG(run *Run) (template.HTML, error) {
	var b strings.Builder
	if err := explainTemplate.ExecuteTemplate(&b, "timeline", timelineSVG(sanitized(run))); err != nil {
		return "", err
	}
	// html/template escaped every string where it landed: the result is
	// markup to insert as is.
	return template.HTML(b.String()), nil
}

type htmlPage struct {
	Title  string
	Policy string
	Style  template.CSS
	Runs   []htmlRun
}

type htmlRun struct {
	Anchor   string // ours: run-0, run-1...
	RunID    string
	Verdict  string
	Summary  []htmlField
	SVG      *svgTimeline
	Lines    []htmlLine
	Findings []htmlFinding
	Memory   string
	MemoryID string
	Guards   []htmlGuard
	Whys     []htmlWhy
	MoreWhys int
	WhyTitle string
	Guard    *GuardChoice
	GuardMsg string
	Fix      string
	Healthy  bool
}

type htmlWhy struct {
	Loop               bool
	Steps, Result, Why string
}

type htmlField struct {
	Label, Value, Code string
}

type htmlLine struct {
	Loop, First          bool
	Steps, TS, State     string
	Call, Decision, Reps string
	Result, Memory, Note string
	Gap                  string // a gap's line: how many steps it folds
}

type htmlFinding struct {
	Detector, Slug, Severity, Cause, Message, Evidence, Fix string
	Keys                                                    []string
}

type htmlGuard struct {
	Name, Stop, Delay, Saved, Reason string
	Recommended                      bool
}

func htmlView(k int, run *Run) htmlRun {
	res := &run.Result
	v := htmlRun{Anchor: fmt.Sprintf("run-%d", k), RunID: run.RunID, Verdict: res.Verdict.String(), SVG: timelineSVG(run),
		Healthy: res.Verdict == detect.Healthy}
	add := func(label, value string) { v.Summary = append(v.Summary, htmlField{Label: label, Value: value}) }
	add("Verdict", res.Verdict.String())
	add("Root cause", causeName(res.RootCause))
	if run.Goal != "" {
		add("Goal", run.Goal)
	}
	if f := run.primary(); f != nil {
		add("Onset", fmt.Sprintf("step %d (%s %s); loop segment steps %s", res.OnsetStep, f.Detector, f.Slug, stepSpan(run.Loop.From, run.Loop.To)))
		add("Evidence", res.Headline)
		add("Wasted", wasteText(res))
		if m := run.Memory; m != nil {
			v.Summary = append(v.Summary, htmlField{Label: "Contaminating memory", Code: m.ID, Value: memoryText(m)})
			v.Memory, v.MemoryID = memoryText(m), m.ID
		}
		v.Guard = run.Guard
		if g := run.Guard; g != nil {
			v.GuardMsg = guardText(g, res)
		} else {
			v.GuardMsg = noGuardText(run)
		}
		add("Guard that would have stopped it", v.GuardMsg)
		v.Fix = f.Guard
	} else {
		add("Evidence", fmt.Sprintf("no loop found in %d steps", res.Steps))
	}
	if run.NotAnalyzed != "" {
		add("Note", run.NotAnalyzed)
	}
	if len(run.Gaps) > 0 {
		add("Note", shownText(run))
	}
	for _, l := range run.lines() {
		if l.gap != "" {
			v.Lines = append(v.Lines, htmlLine{Loop: l.loop, First: true, Steps: l.steps, Gap: l.gap})
			continue
		}
		h := htmlLine{Loop: l.loop, First: l.first, Steps: l.steps, TS: l.ts, State: orDash(l.state),
			Result: l.result, Memory: l.memory, Note: strings.Join(l.notes, "; ")}
		switch {
		case l.tool != "":
			h.Call = l.tool + " " + l.args
		case l.next != "" || l.reason != "":
			h.Decision = decisionText(l.next, report.Truncate(l.reason, maxReason))
		default:
			h.Decision = "-"
		}
		if l.reps > 1 && (h.Call != "" || h.Decision != "-") {
			h.Reps = fmt.Sprintf("x%d", l.reps)
		}
		v.Lines = append(v.Lines, h)
	}
	groups, more := run.whys()
	for _, g := range groups {
		v.Whys = append(v.Whys, htmlWhy{Loop: g.InLoop, Steps: whySteps(g.Steps), Result: g.Result, Why: g.Why})
	}
	v.MoreWhys, v.WhyTitle = more, whyTitle
	for i := range res.Findings {
		f := &res.Findings[i]
		v.Findings = append(v.Findings, htmlFinding{Detector: f.Detector, Slug: f.Slug, Severity: f.Severity.String(),
			Cause: causeName(f.RootCause), Message: f.Message, Evidence: evidenceText(f), Fix: f.Guard, Keys: f.Evidence.Keys})
	}
	for i := range run.Guards {
		o := &run.Guards[i]
		stop, delay, saved := stopText(o, res)
		reason := "does not stop the run"
		if o.Stopped {
			reason = o.Reason
		}
		v.Guards = append(v.Guards, htmlGuard{Name: o.Name, Stop: stop, Delay: delay, Saved: saved, Reason: reason,
			Recommended: run.Guard != nil && run.Guard.Name == o.Name})
	}
	return v
}

var explainTemplate = template.Must(template.New("explain").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<h1>runaway explain</h1>
<p class="lead">{{len .Runs}} run{{if ne (len .Runs) 1}}s{{end}}: the timeline of each, its loop, its cause and the guard that would have stopped it.</p>
{{range .Runs}}
<section class="run" id="{{.Anchor}}">
<h2>Run <code>{{.RunID}}</code> <span class="verdict v-{{.Verdict}}">{{.Verdict}}</span></h2>
<dl class="summary">
{{- range .Summary}}
<dt>{{.Label}}</dt><dd>{{if .Code}}<code>{{.Code}}</code> {{end}}{{.Value}}</dd>
{{- end}}
</dl>
{{template "timeline" .SVG}}
<h3>Timeline</h3>
<p class="note">Shaded rows are the loop segment; alike steps in a row are folded into one line (docs/explain.md).</p>
<div class="scroll"><table class="steps">
<thead><tr><th></th><th class="num">step</th><th class="num">ts</th><th>state</th><th>call</th><th>result</th><th>memory</th><th>note</th></tr></thead>
<tbody>
{{- range .Lines}}
{{- if .Gap}}
<tr class="{{if .Loop}}loop{{end}}"><td class="mark">{{if .Loop}}▶{{end}}</td><td class="num">{{.Steps}}</td><td colspan="6" class="note">{{.Gap}}</td></tr>
{{- else}}
<tr class="{{if .Loop}}loop{{end}}{{if not .First}} cont{{end}}"><td class="mark">{{if .Loop}}▶{{end}}</td><td class="num">{{.Steps}}</td><td class="num">{{.TS}}</td><td>{{.State}}</td><td>{{if .Call}}<code>{{.Call}}</code>{{else}}{{.Decision}}{{end}}{{if .Reps}} {{.Reps}}{{end}}</td><td>{{.Result}}</td><td>{{.Memory}}</td><td>{{.Note}}</td></tr>
{{- end}}
{{- end}}
</tbody>
</table></div>
{{- if .Whys}}
<p class="note">{{.WhyTitle}}:</p>
<table class="whys">
<thead><tr><th></th><th>steps</th><th>result</th><th>why</th></tr></thead>
<tbody>
{{- range .Whys}}
<tr class="{{if .Loop}}loop{{end}}"><td class="mark">{{if .Loop}}▶{{end}}</td><td>{{.Steps}}</td><td>{{.Result}}</td><td>{{.Why}}</td></tr>
{{- end}}
</tbody>
</table>
{{if .MoreWhys}}<p class="note">... and {{.MoreWhys}} more reason(s).</p>{{end}}
{{- end}}
<h3>Evidence</h3>
{{if .Findings}}<ul class="findings">
{{- range .Findings}}
<li><strong>{{.Detector}}</strong> {{.Slug}} ({{.Severity}}, {{.Cause}}): {{.Message}}<br>
<span class="note">evidence: {{.Evidence}}{{range .Keys}}; key <code>{{.}}</code>{{end}}</span><br>
<span class="note">fix: {{.Fix}}</span></li>
{{- end}}
{{- if .MemoryID}}
<li><strong>Contaminating memory</strong> <code>{{.MemoryID}}</code>: {{.Memory}}</li>
{{- end}}
</ul>{{else}}<p>No detector fired.</p>{{end}}
{{if .Guards}}
<h3>Guards replayed</h3>
<table class="guards">
<thead><tr><th>guard</th><th class="num">stop</th><th class="num">vs onset</th><th class="num">saved</th><th>reason</th></tr></thead>
<tbody>
{{- range .Guards}}
<tr><td>{{if .Recommended}}<strong>{{.Name}}</strong> (recommended){{else}}{{.Name}}{{end}}</td><td class="num">{{.Stop}}</td><td class="num">{{.Delay}}</td><td class="num">{{.Saved}}</td><td>{{.Reason}}</td></tr>
{{- end}}
</tbody>
</table>
{{end}}
<h3>Recommended guard</h3>
{{if .Healthy}}<p>None: the run is healthy.</p>
{{else if .Guard}}<p><strong>{{.Guard.Name}}</strong>: {{.GuardMsg}}.</p>
<ul><li>its reason: {{.Guard.Reason}}</li><li>chosen: {{.Guard.Why}}</li><li>the fix the report recommends: {{.Fix}}</li></ul>
{{else}}<p>{{.GuardMsg}}.</p><ul><li>the fix the report recommends: {{.Fix}}</li></ul>{{end}}
</section>
{{end}}
</body>
</html>
{{define "timeline"}}<figure class="timeline">
{{with .}}
<div class="scroll">
<svg class="timeline" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="timeline">
{{- with .Loop}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{- end}}
{{- range .Ticks}}
<text class="tick" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>
{{- end}}
{{- range .Lanes}}
<text class="lane" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>
{{- end}}
{{- range .Gaps}}
<rect class="st-none" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect><text class="marklabel" x="{{.TX}}" y="{{.TY}}" text-anchor="middle">{{.Text}}</text>
{{- end}}
<g class="states">
{{- range .States}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{- end}}
</g>
<g class="calls">
{{- range .Calls}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>
{{- end}}
</g>
<g class="marks">
{{- range .Errors}}
<path class="err" d="M{{.X}} {{.Y}} l-4 7 h8 z"><title>{{.Title}}</title></path>
{{- end}}
{{- range .Empties}}
<circle class="empty" cx="{{.X}}" cy="{{.Y}}" r="3.5"><title>{{.Title}}</title></circle>
{{- end}}
</g>
<g class="memory">
{{- range .MemLinks}}
<path class="{{.Class}}" d="{{.D}}"></path>
{{- end}}
{{- range .MemWrites}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{- end}}
{{- range .MemReads}}
<circle class="{{.Class}}" cx="{{.X}}" cy="{{.Y}}" r="3.5"><title>{{.Title}}</title></circle>
{{- end}}
</g>
<g class="findings">
{{- range .Findings}}
<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"><title>{{.Title}}</title></rect>
{{- end}}
</g>
{{- range .Marks}}
<line class="{{.Class}}" x1="{{.X}}" y1="{{.Y1}}" x2="{{.X}}" y2="{{.Y2}}"></line><text class="marklabel" x="{{.X}}" y="{{.Y2}}" dx="3">{{.Label}}</text>
{{- end}}
</svg>
</div>
{{end}}
<figcaption class="legend"><span><i class="st-plan" style="background:#8250df"></i>PLAN</span><span><i style="background:#0969da"></i>ACT</span><span><i style="background:#1a7f37"></i>EVAL</span><span><i style="background:#bc4c00"></i>RECOVER</span><span><i style="background:#24292f"></i>STOP</span><span>call colour: one per call (tool and args)</span><span><i style="background:#cf222e"></i>error</span><span>○ empty result</span><span>■ memory written, ○ read, linked</span><span><i style="background:rgba(207,34,46,.25)"></i>loop segment</span></figcaption>
</figure>{{end}}`))
