package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// ReplanLoop finds PLAN<->ACT oscillation without progress: the agent plans,
// acts, learns nothing and plans again (guide B, indicator
// state_oscillation).
var ReplanLoop = &Detector{
	ID:        "RA201",
	Slug:      "replan-loop",
	Title:     "PLAN<->ACT round trips with no progress in between",
	RootCause: CauseReplanLoop,
	Guard:     "state machine with a PLAN cap (at most 2 plans) and termination owned by EVAL, not by the model",
	Reads:     []string{"plans", "plans_repeated", "plan_act_round_trips", "plan_act_round_trips_no_progress", "state_oscillation", "progress_events"},
	Params:    []string{"plan_loop_suspicious", "plan_loop_runaway"},
	run:       runReplanLoop,
}

func runReplanLoop(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.UnproductivePlanRoundTrip < int64(p.PlanLoopSuspicious) {
		return nil
	}
	// Walk PLAN segments; a round trip is unproductive when an ACT happened
	// and nothing progressed since the previous PLAN began.
	bestLen, bestFirst, bestLast := 0, -1, -1
	chainLen, chainFirst := 0, -1
	prevPlan := -1
	act, prog, strong := false, false, false
	inPlan := false
	plans := map[uint32]bool{}
	for i := 0; i < v.Len(); i++ {
		s := v.State[i]
		if s == schema.StateNone {
			if a.progress[i] {
				prog = true
				strong = strong || strongProgress(v, i)
			}
			continue
		}
		if s == schema.StatePlan && !inPlan {
			repeated := v.Plan[i] != 0 && plans[v.Plan[i]]
			plans[v.Plan[i]] = true
			if prevPlan >= 0 && act && unproductiveRoundTrip(prog, strong, repeated) {
				if chainLen == 0 {
					chainFirst = prevPlan
				}
				chainLen++
				if chainLen > bestLen {
					bestLen, bestFirst, bestLast = chainLen, chainFirst, i
				}
			} else {
				chainLen = 0
			}
			prevPlan = i
			act, prog, strong = false, false, false
		}
		inPlan = s == schema.StatePlan
		if s == schema.StateAct {
			act = true
		}
		if a.progress[i] {
			prog = true
			strong = strong || strongProgress(v, i)
		}
	}
	if bestLen < p.PlanLoopSuspicious {
		return nil
	}
	// The loop's last iteration runs until the next productive step or the end.
	last := bestLast
	for last+1 < v.Len() && !a.progress[last+1] && !(v.State[last+1] == schema.StatePlan) {
		last++
	}
	n := int64(bestLen)
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.PlanLoopSuspicious, p.PlanLoopRunaway),
			Message:   fmt.Sprintf("re-planned %d times after acting with no progress in between, steps %d-%d", n, v.Step[bestFirst], v.Step[last]),
			OnsetStep: v.Step[bestFirst],
			Evidence: Evidence{
				Steps: []StepRange{{v.Step[bestFirst], v.Step[last]}},
				Counts: []Count{{"unproductive_round_trips", n}, {"plans", a.ind.Plans}, {"plans_repeated", a.ind.PlansRepeated},
					{"state_oscillation", a.ind.StateOscillation}},
			},
		},
		first: bestFirst,
		last:  last,
	}
}
