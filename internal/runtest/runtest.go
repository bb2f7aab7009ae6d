// Package runtest holds what tests need to run JSONL texts through the real
// read path, ingest into a runstore.Collector, as a scan does. Only test
// files import it; it imports ingest, runstore and detect, and nothing of
// the module may import it outside tests.
package runtest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
)

// Source wraps JSONL text as an ingest source.
func Source(name, text string) ingest.Source {
	return ingest.Source{Name: name, Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(text)), nil
	}}
}

// Collect reads JSONL texts, one source each ("in0.jsonl", ...), into a
// collector, in batches of 7 rows on 2 workers so that runs cross batches,
// with a checked allocator that must end at zero bytes; p gives the
// volatile keys ingest ignores. A rejected line fails the test: test input
// is meant to be read whole.
func Collect(t testing.TB, p detect.Policy, texts ...string) *runstore.Collector {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var sources []ingest.Source
	var names []string
	for i, text := range texts {
		name := fmt.Sprintf("in%d.jsonl", i)
		sources = append(sources, Source(name, text))
		names = append(names, name)
	}
	c := runstore.NewCollector(names)
	stats, err := ingest.Read(context.Background(), sources, ingest.Options{Alloc: mem, BatchRows: 7, Workers: 2, VolatileKeys: p.Volatile()},
		func(rec arrow.RecordBatch) error { return c.Add(rec) })
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rejected > 0 {
		t.Fatalf("test input has %d rejected lines", stats.Rejected)
	}
	return c
}
