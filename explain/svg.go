package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// The SVG timeline of one run, as data for html.go's template: numbers
// and text only, so html/template escapes every string from the log where
// it lands (element text; no log text goes into an attribute).

const (
	svgLabelW    = 132 // lane labels on the left
	svgLaneH     = 16
	svgLaneGap   = 6
	svgAxisH     = 22
	svgMaxStepW  = 40
	svgMinStepW  = 4
	svgTargetW   = 960 // a run fits this width unless its steps are narrower than svgMinStepW
	maxToolLanes = 8   // more tools share the last lane
	maxFindLanes = 6
	svgGapW      = 170 // a gap of a long run (Run.Gaps), with its label
)

type svgTimeline struct {
	Width, Height int
	Lanes         []svgLabel
	Ticks         []svgLabel
	Loop          *svgBox
	Marks         []svgLine // onset and guard stop
	States        []svgBox
	Calls         []svgBox
	Errors        []svgBox // a triangle at X, Y
	Empties       []svgBox // a circle at X, Y
	MemWrites     []svgBox
	MemReads      []svgBox
	MemLinks      []svgPath
	Findings      []svgBox
	Gaps          []svgGap
}

// svgGap is a gap's box, across the lanes, and its label at TX, TY.
type svgGap struct {
	X, Y, W, H int
	TX, TY     int
	Title      string // ours: step numbers and a count
	Text       string
}

type svgLabel struct {
	X, Y int
	Text string
}

type svgBox struct {
	X, Y, W, H int
	Class      string // ours: a CSS class name
	Fill       string // ours: hsl(...) for calls
	Title      string // tooltip; may hold log text (escaped as text)
	Text       string // label drawn in the box
}

type svgLine struct {
	X, Y1, Y2 int
	Class     string
	Label     string // may hold a guard name (ours)
}

type svgPath struct {
	D     string // numbers and path commands only
	Class string
}

// timelineSVG lays out the run: one column per step shown (in order,
// whatever the step numbers), a wider one for each gap of a long run,
// lanes from top to bottom: state, one per tool, memory, findings.
func timelineSVG(run *Run) *svgTimeline {
	n := len(run.Steps)
	stepW := svgMaxStepW
	if n > 0 {
		stepW = max(svgMinStepW, min(svgMaxStepW, svgTargetW/n))
	}
	// cols[i] is the x of step i's column; a gap's column comes before the
	// step after it.
	cols := make([]int, n+1)
	var gapX []int
	for i, g, at := 0, 0, svgLabelW; i <= n; i++ {
		for ; g < len(run.Gaps) && run.Gaps[g].At == i; g++ {
			gapX = append(gapX, at)
			at += svgGapW
		}
		cols[i] = at
		at += stepW
	}
	x := func(i int) int { return cols[i] }
	// end is the x just past the column of step i.
	end := func(i int) int { return cols[i] + stepW }
	t := &svgTimeline{Width: svgLabelW + max(n, 1)*stepW + 16 + len(run.Gaps)*svgGapW}
	y := svgAxisH
	lane := func(label string) int {
		ly := y
		t.Lanes = append(t.Lanes, svgLabel{X: 4, Y: ly + svgLaneH - 4, Text: label})
		y += svgLaneH + svgLaneGap
		return ly
	}

	// Ticks: about every 80 px, on round step numbers' columns, from the
	// start and from each gap on.
	every := max(1, 80/stepW)
	for k, from := 0, 0; k <= len(run.Gaps); k++ {
		to := n
		if k < len(run.Gaps) {
			to = run.Gaps[k].At
		}
		for i := from; i < to; i += every {
			t.Ticks = append(t.Ticks, svgLabel{X: x(i), Y: 14, Text: strconv.FormatInt(run.Steps[i].Step, 10)})
		}
		from = to
	}

	stateY := lane("state")
	for i := range run.Steps {
		s := &run.Steps[i]
		t.States = append(t.States, svgBox{X: x(i), Y: stateY, W: max(stepW-1, 1), H: svgLaneH,
			Class: "st st-" + stateClass(s.State), Title: fmt.Sprintf("step %d: %s", s.Step, orDash(s.State))})
	}

	tools, toolLane := toolLanes(run)
	laneY := make([]int, len(tools))
	for k, name := range tools {
		laneY[k] = lane(name)
	}
	for i := range run.Steps {
		s := &run.Steps[i]
		if s.Tool == "" {
			continue
		}
		ly := laneY[toolLane[s.Tool]]
		title := fmt.Sprintf("step %d: %s %s -> %s", s.Step, s.Tool, s.Args, resultCell(s, Position{}, 1))
		t.Calls = append(t.Calls, svgBox{X: x(i), Y: ly + 2, W: max(stepW-1, 1), H: svgLaneH - 4, Class: "call", Fill: callColour(s.CallKey), Title: title})
		switch s.Result.Class {
		case Error:
			t.Errors = append(t.Errors, svgBox{X: x(i) + stepW/2, Y: ly, Title: fmt.Sprintf("step %d: %s", s.Step, resultCell(s, Position{}, 1))})
		case Empty:
			t.Empties = append(t.Empties, svgBox{X: x(i) + stepW/2, Y: ly + svgLaneH/2, Title: fmt.Sprintf("step %d: empty result", s.Step)})
		}
	}

	if hasMemory(run) {
		memY := lane("memory")
		mid := memY + svgLaneH/2
		lastWrite := map[string]int{}
		for i := range run.Steps {
			s := &run.Steps[i]
			cx := x(i) + stepW/2
			for _, id := range uniq(s.Retrieved) {
				cls := "mem-read"
				if run.Memory != nil && id == run.Memory.ID {
					cls += " contaminant"
				}
				t.MemReads = append(t.MemReads, svgBox{X: cx, Y: mid, Class: cls, Title: fmt.Sprintf("step %d reads %s", s.Step, id)})
				if w, ok := lastWrite[id]; ok {
					wx := x(w) + stepW/2
					link := "mem-link"
					if run.Memory != nil && id == run.Memory.ID {
						link += " contaminant-link"
					}
					t.MemLinks = append(t.MemLinks, svgPath{Class: link,
						D: fmt.Sprintf("M%d %d Q%d %d %d %d", wx, mid, (wx+cx)/2, memY-svgLaneGap-8, cx, mid)})
				}
			}
			for _, id := range uniq(s.Written) {
				cls := "mem-write"
				if run.Memory != nil && id == run.Memory.ID && s.Step == run.Memory.WrittenAt {
					cls += " contaminant"
				}
				t.MemWrites = append(t.MemWrites, svgBox{X: cx - 4, Y: mid - 4, W: 8, H: 8, Class: cls, Title: fmt.Sprintf("step %d writes %s", s.Step, id)})
				lastWrite[id] = i
			}
		}
	}

	index := stepIndex(run)
	for k, f := range run.Result.Findings {
		if k == maxFindLanes {
			break
		}
		fy := lane(f.Detector + " " + f.Slug)
		for _, r := range f.Evidence.Steps {
			from, to := index(r.From, false), index(r.To, true)
			if from < 0 || to < from {
				continue
			}
			t.Findings = append(t.Findings, svgBox{X: x(from), Y: fy + 3, W: end(to) - x(from) - 1, H: svgLaneH - 6,
				Class: "finding sev-" + f.Severity.String(), Title: f.Detector + ": " + f.Message})
		}
	}

	top, bottom := svgAxisH-4, y-svgLaneGap+4
	t.Height = bottom + 18
	if run.Loop != nil {
		from, to := index(run.Loop.From, false), index(run.Loop.To, true)
		if from >= 0 && to >= from {
			t.Loop = &svgBox{X: x(from), Y: top, W: end(to) - x(from), H: bottom - top, Class: "loop",
				Title: fmt.Sprintf("loop segment: steps %s (%s)", stepSpan(run.Loop.From, run.Loop.To), run.Loop.Detector)}
			t.Marks = append(t.Marks, svgLine{X: x(from), Y1: top, Y2: bottom + 12, Class: "onset", Label: "onset"})
		}
	}
	for k, g := range run.Gaps {
		t.Gaps = append(t.Gaps, svgGap{X: gapX[k] + 5, Y: top, W: svgGapW - 10, H: bottom - top,
			TX: gapX[k] + svgGapW/2, TY: (top + bottom) / 2,
			Title: fmt.Sprintf("steps %s: %s steps folded", stepSpan(g.From, g.To), report.FormatCount(int64(g.Steps))),
			Text:  "… " + report.FormatCount(int64(g.Steps)) + " steps folded …"})
	}
	if g := run.Guard; g != nil {
		if i := index(g.StopStep, false); i >= 0 {
			t.Marks = append(t.Marks, svgLine{X: x(i), Y1: top, Y2: bottom + 12, Class: "stop", Label: g.Name + " stops"})
		}
	}
	return t
}

