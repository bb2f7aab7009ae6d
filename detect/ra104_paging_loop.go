package detect

import "fmt"

// PagingLoop finds an agent paging back and forth through one target with
// the same call, only its numbers changing, and doing nothing else: views
// of lines 600-620, 568-592, 500-520, ... down the file, up and down again
// over ranges it has read. Every view returns new text, so nothing else
// sees a repeat or a lack of progress; the ranges it reads again show the
// loop.
var PagingLoop = &Detector{
	ID:        "RA104",
	Slug:      "paging-loop",
	Title:     "Same call but for its numbers, paging back over what it read",
	RootCause: CauseToolRetryLoop,
	Guard:     "cap calls of one tool on one target in a row, numbers masked (10 reads of one file without another action), then force a different action",
	Reads:     []string{"tool_calls"},
	Params:    []string{"paging_suspicious", "paging_runaway"},
	run:       runPagingLoop,
}

// sweep is a maximal streak of consecutive calls of one tool and one args
// shape (schema.ArgsShape): the same call but for its numbers.
type sweep struct {
	first, last int // step indices
	calls       int
	distinct    int // different exact args
}

// revisits counts the calls that repeat the exact args of an earlier call
// of the sweep.
func (s sweep) revisits() int { return s.calls - s.distinct }

// paging: the sweep goes back over what it read, and is not one call
// polled (at least half of its calls are new args; the same exact call
// again and again is RA101's finding).
func (s sweep) paging() bool { return s.revisits() >= 1 && 2*s.distinct >= s.calls }

func runPagingLoop(v *Run, a *analysis, p *Policy) *hit {
	if len(a.calls) < p.PagingSuspicious {
		return nil
	}
	var best *sweep
	bestSev := Healthy
	var cur sweep
	seen := a.pageArgs
	end := func() {
		if cur.calls == 0 || !cur.paging() {
			return
		}
		if sev := severityFor(int64(cur.calls), p.PagingSuspicious, p.PagingRunaway); sev > bestSev {
			s := cur
			best, bestSev = &s, sev
		}
	}
	var tool int32
	var shape uint32
	for _, i := range a.calls {
		if cur.calls > 0 && v.Shape[i] != 0 && v.Tool[i] == tool && v.Shape[i] == shape {
			cur.calls++
			cur.last = i
			if !seen[v.Args[i]] {
				seen[v.Args[i]] = true
				cur.distinct++
			}
			continue
		}
		end()
		cur = sweep{}
		clear(seen)
		if v.Shape[i] == 0 {
			continue // args not logged: no shape, no sweep
		}
		tool, shape = v.Tool[i], v.Shape[i]
		cur = sweep{first: i, last: i, calls: 1, distinct: 1}
		seen[v.Args[i]] = true
	}
	end()
	if best == nil {
		return nil
	}
	s := *best
	first, last := s.first, s.last
	return &hit{
		Finding: Finding{
			Severity: bestSev,
			Message: fmt.Sprintf("%d calls of %s that differ only in their numbers, %d of them repeating an earlier call, steps %d-%d",
				s.calls, v.Names.ToolName(v.Tool[first]), s.revisits(), v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps: []StepRange{{v.Step[first], v.Step[last]}},
				Keys:  []string{v.callText(first)},
				Counts: []Count{
					{"paging_calls", int64(s.calls)},
					{"distinct_args", int64(s.distinct)},
					{"revisits", int64(s.revisits())},
					{"calls_in_segment", int64(callsBetween(a, first, last))},
				},
			},
		},
		first:      first,
		last:       last,
		errorShare: segmentErrorShare(v, a, first, last),
	}
}
