package synth

import (
	"fmt"
	"math"
)

// The six runaway patterns. Each starts after a healthy prefix, sets the
// label's onset exactly as docs/synth.md defines it, and ends the way
// runaway runs end: killed mid-loop (no STOP) about half the time, else
// stopped by the agent, directly or after a RECOVER.

func (r *run) runaway(cause string) {
	if r.chance(0.1) {
		// Some clients stamp a request id on every call, runaway or not: the
		// repeated calls then differ in args_hash and only match once the
		// volatile key is ignored.
		r.volatileKey = pick(r, volatileKeys)
	}
	var onset int
	switch cause {
	case CauseToolRetryLoop:
		onset = r.toolRetryLoop()
	case CauseReplanLoop:
		onset = r.replanLoop()
	case CauseMemoryContamination:
		onset = r.memoryContamination()
	case CauseBudgetIgnored:
		onset = r.budgetIgnored()
	case CauseEmptyResultLoop:
		onset = r.emptyResultLoop()
	default:
		onset = r.errorStorm()
	}
	r.label = Label{Label: LabelRunaway, RootCause: cause, OnsetStep: int64(onset)}
}

// prefix is the healthy start of a runaway run: 2-8 steps of a plan and
// productive work.
func (r *run) prefix() {
	target := int(r.between(2, 8))
	r.openingPlan()
	for len(r.steps) < target {
		if target-len(r.steps) == 1 && len(r.made) > 0 {
			c := r.fresh()
			res := r.okResult(c)
			r.observe(r.act(c, res, 0))
			r.made = append(r.made, madeCall{c, res})
			continue
		}
		r.work()
	}
}

var giveUpReasons = []string{
	"Stopping: iteration limit reached",
	"Giving up; returning a partial answer",
	"Max retries exceeded; returning best-effort answer",
	"Stopped by user",
	"Could not complete the goal; stopping",
}

var escalateReasons = []string{
	"Too many attempts without progress; escalate to a human",
	"Loop suspected; switch to the fallback answer",
	"Cannot make progress; ask the user for guidance",
}

// end closes a runaway run. loopNext is the state the loop would have gone
// to next, logged as the last step's next_state when the run was killed.
func (r *run) end(loopNext string) {
	switch x := r.rng.Float64(); {
	case x < 0.5:
		r.killedNext = loopNext
	case x < 0.8:
		r.stop(pick(r, giveUpReasons))
	default:
		r.recoverStep(pick(r, escalateReasons), 0)
		r.stop(pick(r, giveUpReasons))
	}
}

// loopEvalP is how often an agent logs an EVAL between two loop calls: some
// agents go ACT ACT ACT, some ACT EVAL ACT, most mix.
func (r *run) loopEvalP() float64 { return pick(r, []float64{0, 0.3, 0.6, 0.9, 1}) }

var retryReasons = []string{
	"Result incomplete; search again",
	"Need more sources; retry",
	"Not sure the result is current; call again",
	"Answer not found yet; try the same tool again",
}

// toolRetryLoop (guide B): the same call over and over, answered with
// the same data, or with a non-retryable error the agent ignores; sometimes
// two calls alternating (A B A B, which a guard that only compares
// consecutive calls misses). Onset: the first call of the repeated sequence.
func (r *run) toolRetryLoop() int {
	r.prefix()
	onset := len(r.steps)
	n := int(r.between(8, 40))
	evalP := r.loopEvalP()
	reason := pick(r, retryReasons)
	switch v := r.rng.Float64(); {
	case v < 0.55:
		c := r.fresh()
		res := r.okResult(c)
		for k := 0; k < n; k++ {
			i := r.act(c, res, 0)
			if k == 0 {
				r.observe(i)
			}
			if k < n-1 {
				r.loopGap(evalP, reason, "Same call again")
			}
		}
	case v < 0.8:
		c := r.fresh()
		res := r.errResult(c, errSchema)
		writes := r.chance(0.5) // the failure is stored, and then ignored
		for k := 0; k < n; k++ {
			i := r.act(c, res, 0)
			if writes {
				r.remember(i, "tool_error", "tool:"+c.tool, 0.9)
			}
			if k < n-1 {
				r.loopGap(evalP, "Tool returned an error; retry with the same arguments", "Retry the call")
			}
		}
	default:
		a, b := r.fresh(), r.fresh()
		ra, rb := r.okResult(a), r.okResult(b)
		for k := 0; k < n; k++ {
			c, res := a, ra
			if k%2 == 1 {
				c, res = b, rb
			}
			i := r.act(c, res, 0)
			if k < 2 {
				r.observe(i)
			}
			if k < n-1 && k%2 == 1 {
				r.loopGap(evalP, reason, "Cross-check again")
			}
		}
	}
	r.end(stateAct)
	return onset
}

