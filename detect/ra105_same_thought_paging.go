package detect

import "fmt"

// SameThoughtPaging finds an agent paging through one target under one
// thought: views of lines 808-850, 850-900, 900-950, ... each after the
// same "Let's continue looking for _nthroot_mod1", or backwards through a
// file sixteen times after "Let's look at the bulk_create method", whose
// place an early grep had shown. Every view returns text it has not seen
// and none need go back over a range it read (RA104's sign), so nothing
// else sees a loop; the thought that does not change while only the
// numbers do shows an agent scanning blind. A listing the tool itself
// pages (its result says there is more) is followed, not scanned.
var SameThoughtPaging = &Detector{
	ID:        "RA105",
	Slug:      "same-thought-paging",
	Title:     "Same call but for its numbers, again and again under the same thought",
	RootCause: CauseToolRetryLoop,
	Guard:     "cap calls of one tool on one target in a row, numbers masked, under an unchanged thought (4 such pages); then search for what is sought instead of paging",
	Reads:     []string{"tool_calls"},
	Params:    []string{"paging_thought_suspicious", "paging_thought_runaway"},
	run:       runSameThoughtPaging,
}

func runSameThoughtPaging(v *Run, a *analysis, p *Policy) *hit {
	if len(a.calls) < p.PagingThoughtSuspicious {
		return nil
	}
	best := sameThoughtSweep(v, p.simBits())
	if best.n < p.PagingThoughtSuspicious {
		return nil
	}
	n := int64(best.n)
	first, last := best.first, best.last
	return &hit{
		Finding: Finding{
			Severity: severityFor(n, p.PagingThoughtSuspicious, p.PagingThoughtRunaway),
			Message: fmt.Sprintf("%d calls of %s in a row that differ only in their numbers, each under the same thought, steps %d-%d",
				n, v.Names.ToolName(v.Tool[first]), v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{v.callText(first)},
				Counts: []Count{{"same_thought_calls", n}, {"calls_in_segment", int64(callsBetween(a, first, last))}},
			},
		},
		first: first,
		last:  last,
	}
}

// sameThoughtSweep is the longest streak of consecutive calls of one tool
// and one args shape (schema.ArgsShape) in which every call asks for other
// than the call before it (Run.sameCall: a page further; the same call
// again, also with a fresh timestamp, is polling, or RA101's), logged the
// same thought as it (Run.Decision; a reason that says nothing is none),
// with no step between them that thought anything else (an agent that
// weighs each page, "page 2 has more results; continue", is reading them),
// and follows a call whose result did not say there is more (a listing's
// next page, schema.ToolResult.SaysMore); n counts its calls. The first
// such streak of the longest. A call answered as the call before it was
// (both with logged output) read no page further: it asked again with
// another number, a poll waiting longer each time, which is RA103's to
// judge (polling until the answer changed is no loop).
func sameThoughtSweep(v *Run, simBits int) streak {
	var best, cur streak
	prev := -1          // the last call
	otherSince := false // a step since prev logged another thought
	for i := 0; i < v.Len(); i++ {
		if v.Flags[i]&flagCall == 0 {
			if prev >= 0 && v.Decision[i] != 0 && v.Decision[i] != v.Decision[prev] {
				otherSince = true
			}
			continue
		}
		if prev >= 0 && !otherSince && v.Flags[prev]&flagMore == 0 && v.Shape[i] != 0 && v.Tool[i] == v.Tool[prev] &&
			v.Shape[i] == v.Shape[prev] && v.sameCall(i) != v.sameCall(prev) && v.Decision[i] != 0 && v.Decision[i] == v.Decision[prev] &&
			!answeredAlike(v, i, prev, simBits) {
			cur.n++
			cur.last = i
			if cur.n > best.n {
				best = cur
			}
		} else {
			cur = streak{first: i, last: i, n: 1}
		}
		prev, otherSince = i, false
	}
	return best
}

// answeredAlike reports whether calls i and j both logged output that was
// not read as empty and got the same answer (sameReply): a repeat, not a
// page further. A page marked empty (it did not hold what was sought)
// still showed text of its own.
func answeredAlike(v *Run, i, j int, simBits int) bool {
	const shown = flagPayload | flagEmpty
	return v.Flags[i]&shown == flagPayload && v.Flags[j]&shown == flagPayload && v.sameReply(i, j, simBits)
}
