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
	Guard:     "a state machine whose EVAL owns termination and always reaches STOP, with a hard step cap that ends in STOP too",
	Reads:     []string{"ended_with_stop", "progress_events"},
	Params:    []string{"no_terminal_tail"},
	run:       runNoTerminalState,
}

func runNoTerminalState(v *Run, a *analysis, p *Policy) *hit {
	if v.Len() == 0 || a.ind.EndedWithStop {
		return nil
	}
	tail := 0
	for i := v.Len() - 1; i >= 0 && !a.progress[i]; i-- {
		tail++
	}
	if tail < p.NoTerminalTail {
		return nil
	}
	last := v.Len() - 1
	first := v.Len() - tail
	return &hit{
		Finding: Finding{
			Severity:  Suspicious,
			Message:   fmt.Sprintf("ended without STOP at step %d (%s), after %d steps without progress", v.Step[last], describeEnd(v, last), tail),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Counts: []Count{{"last_step", v.Step[last]}, {"steps_without_progress_at_end", int64(tail)}},
			},
		},
		first: first,
		last:  last,
	}
}

// describeEnd says how a run ended: its last state and what its last call got.
func describeEnd(v *Run, last int) string {
	var parts []string
	if s := v.State[last]; s != schema.StateNone {
		parts = append(parts, "in "+s.String())
	}
	switch f := v.Flags[last]; {
	case f&flagError != 0:
		parts = append(parts, "last call "+v.Names.ToolName(v.Tool[last])+" failed with "+v.Names.ErrTypeName(v.ErrType[last]))
	case f&flagEmpty != 0:
		parts = append(parts, "last call "+v.Names.ToolName(v.Tool[last])+" came back empty")
	case f&flagCall != 0 && f&flagResult == 0:
		parts = append(parts, "last call "+v.Names.ToolName(v.Tool[last])+" has no result: killed mid-call or truncated")
	case f&flagCall != 0:
		parts = append(parts, "last call "+v.Names.ToolName(v.Tool[last]))
	}
	if len(parts) == 0 {
		return "no state logged"
	}
	return strings.Join(parts, ", ")
}
