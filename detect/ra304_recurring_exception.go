package detect

import "fmt"

// RecurringException finds the same exception coming back again and again
// across the agent's changes: a check that fails with one exception, the
// same message at the same place, after edit after edit, new script after
// new script. Each try alone is an experiment (the rubric's re-run after a
// change); the same answer five times says the changes do not reach what
// raises it: a Django script that sets SECRET_KEY where settings are never
// read, a model class declared in __main__ in every new script. The
// failures need not be in a row, nor be one call: what comes back is the
// answer, compared exactly (a traceback by its failure site,
// schema.AppendFailureSite): "No module named 'yaml'" is not "... 'six'".
// A package installed that was not before ends the count, as it ends an
// error storm: it changed the environment the check runs in.
var RecurringException = &Detector{
	ID:        "RA304",
	Slug:      "recurring-exception",
	Title:     "The same exception came back again and again across the agent's changes",
	RootCause: CauseErrorStorm,
	Guard:     "count exceptions by their answer: the same one the fourth time goes to RECOVER with the count and the first occurrence, not back into the edit loop",
	Reads:     []string{"tool_errors"},
	Params:    []string{"window", "recurring_exception_suspicious", "recurring_exception_runaway"},
	run:       runRecurringException,
}

func runRecurringException(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.ToolErrors < int64(p.RecurringExceptionSuspicious) {
		return nil
	}
	var best, chain []int
	in := a.inRecurring[:0]
	in = resize(in, v.Len())
	clear(in)
	for x, i := range a.calls {
		if !raisedException(v, i) || in[i] {
			continue
		}
		chain = append(chain[:0], i)
		last := x
		for y := x + 1; y < len(a.calls) && y-last <= p.Window; y++ {
			j := a.calls[y]
			if a.newInstall[j] {
				break // the environment changed: what fails next is another experiment
			}
			if raisedException(v, j) && v.Tool[j] == v.Tool[i] && v.ErrType[j] == v.ErrType[i] && v.Result[j] == v.Result[i] {
				chain = append(chain, j)
				in[j] = true
				last = y
			}
		}
		if len(chain) > len(best) {
			best = append(best[:0], chain...)
		}
	}
	a.inRecurring = in
	n := int64(len(best))
	if n < int64(p.RecurringExceptionSuspicious) {
		return nil
	}
	first, last := best[0], best[len(best)-1]
	return &hit{
		Finding: Finding{
			Severity:  severityFor(n, p.RecurringExceptionSuspicious, p.RecurringExceptionRunaway),
			Message:   fmt.Sprintf("the same %s %d times, steps %d-%d", v.Names.ErrTypeName(v.ErrType[first]), n, v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: []Count{{"same_exception", n}},
			},
		},
		first:      first,
		last:       last,
		errorShare: 1,
	}
}

// raisedException reports whether call i failed with an exception: a
// language's exception class as an adapter names it from a traceback, or
// the generic EXCEPTION.
func raisedException(v *Run, i int) bool {
	if v.Flags[i]&(flagResult|flagError) != flagResult|flagError {
		return false
	}
	t := v.Names.ErrTypeName(v.ErrType[i])
	return t == "EXCEPTION" || exceptionClass(t)
}
