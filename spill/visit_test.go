package spill_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/spill"
)

// A job that needs a run's steps as well as its result (replay's guards)
// reads through a store with Options.Visit: each run is visited exactly
// once, with the steps a collector holding the whole input would give,
// whether the store held, spilled or split its partitions.
func TestVisitSeesEveryRunOnceWithItsSteps(t *testing.T) {
	srcs := corpus(t, 600)
	policy := detect.DefaultPolicy()
	// What a run looks like to a visitor: its result's verdict, onset and
	// step count, and its steps' tools and results in order.
	view := func(r detect.RunSteps, res *detect.RunResult) string {
		s := fmt.Sprintf("%s %d %d %d:", res.RunID, res.Verdict, res.OnsetStep, r.Len())
		for i := range r.Len() {
			s += fmt.Sprintf(" %d/%s/%x/%s", r.Step(i), r.Tool(i), r.CallKey(i), r.ArgsKey(i))
		}
		return s
	}
	want := map[string]string{}
	c := runstore.NewCollector(names(srcs))
	read(t, srcs, memory.NewGoAllocator(), c.Add, nil)
	c.Visit(policy, 2, func(r detect.RunSteps, res *detect.RunResult) { want[res.RunID] = view(r, res) })
	if len(want) != 600 {
		t.Fatalf("the collector visited %d runs, want 600", len(want))
	}
	for _, tc := range []struct {
		name       string
		maxBytes   int64
		partitions int
		splits     bool
	}{
		{"held", 1 << 40, 64, false},
		{"spilled", 256 << 10, 16, false},
		{"spilled and split", 16 << 10, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer alloc.AssertSize(t, 0)
			got := map[string]string{}
			visits := 0
			s, err := spill.New(spill.Options{Policy: policy, Dir: t.TempDir(), MaxBytes: tc.maxBytes, Partitions: tc.partitions,
				Visit: func(r detect.RunSteps, res *detect.RunResult) {
					visits++ // unguarded: the store calls Visit one at a time
					got[res.RunID] = view(r, res)
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			read(t, srcs, alloc, s.Add, s.SetSourceName)
			results := 0
			if err := s.Analyze(2, func(*detect.RunResult) error { results++; return nil }); err != nil {
				t.Fatal(err)
			}
			if (s.Splits() > 0) != tc.splits {
				t.Errorf("%d partitions split, want splits: %v", s.Splits(), tc.splits)
			}
			if visits != 600 || results != 600 {
				t.Fatalf("%d visits and %d results, want 600 of each", visits, results)
			}
			for _, id := range slices.Sorted(maps.Keys(want)) {
				if got[id] != want[id] {
					t.Fatalf("run %s visited as\n%s\nwant\n%s", id, got[id], want[id])
				}
			}
		})
	}
}

// Closing idle runs early may analyze a run in pieces, which a visitor
// would take for two runs: the store refuses the combination.
func TestVisitRefusesCloseIdle(t *testing.T) {
	_, err := spill.New(spill.Options{Policy: detect.DefaultPolicy(), CloseIdle: true, Visit: func(detect.RunSteps, *detect.RunResult) {}})
	if err == nil {
		t.Fatal("Visit with CloseIdle accepted")
	}
}
