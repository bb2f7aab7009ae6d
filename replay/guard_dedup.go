package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// Dedup is guide A's duplicate-call block: a set of the calls made so far
// (seenCalls); a call already in it ends the run
// ("duplicateToolCallBlocked"), however long ago it was made.
//
// Guide A keys calls with stableStringify, JSON.stringify(args,
// Object.keys(args).sort()), which keeps only top-level key names at every
// depth: calls that differ only in nested args collide and the second is
// blocked. The log carries args hashes, not args, so the replay keys calls
// canonically (RunSteps.CallKey); the guide's guard blocks at least as often.
var Dedup = &Spec{
	Name:   "dedup",
	Source: "guide A runAgentLoop: seenCalls set, duplicateToolCallBlocked",
	Rule:   "block a call (same tool, same normalized args) made before in the run",
	new:    func([]int) stepper { return &dedup{seen: map[uint64]int64{}} },
}

type dedup struct {
	seen map[uint64]int64 // call key -> step of its first call
}

func (g *dedup) Reset() { clear(g.seen) }

func (g *dedup) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	k := r.CallKey(i)
	if first, ok := g.seen[k]; ok {
		return true, fmt.Sprintf("duplicate call %s (first made at step %d)", callText(r, i), first)
	}
	g.seen[k] = r.Step(i)
	return false, ""
}