// loopGap logs what sits between two loop calls: an EVAL with evalP, now and
// then a RECOVER that decides to try again.
func (r *run) loopGap(evalP float64, evalReason, recoverReason string) {
	switch {
	case r.chance(0.05):
		r.recoverStep(recoverReason, 0)
	case r.chance(evalP):
		r.eval(evalReason)
	}
}

var replanEvalReasons = []string{
	"Not enough information to finish; re-plan",
	"Results inconclusive; revise the plan",
	"Goal not met yet; plan again",
}

// replanLoop (guide B): the agent makes the same plan again and again,
// acts on it with calls it already made (same answers), evaluates, and plans
// again. Onset: the first PLAN of the loop, right after the last progress.
func (r *run) replanLoop() int {
	r.prefix()
	k := min(len(r.made), int(r.between(1, 3)))
	set := r.made[len(r.made)-k:]
	reason := r.planReason("")
	if len(r.steps) > 0 && r.steps[0].state == statePlan && r.chance(0.5) {
		reason = r.steps[0].reason // the very same plan as at the start
	}
	evalReason := pick(r, replanEvalReasons)
	withEval := 0.6 + 0.4*r.rng.Float64()
	onset := len(r.steps)
	iters := int(r.between(6, 25))
	for it := 0; it < iters; it++ {
		r.plan(reason)
		acts := 1
		if len(set) > 1 && r.chance(0.25) {
			acts = 2
		}
		for a := 0; a < acts; a++ {
			m := pick(r, set)
			r.act(m.c, m.res, 0)
		}
		if r.chance(withEval) {
			r.eval(evalReason)
		}
	}
	r.end(statePlan)
	return onset
}

// memoryContamination (guide B): a memory written from inference or
// from a tool error is retrieved at every step afterwards, and the agent
// keeps returning to the conclusion it supports: the same call, or the same
// few calls, with results that do not move. Onset: the first step of the
// repetition, the first loop step that retrieves the memory; the memory is
// written 1-3 steps before it.
func (r *run) memoryContamination() int {
	r.prefix()
	subject, aspect := r.subject(), pick(r, r.sc.aspects)
	claim := r.fill(pick(r, r.sc.claims), subject, aspect)
	conf := float64(r.between(10, 30)) / 100
	var memID int
	if r.chance(0.6) {
		// A conclusion drawn from thin evidence, stored as fact.
		e := r.eval("Concluding: " + claim)
		memID = r.remember(e, "inference", "model", conf)
	} else {
		// A failure stored as a finding about the world.
		c := r.fresh()
		i := r.act(c, r.errResult(c, pick(r, []int{errNotFound, errForbidden, errTimeout, errSchema})), 0)
		memID = r.remember(i, "tool_error", "tool:"+c.tool, conf)
		r.steps[i].reason = "Record failure: " + claim
	}
	// 0-2 unrelated steps before the agent acts on the memory.
	for gap := int(r.between(1, 3)); gap > 1; gap-- {
		if r.steps[len(r.steps)-1].state == stateAct {
			r.eval("Continue")
			continue
		}
		c := r.fresh()
		res := r.okResult(c)
		r.observe(r.act(c, res, 0))
		r.made = append(r.made, madeCall{c, res})
	}
	onset := len(r.steps)
	nCalls := int(r.between(1, 3))
	calls := make([]madeCall, nCalls)
	outcome := r.rng.Float64()
	for i := range calls {
		c := r.freshAbout(subject) // the calls follow from the claim
		var res []byte
		switch {
		case outcome < 0.6:
			res = r.okResult(c)
		case outcome < 0.85:
			res = r.emptyResult(c)
		default:
			res = r.errResult(c, errNotFound)
		}
		calls[i] = madeCall{c, res}
	}
	loopReason := fmt.Sprintf("Per memory m-%d: %s; %s", memID, claim,
		pick(r, []string{"work around it", "use the fallback source", "check again", "retry via the alternative"}))
	r.pinned, r.pinnedLeft = memID, math.MaxInt
	evalP := 0.5 + 0.5*r.rng.Float64()
	n := int(r.between(6, 25))
	for k := 0; k < n; k++ {
		m := calls[k%nCalls]
		r.act(m.c, m.res, 0)
		if k < n-1 && r.chance(evalP) {
			r.eval(loopReason)
		}
	}
	r.end(stateAct)
	return onset
}

