package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// RepeatedFinish finds an agent that finishes again and again while the
// run goes on: it calls its finish tool, the harness does not end the run
// (it refused the result: a patch it reads as empty, a check that
// failed), and the agent checks the same work once more and finishes
// again. Every finish says "done" in new words, and the checks between
// them print the same work in new forms (sizes, hashes, a diff
// regenerated), so nothing repeats byte for byte; what repeats is the
// finish. A turn that ends without a call (a summary, a plan said aloud)
// is not counted before the agent's first finish call: models that think
// in text end such turns and go on, and a harness nudges them on. After
// it, such a turn is the agent saying it is done once more. Calls made
// after the first finish, once the agent has finished twice, are work
// past its own finish: checking what it already said was done.
var RepeatedFinish = &Detector{
	ID:        "RA206",
	Slug:      "repeated-finish",
	Title:     "The agent finished again and again, and the run went on",
	RootCause: CauseToolRetryLoop,
	Guard:     "let one finish end the loop: a finish the harness refuses goes to RECOVER once with the reason, then to a person, never back into the loop",
	Params:    []string{"repeat_suspicious", "repeat_runaway", "no_progress_suspicious", "no_progress_runaway"},
	run:       runRepeatedFinish,
}

func runRepeatedFinish(v *Run, a *analysis, p *Policy) *hit {
	first, firstSaid, n, said, after := -1, -1, 0, 0, 0
	for i := 0; i < v.Len(); i++ {
		switch {
		case v.State[i] == schema.StateStop:
			// Once the agent has called its finish tool, a turn that ends
			// without a call is it saying it is done again.
			if v.Flags[i]&flagCall != 0 || first >= 0 {
				if first < 0 {
					first = i
				}
				n++
				if v.Flags[i]&flagCall == 0 {
					if said == 0 {
						firstSaid = i
					}
					said++
				}
			}
		case first >= 0 && v.Flags[i]&flagCall != 0:
			after++ // a call the agent made after it said it was done
		}
	}
	if first < 0 {
		return nil
	}
	sev := severityFor(int64(n), p.RepeatSuspicious, p.RepeatRunaway)
	if n >= 2 {
		// Calls past the finish count once the agent has finished again:
		// a harness may answer the first finish with a review to do
		// (SWE-agent asks to remove the reproduction script and submit
		// again), and that work is not a loop until the agent finishes
		// once more and still goes on.
		sev = max(sev, severityFor(int64(after), p.NoProgressSuspicious, p.NoProgressRunaway))
	}
	if sev == Healthy {
		return nil
	}
	last := v.Len() - 1
	msg := fmt.Sprintf("finished %d times and made %d calls after the first finish, at step %d, steps %d-%d", n, after, v.Step[first], v.Step[first], v.Step[last])
	counts := []Count{{"finishes", int64(n)}, {"calls_after_finish", int64(after)}}
	var cause RootCause
	if finishes := severityFor(int64(n), p.RepeatSuspicious, p.RepeatRunaway); 2*said > n && finishes == sev &&
		severityFor(int64(n-said), p.RepeatSuspicious, p.RepeatRunaway) < sev {
		// Mostly finishes said in words, and only they make the loop: no
		// finish call refused again and again, but the agent restating
		// its conclusion turn after turn instead of acting on it (calling
		// the finish that ends the run), as a decision thought over and
		// over without acting is re-planning. What repeats is the
		// conclusion said again: the loop begins with its first saying,
		// or with the finishes right before it, no call between (work
		// done after a finish answered that finish).
		start := firstSaid
		for k := firstSaid - 1; k >= first; k-- {
			if v.State[k] == schema.StateStop {
				start = k
			} else if v.Flags[k]&flagCall != 0 {
				break
			}
		}
		cause, first = CauseReplanLoop, start
		counts = append(counts, Count{"finishes_said", int64(said)})
		msg = fmt.Sprintf("said it was done %d times without its finish call (%d finishes, %d calls after the first), steps %d-%d", said, n, after, v.Step[first], v.Step[last])
	}
	return &hit{
		Finding: Finding{
			Severity:  sev,
			Message:   msg,
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: counts,
			},
		},
		first: first,
		last:  last,
		cause: cause,
	}
}