// toolLanes gives each tool a lane in order of first call; past
// maxToolLanes, tools share the last one.
func toolLanes(run *Run) ([]string, map[string]int) {
	var names []string
	lane := map[string]int{}
	for i := range run.Steps {
		tool := run.Steps[i].Tool
		if tool == "" {
			continue
		}
		if _, ok := lane[tool]; ok {
			continue
		}
		if len(names) == maxToolLanes {
			names[maxToolLanes-1] = "other tools"
			lane[tool] = maxToolLanes - 1
			continue
		}
		lane[tool] = len(names)
		names = append(names, tool)
	}
	return names, lane
}

func hasMemory(run *Run) bool {
	for i := range run.Steps {
		if len(run.Steps[i].Retrieved) > 0 || len(run.Steps[i].Written) > 0 {
			return true
		}
	}
	return false
}

// stepIndex maps a step number to its column: the first column at or
// after it (from), or the last at or before it (to); -1 if none.
func stepIndex(run *Run) func(step int64, to bool) int {
	return func(step int64, to bool) int {
		if to {
			for i := len(run.Steps) - 1; i >= 0; i-- {
				if run.Steps[i].Step <= step {
					return i
				}
			}
			return -1
		}
		for i := range run.Steps {
			if run.Steps[i].Step >= step {
				return i
			}
		}
		return -1
	}
}

// stateClass names a state's CSS class: the five states, other, none.
func stateClass(state string) string {
	if state == "" {
		return "none"
	}
	return strings.ToLower(schema.StateCode(state).String())
}

// callColour gives each call key its own colour, the same in every report.
// Hues stay off red (0-50, 310-360): red means errors and the loop.
func callColour(key uint64) string {
	h := (key * 0x9E3779B97F4A7C15) >> 32
	return fmt.Sprintf("hsl(%d,62%%,%d%%)", 50+h%260, 40+int(h>>9%16))
}
