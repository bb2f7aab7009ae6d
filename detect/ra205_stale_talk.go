package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// StaleTalk finds the agent asking or telling the user the same thing over
// and over in new words: turns of conversation one after another, no tool
// call between them, each saying nothing it had not said since its last
// call, or asking again for what it asked for since then (Run.StaleTalk). The user answers in new words every time, so every
// turn reads as new; what does not change is what the agent says. A person
// reading such a conversation sees an agent that will not act (look the
// answer up, hand over) and asks again.
var StaleTalk = &Detector{
	ID:        "RA205",
	Slug:      "stale-talk",
	Title:     "Turns to the user that say nothing new, one after another",
	RootCause: CauseToolRetryLoop,
	Guard:     "count the turns to the user since the last tool call that say nothing new; at the limit, act on what is known (look it up) or hand over to a person",
	Params:    []string{"repeat_suspicious", "repeat_runaway"},
	run:       runStaleTalk,
}

func runStaleTalk(v *Run, a *analysis, p *Policy) *hit {
	s, said := staleTurns(v)
	if s.n < p.RepeatSuspicious {
		return nil
	}
	// The stretch begins with the turn that first said what the stale
	// turns say again.
	first := s.first
	if said >= 0 {
		first = said
	}
	// An ask said again goes back to the turn that first asked for it,
	// which may be earlier than the streak (asked, then other questions
	// answered between).
	asked := 0
	for i := s.first; i <= s.last && i < len(v.AskedFirst); i++ {
		if v.StaleTalk[i] && v.AskedFirst[i] >= 0 {
			asked++
			first = min(first, int(v.AskedFirst[i]))
		}
	}
	n := int64(s.n)
	what := "said nothing new"
	if asked > 0 {
		what = "said nothing new or asked again for what an earlier turn asked for"
	}
	return stretchHit(v, first, s.last, severityFor(n, p.RepeatSuspicious, p.RepeatRunaway),
		fmt.Sprintf("%d turns to the user in a row %s, with no tool call between them, steps %d-%d", n, what, v.Step[first], v.Step[s.last]),
		Count{"stale_turns", n})
}

// A streak of stale turns goes on through one turn that says something
// new after at least minStaleBeforeFresh stale ones: the agent answering
// the user's side question between asks of the same thing is still
// asking. Two new turns in a row, or stale and new turns taking turns (an
// executor's canned reply between the new findings of a group chat's
// experts), are a conversation moving on.
const minStaleBeforeFresh = 2

// staleTurns is the longest streak of stale turns of conversation (a
// call of another tool ends one, and so does a turn that says something
// new unless minStaleBeforeFresh stale turns came just before it), n
// counting its stale turns, and the index of the turn before its first:
// the one that said it first (-1 when there is none).
func staleTurns(v *Run) (best streak, said int) {
	var cur streak
	prev, curSaid := -1, -1 // the last turn of conversation since the last call
	run := 0                // stale turns since the streak's last new turn
	said = -1
	for i := 0; i < v.Len(); i++ {
		if v.Flags[i]&flagCall == 0 {
			continue
		}
		if v.Names.ToolName(v.Tool[i]) != schema.ToolMessage {
			cur.n, prev, run = 0, -1, 0
			continue
		}
		if !v.StaleTalk[i] {
			if run < minStaleBeforeFresh {
				cur.n = 0
			}
			prev, run = i, 0
			continue
		}
		run++
		if cur.n == 0 {
			cur.first, curSaid = i, prev
		}
		cur.n++
		cur.last = i
		if cur.n > best.n {
			best, said = cur, curSaid
		}
		prev = i
	}
	return best, said
}
