package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// Gemini is Gemini CLI's tool-call loop check (LoopDetectionService,
// TOOL_CALL_LOOP_THRESHOLD = 5): each tool-call request is keyed by name and
// JSON.stringify(args); the same key as the previous request adds one to a
// count, another key restarts it at 1; at 5 the request is refused and the
// turn ends. Model text between calls does not reset the count. Gemini CLI
// does not sort args keys; the replay keys calls canonically. Its content
// loop and LLM-based checks need text the log does not carry.
var Gemini = &Spec{
	Name:   "gemini",
	Source: "Gemini CLI LoopDetectionService: TOOL_CALL_LOOP_THRESHOLD = 5",
	Rule:   "refuse the n-th identical tool call in a row",
	Params: []Param{{Name: "n", Default: 5, Min: 2, Help: "identical calls in a row that are refused"}},
	new:    func(p []int) stepper { return &consecutive{n: p[0], what: "loop detected"} },
}

// CrewAI is CrewAI's repeated-usage check (ToolUsage
// _check_tool_repeated_usage): a call with the same tool name and arguments
// as the last tool used is not run, and the agent is told "I tried reusing
// the same input, I must stop using this action input". So the 2nd identical
// call in a row is blocked, a poll included. The replay counts the block as
// where the run stops.
var CrewAI = &Spec{
	Name:   "crewai",
	Source: "CrewAI ToolUsage._check_tool_repeated_usage (same tool and args as the last tool used)",
	Rule:   "block a call identical to the previous call",
	new:    func([]int) stepper { return &consecutive{n: 2, what: "reusing the same input"} },
}

// consecutive stops the n-th identical call in a row; steps without a call
// are not calls and do not break the row.
type consecutive struct {
	n     int
	what  string
	last  uint64
	count int
	first int64
}

func (g *consecutive) Reset() { g.last, g.count = 0, 0 }

func (g *consecutive) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	k := r.CallKey(i)
	if g.count > 0 && k == g.last {
		g.count++
	} else {
		g.last, g.count, g.first = k, 1, r.Step(i)
	}
	if g.count < g.n {
		return false, ""
	}
	return true, fmt.Sprintf("%s: %s, %s identical call in a row (from step %d)", g.what, callText(r, i), ordinal(g.count), g.first)
}
