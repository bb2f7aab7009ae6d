package detect

import (
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// NoTerminalState finds runs that end without STOP while going nowhere: the
// agent never decided to stop and something outside killed it, or the log
// was cut while it looped. A run cut off while still making progress is not
// reported (a nightly log cut catches runs mid-flight).
var NoTerminalState = &Detector{
	ID:        "RA203",
	Slug:      "no-terminal-state",
	Title:     "Run ended without STOP after steps without progress",
	RootCause: CauseReplanLoop,
	Symptom:   true,
	Guard:     "a state machine whose EVAL owns termination and always reaches STOP, with a hard step cap that ends in STOP too (guide B)",
	Reads:     []string{"ended_with_stop", "progress_events"},
	Params:    []string{"no_terminal_tail"},
	run:       runNoTerminalState,
}

func runNoTerminalState(v *runView, a *analysis, p *Policy) *hit {
	if v.n == 0 || a.ind.EndedWithStop {
		return nil
	}
	tail := 0
	for i := v.n - 1; i >= 0 && !a.progress[i]; i-- {
		tail++
	}
	if tail < p.NoTerminalTail {
		return nil
	}
	last := v.n - 1
	first := v.n - tail
	return &hit{
		Finding: Finding{
			Severity:  Suspicious,
			Message:   fmt.Sprintf("ended without STOP at step %d (%s), after %d steps without progress", v.step[last], describeEnd(v, last), tail),
			OnsetStep: v.step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.step[first], v.step[last]}},
				Counts: []Count{{"last_step", v.step[last]}, {"steps_without_progress_at_end", int64(tail)}},
			},
		},
		first: first,
		last:  last,
	}
}

// describeEnd says how a run ended: its last state and what its last call got.
func describeEnd(v *runView, last int) string {
	var parts []string
	if s := v.state[last]; s != schema.StateNone {
		parts = append(parts, "in "+s.String())
	}
	switch f := v.flags[last]; {
	case f&flagError != 0:
		parts = append(parts, "last call "+v.names.toolName(v.tool[last])+" failed with "+v.names.errTypeName(v.err[last]))
	case f&flagEmpty != 0:
		parts = append(parts, "last call "+v.names.toolName(v.tool[last])+" came back empty")
	case f&flagCall != 0 && f&flagResult == 0:
		parts = append(parts, "last call "+v.names.toolName(v.tool[last])+" has no result: killed mid-call or truncated")
	case f&flagCall != 0:
		parts = append(parts, "last call "+v.names.toolName(v.tool[last]))
	}
	if len(parts) == 0 {
		return "no state logged"
	}
	return strings.Join(parts, ", ")
}
