package detect

import (
	"fmt"

	"github.com/runawayhq/runaway/schema"
)

// EditsWithoutEffect finds a check that answers the same after edit upon
// edit: the agent changes the code, re-runs its reproduction script, gets
// the same output, changes the code again, and so on. Re-running a check
// after a change is an experiment (RA101 does not count it); when edit
// after edit leaves its answer as it was, the edits are not reaching the
// code that runs (the agent edits a copy of the package that is not the
// one imported) or go round in circles, and the agent is stuck.
var EditsWithoutEffect = &Detector{
	ID:        "RA106",
	Slug:      "edits-without-effect",
	Title:     "Same check, same answer, after edit upon edit",
	RootCause: CauseToolRetryLoop,
	Guard:     "after 4 edits that each left a re-run check's answer as it was, stop editing and verify which code the check runs",
	Reads:     []string{"tool_calls"},
	Params:    []string{"window", "unchanged_check_suspicious", "unchanged_check_runaway"},
	run:       runEditsWithoutEffect,
}

// checkChain is one check's calls in order, each answered as the one
// before it, and how many of the gaps between them held a new edit that
// worked.
type checkChain struct {
	idx     []int
	lastOrd int // call ordinal of the last call
	edited  int
	errors  int
}

func runEditsWithoutEffect(v *Run, a *analysis, p *Policy) *hit {
	if !a.anyEdit {
		return nil
	}
	best := uncheckedEdits(v, a, p)
	if best == nil || best.edited < p.UnchangedCheckSuspicious {
		return nil
	}
	first, last := best.idx[0], best.idx[len(best.idx)-1]
	n := int64(best.edited)
	return &hit{
		Finding: Finding{
			Severity: severityFor(n, p.UnchangedCheckSuspicious, p.UnchangedCheckRunaway),
			Message: fmt.Sprintf("%s answered the same after each of %d edits (%d runs), steps %d-%d",
				v.Names.ToolName(v.Tool[first]), n, len(best.idx), v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{v.callText(first)},
				Counts: []Count{{"edits_without_effect", n}, {"checks", int64(len(best.idx))}, {"errors", int64(best.errors)}},
			},
		},
		first:      first,
		last:       last,
		errorShare: float64(best.errors) / float64(len(best.idx)),
	}
}

// uncheckedEdits follows every check, a call that is no edit, that ran (a
// malformed turn or a call the harness refused ran nothing) and whose
// output was logged (without it there is no answer to compare), by its
// call identity (Run.sameCall): its next call at most Window calls later
// with the same answer (answers.go) extends its chain, counting the gap as
// edited when a new edit that worked lies in it; another answer, or a
// longer gap, starts a new chain. It returns the chain with the most
// edited gaps, the first of equal ones.
func uncheckedEdits(v *Run, a *analysis, p *Policy) *checkChain {
	open := map[uint64]*checkChain{}
	var best *checkChain
	consider := func(c *checkChain) {
		if best == nil || c.edited > best.edited || (c.edited == best.edited && c.idx[0] < best.idx[0]) {
			best = c
		}
	}
	for ord, i := range a.calls {
		if v.Flags[i]&flagPayload == 0 || notRun(v, i) || v.Names.IntentName(v.Intent[i]) == schema.IntentEdit {
			continue
		}
		k := v.sameCall(i)
		c := open[k]
		if c != nil {
			j := c.idx[len(c.idx)-1]
			switch {
			case ord-c.lastOrd > p.Window || !v.sameAnswer(j, i, a.simBits):
				consider(c)
				c = nil
			case editedBetween(a, j, i):
				c.edited++
			}
		}
		if c == nil {
			c = &checkChain{}
			open[k] = c
		}
		c.idx = append(c.idx, i)
		c.lastOrd = ord
		if v.Flags[i]&flagError != 0 {
			c.errors++
		}
	}
	for _, c := range open {
		consider(c)
	}
	return best
}

// editedBetween reports whether a new edit that worked (editPass) lies
// strictly between steps j and i.
func editedBetween(a *analysis, j, i int) bool {
	for k := j + 1; k < i; k++ {
		if a.newEdit[k] {
			return true
		}
	}
	return false
}

// notRun reports whether call i failed before anything ran: a malformed
// turn (schema.ErrFormatError) or a call the harness refused
// (schema.ErrInvalidCall).
func notRun(v *Run, i int) bool {
	if v.Flags[i]&flagError == 0 {
		return false
	}
	t := v.Names.ErrTypeName(v.ErrType[i])
	return t == schema.ErrFormatError || t == schema.ErrInvalidCall
}
