package report

import (
	"bufio"
	"cmp"
	"container/heap"
	"fmt"
	"html/template"
	"io"
	"math/bits"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// DefaultHTMLRuns caps the flagged runs the scan's HTML page lists: a page
// of a few megabytes at most, whatever the size of the scan.
const DefaultHTMLRuns = 500

// HTMLOverview gathers what the scan's HTML page shows while the results
// stream by: the worst flagged runs (at most Max, in table order: runaway
// first, then the most wasted steps, then run id) and a histogram of the
// wasted steps of every flagged run. It holds at most Max runs however many
// are added, so a scan of millions of runs writes a bounded page.
type HTMLOverview struct {
	max     int
	flagged int64
	// hist counts flagged runs by wasted steps: bucket 0 holds 0, bucket b
	// holds [2^(b-1), 2^b).
	hist [65]int64
	kept overviewHeap
	// logged maps the run id a kept run shows to the id it was logged
	// with, for the runs whose id --redact rewrote (AddRedacted).
	logged map[string]string
	// timelines are the step-by-step timelines embedded in the runs'
	// sections, by run id; timelinesSet says SetTimelines was called, and
	// timelinesWhy why the runs without one have none.
	timelines    map[string]template.HTML
	timelinesSet bool
	timelinesWhy string
}

// NewHTMLOverview keeps at most max runs (--max-rows), never more than
// DefaultHTMLRuns; max <= 0 means DefaultHTMLRuns.
func NewHTMLOverview(max int) *HTMLOverview {
	if max <= 0 || max > DefaultHTMLRuns {
		max = DefaultHTMLRuns
	}
	return &HTMLOverview{max: max}
}

// Add counts a run; a flagged run among the Max worst so far is kept (a
// copy of what the page shows).
func (o *HTMLOverview) Add(r *detect.RunResult) { o.AddRedacted(r, r.RunID) }

// AddRedacted is Add for a run whose id, redacted (RedactRun), is not the
// id it was logged with: the page shows r's, and LoggedID gives loggedID
// back, to read the run's steps again for its timeline.
func (o *HTMLOverview) AddRedacted(r *detect.RunResult, loggedID string) {
	if r.Verdict == detect.Healthy {
		return
	}
	o.flagged++
	o.hist[bits.Len64(uint64(max(r.WastedSteps, 0)))]++
	if len(o.kept) == o.max {
		if !tableBefore(r, o.kept[0]) {
			return
		}
		delete(o.logged, o.kept[0].RunID)
		o.kept[0] = keepForPage(r)
		heap.Fix(&o.kept, 0)
	} else {
		heap.Push(&o.kept, keepForPage(r))
	}
	if loggedID != r.RunID {
		if o.logged == nil {
			o.logged = map[string]string{}
		}
		o.logged[r.RunID] = loggedID
	}
}

// LoggedID is the id a kept run was logged with (AddRedacted).
func (o *HTMLOverview) LoggedID(runID string) string {
	if id, ok := o.logged[runID]; ok {
		return id
	}
	return runID
}

// tableBefore is the table's order: worse verdict, more wasted steps, run id.
func tableBefore(a, b *detect.RunResult) bool {
	return cmp.Or(cmp.Compare(b.Verdict, a.Verdict), cmp.Compare(b.WastedSteps, a.WastedSteps), strings.Compare(a.RunID, b.RunID)) < 0
}

// keepForPage copies what the page shows of a run: its slices may be reused
// by the caller.
func keepForPage(r *detect.RunResult) *detect.RunResult {
	k := &detect.RunResult{RunID: r.RunID, Verdict: r.Verdict, RootCause: r.RootCause, OnsetStep: r.OnsetStep, Steps: r.Steps,
		WastedSteps: r.WastedSteps, WastedTokens: r.WastedTokens, WastedCostUSD: r.WastedCostUSD, CostLogged: r.CostLogged, CostEstimated: r.CostEstimated, Headline: r.Headline}
	k.Findings = make([]detect.Finding, len(r.Findings))
	for i, f := range r.Findings {
		f.Evidence.Steps = slices.Clone(f.Evidence.Steps)
		f.Evidence.Keys = slices.Clone(f.Evidence.Keys)
		f.Evidence.Counts = slices.Clone(f.Evidence.Counts)
		k.Findings[i] = f
	}
	return k
}

// overviewHeap has the kept run that comes last in table order on top.
type overviewHeap []*detect.RunResult

func (h overviewHeap) Len() int           { return len(h) }
func (h overviewHeap) Less(i, j int) bool { return tableBefore(h[j], h[i]) }
func (h overviewHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *overviewHeap) Push(x any)        { *h = append(*h, x.(*detect.RunResult)) }
func (h *overviewHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TopRunIDs returns the run ids of the first k rows of the page's table, in
// its default order: the runs whose timelines SetTimelines should get.
func (o *HTMLOverview) TopRunIDs(k int) []string {
	runs := o.sorted()
	ids := make([]string, 0, min(k, len(runs)))
	for _, r := range runs[:min(k, len(runs))] {
		ids = append(ids, r.RunID)
	}
	return ids
}

// Steps is the steps analyzed of a kept run (0 for another).
func (o *HTMLOverview) Steps(runID string) int64 {
	for _, r := range o.kept {
		if r.RunID == runID {
			return r.Steps
		}
	}
	return 0
}

// SetTimelines embeds a step-by-step timeline in the section of each run
// of byRunID (by raw run id); why says, on the page, why the other runs
// have none. The markup is the explain package's (explain.TimelineSVG:
// report cannot import explain, which imports report), escaped there and
// inserted as is; its classes are styled by HTMLStyle, which the page
// already carries, and it loads nothing, so the page's policy is unchanged.
func (o *HTMLOverview) SetTimelines(byRunID map[string]template.HTML, why string) {
	o.timelines, o.timelinesSet, o.timelinesWhy = byRunID, true, why
}

// sorted returns the kept runs in table order.
func (o *HTMLOverview) sorted() []*detect.RunResult {
	runs := slices.Clone([]*detect.RunResult(o.kept))
	slices.SortFunc(runs, func(a, b *detect.RunResult) int {
		if tableBefore(a, b) {
			return -1
		}
		if tableBefore(b, a) {
			return 1
		}
		return 0
	})
	return runs
}

// writeHTML is Write's html format: the overview of scan.Runs.
func writeHTML(w *bufio.Writer, scan *Scan, opts Options) error {
	o := NewHTMLOverview(opts.MaxRows)
	for i := range scan.Runs {
		o.Add(&scan.Runs[i])
	}
	return o.write(w, &scan.Summary)
}

// Write writes the page: the scan's summary, flagged runs by root cause, a
// histogram of wasted steps, and the kept runs in a sortable table whose
// rows link to a section per run (findings, evidence, the step-by-step
// timeline given by SetTimelines or else the `runaway explain` command that
// draws it); each row has a small timeline of the run's findings.
// Every string from a log is sanitized, then escaped by html/template.
func (o *HTMLOverview) Write(w io.Writer, s *Summary) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := o.write(bw, s); err != nil {
		return err
	}
	return bw.Flush()
}

func (o *HTMLOverview) write(w *bufio.Writer, s *Summary) error {
	runs := o.sorted()
	page := overviewPage{Policy: HTMLPolicy, Style: HTMLStyle, Script: HTMLSortScript,
		Summary: summaryFields(s), Partial: s.Partial, Failed: sanitizeAll(s.Input.FailedSources),
		Flagged: formatCount(o.flagged), Shown: len(runs), Cut: int64(len(runs)) < o.flagged,
		Causes: causeChart(s), Hist: o.histogram()}
	for k, r := range runs {
		p := overviewRun(k, r)
		if _, redacted := o.logged[r.RunID]; redacted {
			p.Command = "runaway explain RUN_ID PATH... (--redact took a secret out of this run id: explain the run by the id as logged)"
		}
		if t, ok := o.timelines[r.RunID]; ok {
			p.Timeline = t
			page.TimelineCount++
		}
		page.Runs = append(page.Runs, p)
	}
	page.Timelines, page.TimelinesWhy = o.timelinesSet, sanitize(o.timelinesWhy)
	return overviewTemplate.Execute(w, page)
}

type overviewPage struct {
	Policy  string
	Style   template.CSS
	Script  template.JS
	Summary []labelValue
	Partial bool
	Failed  []string
	Flagged string
	Shown   int
	Cut     bool
	Causes  *barChart
	Hist    *barChart
	Runs    []pageRun
	// Timelines: the scan decided which runs get a step-by-step timeline
	// (SetTimelines); TimelineCount have one, TimelinesWhy says why the
	// others have none.
	Timelines     bool
	TimelineCount int
	TimelinesWhy  string
}

type labelValue struct{ Label, Value string }

func sanitizeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = sanitize(s)
	}
	return out
}

