package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func traceLines(t testing.TB, rel string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "fixtures", "traces", rel))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, append(l, '\n'))
		}
	}
	return out
}

// The spans of one run, split over two sources, become the same rows
// whatever the order of the sources and however many workers read them:
// steps are numbered once every source is read. The rows point at a
// source and line that hold a span of the run, and the spans count as
// what their sources gave (no source is "unread").
func TestSpansAcrossSourcesMakeOneRun(t *testing.T) {
	lines := traceLines(t, "otlp/genai-timeout-loop.ndjson")
	var first []map[string]any
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		for _, workers := range []int{1, 4} {
			sources := []Source{
				memSource(fmt.Sprintf("batch-%d.jsonl", order[0]), lines[order[0]]),
				memSource(fmt.Sprintf("batch-%d.jsonl", order[1]), lines[order[1]]),
			}
			res := mustRead(t, sources, Options{Workers: workers, BatchRows: 4})
			if res.stats.Steps != 9 || len(res.rows) != 9 || len(res.stats.Unread) != 0 || res.stats.Rejected != 0 {
				t.Fatalf("order %v workers %d: %d steps, %d rows, unread %v, %d rejected", order, workers, res.stats.Steps, len(res.rows), res.stats.Unread, res.stats.Rejected)
			}
			for i, r := range res.rows {
				if r["run_id"] != "conv-42" || num(r["step"]) != fmt.Sprint(i) {
					t.Fatalf("row %d: run %v step %v", i, r["run_id"], r["step"])
				}
				delete(r, "src_file") // the source's index follows the order given
			}
			if first == nil {
				first = res.rows
				continue
			}
			for i := range first {
				if fmt.Sprint(first[i]) != fmt.Sprint(res.rows[i]) {
					t.Fatalf("order %v workers %d: row %d differs:\n%v\n%v", order, workers, i, first[i], res.rows[i])
				}
			}
		}
	}
}

// A span shipped twice with other content (here its error type), in
// another source, is one step: the copy kept is the one of the source
// whose name comes first, not of the source given first, so the rows do
// not change when the sources are given in another order.
func TestSpanShippedTwiceKeepsTheSameCopyInAnyOrder(t *testing.T) {
	lines := traceLines(t, "otlp/genai-timeout-loop.ndjson")
	var doc map[string]any
	if err := json.Unmarshal(lines[0], &doc); err != nil {
		t.Fatal(err)
	}
	// Keep the first tool span only, with another error type.
	rs := doc["resourceSpans"].([]any)[0].(map[string]any)
	ss := rs["scopeSpans"].([]any)[0].(map[string]any)
	for _, sp := range ss["spans"].([]any) {
		span := sp.(map[string]any)
		if span["spanId"] != "a1b2c3d40000000b" {
			continue
		}
		for _, a := range span["attributes"].([]any) {
			if attr := a.(map[string]any); attr["key"] == "error.type" {
				attr["value"] = map[string]any{"stringValue": "RESHIPPED"}
			}
		}
		ss["spans"] = []any{span}
	}
	again, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{lines[0], lines[1], append(again, '\n')}
	var first []string
	for _, order := range [][3]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		var sources []Source
		for _, i := range order {
			sources = append(sources, memSource(fmt.Sprintf("batch-%d.jsonl", i), docs[i]))
		}
		res := mustRead(t, sources, Options{Workers: 2, BatchRows: 4})
		var rows []string
		for _, r := range res.rows {
			f, err := strconv.Atoi(num(r["src_file"]))
			if err != nil {
				t.Fatal(err)
			}
			src := sources[f].Name
			delete(r, "src_file")
			rows = append(rows, src+" "+fmt.Sprint(r))
		}
		if first == nil {
			first = rows
			if strings.Contains(strings.Join(rows, "\n"), "RESHIPPED") {
				t.Fatalf("the copy of the source named first is not kept:\n%s", strings.Join(rows, "\n"))
			}
			continue
		}
		for i := range first {
			if first[i] != rows[i] {
				t.Fatalf("sources in order %v: row %d differs:\n%s\n%s", order, i, first[i], rows[i])
			}
		}
	}
}

