package replay

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// Label is the truth about one run, from a labels file.
type Label struct {
	Runaway   bool
	OnsetStep int64
	RootCause string
	// Confounders are the healthy behaviours the run carries that naive
	// guards mistake for loops (pagination, polling...).
	Confounders []string
}

// Replayer replays guards over runs and totals their outcomes. Pass its
// Visit method to runstore.Collector.Visit, then call Report. Visit calls must
// not overlap (Collector.Visit makes them one at a time); their order does
// not matter.
type Replayer struct {
	guards []Guard
	labels map[string]Label // nil: runaway's verdicts are the truth
	// examples, when >= 0, keeps only that many healthy and suspicious
	// stops per guard (the first by run id) and no list of runaway runs
	// (KeepExamples); -1 keeps every list.
	examples int
	acc      []guardAcc
	class    [3]classAcc // by detect.Verdict
	// afterOnset totals runaway runs from onset to end.
	afterOnset amountAcc
	labelled   int
	unlabelled int
	// costLogged, costEstimated: some run replayed has a cost; some of it
	// was estimated from list prices (detect.RunResult).
	costLogged, costEstimated bool
	// per-run scratch: spent from step i to the end.
	sufTokens []int64
	sufCost   []float64
}

type guardAcc struct {
	// The lists (runaway and missed: only when every list is kept).
	runaway    []RunawayStop
	missed     []string
	suspicious []Stop
	healthy    []Stop
	// The totals, kept whatever the lists hold.
	stopped, missedRuns       int
	saved                     amountAcc
	delays                    []int64
	beforeOnset               int
	suspiciousN, healthyN     int
	suspiciousCut, healthyCut amountAcc
	// stops by the runaway run's root cause, and by the healthy run's
	// confounder (labels only).
	byCause, byConfounder map[string]int
}

type classAcc struct {
	runs int
	amountAcc
	byCause, byConfounder map[string]int
}

// amountAcc sums costs in integer nano-dollars, so that totals do not depend
// on the order runs are added in (float addition is not associative).
type amountAcc struct {
	steps, tokens, nanoUSD int64
}

func (a *amountAcc) add(x Amount) {
	a.steps += x.Steps
	a.tokens += x.Tokens
	a.nanoUSD += nano(x.CostUSD)
}

func (a amountAcc) amount() Amount {
	return Amount{Steps: a.steps, Tokens: a.tokens, CostUSD: float64(a.nanoUSD) / 1e9}
}

// nano rounds dollars to nano-dollars, as detect rounds its cost sums.
func nano(usd float64) int64 { return int64(math.Round(usd * 1e9)) }

// New returns a replayer of guards. With labels non-nil, a run's class and
// onset come from its label, and runs without one are counted and skipped;
// with nil, from runaway's verdict.
func New(guards []Guard, labels map[string]Label) *Replayer {
	rp := &Replayer{guards: guards, labels: labels, acc: make([]guardAcc, len(guards)), examples: -1}
	for k := range rp.acc {
		rp.acc[k].byCause, rp.acc[k].byConfounder = map[string]int{}, map[string]int{}
	}
	for k := range rp.class {
		rp.class[k].byCause, rp.class[k].byConfounder = map[string]int{}, map[string]int{}
	}
	return rp
}

// KeepExamples makes the report hold totals and, of the runs stopped,
// only the first n healthy and n suspicious ones by run id per guard: what
// the table prints. Without it the report lists every run stopped and
// missed, per guard (the json report), which takes memory in proportion to
// the runs; with it, eight bytes per guard and runaway run stopped (the
// delays the median is taken of).
func (rp *Replayer) KeepExamples(n int) { rp.examples = max(n, 0) }

