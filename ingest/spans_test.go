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
