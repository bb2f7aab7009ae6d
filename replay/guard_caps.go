package replay

import (
	"fmt"

	"github.com/runawayhq/runaway/detect"
)

// MaxSteps is the guides' hard step limit: guide A's "Max reasoning steps:
// 10", guide C's maxIterations and guide E's maxSteps. It stops the run
// at the step past the limit. (Guide A's code checks step >= maxSteps right
// after incrementing, so it lets only 9 of its 10 steps run: maxsteps:n=9
// replays that code to the letter.)
var MaxSteps = &Spec{
	Name:   "maxsteps",
	Source: "guide A LIMITS.maxSteps = 10 (guide C maxIterations, guide E maxSteps)",
	Rule:   "stop the run at step n+1",
	Params: []Param{{Name: "n", Default: 10, Min: 1, Help: "steps allowed per run"}},
	new:    func(p []int) stepper { return &stepCap{n: p[0]} },
}

// MaxTurns is a framework's plain turn cap, one model turn per logged step:
// OpenAI Agents SDK max_turns = 10, LangChain AgentExecutor max_iterations
// = 15, LangGraph recursion_limit = 25. The default replay runs all three.
var MaxTurns = &Spec{
	Name:       "maxturns",
	Source:     "max-turn caps: OpenAI Agents SDK max_turns 10, LangChain max_iterations 15, LangGraph recursion_limit 25",
	Rule:       "stop the run at turn n+1",
	Params:     []Param{{Name: "n", Default: 25, Min: 1, Help: "turns (steps) allowed per run"}},
	Variants:   [][]int{{10}, {15}, {25}},
	ShowParams: true,
	new:        func(p []int) stepper { return &stepCap{n: p[0]} },
}

// stepCap stops the (n+1)-th step.
type stepCap struct{ n int }

func (g *stepCap) Reset() {}

func (g *stepCap) Step(r detect.RunSteps, i int) (bool, string) {
	if i < g.n {
		return false, ""
	}
	return true, fmt.Sprintf("%s step (max %d)", ordinal(i+1), g.n)
}

// MaxCalls is the guides' tool-call budget: guide A's "Max tool calls: 6"
// (LIMITS.maxToolCalls), guide E's runWithGuards (throw when steps >
// maxSteps, counted per tool call). It blocks the call past the limit.
// Guide A checks the count at the top of its loop, so it ends the run at
// the step after the 6th call even when that step would not call a tool;
// the replay blocks the 7th call, as guide E does.
var MaxCalls = &Spec{
	Name:   "maxcalls",
	Source: "guide A LIMITS.maxToolCalls = 6 (guide E runWithGuards onToolCall)",
	Rule:   "block tool call n+1",
	Params: []Param{{Name: "n", Default: 6, Min: 1, Help: "tool calls allowed per run"}},
	new:    func(p []int) stepper { return &callCap{n: p[0]} },
}

type callCap struct{ n, calls int }

func (g *callCap) Reset() { g.calls = 0 }

func (g *callCap) Step(r detect.RunSteps, i int) (bool, string) {
	if !r.HasCall(i) {
		return false, ""
	}
	g.calls++
	if g.calls <= g.n {
		return false, ""
	}
	return true, fmt.Sprintf("%s tool call (max %d)", ordinal(g.calls), g.n)
}
