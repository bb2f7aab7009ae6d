package detect

import (
	"fmt"
	"slices"
	"strings"
)

// ErrorStreak finds a long run of failed tool calls with no circuit breaker
// stepping in (seed 001, 4-4; seed 002 ErrorCircuitBreaker).
var ErrorStreak = &Detector{
	ID:        "RA301",
	Slug:      "error-streak",
	Title:     "Failed tool calls in a row without a circuit breaker",
	RootCause: CauseErrorStorm,
	Guard:     "circuit breaker: open after 3 consecutive failures, stay open 60 s, half-open with one probe; retry policy by error type (seed 001, 4-2 and 4-4)",
	Reads:     []string{"tool_errors", "tool_errors_by_type", "max_error_streak"},
	Params:    []string{"error_streak_suspicious", "error_streak_runaway"},
	run:       runErrorStreak,
}

func runErrorStreak(v *runView, a *analysis, p *Policy) *hit {
	if a.ind.MaxErrorStreak < int64(p.ErrorStreakSuspicious) {
		return nil
	}
	s := longestStreak(a.callSteps,
		func(i int) bool { return v.flags[i]&flagResult == 0 },
		func(i int) bool { return v.flags[i]&flagError != 0 })
	bestLen, bestFirst, bestLast := s.n, s.first, s.last
	byType := map[string]int64{}
	keys := map[uint64]int{}
	for _, i := range a.calls {
		if i < bestFirst || i > bestLast || v.flags[i]&flagError == 0 {
			continue
		}
		byType[v.names.errTypeName(v.err[i])]++
		keys[v.call[i]]++
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.SortFunc(types, func(x, y string) int {
		if byType[x] != byType[y] {
			return int(byType[y] - byType[x])
		}
		return strings.Compare(x, y)
	})
	var parts []string
	counts := []Count{{"failed_calls", int64(bestLen)}, {"distinct_calls", int64(len(keys))}}
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%d %s", byType[t], t))
		counts = append(counts, Count{"error_" + t, byType[t]})
	}
	n := int64(bestLen)
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.ErrorStreakSuspicious, p.ErrorStreakRunaway),
			Message:   fmt.Sprintf("%d failed calls in a row (%s), steps %d-%d", n, strings.Join(parts, ", "), v.step[bestFirst], v.step[bestLast]),
			OnsetStep: v.step[bestFirst],
			Evidence: Evidence{
				Steps:  []StepRange{{v.step[bestFirst], v.step[bestLast]}},
				Counts: counts,
			},
		},
		first:      bestFirst,
		last:       bestLast,
		errorShare: 1,
	}
}
