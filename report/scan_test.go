package report

import (
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// sampleScan is a hand-built scan with one run of each verdict, shaped like
// what detect produces: the runaway run is a tool-retry loop with a budget
// overrun as a contributing signal, the suspicious one a replan loop.
func sampleScan() *Scan {
	runs := []detect.RunResult{
		{
			RunID:     "run-healthy-7",
			Verdict:   detect.Healthy,
			OnsetStep: -1,
			Steps:     9,
			Indicators: detect.Indicators{
				Steps: 9, ToolCalls: 4, DistinctCalls: 4, SameCallMax: 1, SameCallMaxWindow: 1, SameCallMaxStreak: 1,
				Plans: 1, ProgressEvents: 5, NoProgressSteps: 2,
				Tokens: 5730, CostUSD: 0.0172,
				DurationMS: 14250, EndedWithStop: true,
			},
		},
		{
			RunID:         "run-loop-1",
			Verdict:       detect.Runaway,
			RootCause:     detect.CauseToolRetryLoop,
			OnsetStep:     4,
			Steps:         62,
			WastedSteps:   58,
			WastedTokens:  231400,
			WastedCostUSD: 4.6281,
			CostLogged:    true,
			Headline:      "search_flights called 29 times with the same args and SCHEMA_ERROR each time, steps 4-61",
			Signals:       []string{"repeated-identical-call", "budget-overrun"},
			Indicators: detect.Indicators{
				Steps: 62, ToolCalls: 31, DistinctCalls: 3,
				SameCallMax: 29, SameCallMaxWindow: 10, SameCallMaxStreak: 29,
				StateOscillation: 2, Plans: 1, ProgressEvents: 2, NoProgressSteps: 58,
				ToolErrors: 29, ToolErrorsByType: map[string]int64{"SCHEMA_ERROR": 29},
				MaxErrorStreak: 29, BudgetMaxSteps: 40, BudgetCrossings: 1, StepsAfterBudget: 22,
				Tokens: 239000, CostUSD: 4.79,
				DurationMS: 95000,
			},
			Findings: []detect.Finding{
				{
					Detector:  "RA101",
					Slug:      "repeated-identical-call",
					Severity:  detect.Runaway,
					RootCause: detect.CauseToolRetryLoop,
					Message:   "search_flights called 29 times with the same args and SCHEMA_ERROR each time, steps 4-61",
					OnsetStep: 4,
					Evidence: detect.Evidence{
						Steps:  []detect.StepRange{{From: 4, To: 61}},
						Keys:   []string{"search_flights sha256:9f2c4e"},
						Counts: []detect.Count{{Name: "calls", Value: 29}, {Name: "max_streak", Value: 29}},
					},
					WastedSteps: 58, WastedTokens: 231400, WastedCostUSD: 4.6281,
					Guard: "dedup guard on (tool, canonical args)",
				},
				{
					Detector:  "RA401",
					Slug:      "budget-overrun",
					Severity:  detect.Suspicious,
					RootCause: detect.CauseBudgetIgnored,
					Message:   "22 steps after max_steps=40",
					OnsetStep: 40,
					Evidence: detect.Evidence{
						Steps:  []detect.StepRange{{From: 40, To: 61}},
						Counts: []detect.Count{{Name: "steps_after_budget", Value: 22}},
					},
					WastedSteps: 22, WastedTokens: 98200, WastedCostUSD: 1.964,
					Guard: "hard caps enforced by the runtime",
				},
			},
			DataProblems:     []string{"logs/a.jsonl:17: step 12 logged twice with different content"},
			ConflictingSteps: 1,
		},
		{
			RunID:         "run-replan-3",
			Verdict:       detect.Suspicious,
			RootCause:     detect.CauseReplanLoop,
			OnsetStep:     2,
			Steps:         18,
			WastedSteps:   12,
			WastedTokens:  30500,
			WastedCostUSD: 0.61,
			CostLogged:    true,
			CostEstimated: true, // its steps logged tokens and a model, not the cost
			Headline:      "PLAN<->ACT 6 round trips without progress",
			Signals:       []string{"replan-loop"},
			Indicators: detect.Indicators{
				Steps: 18, ToolCalls: 6, DistinctCalls: 5, SameCallMax: 2, SameCallMaxWindow: 2, SameCallMaxStreak: 1,
				StateOscillation: 11, PlanActRoundTrips: 6, UnproductivePlanRoundTrip: 6, Plans: 7,
				ProgressEvents: 1, NoProgressSteps: 14, Tokens: 44900, CostUSD: 0.9,
				DurationMS: -1,
			},
			Findings: []detect.Finding{{
				Detector:    "RA201",
				Slug:        "replan-loop",
				Severity:    detect.Suspicious,
				RootCause:   detect.CauseReplanLoop,
				Message:     "6 PLAN->ACT->PLAN round trips with no progress",
				OnsetStep:   2,
				Evidence:    detect.Evidence{Steps: []detect.StepRange{{From: 2, To: 17}}},
				WastedSteps: 16, WastedTokens: 30500, WastedCostUSD: 0.61,
				Guard: "state machine with a PLAN cap",
			}},
		},
	}
	// Callers hand runs sorted by run id.
	sortByRunID(runs)
	in := InputStats{
		Files: 2, EmptyFiles: 1,
		LinesRead: 1093, BlankLines: 3, LinesRejected: 4,
		RejectsByKind:  map[string]int64{"malformed_json": 3, "missing_field": 1},
		Steps:          1086,
		DuplicateSteps: 2, ConflictingSteps: 1,
	}
	return &Scan{Summary: Summarize(in, runs), Runs: runs}
}

func sortByRunID(runs []detect.RunResult) {
	slices.SortFunc(runs, func(a, b detect.RunResult) int { return strings.Compare(a.RunID, b.RunID) })
}
