package synth

import (
	"fmt"
	"strings"
)

// A healthy run: a plan, then subtasks that each make progress (a first-time
// call that returns data, an observation written, now and then an
// artifact), then the deliverable and STOP. Confounders are mixed in as
// extra subtasks (confounders.go).

// Confounder names, as the labels spell them.
const (
	confPagination = "pagination"
	confPolling    = "polling"
	confReplan     = "replan"
	confTransient  = "transient-error"
	confVolatile   = "volatile-ids"
	confLongRun    = "long-run"
	confNearBudget = "near-budget"
	confRephrase   = "rephrase"
	confHypothesis = "inference-memory"
)

// confounderWeights sets how often each confounder is drawn.
var confounderWeights = []struct {
	name string
	w    int
}{
	{confPagination, 10}, {confPolling, 10}, {confReplan, 9}, {confTransient, 10}, {confVolatile, 7},
	{confLongRun, 6}, {confNearBudget, 6}, {confRephrase, 8}, {confHypothesis, 6},
}

// pickConfounders draws 0-2 distinct confounders: none for 60% of runs, one
// for 28%, two for 12%.
func (r *run) pickConfounders() []string {
	n := 0
	switch x := r.rng.Float64(); {
	case x < 0.12:
		n = 2
	case x < 0.40:
		n = 1
	}
	var out []string
	for len(out) < n {
		total := 0
		for _, c := range confounderWeights {
			total += c.w
		}
		k := r.rng.IntN(total)
		for _, c := range confounderWeights {
			if k < c.w {
				if !has(out, c.name) {
					out = append(out, c.name)
				}
				break
			}
			k -= c.w
		}
	}
	return out
}

func has(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (r *run) healthy() {
	confs := r.pickConfounders()
	r.confounders = confs
	if has(confs, confVolatile) {
		r.volatileKey = pick(r, volatileKeys)
	}
	if has(confs, confNearBudget) {
		r.budgetOn = true
	}
	// Subtasks: productive work with the confounders' subtasks placed at
	// random. A re-plan needs work before it (the approach that failed
	// came after some progress) and after it.
	var special []string
	for _, c := range confs {
		switch c {
		case confPagination, confPolling, confTransient, confRephrase, confHypothesis:
			special = append(special, c)
		}
	}
	nWork := int(r.between(2, 7)) - 2*len(special)
	if has(confs, confReplan) {
		nWork -= 2
	}
	if has(confs, confLongRun) {
		nWork = int(r.between(9, 12))
	}
	nWork = max(nWork, 1)
	tasks := make([]string, nWork)
	for i := range tasks {
		tasks[i] = "work"
	}
	for _, s := range special {
		at := r.rng.IntN(len(tasks) + 1)
		tasks = append(tasks[:at], append([]string{s}, tasks[at:]...)...)
	}
	if has(confs, confReplan) {
		replans := 1
		if r.chance(0.25) {
			replans = 2
		}
		for k := 0; k < replans; k++ {
			tasks = append(tasks, "work")
			at := 1 + r.rng.IntN(len(tasks)-1)
			tasks = append(tasks[:at], append([]string{confReplan}, tasks[at:]...)...)
		}
	}

	r.openingPlan()
	for _, t := range tasks {
		switch t {
		case confPagination:
			r.paginate()
		case confPolling:
			r.poll()
		case confTransient:
			r.transientRetry()
		case confRephrase:
			r.rephraseUntilFound()
		case confHypothesis:
			r.hypothesis()
		case confReplan:
			r.replanAfterFailure()
		default:
			r.work()
		}
	}
	for len(r.steps) < 4 {
		r.work()
	}
	r.finish()
	r.label = Label{Label: LabelHealthy, OnsetStep: -1, Confounder: strings.Join(confs, ",")}
}

var volatileKeys = []string{"request_id", "request_id", "trace_id", "timestamp"}

// openingPlan is step 0: a PLAN, except for agents that act straight away.
func (r *run) openingPlan() {
	if r.chance(0.92) {
		r.plan(r.planReason(""))
	}
}

// planReason is a plan as agents log it: "Plan: 1) ... 2) ...".
func (r *run) planReason(revisedAfter string) string {
	items := r.sc.planStep
	n := int(r.between(3, int64(len(items))))
	start := r.rng.IntN(len(items) - n + 1)
	var b strings.Builder
	if revisedAfter != "" {
		fmt.Fprintf(&b, "Revised plan (%s): ", revisedAfter)
	} else {
		b.WriteString("Plan: ")
	}
	for i, it := range items[start : start+n] {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d) %s", i+1, it)
	}
	return b.String()
}

// work is one productive subtask: a first-time call that returns data,
// sometimes a second one, usually an EVAL that records what was learned.
func (r *run) work() {
	c := r.fresh()
	res := r.okResult(c)
	i := r.act(c, res, 0)
	if r.chance(0.85) {
		r.observe(i)
	}
	r.made = append(r.made, madeCall{c, res})
	if r.chance(0.25) {
		c2 := r.fresh()
		res2 := r.okResult(c2)
		r.observe(r.act(c2, res2, 0))
		r.made = append(r.made, madeCall{c2, res2})
	}
	if r.chance(0.85) {
		e := r.eval(r.progressReason(c))
		if r.chance(0.3) {
			r.remember(e, "decision", "model", float64(r.between(70, 90))/100)
		}
		if r.chance(0.2) {
			r.artifact(e, "notes")
		}
	}
}

var progressReasons = []string{
	"Have %[2]s for %[1]s; continue with the remaining items",
	"%[2]s for %[1]s is consistent with earlier sources; next item",
	"Noted %[2]s for %[1]s; still missing details for the other items",
	"Recorded %[2]s of %[1]s in notes",
	"%[1]s: %[2]s confirmed; move on",
}

func (r *run) progressReason(c call) string {
	return fmt.Sprintf(pick(r, progressReasons), c.subject, c.aspect)
}

func (r *run) actReason(c call) string {
	if !r.actReasons {
		return ""
	}
	return "Call " + c.tool + " to " + c.intent
}

// finish delivers the result and stops.
func (r *run) finish() {
	if r.chance(0.8) {
		f := r.sc.final
		c := r.kvCall(f.tool, f.intent, f.args)
		i := r.act(c, r.okResult(c), 0)
		r.artifact(i, f.kind)
		if r.chance(0.6) {
			r.eval("Deliverable complete; all plan items covered")
		}
		r.stop(pick(r, doneReasons))
		return
	}
	r.eval("Enough information to answer; no further calls needed")
	s := r.stop(pick(r, doneReasons))
	r.artifact(s, "answer")
}

var doneReasons = []string{
	"Goal met: deliverable written",
	"Done: answer produced with sources",
	"All plan items complete",
	"Task complete; summary returned to the user",
}
