package runstore_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/synth"
)

// Stream hands results over a chunk of runs at a time and lets analysis run
// only so far ahead of emission: whatever the workers, it must emit what
// Results returns, in the same order, and stop at emit's first error.
func TestStreamEmitsResultsInOrderAndStops(t *testing.T) {
	var corpus bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 4500, RunawayRate: 0.2, Seed: 5}, &corpus, nil); err != nil {
		t.Fatal(err)
	}
	c := runstore.NewCollector([]string{"corpus.jsonl"})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	if _, err := ingest.Read(t.Context(), []ingest.Source{source("corpus.jsonl", corpus.String())}, ingest.Options{Alloc: mem},
		func(rec arrow.RecordBatch) error { return c.Add(rec) }); err != nil {
		t.Fatal(err)
	}
	want := c.Results(detect.DefaultPolicy(), 1)
	if len(want) != 4500 {
		t.Fatalf("%d runs, want 4500", len(want))
	}
	for _, workers := range []int{1, 2, 8} {
		var got []detect.RunResult
		if err := c.Stream(detect.DefaultPolicy(), workers, func(r *detect.RunResult) error {
			got = append(got, *r)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d workers: Stream differs from Results", workers)
		}
		stop := errors.New("stop")
		for _, at := range []int{1, 4200} {
			n := 0
			err := c.Stream(detect.DefaultPolicy(), workers, func(r *detect.RunResult) error {
				if r.RunID != want[n].RunID {
					t.Fatalf("%d workers: result %d is %s, want %s", workers, n, r.RunID, want[n].RunID)
				}
				n++
				if n == at {
					return stop
				}
				return nil
			})
			if err != stop || n != at {
				t.Fatalf("%d workers: %v after %d results, want the emit error after %d", workers, err, n, at)
			}
		}
	}
}
