package ingest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Selecting runs keeps exactly their steps, verbatim, in input order and
// each with its step number: a run whose id contains a selected id ("r10"
// for "r1") is decoded and dropped, an escaped id is still found, a
// malformed line that may belong to a selected run is a reject, and one
// that cannot is skipped, not rejected.
func TestRunIDsSelectOnlyThoseRunsAndKeepTheirLines(t *testing.T) {
	input := strings.Join([]string{
		`{"run_id":"r1","step":0}`,
		`{"run_id":"r2","step":0}`,
		`{"run_id":"r10","step":0}`,
		`{"run_id":"\u00721","step":1}`, // r1, escaped
		`{"run_id":"r2","step":1`,       // malformed, cannot be r1: skipped
		`{"run_id":"r1","step":`,        // malformed, may be r1: rejected
		`  `,
		`{"run_id":"r1","step":2,"goal":"g"}`,
	}, "\n") + "\n"
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	var lines []StepLine
	var rejects []Reject
	var ids []string
	stats, err := Read(context.Background(), []Source{{Name: "in.jsonl", Size: int64(len(input)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(input)), nil
	}}}, Options{
		Alloc:      alloc,
		RunIDs:     []string{"r1"},
		OnStepLine: func(l StepLine) { lines = append(lines, l) },
		OnReject:   func(r Reject) { rejects = append(rejects, r) },
	}, func(rec arrow.RecordBatch) error {
		col := rec.Column(0).(*array.String)
		for i := range col.Len() {
			ids = append(ids, col.Value(i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != "r1,r1,r1" {
		t.Errorf("rows of runs %v, want r1 three times", ids)
	}
	if stats.Steps != 3 || stats.Skipped != 3 || stats.Rejected != 1 || stats.Lines != 7 {
		t.Errorf("stats %+v: want 3 steps, 3 skipped, 1 rejected of 7 lines", stats)
	}
	if len(rejects) != 1 || rejects[0].Line != 6 {
		t.Errorf("rejects %+v, want line 6", rejects)
	}
	var got []string
	for i, l := range lines {
		if l.RunID != "r1" || l.Source != 0 || l.Step != []int64{0, 1, 2}[i] {
			t.Errorf("line %+v: want run r1 of source 0, step %d", l, i)
		}
		got = append(got, string(l.Raw))
	}
	want := []string{`{"run_id":"r1","step":0}`, `{"run_id":"\u00721","step":1}`, `{"run_id":"r1","step":2,"goal":"g"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || lines[2].Line != 8 {
		t.Errorf("kept lines %q (last at line %d), want %q at line 8", got, lines[len(lines)-1].Line, want)
	}
}

// The selector may decode lines of other runs, but must never skip a line
// the decoder would read as a step of a selected run, however the line
// spells its run_id: case, escapes, nesting, a repeated key, bad UTF-8.
func TestRunSelectorNeverSkipsASelectedRun(t *testing.T) {
	lines := []string{
		`{"run_id":"r1","step":0}`,
		`{"run_id" : "r1" ,"step":0}`,
		`{"step":0,"run_id":"r1"}`,
		`{"RUN_ID":"r1","step":0}`,
		`{"Run_Id":"r1","step":0}`,
		`{"run_id":"r2","RUN_ID":"r1","step":0}`,
		`{"RUN_ID":"r1","run_id":"r2","step":0}`,
		`{"run_id":"r2","run_id":"r1","step":0}`,
		`{"run\u005fid":"r1","step":0}`,
		`{"run_id":"r2","run\u005fid":"r1","step":0}`,
		`{"run_id":"\u00721","step":0}`,
		`{"run_id":"r1","step":0,"tool_call":{"name":"t","args":{"run_id":"r2"}}}`,
		`{"tool_call":{"name":"t","args":{"run_id":"r2"}},"run_id":"r1","step":0}`,
		`{"run_id":"r1","step":0,"goal":"say \"run_id\": \"r2\""}`,
		"{\"run_id\":\"r\xff1\",\"step\":0}",
		`{"run_id":"r10","step":0}`,
		`{"run_id":"x-r1","step":0}`,
	}
	var ids []string
	for i := range 40 { // more than maxPrefilterIDs: only the quick path and decoding decide
		ids = append(ids, fmt.Sprintf("other-%d", i))
	}
	for _, sel := range [][]string{{"r1"}, append([]string{"r1"}, ids...), {"r\ufffd1"}} {
		s := newRunSelector(sel)
		for _, line := range lines {
			var d stepDecoder
			step, err := d.decode([]byte(line))
			if err != nil {
				t.Fatalf("%s: %v", line, err.Reason)
			}
			if s.selected(step.RunID) && !s.mayHold([]byte(line)) {
				t.Errorf("selecting %d ids: %s (run %q) skipped", len(sel), line, step.RunID)
			}
		}
	}
	// Plain lines of other runs are skipped before decoding, however many
	// runs are asked for.
	s := newRunSelector(append([]string{"r1"}, ids...))
	for _, line := range []string{`{"run_id":"r10","step":0}`, `{"step":3,"run_id" : "r2","tool_call":{"name":"t","args":{"request_id":"r1"}}}`} {
		if s.mayHold([]byte(line)) {
			t.Errorf("%s: decoded, want skipped", line)
		}
	}
}

// OnOtherRun names every run whose lines were skipped, whether read off
// the bytes or decoded (an escaped id), whatever the workers and chunks:
// a caller told that a run is not there can say which are.
func TestOnOtherRunNamesTheRunsSkipped(t *testing.T) {
	var b strings.Builder
	want := map[string]bool{"ax": true}
	for step := range 3 {
		fmt.Fprintf(&b, `{"run_id":"r1","step":%d}`+"\n", step)
		for i := range 100 {
			id := fmt.Sprintf("a%d", i)
			want[id] = true
			fmt.Fprintf(&b, `{"run_id":%q,"step":%d}`+"\n", id, step)
		}
	}
	b.WriteString(`{"run_id":"\u0061x","step":0}` + "\n")
	input := b.String()
	for _, workers := range []int{1, 3} {
		got := map[string]bool{}
		opts := Options{RunIDs: []string{"r1"}, Workers: workers, blockBytes: 4096, chunkBytes: 4096,
			OnOtherRun: func(id string) { got[id] = true }}
		res := mustRead(t, []Source{memSource("in.jsonl", []byte(input))}, opts)
		if len(res.rows) != 3 {
			t.Fatalf("workers=%d: %d rows, want the 3 of r1", workers, len(res.rows))
		}
		if len(got) != len(want) {
			t.Errorf("workers=%d: %d runs named, want %d", workers, len(got), len(want))
		}
		for id := range want {
			if !got[id] {
				t.Errorf("workers=%d: run %q not named", workers, id)
			}
		}
	}
}
