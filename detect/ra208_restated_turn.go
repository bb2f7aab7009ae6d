package detect

import "fmt"

// RestatedTurn finds one agent of a run making the same point to another
// again and again, in new words each time: a code reviewer restating the
// same comment every review cycle (about code that is already there, so
// the programmer hands back the same code, or rewrites it back and forth),
// a manager sending a worker back to the same task. Each turn is worded
// anew and the code it is about changes, so no call repeats and every turn
// reads as news; what repeats is the point (Run.Restated: half the words
// of its prose or more in common with the turn that first made it). A
// person reading such a run sees the team going round one point.
var RestatedTurn = &Detector{
	ID:        "RA208",
	Slug:      "restated-turn",
	Title:     "One agent making the same point to another again and again, in new words",
	RootCause: CauseReplanLoop,
	Guard:     "count the points each agent has made to another; the third time one comes back, settle it (check the claim against the work) or hand it to a person instead of another cycle",
	Params:    []string{"plan_loop_suspicious", "plan_loop_runaway"},
	run:       runRestatedTurn,
}

func runRestatedTurn(v *Run, a *analysis, p *Policy) *hit {
	if len(v.Restated) < v.Len() {
		return nil
	}
	clear(a.restated)
	for i := 0; i < v.Len(); i++ {
		if f := v.Restated[i]; f >= 0 {
			c := a.restated[f]
			c.n++
			c.last = i
			a.restated[f] = c
		}
	}
	first, best := -1, chainEnd{}
	for f, c := range a.restated {
		if c.n > best.n || (c.n == best.n && int(f) < first) {
			first, best = int(f), c
		}
	}
	n := int64(best.n + 1) // the turn that first made the point, and its returns
	if first < 0 || n < int64(p.PlanLoopSuspicious) {
		return nil
	}
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.PlanLoopSuspicious, p.PlanLoopRunaway),
			Message:   fmt.Sprintf("one agent made the same point to another %d times, in new words, steps %d-%d", n, v.Step[first], v.Step[best.last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[best.last]}},
				Counts: []Count{{"restated_turns", n}},
			},
		},
		first: first,
		last:  best.last,
	}
}

// chainEnd counts the turns that restate one turn, and the last of them.
type chainEnd struct{ n, last int }