// summaryFields is the table report's summary block, line by line.
func summaryFields(s *Summary) []labelValue {
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	writeSummary(bw, s, Options{})
	bw.Flush()
	var out []labelValue
	for line := range strings.Lines(b.String()) {
		label, value, ok := strings.Cut(strings.TrimRight(line, "\n"), ":")
		if !ok || strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "PARTIAL") {
			continue // the failed sources, listed apart
		}
		out = append(out, labelValue{label, strings.TrimSpace(value)})
	}
	return out
}

// barChart is a small SVG bar chart: numbers and our own labels only.
type barChart struct {
	Width, Height int
	Bars          []bar
	Labels        []svgText
	Axis          int // y of the base line
}

type bar struct {
	X, Y, W, H int
	Class      string
	Title      string
}

type svgText struct {
	X, Y   int
	Text   string
	Anchor string
}

const chartBarH = 14

// causeChart draws flagged runs by root cause, runaway and suspicious
// stacked, one row per root cause.
func causeChart(s *Summary) *barChart {
	var causes []detect.RootCause
	for _, c := range detect.RootCauses {
		if s.ByRootCause[c] > 0 {
			causes = append(causes, c)
		}
	}
	var others []detect.RootCause
	for c, n := range s.ByRootCause {
		if n > 0 && !slices.Contains(detect.RootCauses, c) {
			others = append(others, c)
		}
	}
	slices.Sort(others)
	causes = append(causes, others...)
	if len(causes) == 0 {
		return nil
	}
	most := 0
	for _, c := range causes {
		most = max(most, s.ByRootCause[c])
	}
	const labelW, barW = 170, 420
	ch := &barChart{Width: labelW + barW + 90, Height: len(causes)*(chartBarH+8) + 8}
	for k, c := range causes {
		y := 6 + k*(chartBarH+8)
		all, run := s.ByRootCause[c], s.RunawayByRootCause[c]
		ch.Labels = append(ch.Labels, svgText{X: labelW - 8, Y: y + chartBarH - 3, Text: sanitize(rootCauseLabel(c)), Anchor: "end"})
		wr := barW * run / most
		ws := barW*all/most - wr
		name := sanitize(rootCauseLabel(c))
		ch.Bars = append(ch.Bars, bar{X: labelW, Y: y, W: wr, H: chartBarH, Class: "bar-runaway", Title: fmt.Sprintf("%s: %d runaway", name, run)},
			bar{X: labelW + wr, Y: y, W: ws, H: chartBarH, Class: "bar-suspicious", Title: fmt.Sprintf("%s: %d suspicious", name, all-run)})
		ch.Labels = append(ch.Labels, svgText{X: labelW + wr + ws + 6, Y: y + chartBarH - 3, Text: fmt.Sprintf("%s (%s runaway)", formatCount(int64(all)), formatCount(int64(run)))})
	}
	return ch
}

