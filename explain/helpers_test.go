package explain_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
)

// explainText runs the real pipeline (ingest with the run selected ->
// Collector.Visit -> Build), as `runaway explain` does, over JSONL text.
func explainText(t *testing.T, text string, red report.Redactor, ids ...string) []*explain.Run {
	t.Helper()
	src := ingest.Source{Name: "in.jsonl", Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(text)), nil
	}}
	c := runstore.NewCollector([]string{"in.jsonl"})
	lines := map[string]*explain.RunLines{}
	stats, err := ingest.Read(context.Background(), []ingest.Source{src}, ingest.Options{
		Alloc: memory.NewGoAllocator(), Workers: 2, RunIDs: ids,
		OnStepLine: func(l ingest.StepLine) {
			if lines[l.RunID] == nil {
				lines[l.RunID] = explain.NewRunLines(red)
			}
			lines[l.RunID].Add(l.Raw)
		},
	}, func(rec arrow.RecordBatch) error { return c.Add(rec) })
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rejected > 0 {
		t.Fatalf("test input has %d rejected lines", stats.Rejected)
	}
	built := map[string]*explain.Run{}
	guards := replay.Defaults()
	c.Visit(detect.DefaultPolicy(), 2, func(r detect.RunSteps, res *detect.RunResult) {
		built[r.ID()] = explain.Build(explain.Input{Steps: r, Result: res, Lines: lines[r.ID()], Guards: guards, Redact: red})
	})
	var runs []*explain.Run
	for _, id := range ids {
		if built[id] == nil {
			t.Fatalf("run %q not built", id)
		}
		runs = append(runs, built[id])
	}
	return runs
}

// explainFixture explains the one run of a bundled fixture file.
func explainFixture(t *testing.T, name string) *explain.Run {
	t.Helper()
	data, err := os.ReadFile("../fixtures/" + name + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	id := fixtureRunID(t, string(data))
	return explainText(t, string(data), nil, id)[0]
}

func fixtureRunID(t *testing.T, text string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, `"run_id": "`)
	if !ok {
		t.Fatal("no run_id in the fixture")
	}
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

func render(t *testing.T, format string, runs ...*explain.Run) string {
	t.Helper()
	var b strings.Builder
	var err error
	switch format {
	case "md":
		err = explain.WriteMarkdown(&b, runs)
	case "html":
		err = explain.WriteHTML(&b, runs)
	default:
		err = explain.WriteText(&b, runs, explain.TextOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