// budgetIgnored (guide B): the run logs max_steps B and keeps working
// to 1.5-4 B steps: varied calls, occasional progress, no repetition. Onset:
// the first step past the budget, whose 0-based position is B.
func (r *run) budgetIgnored() int {
	r.budgetOn = true
	b := int(r.between(10, 25))
	total := int(math.Round(float64(b) * (1.5 + 2.5*r.rng.Float64())))
	r.budget.maxSteps = int64(b)
	r.openingPlan()
	scoped := false
	for len(r.steps) < total {
		if len(r.steps) < b {
			r.work()
			continue
		}
		if !scoped && r.chance(0.1) {
			scoped = true
			r.plan(r.planReason("scope extended"))
		}
		r.wander()
	}
	// Keep the steps before B well inside the other limits, so that the
	// first crossing is the step budget.
	r.end(stateAct)
	return b
}

// wander is work past the budget: new calls, about half of them useful.
func (r *run) wander() {
	c := r.fresh()
	var res []byte
	reason := ""
	useful := false
	switch x := r.rng.Float64(); {
	case x < 0.55:
		res, reason, useful = r.okResult(c), r.progressReason(c), true
	case x < 0.85:
		res, reason = r.emptyResult(c), "Nothing on "+c.aspect+" for "+c.subject+"; look elsewhere"
	default:
		kind := pick(r, []int{errNotFound, errTimeout, errForbidden})
		res, reason = r.errResult(c, kind), c.tool+" failed ("+errName(kind)+"); try another source"
	}
	i := r.act(c, res, 0)
	if useful && r.chance(0.5) {
		r.observe(i)
	}
	if r.chance(0.6) {
		e := r.eval(reason)
		if r.chance(0.1) {
			r.artifact(e, "draft")
		}
	}
}

var emptyEvalReasons = []string{
	"No results for %q; rephrase",
	"Nothing found for %q; try different wording",
	"Empty result for %q; search again with other terms",
}

// emptyResultLoop (guide A): the agent keeps rephrasing a search for one
// intent and every result is empty; 6-30 rephrasings. Onset: the first empty
// result of that intent.
func (r *run) emptyResultLoop() int {
	r.prefix()
	subject, aspect := r.subject(), pick(r, r.sc.aspects)
	tool := r.searchTool()
	if len(r.sc.queries) > 0 && r.chance(0.15) {
		tool = "db_query"
	}
	intent := "find " + aspect + " for " + subject
	n := int(r.between(6, 30))
	qs := r.rephrasings(subject, aspect, n)
	evalP := r.loopEvalP()
	reasonFmt := pick(r, emptyEvalReasons)
	onset := len(r.steps)
	for k, q := range qs {
		c := r.searchCall(tool, intent, q, subject, aspect)
		r.act(c, r.emptyResult(c), 0)
		if k < n-1 && r.chance(evalP) {
			r.eval(fmt.Sprintf(reasonFmt, q))
		}
	}
	r.end(stateAct)
	return onset
}

// errorStorm (guide B): a long streak of failing calls with no circuit
// breaker and no backoff: timeouts, 502/503, or 429s retried at a short
// constant interval; one call or a few. Onset: the first failed call.
func (r *run) errorStorm() int {
	r.prefix()
	kinds := pick(r, [][]int{{errRateLimit}, {errTimeout}, {errUnavailable}, {errUnavailable}, {errTimeout, errUnavailable}})
	nCalls := 1
	if r.chance(0.65) {
		nCalls = int(r.between(2, 4))
	}
	calls := make([]call, nCalls)
	for i := range calls {
		calls[i] = r.fresh()
	}
	var interval int64
	switch kinds[0] {
	case errRateLimit:
		interval = r.between(300, 1000)
	case errTimeout:
		interval = pick(r, []int64{5000, 10_000, 30_000})
	default:
		interval = r.between(400, 1500)
	}
	between := pick(r, []string{stateAct, stateAct, stateAct, stateRecover, stateEval})
	writes := r.chance(0.5)
	n := int(r.between(8, 40))
	onset := len(r.steps)
	for k := 0; k < n; k++ {
		c := calls[k%nCalls]
		if nCalls > 2 && r.chance(0.3) {
			c = pick(r, calls)
		}
		kind := pick(r, kinds)
		dur := interval + r.between(-interval/30, interval/30)
		if between != stateAct {
			dur = interval/2 + r.between(0, 40)
		}
		i := r.act(c, r.errResult(c, kind), dur)
		if writes {
			r.remember(i, "tool_error", "tool:"+c.tool, 0.9)
		}
		if k == n-1 {
			break
		}
		switch between {
		case stateRecover:
			r.push(step{state: stateRecover, reason: "Tool failed (" + errName(kind) + "); retry now",
				durMS: interval/2 + r.between(0, 40), retrieved: r.recall()})
		case stateEval:
			r.push(step{state: stateEval, reason: "Tool unavailable; try again",
				durMS: interval/2 + r.between(0, 40), retrieved: r.recall()})
		}
	}
	r.end(stateAct)
	return onset
}
