package explain

import (
	"slices"
	"sort"

	"github.com/runawayhq/runaway/detect"
)

// A long run is not shown whole: its timeline (table and drawing) would be
// as long as the run, and its model as large. Past MaxShownSteps steps,
// explain shows the steps a reader needs, at most about that many: the
// start, the steps around the onset (more after it than before), around
// the recommended guard's stop and the contaminating write, and the end;
// each stretch between them is a gap that says how many steps it folds.
// A drawing then stays a few hundred KB, a table a few thousand lines,
// whatever the run's length. docs/explain.md, "Long runs".
const (
	// MaxShownSteps is the most steps of a run shown whole.
	MaxShownSteps = 2000
	shownEnds     = 300 // at the start, and at the end
	shownBefore   = 300 // before the onset
	shownAfter    = 700 // from the onset on
	shownAround   = 100 // each side of the guard's stop
	shownWrite    = 50  // each side of the contaminating write
	// minGap: two windows closer than this are one; a gap of a few steps
	// would hide little and cost a row.
	minGap = 20
)

// shownRanges are the ranges [from, to) of the indices of a run's n steps
// that are shown, in order: [0, n) for a run of at most MaxShownSteps;
// anchors are the indices whose neighbourhood is shown (onset, guard stop,
// write; -1 for none), each with its width before and after.
func shownRanges(n int, anchors ...[3]int) [][2]int {
	if n <= MaxShownSteps {
		return [][2]int{{0, n}}
	}
	ranges := [][2]int{{0, shownEnds}, {n - shownEnds, n}}
	for _, a := range anchors {
		if a[0] >= 0 {
			ranges = append(ranges, [2]int{max(a[0]-a[1], 0), min(a[0]+a[2], n)})
		}
	}
	slices.SortFunc(ranges, func(a, b [2]int) int { return a[0] - b[0] })
	out := ranges[:1]
	for _, r := range ranges[1:] {
		last := &out[len(out)-1]
		if r[0] < last[1]+minGap {
			last[1] = max(last[1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// anchors are the steps (indices in r) whose neighbourhood a long run
// shows: its onset, the stop of the recommended guard, the write that
// contaminated its memory; -1 for those it has not.
func anchors(r detect.RunSteps, res *detect.RunResult, guard *GuardChoice) [][3]int {
	// The first index whose step is at or after step: the steps are in
	// order.
	index := func(step int64) int {
		if step < 0 {
			return -1
		}
		if i := sort.Search(r.Len(), func(i int) bool { return r.Step(i) >= step }); i < r.Len() {
			return i
		}
		return -1
	}
	out := [][3]int{{index(res.OnsetStep), shownBefore, shownAfter}}
	if guard != nil {
		out = append(out, [3]int{index(guard.StopStep), shownAround, shownAround + 1})
	}
	if w := contaminatingWrite(res); w >= 0 {
		out = append(out, [3]int{index(w), shownWrite, shownWrite + 1})
	}
	return out
}

// contaminatingWrite is the step RA501 found the contaminating memory
// written at, or -1.
func contaminatingWrite(res *detect.RunResult) int64 {
	for _, f := range res.Findings {
		if f.Detector != "RA501" {
			continue
		}
		for _, c := range f.Evidence.Counts {
			if c.Name == "written_at_step" {
				return c.Value
			}
		}
	}
	return -1
}
