package detect

import (
	"fmt"
	"io"
)

// Guide is one of the practitioner guides on stopping agent loops that the
// thresholds' and guards' sources cite by letter ("guide B: circuit
// breaker opens after 3 consecutive failures").
type Guide struct {
	Letter string
	Title  string
}

// Guides are the guides the sources cite; docs/design.md ("Where the
// patterns and the numbers come from") says what each holds.
var Guides = []Guide{
	{"A", "prompt limits for a ReAct agent (6 tool calls, 10 steps, 2 empty results per intent)"},
	{"B", "diagnosing runaway AutoGPT-style agents (step log, PLAN/ACT states, retry policy, circuit breaker)"},
	{"C", "a LangChain loop-blocking guide (6 iterations, a loop guard by call fingerprint)"},
	{"D", "seven gatekeepers for LangChain tool loops (3 identical calls in a row, retryable=false)"},
	{"E", "blocking and verifying tool-calling loops (hard limits, windowed de-duplication)"},
}

// WriteGuideLegend writes what the letters in sources stand for, for a
// listing that cites them.
func WriteGuideLegend(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "\nGuides cited in the sources (summarised in docs/design.md):"); err != nil {
		return err
	}
	for _, g := range Guides {
		if _, err := fmt.Fprintf(w, "  guide %s: %s\n", g.Letter, g.Title); err != nil {
			return err
		}
	}
	return nil
}
