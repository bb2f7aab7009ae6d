package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// ToolLoopBreaker is guide D's LangChain callback: handleToolStart pushes
// `${tool.name}:${input}` onto a window of the last 10 calls and throws when
// the last `limit` entries are all the same. Only calls in a row count, so
// an A B A B loop never trips it (docs/design.md lists the defect); and
// the window only ever holds 10 entries, so a limit above the window never
// fires. The seed keys on the raw input string, in which key order counts;
// the replay keys calls canonically.
var ToolLoopBreaker = &Spec{
	Name:   "toolloopbreaker",
	Source: "guide D ToolLoopBreaker(limit = 3), window of 10 calls",
	Rule:   "throw at the limit-th identical call in a row",
	Params: []Param{
		{Name: "limit", Default: 3, Min: 2, Help: "identical calls in a row that throw"},
		{Name: "window", Default: 10, Min: 1, Help: "calls remembered"},
	},
	new: func(p []int) stepper { return &toolLoopBreaker{limit: p[0], window: p[1]} },
}

type toolLoopBreaker struct {
	limit, window int
	recent        []uint64
	steps         []int64
}

func (g *toolLoopBreaker) Reset() { g.recent, g.steps = g.recent[:0], g.steps[:0] }

func (g *toolLoopBreaker) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	g.recent = append(g.recent, r.CallKey(i))
	g.steps = append(g.steps, r.Step(i))
	if len(g.recent) > g.window {
		g.recent, g.steps = g.recent[1:], g.steps[1:]
	}
	n := len(g.recent)
	if n < g.limit {
		return false, ""
	}
	for _, k := range g.recent[n-g.limit:] {
		if k != g.recent[n-1] {
			return false, ""
		}
	}
	return true, fmt.Sprintf("tool loop detected: %s with the same input %d times in a row (steps %d-%d)",
		callText(r, i), g.limit, g.steps[n-g.limit], g.steps[n-1])
}
