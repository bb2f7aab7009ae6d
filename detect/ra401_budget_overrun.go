package detect

import "fmt"

// BudgetOverrun finds runs that went on past their budget (logged, or the
// policy's default): the limit lived in the prompt, not in the runtime (guide B's
// "budget ignored" pattern). It is a symptom: budget-ignored is the root cause only
// when no loop pattern explains the run.
var BudgetOverrun = &Detector{
	ID:        "RA401",
	Slug:      "budget-overrun",
	Title:     "Steps, tool calls, tokens, cost or time past the budget",
	RootCause: CauseBudgetIgnored,
	Symptom:   true,
	Guard:     "hard caps enforced by the runtime (max steps, max tool calls, tokens, cost, wall time), not by the prompt",
	Reads:     []string{"budget_max_steps", "budget_max_tool_calls", "budget_max_tokens", "budget_max_cost_usd", "budget_max_seconds", "budget_crossings", "steps_after_budget"},
	Params:    []string{"budget_runaway_ratio", "max_steps", "max_tool_calls", "max_tokens", "max_cost_usd", "max_seconds"},
	run:       runBudgetOverrun,
}

func runBudgetOverrun(v *Run, a *analysis, p *Policy) *hit {
	if a.budgetCross < 0 {
		return nil
	}
	sev := Suspicious
	if a.budgetWorst >= p.BudgetRunawayRatio {
		sev = Runaway
	}
	first := a.budgetCross
	after := a.ind.StepsAfterBudget
	return &hit{
		Finding: Finding{
			Severity:  sev,
			Message:   fmt.Sprintf("went past %s at step %d and took %d more steps (%.1fx the tightest limit)", a.budgetWhat, v.Step[first], after, a.budgetWorst),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[v.Len()-1]}},
				Keys:   []string{a.budgetWhat},
				Counts: []Count{{"steps_after_budget", after}, {"limits_crossed", a.ind.BudgetCrossings}, {"usage_percent_of_limit", int64(a.budgetWorst*100 + 0.5)}},
			},
		},
		first: first,
		last:  v.Len() - 1,
	}
}
