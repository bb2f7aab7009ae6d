package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// Breaker is a circuit breaker on tool failures. Guide B opens a
// tool's breaker after 3 consecutive failures of that tool, keeps it open
// 60 s and lets one half-open probe through; guide C's
// ErrorCircuitBreaker(2) throws at the 2nd consecutive failure of any tool
// (breaker:threshold=2,per_tool=0). The replay has no time model: it ends
// the run when the breaker opens, as guide C's throw does, so the first
// step saved is the one after the failure that opened it. A success resets
// the count; steps without a result neither reset nor count.
var Breaker = &Spec{
	Name:   "breaker",
	Source: "guide B circuit breaker (open after 3 consecutive failures); guide C ErrorCircuitBreaker(threshold = 2)",
	Rule:   "end the run after threshold consecutive failures (of one tool with per_tool=1, of any tool with 0)",
	Params: []Param{
		{Name: "threshold", Default: 3, Min: 1, Help: "consecutive failures that open the breaker"},
		{Name: "per_tool", Default: 1, Min: 0, Help: "1: one breaker per tool (guide B); 0: one for the run (guide C)"},
	},
	new: func(p []int) stepper {
		return &breaker{threshold: p[0], perTool: p[1] != 0, fails: map[string]int{}, first: map[string]int64{}}
	},
}

type breaker struct {
	threshold int
	perTool   bool
	fails     map[string]int   // consecutive failures by tool ("" for the run)
	first     map[string]int64 // step of the first of them
	open      string           // the reason, once open: the next step is stopped
}

func (g *breaker) Reset() { clear(g.fails); clear(g.first); g.open = "" }

func (g *breaker) Step(r detect.RunSteps, i int) (bool, string) {
	if g.open != "" {
		return true, g.open
	}
	if !r.HasCall(i) || !r.HasResult(i) {
		return false, ""
	}
	key := ""
	if g.perTool {
		key = r.Tool(i)
	}
	if !r.IsError(i) {
		g.fails[key] = 0
		return false, ""
	}
	if g.fails[key] == 0 {
		g.first[key] = r.Step(i)
	}
	g.fails[key]++
	if g.fails[key] >= g.threshold {
		what := "tool calls"
		if g.perTool {
			what = r.Tool(i)
		}
		g.open = fmt.Sprintf("breaker open: %d consecutive failures of %s (steps %d-%d, last %s)",
			g.fails[key], what, g.first[key], r.Step(i), r.ErrorType(i))
	}
	return false, ""
}
