package detect_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/synth"
)

// A collector that recycled the chunks of another, which filled them with
// another corpus, gives the results of a new one (that extend clears them
// is TestChunkedRecycleClearsAndBoundsSpares).
func TestRecycledCollectorGivesTheResultsOfANewOne(t *testing.T) {
	corpus := func(seed uint64) string {
		var b bytes.Buffer
		if _, err := synth.Generate(synth.Config{Runs: 3200, RunawayRate: 0.3, Seed: seed}, &b, nil); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fill := func(c *detect.Collector, text string) {
		t.Helper()
		if _, err := ingest.Read(t.Context(), []ingest.Source{source("corpus.jsonl", text)}, ingest.Options{Alloc: mem, Workers: 1},
			func(rec arrow.RecordBatch) error { return c.Add(rec) }); err != nil {
			t.Fatal(err)
		}
	}
	newCollector := func() *detect.Collector {
		c, err := detect.NewCollector(detect.DefaultPolicy(), []string{"corpus.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	old, fresh, recycled := newCollector(), newCollector(), newCollector()
	fill(old, corpus(21))
	if old.Rows() <= 1<<16 {
		t.Fatalf("the test needs more than a chunk of 64Ki rows, has %d", old.Rows())
	}
	text := corpus(22)
	fill(fresh, text)
	recycled.Recycle(old)
	fill(recycled, text)
	if !reflect.DeepEqual(recycled.Results(2), fresh.Results(2)) {
		t.Fatal("a collector of recycled chunks gives other results than a new one")
	}
}
