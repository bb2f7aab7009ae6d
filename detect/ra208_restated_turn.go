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
	Params:    []string{"repeat_suspicious", "repeat_runaway"},
	run:       runRestatedTurn,
}

func runRestatedTurn(v *Run, a *analysis, p *Policy) *hit {
	if len(v.Restated) < v.Len() {
		return nil
	}
	// Per turn that first made a point (Restated points back to it), the
	// turns that made it again; a turn points only to an earlier one.
	chains := resize(a.restated, v.Len())
	a.restated = chains
	clear(chains)
	best := -1
	for i, f := range v.Restated {
		if f < 0 {
			continue
		}
		c := &chains[f]
		c.first, c.last, c.n = int(f), i, c.n+1
		if best < 0 || c.n > chains[best].n || (c.n == chains[best].n && int(f) < best) {
			best = int(f)
		}
	}
	if best < 0 {
		return nil
	}
	c := chains[best]
	n := int64(c.n + 1) // the turn that first made the point, and its returns
	if n < int64(p.RepeatSuspicious) {
		return nil
	}
	return stretchHit(v, c.first, c.last, severityFor(n, p.RepeatSuspicious, p.RepeatRunaway),
		fmt.Sprintf("one agent made the same point to another %d times, in new words, steps %d-%d", n, v.Step[c.first], v.Step[c.last]),
		Count{"restated_turns", n})
}