// histogram draws the flagged runs by wasted steps, in power-of-two bins.
func (o *HTMLOverview) histogram() *barChart {
	last := -1
	for b, n := range o.hist {
		if n > 0 {
			last = b
		}
	}
	if last < 0 {
		return nil
	}
	var most int64
	for _, n := range o.hist[:last+1] {
		most = max(most, n)
	}
	const colW, plotH, top = 56, 150, 18
	ch := &barChart{Width: (last+1)*colW + 20, Height: top + plotH + 40, Axis: top + plotH}
	for b := 0; b <= last; b++ {
		n := o.hist[b]
		h := int(int64(plotH) * n / most)
		if n > 0 {
			h = max(h, 1)
		}
		x := 10 + b*colW
		label := binLabel(b)
		ch.Bars = append(ch.Bars, bar{X: x + 6, Y: top + plotH - h, W: colW - 12, H: h, Class: "bar",
			Title: fmt.Sprintf("%s wasted steps: %s runs", label, formatCount(n))})
		ch.Labels = append(ch.Labels,
			svgText{X: x + colW/2, Y: top + plotH + 16, Text: label, Anchor: "middle"},
			svgText{X: x + colW/2, Y: top + plotH - h - 4, Text: formatCount(n), Anchor: "middle"})
	}
	return ch
}

// binLabel names histogram bin b: 0, 1, 2-3, 4-7, ...
func binLabel(b int) string {
	if b <= 1 {
		return fmt.Sprint(b)
	}
	lo := int64(1) << (b - 1)
	if b == 64 {
		return formatCount(lo) + "+"
	}
	return formatCount(lo) + "-" + formatCount(2*lo-1)
}

type pageRun struct {
	Rank                                                   int
	Anchor, RunID, Verdict, Cause, Onset, Headline, Wasted string
	VerdictRank                                            int
	OnsetSort, Steps, WastedSteps                          int64
	Cost                                                   string
	CostSort                                               float64
	StepsText, WastedStepsText                             string
	Command                                                string
	Spark                                                  *spark
	Timeline                                               template.HTML // explain's markup, or empty
	Findings                                               []pageFinding
}

