package runstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// conversations is a log of runs in which an agent talks to a user: some
// ask for the same thing in other words turn after turn, some look the
// answer up between turns, some bring news each turn, and some bring news
// each turn and ask for the same thing after it.
func conversations(runs int) string {
	asks := []string{
		"Could you share your reservation ID so I can look up the booking?",
		"I need the reservation ID to look up the booking; please check your email.",
		"Without the reservation ID I cannot look up the booking, sorry.",
		"Please check your email for the reservation ID so I can look up the booking.",
	}
	news := []string{
		"Your flight HAT220 leaves at 17:30 on May 24 and costs 128 dollars.",
		"There are seats on HAT113 at 9:00 for 142 dollars.",
		"Done: the booking is changed and 14 dollars are refunded to your card.",
		"Anything else I can help with today?",
	}
	var b strings.Builder
	for r := range runs {
		for step := range 12 {
			line := fmt.Sprintf(`{"run_id":"talk-%03d","step":%d,"state":"ACT",`, r, step)
			switch {
			case r%4 == 1 && step%3 == 2:
				line += fmt.Sprintf(`"tool_call":{"name":"get_reservation","args":{"user":"u%d"}},"tool_result":{"ok":true,"data":"R%d"}}`, r, step)
			case r%4 == 2:
				line += fmt.Sprintf(`"tool_call":{"name":"message","args":{"text":%q}},"tool_result":{"ok":true,"data":"reply %d"}}`, news[(r+step)%len(news)]+fmt.Sprintf(" (%d)", step), step)
			case r%4 == 3:
				// News each turn, and the same ask after it.
				line += fmt.Sprintf(`"tool_call":{"name":"message","args":{"text":%q}},"tool_result":{"ok":true,"data":"reply %d"}}`, news[(r+step)%len(news)]+fmt.Sprintf(" (%d) ", step)+asks[(r+step)%len(asks)], step)
			default:
				line += fmt.Sprintf(`"tool_call":{"name":"message","args":{"text":%q}},"tool_result":{"ok":true,"data":"reply %d"}}`, asks[(r+step)%len(asks)], step)
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// The agent's turns are marked stale when they say nothing it had not
// said since its last call of another tool, or ask again for what they
// asked for since then: the runs that only ask again, and the runs that
// bring news but ask again each turn, are stale-talk loops; the runs with
// a lookup between the asks, and the runs that only bring news (numbers),
// are not. Spilled and read back
// in partitions, the collectors reach the same marks and verdicts.
func TestStaleTalkMarksAndSpills(t *testing.T) {
	text := conversations(30)
	want := NewCollector([]string{"in.jsonl"})
	readLog(t, text, 16, want.Add)
	for _, r := range want.Results(detect.DefaultPolicy(), 2) {
		stale := false
		for _, f := range r.Findings {
			stale = stale || f.Detector == detect.StaleTalk.ID
		}
		var n int
		fmt.Sscanf(r.RunID, "talk-%d", &n)
		if wantStale := n%4 == 0 || n%4 == 3; stale != wantStale {
			t.Errorf("%s: stale-talk %v, want %v (%+v)", r.RunID, stale, wantStale, r.Findings)
		}
	}
	spilledAlike(t, text, want)
}

// spilledAlike checks that the log text, spilled and read back in
// partitions, gives the collectors the same runs and results as want,
// which read it whole.
func spilledAlike(t *testing.T, text string, want *Collector) {
	t.Helper()
	wantDump, wantResults := dumpRuns(want), resultsByRun(t, want)
	s := newSpiller(t, 4<<10, 3, 0)
	readLog(t, text, 5, s.add)
	if s.spills < 2 {
		t.Fatalf("%d spills; want several", s.spills)
	}
	cs := s.finish()
	got, gotResults := map[string]string{}, resultsByRun(t, cs...)
	for _, c := range cs {
		for id, d := range dumpRuns(c) {
			got[id] = d
		}
	}
	for id, w := range wantDump {
		if got[id] != w {
			t.Fatalf("run %s differs once spilled:\n got: %s\nwant: %s", id, got[id], w)
		}
		if gotResults[id] != wantResults[id] {
			t.Fatalf("result of run %s differs once spilled", id)
		}
	}
}
