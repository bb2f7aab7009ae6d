package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/replay"
)

// fixGuards are the built-in guards (replay.Registry names) that implement
// the fix each root cause's report recommends (docs/root-causes.md):
//   - tool-retry-loop, "dedup guard on (tool, canonical args)": the guards
//     that key calls by tool and args;
//   - replan-loop, "a state machine with a PLAN cap": no replayed guard caps
//     PLAN; a turn cap is the nearest a runtime enforces;
//   - budget-ignored, "hard caps enforced by the runtime": the caps;
//   - empty-result-loop, "stop after N empties per intent": empty-stop;
//     "answer from what was found after N rephrasings of one question"
//     (RA602): rephrase-stop;
//   - error-storm, "circuit breaker, backoff": breaker.
//
// memory-contamination's fix (type memory, filter on read) is not a guard
// that can be replayed from the log: no guard matches it. Each list is in
// order of preference: the guard closest to the fix first.
var fixGuards = map[detect.RootCause][]string{
	detect.CauseToolRetryLoop:   {"dedup", "toolcallguard", "toolloopbreaker", "openhands", "gemini", "crewai", "loopguard"},
	detect.CauseReplanLoop:      {"maxturns", "maxsteps"},
	detect.CauseBudgetIgnored:   {"maxsteps", "maxturns", "maxcalls", "loopguard"},
	detect.CauseEmptyResultLoop: {"empty-stop", "rephrase-stop"},
	detect.CauseErrorStorm:      {"breaker"},
}

// replayGuards replays every guard over the run with replay's own code
// (one Replayer for this run) and reads back where each stopped it, with
// its reason as replay gives it.
func replayGuards(in Input) []GuardOutcome {
	if len(in.Guards) == 0 {
		return nil
	}
	rp := replay.New(in.Guards, nil)
	rp.Visit(in.Steps, in.Result)
	rep := rp.Report()
	fix := fixGuards[in.Result.RootCause]
	out := make([]GuardOutcome, 0, len(rep.Guards))
	for _, g := range rep.Guards {
		base, _, _ := strings.Cut(g.Name, ":")
		o := GuardOutcome{Name: g.Name, StopStep: -1, Matches: slices.Contains(fix, base)}
		stops := append(append([]replay.Stop(nil), g.Suspicious.Stops...), g.Healthy.Stops...)
		for _, s := range g.Runaway.Stops {
			stops = append(stops, s.Stop)
		}
		for _, s := range stops {
			if s.RunID == in.Steps.ID() {
				o.Stopped, o.StopStep, o.Reason, o.Saved = true, s.StopStep, s.Reason, s.After
				break
			}
		}
		out = append(out, o)
	}
	return out
}

// chooseGuard picks the guard to recommend. Only guards that stop the run
// at or after the onset count: one that stops it earlier cuts the honest
// part of the run. Of those, in order of preference:
//  1. the guards that implement the fix for the run's root cause;
//  2. the guards that implement the fix for another finding's root cause
//     (a memory-contamination loop that repeats a call is stopped by a
//     dedup guard);
//  3. any guard.
//
// Within the first group that has one, the guard that stops the run first;
// on a tie, the one listed first in fixGuards (the closest to the fix),
// then replay order. A healthy run gets none.
func chooseGuard(outcomes []GuardOutcome, res *detect.RunResult) *GuardChoice {
	if res.Verdict == detect.Healthy || res.OnsetStep < 0 {
		return nil
	}
	pick := func(names []string) *GuardOutcome {
		var best *GuardOutcome
		bestRank := 0
		for k := range outcomes {
			o := &outcomes[k]
			if !o.Stopped || o.StopStep < res.OnsetStep {
				continue
			}
			rank := 0
			if names != nil {
				base, _, _ := strings.Cut(o.Name, ":")
				if rank = slices.Index(names, base); rank < 0 {
					continue
				}
			}
			if best == nil || o.StopStep < best.StopStep || (o.StopStep == best.StopStep && rank < bestRank) {
				best, bestRank = o, rank
			}
		}
		return best
	}
	choice := func(o *GuardOutcome, why string) *GuardChoice {
		return &GuardChoice{GuardOutcome: *o, Delay: o.StopStep - res.OnsetStep, Why: why}
	}
	cause := res.RootCause
	if names := fixGuards[cause]; names != nil {
		if o := pick(names); o != nil {
			return choice(o, fmt.Sprintf("of the replayed guards that implement the fix for %s (%s), the first to stop the run after the onset",
				cause, strings.Join(names, ", ")))
		}
	}
	lead := fmt.Sprintf("no replayed guard that implements the fix for %s stops the run after the onset", cause)
	if fixGuards[cause] == nil {
		lead = fmt.Sprintf("the fix for %s is not a guard the log can replay", cause)
	}
	for _, f := range res.Findings[min(1, len(res.Findings)):] {
		if names := fixGuards[f.RootCause]; f.RootCause != cause && names != nil {
			if o := pick(names); o != nil {
				return choice(o, fmt.Sprintf("%s; of the guards that implement the fix for %s (%s %s, also found), the first to stop it after the onset",
					lead, f.RootCause, f.Detector, f.Slug))
			}
		}
	}
	if o := pick(nil); o != nil {
		return choice(o, lead+"; this is the first replayed guard to stop it after the onset")
	}
	return nil
}