type pageFinding struct {
	Detector, Slug, Severity, Cause, Message, Evidence, Guard string
	Keys                                                      []string
}

func overviewRun(k int, r *detect.RunResult) pageRun {
	p := pageRun{Rank: k + 1, Anchor: fmt.Sprintf("run-%d", k), RunID: sanitize(r.RunID), Verdict: r.Verdict.String(), VerdictRank: int(r.Verdict),
		Cause: sanitize(rootCauseLabel(r.RootCause)), Onset: "-", OnsetSort: r.OnsetStep, Headline: sanitize(r.Headline),
		Steps: r.Steps, StepsText: formatCount(r.Steps), WastedSteps: r.WastedSteps, WastedStepsText: formatCount(r.WastedSteps),
		Cost: formatCost(r.WastedCostUSD, r.CostLogged, r.CostEstimated), CostSort: r.WastedCostUSD, Command: explainCommand(r.RunID), Spark: findingSpark(r)}
	if r.OnsetStep >= 0 {
		p.Onset = fmt.Sprint(r.OnsetStep)
	}
	for _, f := range r.Findings {
		pf := pageFinding{Detector: sanitize(f.Detector), Slug: sanitize(f.Slug), Severity: f.Severity.String(),
			Cause: sanitize(rootCauseLabel(f.RootCause)), Message: sanitize(f.Message), Guard: sanitize(f.Guard), Keys: sanitizeAll(f.Evidence.Keys)}
		var ev []string
		for _, sr := range f.Evidence.Steps {
			if sr.From == sr.To {
				ev = append(ev, fmt.Sprintf("step %d", sr.From))
			} else {
				ev = append(ev, fmt.Sprintf("steps %d-%d", sr.From, sr.To))
			}
		}
		for _, c := range f.Evidence.Counts {
			ev = append(ev, fmt.Sprintf("%s=%d", sanitize(c.Name), c.Value))
		}
		pf.Evidence = strings.Join(ev, "; ")
		p.Findings = append(p.Findings, pf)
	}
	return p
}

// explainCommand is the command that prints the run's step-by-step
// timeline, the run id quoted for a POSIX shell, after "--" when it starts
// with '-' so that runaway does not take it for a flag. An id with a
// character a terminal would interpret cannot be copied from the page as
// is: the page says so instead.
func explainCommand(id string) string {
	if sanitize(id) != id {
		return "runaway explain RUN_ID PATH... (this run id holds control characters: copy it from the json output)"
	}
	if strings.HasPrefix(id, "-") {
		return "runaway explain -- " + ShellQuote(id) + " PATH..."
	}
	return "runaway explain " + ShellQuote(id) + " PATH..."
}

// ShellQuote is s as one word of a POSIX shell: as it is when every byte
// is one no shell treats specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@%+=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// spark is a run's findings over its steps: the wasted part shaded, one
// thin lane per finding (at most sparkLanes), the onset marked.
type spark struct {
	Width, Height int
	Waste         *bar
	Bars          []bar
	Onset         int // x; -1 without
}

const (
	sparkW     = 180
	sparkLanes = 4
	sparkLaneH = 4
)

func findingSpark(r *detect.RunResult) *spark {
	last := max(r.Steps-1, 0)
	for _, f := range r.Findings {
		for _, sr := range f.Evidence.Steps {
			last = max(last, sr.To)
		}
	}
	x := func(step int64) int { return int(int64(sparkW) * min(max(step, 0), last+1) / (last + 1)) }
	s := &spark{Width: sparkW, Height: 4 + sparkLanes*(sparkLaneH+2), Onset: -1}
	if r.OnsetStep >= 0 {
		s.Onset = x(r.OnsetStep)
		s.Waste = &bar{X: s.Onset, Y: 0, W: max(sparkW-s.Onset, 1), H: s.Height, Class: "waste",
			Title: fmt.Sprintf("wasted: steps %d-%d", r.OnsetStep, last)}
	}
	for k, f := range r.Findings {
		if k == sparkLanes {
			break
		}
		for _, sr := range f.Evidence.Steps {
			s.Bars = append(s.Bars, bar{X: x(sr.From), Y: 2 + k*(sparkLaneH+2), W: max(x(sr.To+1)-x(sr.From), 2), H: sparkLaneH,
				Class: "sev-" + f.Severity.String(), Title: sanitize(f.Detector) + " " + sanitize(f.Slug)})
		}
	}
	return s
}
