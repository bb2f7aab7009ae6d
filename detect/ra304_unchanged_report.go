package detect

import (
	"fmt"
	"sort"

	"github.com/runawayhq/runaway/schema"
)

// UnchangedReport finds edits that do not change what the check reports:
// the agent edits, runs the same check, gets the same failure back word
// for word, edits again, and again. Re-running a check after an edit is an
// experiment; the same failing answer after every edit says the edits do
// not reach the code that runs (a copy of the package edited while another
// copy is imported, a patch script whose guard skips it every time).
var UnchangedReport = &Detector{
	ID:        "RA304",
	Slug:      "unchanged-report",
	Title:     "The same check reported the same failure after every edit",
	RootCause: CauseErrorStorm,
	Guard:     "after an edit, compare the check's answer with the one before it: the same failure twice after two edits goes to EVAL to ask whether the edits reach the code that runs",
	Params:    []string{"error_streak_suspicious", "error_streak_runaway", "window", "result_similarity"},
	run:       runUnchangedReport,
}

func runUnchangedReport(v *Run, a *analysis, p *Policy) *hit {
	if a.rowFlags&flagReports == 0 {
		return nil // no answer reports a failure
	}
	// last holds, per call identity, its last report: its call ordinal,
	// the edits made before it, and its open chain (an index into chains).
	type open struct{ ord, edits, chain int }
	last := map[uint64]open{}
	var chains []chain
	edits := 0 // edits that changed a file, among the calls so far
	for k, i := range a.calls {
		before := edits
		if codeEdit(v, i) {
			edits++
		}
		f := v.Flags[i]
		if f&flagResult == 0 {
			continue
		}
		id := v.sameCall(i)
		if f&flagError != 0 || f&flagReports == 0 {
			delete(last, id) // passed, or failed outright: the chain ends
			continue
		}
		if o, ok := last[id]; ok && k-o.ord <= p.Window && before > o.edits && v.sameAnswer(a.calls[o.ord], i, a.simBits) {
			c := &chains[o.chain]
			c.last, c.n = i, c.n+1
			last[id] = open{k, before, o.chain}
			continue
		}
		last[id] = open{k, before, len(chains)}
		chains = append(chains, chain{first: i, last: i, n: 1})
	}
	best := -1
	for c := range chains {
		if best < 0 || chains[c].n > chains[best].n {
			best = c
		}
	}
	if best < 0 {
		return nil
	}
	c := chains[best]
	sev := severityFor(int64(c.n), p.ErrorStreakSuspicious, p.ErrorStreakRunaway)
	if sev == Healthy {
		return nil
	}
	// The first return is the check's baseline; the loop begins with the
	// first edit after it that did not change what the check reports.
	onset := c.first
	for _, i := range a.calls[sort.SearchInts(a.calls, c.first)+1:] {
		if codeEdit(v, i) {
			onset = i
			break
		}
	}
	return &hit{
		Finding: Finding{
			Severity:  sev,
			Message:   fmt.Sprintf("the same check reported the same failure %d times, with edits between, steps %d-%d", c.n, v.Step[onset], v.Step[c.last]),
			OnsetStep: v.Step[onset],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[onset], v.Step[c.last]}},
				Counts: []Count{{"same_reports", int64(c.n)}},
			},
		},
		first: onset,
		last:  c.last,
	}
}

// codeEdit: call i is an edit that applied and changed a file, not one
// that wrote a file whole (a script written anew).
func codeEdit(v *Run, i int) bool {
	return v.Flags[i]&(flagError|flagCreate) == 0 && v.Intent[i] != 0 && v.Names.IntentName(v.Intent[i]) == schema.IntentEdit
}
