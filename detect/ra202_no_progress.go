package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// NoProgress finds long stretches with no progress event: no new artifact, no
// memory written as an observation or decision, no call that returned new
// data, no STOP (guide B indicator no_progress_steps). It is a symptom: it
// names the root cause only when no loop pattern explains the run.
var NoProgress = &Detector{
	ID:        "RA202",
	Slug:      "no-progress",
	Title:     "Many steps in a row without progress",
	RootCause: CauseReplanLoop,
	Symptom:   true,
	Guard:     "termination owned by EVAL: stop after N steps without a new artifact or observation",
	Reads:     []string{"no_progress_steps", "progress_events"},
	Params:    []string{"no_progress_suspicious", "no_progress_runaway", "result_similarity"},
	run:       runNoProgress,
}

func runNoProgress(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.NoProgressSteps < int64(p.NoProgressSuspicious) {
		return nil
	}
	s := longestStreak(steps(v.Len()), nil, func(i int) bool { return !a.progress[i] })
	first, last, n := s.first, s.last, int64(s.n)
	calls := callsBetween(a, first, last)
	errs, empties := 0, 0
	for i := first; i <= last; i++ {
		if v.Flags[i]&flagError != 0 {
			errs++
		}
		if v.Flags[i]&flagEmpty != 0 {
			empties++
		}
	}
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.NoProgressSuspicious, p.NoProgressRunaway),
			Message:   fmt.Sprintf("%d steps without progress, steps %d-%d", n, v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: []Count{{"steps_without_progress", n}, {"calls", int64(calls)}, {"errors", int64(errs)}, {"empty_results", int64(empties)}},
			},
		},
		first: first,
		last:  last,
		cause: stuckCause(v, first, last),
	}
}

// stuckCause names what a stretch without progress is: a re-planning loop
// when the agent planned or judged in it (PLAN, EVAL, or steps that only
// decided), a retry loop when it only made calls that brought nothing new.
func stuckCause(v *Run, first, last int) RootCause {
	calls, thinking := 0, 0
	for i := first; i <= last; i++ {
		switch {
		case v.State[i] == schema.StatePlan || v.State[i] == schema.StateEval:
			thinking++
		case v.Flags[i]&flagCall != 0:
			calls++
		default:
			thinking++
		}
	}
	if thinking == 0 && calls > 0 {
		return CauseToolRetryLoop
	}
	return CauseReplanLoop
}
