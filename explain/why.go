package explain

import (
	"fmt"
	"slices"
	"strings"
)

// Why a result is what it is: a tool may give a reason with its result
// (tool_result.reason), and the adapters give one when they read a
// result from the run's context rather than from what the tool said (a
// blank answer from a command that always prints, a replacement the next
// one found undone, the agent's next words). A person checking a verdict
// wants those reasons next to the steps that carry them.

// WhyGroup is one reason given for results: the result's label, the
// reason, and the steps shown in the timeline that carry both.
type WhyGroup struct {
	Result string
	Why    string
	Steps  []int64
	InLoop bool // one of its steps is in the loop segment
}

// maxWhyGroups bounds the reasons listed, maxWhySteps the steps listed
// for one reason.
const (
	maxWhyGroups = 12
	maxWhySteps  = 8
)

// whys groups the reasons of the shown steps' results: those with a step
// in the loop segment first, then in the order of their first step. It
// returns at most maxWhyGroups of them and how many were left out.
func (run *Run) whys() (groups []WhyGroup, more int) {
	at := map[[2]string]int{}
	for k := range run.Steps {
		s := &run.Steps[k]
		if s.Why == "" {
			continue
		}
		key := [2]string{resultLabel(s.Result), s.Why}
		i, ok := at[key]
		if !ok {
			i = len(groups)
			at[key] = i
			groups = append(groups, WhyGroup{Result: key[0], Why: key[1]})
		}
		groups[i].Steps = append(groups[i].Steps, s.Step)
		groups[i].InLoop = groups[i].InLoop || s.InLoop
	}
	slices.SortStableFunc(groups, func(x, y WhyGroup) int {
		if x.InLoop != y.InLoop {
			return boolOrder(y.InLoop) - boolOrder(x.InLoop)
		}
		return int(x.Steps[0] - y.Steps[0])
	})
	if len(groups) > maxWhyGroups {
		more = len(groups) - maxWhyGroups
		groups = groups[:maxWhyGroups]
	}
	return groups, more
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// whySteps lists a reason's steps, the first maxWhySteps of them.
func whySteps(steps []int64) string {
	var b strings.Builder
	for k, s := range steps {
		if k == maxWhySteps {
			fmt.Fprintf(&b, " and %d more", len(steps)-k)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", s)
	}
	return b.String()
}

// whyTitle introduces the reasons in every rendering.
const whyTitle = "Results explained (the reason a step's result carries: the tool's own, or how runaway read the result from the run)"