// Selecting a run (explain, fixture) reads the spans of every source and
// keeps the selected run's steps only.
func TestSpansSelectedByRun(t *testing.T) {
	sources := []Source{
		memSource("a.jsonl", bytes.Join(traceLines(t, "otlp/genai-timeout-loop.ndjson"), nil)),
		memSource("b.jsonl", bytes.Join(traceLines(t, "otlp/openinference-empty-retrievals.ndjson"), nil)),
	}
	res := mustRead(t, sources, Options{RunIDs: []string{"sess-7f3"}})
	if got := runSteps(res.rows); len(got) != 1 || got["sess-7f3"] != 7 {
		t.Fatalf("rows by run %v, want sess-7f3's 7 steps only", got)
	}
	if res.stats.Skipped != 9 {
		t.Errorf("skipped %d, want conv-42's 9 steps", res.stats.Skipped)
	}
}

// Spans over the budget are refused: the documents that bring them are
// rejected, so their sources are named, and no run is judged on part of
// its spans without the user being told.
func TestSpansOverTheBudgetAreRefused(t *testing.T) {
	lines := traceLines(t, "otlp/genai-timeout-loop.ndjson")
	res := read(t, []Source{memSource("a.jsonl", lines[0]), memSource("b.jsonl", lines[1])}, Options{MaxSpanBytes: 4 << 10})
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.stats.Rejected == 0 || len(res.stats.Unread) == 0 || !strings.Contains(res.stats.Unread[0].Reason, "--max-memory") {
		t.Fatalf("rejected %d, unread %+v", res.stats.Rejected, res.stats.Unread)
	}
	if res := mustRead(t, []Source{memSource("a.jsonl", lines[0]), memSource("b.jsonl", lines[1])}, Options{}); res.stats.Steps != 9 {
		t.Fatalf("with the default budget: %d steps", res.stats.Steps)
	}
}

// Sources read apart, each handing its spans over (OnSpans), then
// assembled together (AssembleSpans), give the rows and counts one read of
// every source gives: how runaway-beam reads a trace split over files.
func TestSpansHandedOverAssembleAsOneRead(t *testing.T) {
	// Each export cut in three files, each holding every third document
	// of its traces.
	var sources []Source
	for _, f := range []string{"otlp/genai-timeout-loop.ndjson", "langsmith/loop.ndjson", "openai-agents/loop.ndjson"} {
		lines := traceLines(t, f)
		for k := range 3 {
			var b bytes.Buffer
			for i := k; i < len(lines); i += 3 {
				b.Write(lines[i])
			}
			sources = append(sources, memSource(fmt.Sprintf("%s-part-%d.ndjson", filepath.Dir(f), k), b.Bytes()))
		}
	}
	want := mustRead(t, sources, Options{Workers: 2})
	if want.stats.Steps < 20 || len(want.stats.Unread) > 0 || want.stats.Rejected > 0 {
		t.Fatalf("the one read made %d steps, %d rejected: the test would show little", want.stats.Steps, want.stats.Rejected)
	}

	var held []HeldSpan
	var names []string
	var readSteps int64
	for k, src := range sources {
		res := mustRead(t, []Source{src}, Options{Workers: 1, OnSpans: func(spans []HeldSpan) error {
			for _, sp := range spans {
				sp.Src = int32(k) // its index among all the sources
				held = append(held, sp)
			}
			return nil
		}})
		if len(res.rows) != 0 {
			t.Fatalf("%s: %d rows made of spans handed over", src.Name, len(res.rows))
		}
		readSteps += res.stats.Steps
		names = append(names, src.Name)
	}
	if len(held) == 0 {
		t.Fatal("no span handed over")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows []string
	stats, err := AssembleSpans(held, names, Options{Alloc: mem}, func(b arrow.RecordBatch) error {
		defer b.Release()
		js, err := b.MarshalJSON()
		if err != nil {
			return err
		}
		var batch []json.RawMessage
		if err := json.Unmarshal(js, &batch); err != nil {
			return err
		}
		for _, r := range batch {
			rows = append(rows, string(r))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if readSteps+stats.Steps != want.stats.Steps || len(rows) != int(want.stats.Steps) {
		t.Fatalf("%d+%d steps, %d rows; one read made %d", readSteps, stats.Steps, len(rows), want.stats.Steps)
	}
	var wantRows []string
	for _, js := range want.batchJSON {
		var batch []json.RawMessage
		if err := json.Unmarshal(js, &batch); err != nil {
			t.Fatal(err)
		}
		for _, r := range batch {
			wantRows = append(wantRows, string(r))
		}
	}
	for i := range wantRows {
		if rows[i] != wantRows[i] {
			t.Fatalf("row %d:\n got %.400s\nwant %.400s", i, rows[i], wantRows[i])
		}
	}
}
