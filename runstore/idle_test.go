package runstore_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
)

// steps appends the steps from..to-1 of run, each a line.
func steps(lines *[]string, run string, from, to int) {
	for s := from; s < to; s++ {
		*lines = append(*lines, fmt.Sprintf(`{"run_id":%q,"step":%d,"state":"ACT"}`, run, s))
	}
}

// A run is idle when silent for the window Idle is asked for, which grows
// with the longest silence seen of a run that logged again; a silence of
// half the collector or more does not count.
func TestIdleFollowsTheLongestSilence(t *testing.T) {
	var lines []string
	steps(&lines, "a", 0, 10)  // rows 0-9, then silent
	steps(&lines, "b", 0, 4)   // rows 10-13
	steps(&lines, "c", 0, 2)   // rows 14-15
	steps(&lines, "b", 4, 6)   // rows 16-17: b was silent for 2 steps
	steps(&lines, "d", 0, 10)  // rows 18-27
	steps(&lines, "c", 2, 3)   // row 28: c was silent for 12 steps
	steps(&lines, "e", 0, 60)  // rows 29-88
	steps(&lines, "a", 10, 11) // row 89: a was silent for 79 steps, more than half of 90
	c := collect(t, detect.DefaultPolicy(), strings.Join(lines, "\n")+"\n")
	byID := func(idle []bool) (out []string) {
		for _, id := range []string{"a", "b", "c", "d", "e"} {
			if idle[slices.Index(runIDs(c), id)] {
				out = append(out, id)
			}
		}
		return out
	}
	var gap int
	idle, active := c.Idle(func(maxGap int) int { gap = maxGap; return 62 })
	if gap != 12 {
		t.Fatalf("longest silence %d, want 12 (c's; a's 79 is half the collector or more)", gap)
	}
	// The last 62 rows are 28-89: c, e and a log there.
	if got := byID(idle); !slices.Equal(got, []string{"b", "d"}) {
		t.Fatalf("idle %v, want b and d", got)
	}
	if active != 3+60+11 {
		t.Fatalf("active runs hold %d steps, want 74", active)
	}
	idle, active = c.Idle(func(int) int { return 1 })
	if got := byID(idle); !slices.Equal(got, []string{"b", "c", "d", "e"}) || active != 11 {
		t.Fatalf("window 1: idle %v, %d active steps", got, active)
	}
}

// runIDs lists a collector's runs in index order, as Idle numbers them.
func runIDs(c *runstore.Collector) []string {
	ids := make([]string, c.Runs())
	for i := range ids {
		ids[i] = c.RunID(i)
	}
	return ids
}

// SourceRanges gives the first and last source of each run's steps.
func TestSourceRangesSpanTheRunsFiles(t *testing.T) {
	var one, two, three []string
	steps(&one, "a", 0, 2)
	steps(&one, "b", 0, 1)
	steps(&two, "c", 0, 1)
	steps(&three, "a", 2, 3)
	steps(&three, "c", 1, 2)
	join := func(l []string) string { return strings.Join(l, "\n") + "\n" }
	c := collect(t, detect.DefaultPolicy(), join(one), join(two), join(three))
	ranges := c.SourceRanges()
	for id, want := range map[string][2]int32{"a": {0, 2}, "b": {0, 0}, "c": {1, 2}, "missing": {0, 0}} {
		if lo, hi := ranges(id); lo != want[0] || hi != want[1] {
			t.Errorf("run %s: sources %d-%d, want %d-%d", id, lo, hi, want[0], want[1])
		}
	}
}