// Visit replays every guard over one run.
func (rp *Replayer) Visit(r detect.RunSteps, res *detect.RunResult) {
	class, onset, cause := res.Verdict, res.OnsetStep, string(res.RootCause)
	rp.costLogged = rp.costLogged || res.CostLogged
	rp.costEstimated = rp.costEstimated || res.CostEstimated
	var confounders []string
	if rp.labels != nil {
		l, ok := rp.labels[r.ID()]
		if !ok {
			rp.unlabelled++
			return
		}
		rp.labelled++
		class, onset, cause, confounders = detect.Healthy, -1, "", l.Confounders
		if l.Runaway {
			class, onset, cause, confounders = detect.Runaway, l.OnsetStep, l.RootCause, nil
		}
	}
	if int(class) >= len(rp.class) {
		return
	}
	// count adds the run to breakdowns: a runaway run under its cause, a
	// labelled healthy run under each of its confounders.
	count := func(byCause, byConfounder map[string]int) {
		if class == detect.Runaway {
			byCause[causeName(cause)]++
		}
		for _, c := range confounders {
			byConfounder[c]++
		}
	}
	n := r.Len()
	rp.suffixes(r)
	spent := func(from int) Amount {
		return Amount{Steps: int64(n - from), Tokens: rp.sufTokens[from], CostUSD: float64(nano(rp.sufCost[from])) / 1e9}
	}
	rp.class[class].runs++
	rp.class[class].add(spent(0))
	count(rp.class[class].byCause, rp.class[class].byConfounder)
	if class == detect.Runaway {
		from := n
		for i := 0; i < n; i++ {
			if r.Step(i) >= onset {
				from = i
				break
			}
		}
		rp.afterOnset.add(spent(from))
	}
	for k, g := range rp.guards {
		g.Reset()
		at, reason := -1, ""
		for i := 0; i < n; i++ {
			if stop, why := g.Step(r, i); stop {
				at, reason = i, why
				break
			}
		}
		acc := &rp.acc[k]
		if at < 0 {
			if class == detect.Runaway {
				acc.missedRuns++
				if rp.examples < 0 {
					acc.missed = append(acc.missed, r.ID())
				}
			}
			continue
		}
		s := Stop{RunID: r.ID(), StopStep: r.Step(at), Reason: reason, After: spent(at)}
		if class != detect.Suspicious {
			count(acc.byCause, acc.byConfounder)
		}
		switch class {
		case detect.Runaway:
			delay := s.StopStep - onset
			acc.stopped++
			acc.saved.add(s.After)
			acc.delays = append(acc.delays, delay)
			if delay < 0 {
				acc.beforeOnset++
			}
			if rp.examples < 0 {
				acc.runaway = append(acc.runaway, RunawayStop{Stop: s, OnsetStep: onset, Delay: delay})
			}
		case detect.Suspicious:
			acc.suspiciousN++
			acc.suspiciousCut.add(s.After)
			acc.suspicious = rp.keep(acc.suspicious, s)
		default:
			acc.healthyN++
			acc.healthyCut.add(s.After)
			acc.healthy = rp.keep(acc.healthy, s)
		}
	}
}

// keep adds s to a list of stops: at its end when every list is kept,
// else in run-id order, dropping what falls past the examples kept.
func (rp *Replayer) keep(list []Stop, s Stop) []Stop {
	if rp.examples < 0 {
		return append(list, s)
	}
	i, _ := slices.BinarySearchFunc(list, s.RunID, func(a Stop, id string) int { return strings.Compare(a.RunID, id) })
	if i >= rp.examples {
		return list
	}
	list = slices.Insert(list, i, s)
	return list[:min(len(list), rp.examples)]
}

// causeName names a runaway run's root cause in breakdowns.
func causeName(c string) string {
	if c == "" {
		return "unknown"
	}
	return c
}

// suffixes fills what the run spent from each step to its end; the sums
// run in step order, so they are the same whenever the run is visited.
func (rp *Replayer) suffixes(r detect.RunSteps) {
	n := r.Len()
	rp.sufTokens = slices.Grow(rp.sufTokens[:0], n+1)[:n+1]
	rp.sufCost = slices.Grow(rp.sufCost[:0], n+1)[:n+1]
	rp.sufTokens[n], rp.sufCost[n] = 0, 0
	for i := n - 1; i >= 0; i-- {
		rp.sufTokens[i] = rp.sufTokens[i+1] + r.Tokens(i)
		rp.sufCost[i] = rp.sufCost[i+1] + r.CostUSD(i)
	}
}

