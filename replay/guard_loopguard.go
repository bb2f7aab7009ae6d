package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// LoopGuard is guide C's LoopGuard: a count per call fingerprint over the
// whole run; check() throws when the run's total exceeds maxTotalCalls, or a
// fingerprint's count exceeds maxSameCall. Nothing is ever forgotten, so a
// long paginated listing (every page a new call) trips the total, and a page
// fetched again late in a run trips the repeat: docs/design.md lists it.
// The guide's runWithGuards builds LoopGuard(2, 8); the class defaults are
// (2, 10). Its fingerprint hashes stableStringify(args), with guide A's
// nested-key defect; the replay keys calls canonically.
var LoopGuard = &Spec{
	Name:   "loopguard",
	Source: "guide C LoopGuard(maxSameCall = 2, maxTotalCalls = 10)",
	Rule:   "throw when a call's count in the run > max_same_call, or the run's calls > max_total_calls",
	Params: []Param{
		{Name: "max_same_call", Default: 2, Min: 1, Help: "identical calls allowed per run"},
		{Name: "max_total_calls", Default: 10, Min: 1, Help: "tool calls allowed per run; runWithGuards uses 8"},
	},
	new: func(p []int) stepper { return &loopGuard{maxSame: p[0], maxTotal: p[1], seen: map[uint64]int{}} },
}

type loopGuard struct {
	maxSame, maxTotal int
	seen              map[uint64]int
	total             int
}

func (g *loopGuard) Reset() { clear(g.seen); g.total = 0 }

func (g *loopGuard) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	k := r.CallKey(i)
	g.seen[k]++
	g.total++
	// The seed checks the total first.
	if g.total > g.maxTotal {
		return true, fmt.Sprintf("too many tool calls: %s call (max %d per run)", ordinal(g.total), g.maxTotal)
	}
	if n := g.seen[k]; n > g.maxSame {
		return true, fmt.Sprintf("repeated identical tool call: %s %s in the run (max %d)", ordinal(n), callText(r, i), g.maxSame)
	}
	return false, ""
}
