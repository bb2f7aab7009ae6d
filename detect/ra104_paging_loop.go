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

// maxPagingDetour is how many calls of other shapes may come between two
// stretches of paging for them to be one sweep, when the later goes back
// over args the earlier used: a check run between reads, then back to the
// same pages.
const maxPagingDetour = 4

// revisitsAny reports whether one of the calls at idx has the exact args of
// one of the calls at earlier.
func revisitsAny(v *Run, idx, earlier []int) bool {
	for _, i := range idx {
		for _, j := range earlier {
			if v.Args[i] == v.Args[j] {
				return true
			}
		}
	}
	return false
}

func runPagingLoop(v *Run, a *analysis, p *Policy) *hit {
	if len(a.calls) < p.PagingSuspicious {
		return nil
	}
	var best *sweep
	bestSev := Healthy
	calls := a.calls
	var paged []int // the sweep's calls, without the detours
	for k := 0; k < len(calls); {
		first := calls[k]
		same := func(i int) bool { return v.Tool[i] == v.Tool[first] && v.Shape[i] == v.Shape[first] }
		end := k + 1
		if v.Shape[first] != 0 { // args not logged: no shape, no sweep
			for end < len(calls) && same(calls[end]) {
				end++
			}
		}
		paged = append(paged[:0], calls[k:end]...)
		// A short detour (a reproduction run) and back to paging over
		// ranges already read is the same sweep resumed.
		for v.Shape[first] != 0 && end-k >= 2 {
			back := end
			for back < len(calls) && back-end < maxPagingDetour && !same(calls[back]) {
				back++
			}
			if back == end || back == len(calls) || !same(calls[back]) {
				break
			}
			resumed := back
			for resumed < len(calls) && same(calls[resumed]) {
				resumed++
			}
			if !revisitsAny(v, calls[back:resumed], paged) {
				break
			}
			paged = append(paged, calls[back:resumed]...)
			end = resumed
		}
		// Only a sweep long enough to be a finding is worth its args
		// counted: most calls start a sweep of one.
		if n := len(paged); n >= p.PagingSuspicious {
			cur := sweep{first: first, last: calls[end-1], calls: n, distinct: distinctArgs(v, paged)}
			if sev := severityFor(int64(n), p.PagingSuspicious, p.PagingRunaway); cur.paging() && sev > bestSev {
				best, bestSev = &cur, sev
			}
		}
		k = end
	}
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
