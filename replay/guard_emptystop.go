package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// EmptyStop is guide A's empty-result stop: count empty results per intent
// (emptyHitsByIntent) and, at the 2nd for one intent, end the run and answer
// with assumptions and questions ("emptyResultTwice"). The guide's
// isEmptyResult counts only successful calls (ok) whose data is null, [] or
// blank; the replay counts RunSteps.IsEmpty on calls that did not fail. The
// intent is the step's logged intent, else the tool's name. The check runs
// after the result, so the run stops at the next step.
var EmptyStop = &Spec{
	Name:   "empty-stop",
	Source: "guide A LIMITS.maxEmptySameIntent = 2 (emptyResultTwice)",
	Rule:   "end the run after n empty results for one intent",
	Params: []Param{{Name: "n", Default: 2, Min: 1, Help: "empty results per intent that end the run"}},
	new:    func(p []int) stepper { return &emptyStop{n: p[0], hits: map[string]int{}} },
}

type emptyStop struct {
	n       int
	hits    map[string]int
	pending string
}

func (g *emptyStop) Reset() { clear(g.hits); g.pending = "" }

func (g *emptyStop) Step(r detect.RunSteps, i int) (bool, string) {
	if g.pending != "" {
		return true, g.pending
	}
	if !r.HasCall(i) || !r.IsEmpty(i) || r.IsError(i) {
		return false, ""
	}
	intent, what := r.Intent(i), "intent"
	if intent == "" {
		intent, what = r.Tool(i), "tool"
	}
	g.hits[intent]++
	if g.hits[intent] >= g.n {
		g.pending = fmt.Sprintf("%d empty results for %s %q (last at step %d)", g.hits[intent], what, intent, r.Step(i))
	}
	return false, ""
}
