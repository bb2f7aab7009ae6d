package detect

import "fmt"

// EmptyResultLoop finds an agent rephrasing its query for one intent while
// every result comes back empty (seed 000: "a tool returns empty or
// not-found twice for the same intent: stop and answer with assumptions,
// unknowns and questions").
var EmptyResultLoop = &Detector{
	ID:        "RA601",
	Slug:      "empty-result-loop",
	Title:     "Empty results for one intent, again and again",
	RootCause: CauseEmptyResultLoop,
	Guard:     "stop after 2 empty results per intent and answer with assumptions, unknowns and questions for the user (seed 000 maxEmptySameIntent; structured not-found results)",
	Reads:     []string{"empty_results"},
	Params:    []string{"empty_results_suspicious", "empty_results_runaway"},
	run:       runEmptyResultLoop,
}

func runEmptyResultLoop(v *runView, a *analysis, p *Policy) *hit {
	if a.ind.EmptyResults < int64(p.EmptySuspicious) {
		return nil
	}
	type streak struct {
		first, last int
		empties     int
		queries     map[uint64]bool
	}
	// The intent groups calls; without one, calls of the same tool do.
	group := func(i int) int64 {
		if v.intent[i] != 0 {
			return int64(v.intent[i])
		}
		return -int64(v.tool[i]) - 1
	}
	open := map[int64]*streak{}
	var best *streak
	for _, i := range a.calls {
		f := v.flags[i]
		if f&flagResult == 0 || f&flagError != 0 {
			continue
		}
		g := group(i)
		if f&flagEmpty == 0 {
			delete(open, g) // a useful result ends the search
			continue
		}
		s := open[g]
		if s == nil {
			s = &streak{first: i, queries: map[uint64]bool{}}
			open[g] = s
		}
		s.last = i
		s.empties++
		s.queries[v.call[i]] = true
		if best == nil || s.empties > best.empties {
			best = s
		}
	}
	if best == nil || best.empties < p.EmptySuspicious {
		return nil
	}
	first, last := best.first, best.last
	what := v.names.intentName(v.intent[first])
	if what == "" {
		what = "tool " + v.names.toolName(v.tool[first])
	} else {
		what = "intent " + what
	}
	n := int64(best.empties)
	return &hit{
		Finding: Finding{
			Severity: severityFor(n, p.EmptySuspicious, p.EmptyRunaway),
			Message: fmt.Sprintf("%d empty results for %s (%d different queries), steps %d-%d",
				n, what, len(best.queries), v.step[first], v.step[last]),
			OnsetStep: v.step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.step[first], v.step[last]}},
				Keys:   []string{what},
				Counts: []Count{{"empty_results", n}, {"distinct_queries", int64(len(best.queries))}},
			},
		},
		first: first,
		last:  last,
	}
}
