package synth

import "math"

// budget is the budget a run logs on every line (about 30% of runs; all
// budget-ignored and near-budget runs). Zero fields are not logged.
type budget struct {
	maxSteps, maxToolCalls, maxTokens int64
	maxCostUSD, maxSeconds            float64
}

// chooseBudget sets the logged limits after the steps are generated. The
// limits hold for the first p steps: all of a healthy run; a loop's onset
// plus at least three steps (a budget a loop crosses is a symptom, it must
// not be crossed before the loop starts); exactly the first B steps of a
// budget-ignored run, whose first crossing is the step budget.
func (r *run) chooseBudget() {
	if !r.budgetOn {
		return
	}
	n := len(r.steps)
	b := &r.budget
	tight := false
	var p int
	switch {
	case r.label.RootCause == CauseBudgetIgnored:
		p = int(b.maxSteps)
		tight = r.chance(0.5)
	case r.label.Label == LabelRunaway:
		p = min(n, int(r.label.OnsetStep)+3+int(r.between(0, 10)))
		b.maxSteps = niceSteps(int64(p))
	case has(r.confounders, confNearBudget):
		p = n
		b.maxSteps = int64(n) + r.between(0, 1)
		tight = true
	default:
		p = n
		b.maxSteps = niceSteps(int64(n) + r.between(0, int64(n)/2+5))
	}
	calls, tokens, cost, seconds := r.totalsBefore(p)
	if r.chance(0.8) {
		if tight {
			b.maxToolCalls = calls + r.between(0, 2)
		} else {
			b.maxToolCalls = niceSteps(calls + r.between(0, calls/2+3))
		}
	}
	if r.chance(0.6) {
		if tight {
			b.maxTokens = ceilTo(tokens+tokens/20, 1000)
		} else {
			b.maxTokens = ceilTo(tokens+tokens/2, 10_000)
		}
	}
	if r.chance(0.4) {
		step := 0.05
		if tight {
			step = 0.01
		}
		b.maxCostUSD = math.Ceil((cost*1.1+0.001)/step) * step
		b.maxCostUSD = math.Round(b.maxCostUSD*100) / 100
	}
	if r.chance(0.3) {
		b.maxSeconds = math.Ceil((seconds*1.2+1)/60) * 60
	}
}

// totalsBefore sums what the first p steps used: tool calls, tokens, cost,
// and the seconds from the first step to step p-1.
func (r *run) totalsBefore(p int) (calls, tokens int64, cost, seconds float64) {
	for i := 0; i < p && i < len(r.steps); i++ {
		s := &r.steps[i]
		if s.tool != "" {
			calls++
		}
		tokens += s.prompt + s.completion
		cost += r.model.cost(s.prompt, s.completion)
	}
	if p > 0 {
		seconds = float64(r.steps[min(p, len(r.steps))-1].tsMS-r.steps[0].tsMS) / 1000
	}
	return
}

var stepLimits = []int64{5, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 150, 200, 300, 500}

// niceSteps rounds n up to a limit people configure.
func niceSteps(n int64) int64 {
	for _, l := range stepLimits {
		if l >= n {
			return l
		}
	}
	return ceilTo(n, 100)
}

func ceilTo(n, unit int64) int64 { return (n + unit - 1) / unit * unit }
