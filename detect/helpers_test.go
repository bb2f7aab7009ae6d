package detect_test

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

// source wraps JSONL text as an ingest source.
func source(name, text string) ingest.Source {
	return ingest.Source{Name: name, Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(text)), nil
	}}
}

// scan runs the real pipeline (ingest -> Collector) over JSONL texts, with a
// checked allocator that must end at zero bytes, and analyzes every run.
func scan(t *testing.T, p detect.Policy, texts ...string) []detect.RunResult {
	t.Helper()
	return collect(t, p, texts...).Results(p, 2)
}

// collect reads JSONL texts, one source each ("in0.jsonl", ...), into a
// collector.
func collect(t *testing.T, p detect.Policy, texts ...string) *runstore.Collector {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var sources []ingest.Source
	var names []string
	for i, text := range texts {
		name := fmt.Sprintf("in%d.jsonl", i)
		sources = append(sources, source(name, text))
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

func one(t *testing.T, p detect.Policy, text string) detect.RunResult {
	t.Helper()
	rs := scan(t, p, text)
	if len(rs) != 1 {
		t.Fatalf("want 1 run, got %d", len(rs))
	}
	return rs[0]
}

// lines builds JSONL from steps written as Go format strings with the run id
// and step number filled in.
type runBuilder struct {
	id    string
	lines []string
}

func newRun(id string) *runBuilder { return &runBuilder{id: id} }

// add appends a step; body is the JSON members after run_id and step.
func (r *runBuilder) add(body string) *runBuilder {
	line := fmt.Sprintf(`{"run_id":%q,"step":%d`, r.id, len(r.lines))
	if body != "" {
		line += "," + body
	}
	r.lines = append(r.lines, line+"}")
	return r
}

func (r *runBuilder) repeat(n int, body string) *runBuilder {
	for i := 0; i < n; i++ {
		r.add(body)
	}
	return r
}

func (r *runBuilder) text() string { return strings.Join(r.lines, "\n") + "\n" }

func detectors(r detect.RunResult) []string {
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, f.Detector)
	}
	return ids
}
