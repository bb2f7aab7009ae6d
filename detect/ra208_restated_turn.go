package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// RestatedTurn finds one agent of a run making the same point to another
// again and again, in new words each time: a code reviewer restating the
// same comment every review cycle (about code that is already there, so
// the programmer hands back the same code, or rewrites it back and forth),
// a manager sending a worker back to the same task. Each turn is worded
// anew and the code it is about changes, so no call repeats and every turn
// reads as news; what repeats is the point (Run.Restated: half the words
// of its prose or more in common with the turn that first made it). Two
// agents can go round one point between them too, each answering the
// other by saying it again (Run.Echoed): a discussion neither closes. A
// person reading such a run sees the team going round one point.
var RestatedTurn = &Detector{
	ID:        "RA208",
	Slug:      "restated-turn",
	Title:     "Agents making the same point to each other again and again, in new words",
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
	sevOf := func(n int) Verdict { return severityFor(int64(n), p.RepeatSuspicious, p.RepeatRunaway) }
	chains := resize(a.restated, v.Len())
	a.restated = chains
	clear(chains)
	best := -1
	back := resize(a.restatedBack, v.Len()) // per chain, the index of its point's first return
	a.restatedBack = back
	for i, f := range v.Restated {
		if f < 0 {
			continue
		}
		c := &chains[f]
		if c.n == 0 {
			back[f] = i
		}
		c.first, c.last, c.n = int(f), i, c.n+1
		// Of the chains at the worst severity, the one whose point came
		// back first: the team went round there first. A point raised
		// once and taken up again long after, other points restated in
		// between, was no loop when first made (n counts the returns;
		// the turn that first made the point is one more).
		if best < 0 || sevOf(c.n+1) > sevOf(chains[best].n+1) || (sevOf(c.n+1) == sevOf(chains[best].n+1) && back[f] < back[best]) {
			best = int(f)
		}
	}
	var c chain
	how := "in new words"
	if best >= 0 {
		c = chains[best]
		c.n++ // the turn that first made the point, and its returns
		if sameTurns(v, best) {
			how = "word for word" // a short turn said again (schema.TalkShortMark)
		}
	}
	msg, count := "one agent made the same point to another %d times, "+how+", steps %d-%d", "restated_turns"
	sev := func(x chain) Verdict { return sevOf(x.n) }
	if e := echoChain(v, p); sev(e) > sev(c) || (sev(e) == sev(c) && e.n > 0 && (e.first < c.first || c.n == 0)) {
		c = e
		msg, count = "two agents made the same point back and forth %d times, each answering the other with it, steps %d-%d", "echoed_turns"
	}
	if cut := cutChain(v); severityFor(int64(cut.n), p.RepeatSuspicious, p.RepeatRunaway) > severityFor(int64(c.n), p.RepeatSuspicious, p.RepeatRunaway) {
		// The points restated do not reach the discussion the framework
		// had to cut: its turns are the evidence.
		c = cut
		msg, count = "a discussion ran its whole turn limit, %d turns, without the agents concluding it, steps %d-%d", "discussion_turns"
	}
	n := int64(c.n)
	if n < int64(p.RepeatSuspicious) {
		return nil
	}
	return stretchHit(v, c.first, c.last, severityFor(n, p.RepeatSuspicious, p.RepeatRunaway),
		fmt.Sprintf(msg, n, v.Step[c.first], v.Step[c.last]), Count{count, n})
}

// echoChain is the longest run of turns between agents each answering
// the turn just before it with the same point (Run.Echoed), with no call
// between two of them (code handed over, a program run, an instruction:
// the work moved): two agents agreeing with each other, turn after turn,
// instead of closing the discussion. n counts its turns, the first
// included; zero without one. It begins where the point was first taken
// up (Run.Answered), which can be before its first counted turn.
func echoChain(v *Run, p *Policy) chain {
	var best, cur chain
	for i, f := range v.Echoed {
		if f < 0 {
			continue
		}
		switch {
		case callBetween(v, int(f), i):
			cur = chain{}
		case cur.n > 0 && int(f) == cur.last:
			cur.last, cur.n = i, cur.n+1
		default:
			cur = chain{first: int(f), last: i, n: 2}
		}
		if cs, bs := severityFor(int64(cur.n), p.RepeatSuspicious, p.RepeatRunaway), severityFor(int64(best.n), p.RepeatSuspicious, p.RepeatRunaway); cs > bs || (cs == bs && cur.first == best.first && cur.n > best.n) || (cs == bs && best.n == 0 && cur.n > 0) {
			best = cur
		}
	}
	// The chain began where the point was first taken up: the turns
	// before it that answer the one before them with a quarter of its
	// words (Answered), with no call between, are the point made in the
	// agents' first words, before they settled into saying it again.
	if len(v.Answered) == v.Len() {
		for best.n > 0 {
			f := v.Answered[best.first]
			if f < 0 || callBetween(v, int(f), best.first) {
				break
			}
			best.first = int(f)
		}
	}
	return best
}

// cutChain is the longest discussion between agents that the framework
// ended at its turn limit before they concluded it: its last turn failed
// with schema.ErrTurnLimit, and it runs back over the turns before it to
// the phase's instruction (or a step that is no turn: a failed request).
// n counts its turns as the framework numbers them, an exchange of the two
// agents' messages; zero without one.
func cutChain(v *Run) chain {
	var best chain
	for i := range v.Len() {
		if v.Flags[i]&flagError == 0 || !v.isMessage(i) || v.Names.ErrTypeName(v.ErrType[i]) != schema.ErrTurnLimit {
			continue
		}
		first := i
		for first > 0 && v.isMessage(first-1) && v.State[first-1] != schema.StatePlan {
			first--
		}
		if c := (chain{first: first, last: i, n: (i - first + 2) / 2}); c.n > best.n {
			best = c
		}
	}
	return best
}

// callBetween reports whether a call was made strictly between steps i
// and j (i < j).
func callBetween(v *Run, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if v.Flags[k]&flagCall != 0 {
			return true
		}
	}
	return false
}

// sameTurns reports whether every turn restating turn first (Run.Restated)
// is the same call as it, word for word. A turn of a few words
// (Run.ShortTurn) is restated only with the same words, whatever marks the
// framework reads around them (ChatDev's `<INFO>` conclusion).
func sameTurns(v *Run, first int) bool {
	if first < len(v.ShortTurn) && v.ShortTurn[first] {
		return true
	}
	for i, f := range v.Restated {
		if int(f) == first && v.sameCall(i) != v.sameCall(first) {
			return false
		}
	}
	return true
}
