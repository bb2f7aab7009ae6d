package explain_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
)

// The memory-contamination fixture, as an on-call engineer reads it: the
// loop starts at step 3, memory m-2 (written from inference at step 2) is
// named as the contamination, the loop's repetitions fold into one row, and
// a dedup guard would have stopped the run at step 5.
func TestContaminatedLoop(t *testing.T) {
	run := explainFixture(t, "detectors/RA501.positive")
	if run.Result.RootCause != detect.CauseMemoryContamination || run.Result.OnsetStep != 3 {
		t.Fatalf("cause %s onset %d", run.Result.RootCause, run.Result.OnsetStep)
	}
	if run.Loop == nil || run.Loop.From != 3 || run.Loop.To != 14 {
		t.Fatalf("loop segment %+v, want steps 3-14", run.Loop)
	}
	m := run.Memory
	if m == nil || m.ID != "m-2" || m.WrittenAt != 2 || !strings.Contains(m.Why, "inference") || m.Reads != 12 {
		t.Fatalf("contaminating memory %+v, want m-2 written at step 2 from inference, read 12 times", m)
	}
	g := run.Guard
	if g == nil || g.Name != "dedup" || g.StopStep != 5 || g.Delay != 2 || g.Saved.Steps != 10 {
		t.Fatalf("recommended guard %+v, want dedup at step 5 (+2), saving 10 steps", g)
	}
	if !strings.Contains(g.Why, "tool-retry-loop") {
		t.Errorf("why %q does not say the dedup guard comes from the repeated-call finding", g.Why)
	}
	// Steps 3-14, the whole loop, are 6 repetitions of (ACT db_stats,
	// EVAL): one row, as RA101 counts 6 identical calls.
	var fold *explain.Row
	for k := range run.Rows {
		if r := &run.Rows[k]; r.Folded() {
			if fold != nil {
				t.Fatalf("two folded rows: %+v and %+v", *fold, *r)
			}
			fold = r
		}
	}
	if fold == nil || run.Steps[fold.First].Step != 3 || run.Steps[fold.Last].Step != 14 || fold.Period != 2 || fold.Reps != 6 || !fold.InLoop {
		t.Fatalf("folded row %+v, want steps 3-14 as 6 repetitions of 2 steps in the loop", fold)
	}
	if got := fold.Positions[0].Results; len(got) != 1 || got[0] != (explain.Tally{Label: "ok", N: 6}) {
		t.Errorf("the folded call's results %v, want 6 ok", got)
	}
	if got := fold.Positions[0].Reads; len(got) != 1 || got[0] != (explain.Tally{Label: "m-2", N: 6}) {
		t.Errorf("the folded call's memory reads %v, want m-2 at each of the 6", got)
	}

	text := render(t, "text", run)
	for _, want := range []string{
		"Onset:     step 3 (RA501 memory-contamination); loop segment steps 3-14",
		"Memory:    m-2 contaminated the loop: written at step 2 (tagged inference, source model, confidence 0.4)",
		"Guard:     dedup would have stopped the run at step 5, 2 steps after the onset, saving 10 steps",
		"> 3-14",
		`db_stats {"cluster":"orders"} x6`,
		"onset; in the loop: 2-step block x6 folded (1 with a progress event); dedup stops the run at step 5",
		"writes m-2, the memory that contaminates the loop",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

// An error storm on one call folds into one line that counts the errors,
// and the breaker is the guard: it is the fix for error-storm, even though
// dedup stops the run earlier.
func TestErrorStormFoldsAndRecommendsTheBreaker(t *testing.T) {
	run := explainFixture(t, "causes/error-storm-one-call")
	text := render(t, "text", run)
	for _, want := range []string{
		`> 2-10  +3s  ACT    web_search {"q":"AutoGPT memory loop runaway"} x9         9 RATE_LIMIT`,
		"onset; in the loop: 9 alike steps folded; breaker stops the run at step 5",
		"Guard:     breaker would have stopped the run at step 5, 3 steps after the onset",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	var dedup explain.GuardOutcome
	for _, o := range run.Guards {
		if o.Name == "dedup" {
			dedup = o
		}
	}
	if !dedup.Stopped || dedup.StopStep >= run.Guard.StopStep {
		t.Fatalf("the fixture no longer shows the preference: dedup %+v, breaker %+v", dedup, run.Guard)
	}
}

// Each root cause gets a guard that implements its fix, when one stops the
// run after the onset.
func TestGuardMatchesTheRootCause(t *testing.T) {
	for _, c := range []struct{ fixture, guard string }{
		{"causes/replan-repeats-call", "maxturns:n=10"},
		{"causes/empty-loop-no-intent", "empty-stop"},
		{"causes/schema-error-retry-loop", "dedup"},
		{"detectors/RA303.positive", "breaker"},
		{"detectors/RA401.positive", "maxsteps"},
	} {
		run := explainFixture(t, c.fixture)
		if run.Guard == nil || run.Guard.Name != c.guard || !run.Guard.Matches || run.Guard.StopStep < run.Result.OnsetStep {
			t.Errorf("%s (%s): guard %+v, want %s at or after onset %d", c.fixture, run.Result.RootCause, run.Guard, c.guard, run.Result.OnsetStep)
		}
	}
	healthy := explainFixture(t, "healthy/seed001-minimal")
	if healthy.Guard != nil || healthy.Loop != nil {
		t.Errorf("healthy run: guard %+v loop %+v, want none", healthy.Guard, healthy.Loop)
	}
}

// A guard that stops the run before the onset would cut honest work: it is
// never recommended.
func TestNoGuardBeforeTheOnset(t *testing.T) {
	var b strings.Builder
	// Seven distinct honest calls, then the same call over and over.
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&b, `{"run_id":"r","step":%d,"state":"ACT","tool_call":{"name":"read","args":{"page":%d}},"tool_result":{"ok":true,"data":[%d]}}`+"\n", i, i, i)
	}
	for i := 7; i < 20; i++ {
		fmt.Fprintf(&b, `{"run_id":"r","step":%d,"state":"ACT","tool_call":{"name":"poll","args":{"job":"x"}},"tool_result":{"ok":true,"data":[1]}}`+"\n", i)
	}
	run := explainText(t, b.String(), nil, "r")[0]
	if run.Result.OnsetStep < 7 {
		t.Fatalf("onset %d, want the repeats (7 on)", run.Result.OnsetStep)
	}
	for _, o := range run.Guards {
		if o.Name == "maxcalls" && (!o.Stopped || o.StopStep >= run.Result.OnsetStep) {
			t.Fatalf("maxcalls %+v should stop before the onset for this test to mean anything", o)
		}
	}
	if run.Guard == nil || run.Guard.StopStep < run.Result.OnsetStep || run.Guard.Name == "maxcalls" {
		t.Fatalf("guard %+v stops before the onset %d", run.Guard, run.Result.OnsetStep)
	}
}
