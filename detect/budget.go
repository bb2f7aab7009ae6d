package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// budgetPass finds the limits in force (the run's logged budget, else the
// policy's) and the first step that went past any of them. A final STOP step
// that makes no call does not count as a step: an agent that stops exactly
// at its limit logs one.
func budgetPass(v *Run, p *Policy, a *analysis, ind *Indicators) {
	lim := v.Budget
	if lim.Steps == 0 {
		lim.Steps = p.MaxSteps
	}
	if lim.ToolCalls == 0 {
		lim.ToolCalls = p.MaxToolCalls
	}
	if lim.Tokens == 0 {
		lim.Tokens = p.MaxTokens
	}
	if lim.CostUSD == 0 {
		lim.CostUSD = p.MaxCostUSD
	}
	if lim.Seconds == 0 {
		lim.Seconds = p.MaxSeconds
	}
	ind.BudgetMaxSteps, ind.BudgetMaxToolCalls, ind.BudgetMaxTokens = lim.Steps, lim.ToolCalls, lim.Tokens
	ind.BudgetMaxCostUSD, ind.BudgetMaxSeconds = lim.CostUSD, lim.Seconds
	if lim == (Budget{}) {
		return
	}
	type dim struct {
		name  string
		limit float64
		used  float64
		cross int
	}
	dims := []dim{
		{name: "max_steps", limit: float64(lim.Steps), cross: -1},
		{name: "max_tool_calls", limit: float64(lim.ToolCalls), cross: -1},
		{name: "max_tokens", limit: float64(lim.Tokens), cross: -1},
		{name: "max_cost_usd", limit: lim.CostUSD, cross: -1},
		{name: "max_seconds", limit: lim.Seconds, cross: -1},
	}
	firstTS := NoTS
	for i := 0; i < v.Len(); i++ {
		if !(v.State[i] == schema.StateStop && v.Flags[i]&flagCall == 0) {
			dims[0].used++
		}
		if v.Flags[i]&flagCall != 0 {
			dims[1].used++
		}
		dims[2].used += float64(v.Tokens[i])
		dims[3].used += v.Cost[i]
		if v.TS[i] != NoTS {
			if firstTS == NoTS {
				firstTS = v.TS[i]
			}
			dims[4].used = max(dims[4].used, float64(v.TS[i]-firstTS)/1000)
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
		ind.StepsAfterBudget = int64(v.Len() - a.budgetCross)
	}
}

func formatLimit(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%g", f)
}
