package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// ToolCallGuard is guide B's guard (4-1): canCall counts the call's key
// among the last `size` allowed calls and refuses it (REPEATED_SAME_ARGS)
// when it is there maxRepeat times or more, so the 3rd identical call within
// 20 is blocked; refused calls are not remembered. The seed moves the agent
// to RECOVER; the replay cannot know what the agent would have done instead,
// so the block is where the run stops. The guide's hashArgs does not sort
// keys (the same call can hash differently); the replay keys calls
// canonically.
var ToolCallGuard = &Spec{
	Name:   "toolcallguard",
	Source: "guide B ToolCallGuard(size = 20, maxRepeat = 2)",
	Rule:   "block a call already made max_repeat times among the last size calls",
	Params: []Param{
		{Name: "size", Default: 20, Min: 1, Help: "calls remembered"},
		{Name: "max_repeat", Default: 2, Min: 1, Help: "earlier identical calls in the window that block"},
	},
	new: func(p []int) stepper { return &toolCallGuard{size: p[0], maxRepeat: p[1]} },
}

type toolCallGuard struct {
	size, maxRepeat int
	window          []uint64
}

func (g *toolCallGuard) Reset() { g.window = g.window[:0] }

func (g *toolCallGuard) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	k := r.CallKey(i)
	repeats := 0
	for _, w := range g.window {
		if w == k {
			repeats++
		}
	}
	if repeats >= g.maxRepeat {
		return true, fmt.Sprintf("REPEATED_SAME_ARGS: %s made %d times in the last %d calls", callText(r, i), repeats, len(g.window))
	}
	g.window = append(g.window, k)
	if len(g.window) > g.size {
		g.window = g.window[1:]
	}
	return false, ""
}
