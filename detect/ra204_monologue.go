package detect

import "fmt"

// Monologue finds the agent talking to itself: step after step without a
// tool call, each reaching the same decision (same next state, same reason).
// Nothing is tried, so nothing can change (OpenHands' stuck detector: 3
// identical monologue messages).
var Monologue = &Detector{
	ID:        "RA204",
	Slug:      "monologue",
	Title:     "Steps without a tool call that repeat the same decision",
	RootCause: CauseReplanLoop,
	Guard:     "state machine in which a step without a tool call must change state or stop; cap consecutive reasoning steps",
	Reads:     []string{"max_repeated_decision_streak"},
	Params:    []string{"monologue_suspicious", "monologue_runaway"},
	run:       runMonologue,
}

func runMonologue(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.MaxRepeatedDecision < int64(p.MonologueSuspicious) {
		return nil
	}
	s := repeatedDecisions(v)
	n := int64(s.n)
	return stretchHit(v, s.first, s.last, severityFor(n, p.MonologueSuspicious, p.MonologueRunaway),
		fmt.Sprintf("%d steps in a row without a tool call reached the same decision, steps %d-%d", n, v.Step[s.first], v.Step[s.last]),
		Count{"repeated_decisions", n})
}

// repeatedDecisions is the longest streak of consecutive steps without a
// tool call that log the same decision. A step with a call, or without a
// logged reason, ends a streak.
func repeatedDecisions(v *Run) streak {
	var best, cur streak
	var key uint32
	for i := 0; i < v.Len(); i++ {
		d := v.Decision[i]
		if d == 0 || v.Flags[i]&flagCall != 0 {
			cur.n = 0
			continue
		}
		if cur.n == 0 || d != key {
			cur = streak{first: i}
			key = d
		}
		cur.n++
		cur.last = i
		if cur.n > best.n {
			best = cur
		}
	}
	return best
}
