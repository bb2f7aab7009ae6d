package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// budgetPass finds the limits in force (the run's logged budget, else the
// policy's) and the first step that went past any of them. A final STOP step
// that makes no call does not count as a step: an agent that stops exactly
// at its limit logs one.
func budgetPass(v *runView, p *Policy, a *analysis, ind *Indicators) {
	lim := v.budget
	if lim.steps == 0 {
		lim.steps = p.MaxSteps
	}
	if lim.toolCalls == 0 {
		lim.toolCalls = p.MaxToolCalls
	}
	if lim.tokens == 0 {
		lim.tokens = p.MaxTokens
	}
	if lim.costUSD == 0 {
		lim.costUSD = p.MaxCostUSD
	}
	if lim.seconds == 0 {
		lim.seconds = p.MaxSeconds
	}
	ind.BudgetMaxSteps, ind.BudgetMaxToolCalls, ind.BudgetMaxTokens = lim.steps, lim.toolCalls, lim.tokens
	ind.BudgetMaxCostUSD, ind.BudgetMaxSeconds = lim.costUSD, lim.seconds
	if lim == (budgetLimits{}) {
		return
	}
	type dim struct {
		name  string
		limit float64
		used  float64
		cross int
	}
	dims := []dim{
		{name: "max_steps", limit: float64(lim.steps), cross: -1},
		{name: "max_tool_calls", limit: float64(lim.toolCalls), cross: -1},
		{name: "max_tokens", limit: float64(lim.tokens), cross: -1},
		{name: "max_cost_usd", limit: lim.costUSD, cross: -1},
		{name: "max_seconds", limit: lim.seconds, cross: -1},
	}
	firstTS := tsNull
	for i := 0; i < v.n; i++ {
		if !(v.state[i] == schema.StateStop && v.flags[i]&flagCall == 0) {
			dims[0].used++
		}
		if v.flags[i]&flagCall != 0 {
			dims[1].used++
		}
		dims[2].used += float64(v.tok[i])
		dims[3].used += v.cost[i]
		if v.ts[i] != tsNull {
			if firstTS == tsNull {
				firstTS = v.ts[i]
			}
			dims[4].used = max(dims[4].used, float64(v.ts[i]-firstTS)/1000)
		}
		for d := range dims {
			if dims[d].limit > 0 && dims[d].cross < 0 && dims[d].used > dims[d].limit {
				dims[d].cross = i
			}
		}
	}
	for _, d := range dims {
		if d.limit <= 0 {
			continue
		}
		a.budgetWorst = max(a.budgetWorst, d.used/d.limit)
		if d.cross < 0 {
			continue
		}
		ind.BudgetCrossings++
		if a.budgetCross < 0 || d.cross < a.budgetCross {
			a.budgetCross = d.cross
			a.budgetWhat = fmt.Sprintf("%s %s", d.name, formatLimit(d.limit))
		}
	}
	if a.budgetCross >= 0 {
		ind.StepsAfterBudget = int64(v.n - a.budgetCross)
	}
}

func formatLimit(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%g", f)
}
