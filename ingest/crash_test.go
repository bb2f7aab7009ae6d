package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// crashyFormat converts every document into one step of the run the
// document names, and crashes, as a buggy adapter would, on a document
// holding "boom", after converting its step.
var crashyFormat = &adapters.Format{
	Name:      "crashy",
	Recognize: func(*adapters.Doc) error { return nil },
	Convert: func(d *adapters.Doc, emit func(*schema.Step) error) error {
		n := int64(0)
		run := "run-" + strings.Trim(string(d.Raw), `{}"n:`)
		if err := emit(&schema.Step{RunID: run, Step: &n, State: "ACT", ToolCall: &schema.ToolCall{Name: "bash"}}); err != nil {
			return err
		}
		if bytes.Contains(d.Raw, []byte("boom")) {
			var seen map[string]bool
			seen[run] = true // the bug: a nil map written
		}
		return nil
	},
}

// An adapter's panic is the reject of the document it met, naming the
// adapter, the panic and where it happened; the documents after it are
// still read, and the batch holds what was converted.
func TestAdapterPanicIsTheDocumentsReject(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	w := newBatchWriter(mem)
	defer w.release()
	data := []byte("{\"n\":\"a\"}\n{\"n\":\"boom\"}\n{\"n\":\"c\"}\n")
	it := &item{name: "runs/crash.jsonl", firstLine: 1, segs: [][]byte{data}, lineLens: []int{10, 13, 10}, adapter: crashyFormat}
	decodeAdapted(NewLineDecoder(false, 0), w, it, 1024, false, nil)
	res := &it.result
	if res.batch == nil {
		t.Fatal("no batch: the documents around the crash were lost")
	}
	defer res.batch.Release()
	if got := res.batch.NumRows(); got != 3 {
		t.Errorf("rows = %d, want 3 (a, the step converted before the crash, c)", got)
	}
	if len(res.rejects) != 1 {
		t.Fatalf("rejects = %+v, want the crashed document's", res.rejects)
	}
	r := res.rejects[0]
	if r.line != 2 || r.kind != KindInternal || string(r.raw) != `{"n":"boom"}` {
		t.Errorf("reject = line %d kind %s raw %q, want line 2, %s, the document verbatim", r.line, r.kind, r.raw, KindInternal)
	}
	for _, want := range []string{"internal error in the crashy adapter", "crash_test.go:", "assignment to entry in nil map", "please report"} {
		if !strings.Contains(r.reason, want) {
			t.Errorf("reason %q does not say %q", r.reason, want)
		}
	}
}

// A panic while a trace's spans are assembled into a run costs that run:
// the reason names the format and the panic, and the steps emitted before
// stand. A panic in emit, runaway's own decoding, is not swallowed.
func TestSpanAssemblyPanicIsTheRunsReject(t *testing.T) {
	n := int64(0)
	emitted := 0
	crashing := func(spans []adapters.Span, strip bool, emit func(*schema.Step) error) error {
		if err := emit(&schema.Step{RunID: spans[0].Run, Step: &n}); err != nil {
			return err
		}
		return []error{}[len(spans)].(error) // the bug: an index out of range
	}
	crash, err := assembleSafe(crashing, []adapters.Span{{Run: "r"}}, "otlp", false, func(*schema.Step) error { emitted++; return nil })
	if err != nil || emitted != 1 {
		t.Fatalf("err %v, emitted %d: want the step before the crash", err, emitted)
	}
	for _, want := range []string{"internal error in the otlp adapter", "crash_test.go:", "index out of range"} {
		if !strings.Contains(crash, want) {
			t.Errorf("crash %q does not say %q", crash, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a panic in emit was swallowed")
		}
	}()
	assembleSafe(adapters.AssembleRun, []adapters.Span{{Run: "r", Kind: adapters.SpanTool, Tool: "bash"}}, "otlp", false, func(*schema.Step) error { panic("decoding") })
}

// Sniffing a source's first line asks every adapter whether it is theirs;
// a panic in one is an error naming the crash, not the scan's end.
func TestGuardedSniffTurnsAPanicIntoAnError(t *testing.T) {
	a, err := guarded("", func() (*adapters.Format, error) {
		var formats []*adapters.Format
		return formats[1], nil // the bug: an index out of range
	})
	if a != nil || err == nil || !strings.Contains(err.Error(), "internal error in the format detection") || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("guarded = %v, %v: want no format and the crash as the error", a, err)
	}
	if ok, err := guarded("", func() (bool, error) { return true, nil }); !ok || err != nil {
		t.Errorf("guarded without a panic = %v, %v", ok, err)
	}
}
