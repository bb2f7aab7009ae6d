package detect

import (
	"fmt"
	"strings"
)

// CallCycle finds calls repeating in a cycle of period 2 to 16 (A B A B,
// A B C A B C, a block of a dozen actions replayed) with the same results: the agent goes round the same few
// calls and learns nothing. Guide D's breaker only sees identical calls in
// a row, so these loops pass it; OpenHands catches period 2 over 6 actions.
var CallCycle = &Detector{
	ID:        "RA102",
	Slug:      "call-cycle",
	Title:     "Calls repeating in a cycle of 2 to 16 with the same results",
	RootCause: CauseToolRetryLoop,
	Guard:     "windowed dedup on (tool, canonical args) over the last 10-20 calls, not only consecutive ones",
	Reads:     []string{"tool_calls", "distinct_calls"},
	Params:    []string{"cycle_suspicious", "cycle_runaway", "result_similarity"},
	run:       runCallCycle,
}

// maxCyclePeriod is the longest cycle looked for: agents replay blocks of
// a dozen actions (the same greps and views, in the same order) as well as
// A B A B.
const maxCyclePeriod = 16

func runCallCycle(v *Run, a *analysis, p *Policy) *hit {
	if max(a.ind.SameCallMax, a.ind.SameNormArgsMax) < int64(p.CycleSuspicious) {
		return nil // no call was made often enough to go round a cycle that often
	}
	calls := a.calls
	same := func(j, k int) bool {
		x, y := calls[j], calls[k]
		return v.sameCall(x) == v.sameCall(y) && v.sameAnswer(x, y, a.simBits)
	}
	bestReps, bestPeriod, bestStart, bestEnd := 0, 0, 0, 0
	for period := 2; period <= maxCyclePeriod; period++ {
		run := 0
		for j := period; j <= len(calls); j++ {
			if j < len(calls) && same(j, j-period) {
				run++
				continue
			}
			if run > 0 {
				start, end := j-run-period, j-1 // call ordinals of the segment
				reps := (end - start + 1) / period
				if reps > bestReps && distinctKeys(v, calls[start:start+period]) >= 2 {
					if !cycleEndsInBackoffChange(v, calls, start, end, period) {
						bestReps, bestPeriod, bestStart, bestEnd = reps, period, start, end
					}
				}
			}
			run = 0
		}
	}
	if bestReps < p.CycleSuspicious {
		return nil
	}
	first, last := firstLap(v, a, bestStart, bestPeriod, p.Window), calls[bestEnd]
	var keys []string
	for _, i := range calls[bestStart : bestStart+bestPeriod] {
		keys = append(keys, v.callText(i))
	}
	var tools []string
	for _, i := range calls[bestStart : bestStart+bestPeriod] {
		tools = append(tools, v.Names.ToolName(v.Tool[i]))
	}
	n := int64(bestReps)
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.CycleSuspicious, p.CycleRunaway),
			Message:   fmt.Sprintf("cycle of %d calls (%s) repeated %d times with the same results, steps %d-%d", bestPeriod, strings.Join(tools, " -> "), n, v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   keys,
				Counts: []Count{{"period", int64(bestPeriod)}, {"repetitions", n}, {"calls_in_cycle", int64(bestEnd - bestStart + 1)}},
			},
		},
		first:      first,
		last:       last,
		errorShare: segmentErrorShare(v, a, first, last),
	}
}

// firstLap is where a cycle began: the first instance of what then
// repeats. The calls of its first found lap may have been made before, the
// same calls getting the same answers, with nothing lasting learned in
// between (a block of greps and views run once, then replayed); the
// earliest such instance within window calls is the onset.
// start is the call ordinal of the lap's first call.
func firstLap(v *Run, a *analysis, start, period, window int) int {
	first := a.calls[start]
	for ord := start; ord < start+period; ord++ {
		i := a.calls[ord]
		for o := ord - 1; o >= 0 && ord-o <= window; o-- {
			j := a.calls[o]
			if a.progressedBetween(j, i) {
				break
			}
			if v.sameCall(j) == v.sameCall(i) && v.sameAnswer(j, i, a.simBits) {
				first = min(first, j)
			}
		}
	}
	return first
}

func distinctKeys(v *Run, idx []int) int {
	seen := map[uint64]bool{}
	for _, i := range idx {
		seen[v.sameCall(i)] = true
	}
	return len(seen)
}

// cycleEndsInBackoffChange exempts waiting loops (check job, read log, check
// job...) that back off and end when the first call of the cycle answers
// differently, as RA101 exempts polling.
func cycleEndsInBackoffChange(v *Run, calls []int, start, end, period int) bool {
	key := v.call[calls[start]]
	var idx []int
	for o := start; o <= end; o += period {
		idx = append(idx, calls[o])
	}
	for o := end + 1; o < len(calls); o++ {
		if v.call[calls[o]] == key {
			return backoffThenChange(v, idx, calls[o])
		}
	}
	return false
}
