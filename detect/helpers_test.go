package detect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/runtest"
	"github.com/runawayhq/runaway/runstore"
)

// scan runs the real pipeline (ingest -> Collector) over JSONL texts, with a
// checked allocator that must end at zero bytes, and analyzes every run.
func scan(t *testing.T, p detect.Policy, texts ...string) []detect.RunResult {
	t.Helper()
	return collect(t, p, texts...).Results(p, 2)
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

// source and collect run JSONL through the real read path (runtest).
var source = runtest.Source

func collect(t testing.TB, p detect.Policy, texts ...string) *runstore.Collector {
	t.Helper()
	return runtest.Collect(t, p, texts...)
}