// Report totals the outcomes. Lists are sorted by run id; guards are in
// the order they were given.
func (rp *Replayer) Report() *Report {
	rep := &Report{Truth: "verdicts", Guards: []GuardReport{}, CostLogged: rp.costLogged, CostEstimated: rp.costEstimated}
	if rp.labels != nil {
		rep.Truth = "labels"
		rep.Runs.Unlabelled = rp.unlabelled
		rep.Runs.Missing = len(rp.labels) - rp.labelled
	}
	totals := func(c classAcc) ClassTotals { return ClassTotals{Runs: c.runs, Amount: c.amount()} }
	rep.Runs.Runaway = totals(rp.class[detect.Runaway])
	rep.Runs.Runaway.ByCause = nonEmpty(rp.class[detect.Runaway].byCause)
	after := rp.afterOnset.amount()
	rep.Runs.Runaway.AfterOnset = &after
	rep.Runs.Suspicious = totals(rp.class[detect.Suspicious])
	rep.Runs.Healthy = totals(rp.class[detect.Healthy])
	rep.Runs.Healthy.ByConfounder = nonEmpty(rp.class[detect.Healthy].byConfounder)
	rep.Runs.Total = rep.Runs.Runaway.Runs + rep.Runs.Suspicious.Runs + rep.Runs.Healthy.Runs
	for k, g := range rp.guards {
		rep.Guards = append(rep.Guards, rp.guardReport(g, &rp.acc[k], rep.Runs))
	}
	return rep
}

func (rp *Replayer) guardReport(g Guard, acc *guardAcc, runs RunCounts) GuardReport {
	gr := GuardReport{Name: g.Name(), Params: []ParamValue{}}
	if s, ok := g.(interface{ Source() string }); ok {
		gr.Source = s.Source()
	}
	if p, ok := g.(interface{ Params() []ParamValue }); ok {
		gr.Params = p.Params()
	}
	byRun := func(a, b Stop) int { return strings.Compare(a.RunID, b.RunID) }

	ra := &gr.Runaway
	ra.Runs = runs.Runaway.Runs
	ra.Stops = slices.Clone(acc.runaway)
	slices.SortFunc(ra.Stops, func(a, b RunawayStop) int { return byRun(a.Stop, b.Stop) })
	ra.MissedRuns = slices.Sorted(slices.Values(acc.missed))
	if ra.MissedRuns == nil {
		ra.MissedRuns = []string{}
	}
	ra.Stopped, ra.Missed = acc.stopped, acc.missedRuns
	ra.Saved = acc.saved.amount()
	ra.Delay.BeforeOnset = acc.beforeOnset
	if runs.Runaway.ByCause != nil {
		ra.StoppedByCause = zeroFilled(acc.byCause, runs.Runaway.ByCause)
	}
	if delays := slices.Sorted(slices.Values(acc.delays)); len(delays) > 0 {
		m := len(delays) / 2
		ra.Delay.Median = float64(delays[m])
		if len(delays)%2 == 0 {
			ra.Delay.Median = float64(delays[m-1]+delays[m]) / 2
		}
		ra.Delay.Min, ra.Delay.Max = delays[0], delays[len(delays)-1]
	}
	if ra.Stops == nil {
		ra.Stops = []RunawayStop{}
	}
	gr.Suspicious = outcome(runs.Suspicious.Runs, acc.suspiciousN, acc.suspiciousCut, acc.suspicious, byRun)
	gr.Healthy = outcome(runs.Healthy.Runs, acc.healthyN, acc.healthyCut, acc.healthy, byRun)
	if runs.Healthy.ByConfounder != nil {
		gr.Healthy.StoppedByConfounder = zeroFilled(acc.byConfounder, runs.Healthy.ByConfounder)
	}
	return gr
}

// nonEmpty is m, or nil when empty (omitted from json).
func nonEmpty(m map[string]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// zeroFilled is m with a 0 for every key of all it lacks, so every guard's
// breakdown has the same keys.
func zeroFilled(m, all map[string]int) map[string]int {
	out := make(map[string]int, len(all))
	for k := range all {
		out[k] = m[k]
	}
	return out
}

func outcome(runs, stopped int, cut amountAcc, stops []Stop, cmp func(a, b Stop) int) Outcome {
	o := Outcome{Runs: runs, Stopped: stopped, Cut: cut.amount(), Stops: slices.Clone(stops)}
	if o.Stops == nil {
		o.Stops = []Stop{}
	}
	slices.SortFunc(o.Stops, cmp)
	return o
}
