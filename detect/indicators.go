package detect

// Indicators are the per-run loop indicators (docs/indicators.md), computed in one
// pass over a run's columns. docs/indicators.md defines each one exactly; the
// json names are the output contract.
type Indicators struct {
	Steps         int64 `json:"steps"`
	ToolCalls     int64 `json:"tool_calls"`
	DistinctCalls int64 `json:"distinct_calls"`
	// Same (tool, args_hash): most calls of one key in the run, in any window
	// of Policy.Window consecutive calls, and in a row.
	SameCallMax       int64 `json:"same_args_hash_count"`
	SameCallMaxWindow int64 `json:"same_args_hash_max_window"`
	SameCallMaxStreak int64 `json:"same_args_hash_max_streak"`
	// SameNormArgsMax: most calls of one (tool, normalised args) in the run:
	// args equal once volatile keys, case, spacing and key order are ignored.
	SameNormArgsMax int64 `json:"same_norm_args_count"`
	// X->Y->X returns between consecutive logged states, and re-entries into
	// PLAN after acting (PLAN<->ACT round trips), with and without progress
	// in between.
	StateOscillation          int64 `json:"state_oscillation"`
	PlanActRoundTrips         int64 `json:"plan_act_round_trips"`
	UnproductivePlanRoundTrip int64 `json:"plan_act_round_trips_no_progress"`
	Plans                     int64 `json:"plans"`
	// PlansRepeated: PLAN steps whose plan (memory written with tag plan,
	// else the decision's reason) the run had made before.
	PlansRepeated int64 `json:"plans_repeated"`
	// MaxRepeatedDecision: the longest streak of steps without a tool call
	// that repeat the same decision (next state and reason).
	MaxRepeatedDecision int64 `json:"max_repeated_decision_streak"`
	ProgressEvents      int64 `json:"progress_events"`
	NoProgressSteps     int64 `json:"no_progress_steps"`
	ToolErrors          int64 `json:"tool_errors"`
	// ToolErrorsByType is encoded with sorted keys, so output stays deterministic.
	ToolErrorsByType map[string]int64 `json:"tool_errors_by_type"`
	MaxErrorStreak   int64            `json:"max_error_streak"`
	EmptyResults     int64            `json:"empty_results"`
	// Budget: the limits in force (logged, else policy; 0 = none), how many
	// of them the run crossed, and the steps it took after the first crossing.
	BudgetMaxSteps     int64   `json:"budget_max_steps"`
	BudgetMaxToolCalls int64   `json:"budget_max_tool_calls"`
	BudgetMaxTokens    int64   `json:"budget_max_tokens"`
	BudgetMaxCostUSD   float64 `json:"budget_max_cost_usd"`
	BudgetMaxSeconds   float64 `json:"budget_max_seconds"`
	BudgetCrossings    int64   `json:"budget_crossings"`
	StepsAfterBudget   int64   `json:"steps_after_budget"`
	// Tokens is prompt plus completion tokens over the run.
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	// DurationMS is last ts minus first ts; -1 when the run logs no ts.
	DurationMS    int64 `json:"duration_ms"`
	EndedWithStop bool  `json:"ended_with_stop"`
}
