package ingest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func stepLine(run string, step int) string {
	return fmt.Sprintf(`{"run_id":%q,"step":%d}`+"\n", run, step)
}

// seqOf yields sources and errors in order and counts how far it was pulled.
func seqOf(pulled *atomic.Int64, values ...any) func(func(Source, error) bool) {
	return func(yield func(Source, error) bool) {
		for _, v := range values {
			pulled.Add(1)
			var ok bool
			switch v := v.(type) {
			case Source:
				ok = yield(v, nil)
			case error:
				ok = yield(Source{}, v)
			}
			if !ok {
				return
			}
		}
	}
}

func TestReadSeqYieldedErrorIsAFailureInItsPlace(t *testing.T) {
	listErr := &SourceError{Source: "s3://b/day/", Err: errors.New("list objects: connection reset")}
	values := []any{
		memSource("a.jsonl", []byte(stepLine("a", 0)+"{bad\n")),
		listErr,
		memSource("c.jsonl", []byte(stepLine("c", 0))),
	}
	var pulled atomic.Int64
	res := readSeq(t, seqOf(&pulled, values...), Options{})
	var se *SourceError
	if !errors.As(res.err, &se) || se.Source != "s3://b/day/" || res.err.Error() != "s3://b/day/: list objects: connection reset" {
		t.Fatalf("err = %v", res.err)
	}
	// Everything before the failure is reported, nothing after it.
	if len(res.rows) != 1 || len(res.rejects) != 1 || res.stats.Files != 1 || !reflect.DeepEqual(res.names, []string{"a.jsonl"}) {
		t.Errorf("rows %d, rejects %v, stats %+v, names %q", len(res.rows), res.rejects, res.stats, res.names)
	}

	pulled.Store(0)
	res = readSeq(t, seqOf(&pulled, values...), Options{KeepGoing: true})
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.stats.Failed) != 1 || res.stats.Failed[0].Source != "s3://b/day/" || res.stats.Files != 2 || len(res.rows) != 2 {
		t.Errorf("stats %+v, %d rows", res.stats, len(res.rows))
	}
	// Errors take no index: src_file counts sources.
	if !reflect.DeepEqual(res.names, []string{"a.jsonl", "c.jsonl"}) || num(res.rows[1]["src_file"]) != "1" {
		t.Errorf("names %q, rows %v", res.names, res.rows)
	}
	if pulled.Load() != 3 {
		t.Errorf("pulled %d of 3", pulled.Load())
	}

	// An error that is not a *SourceError is reported as it is.
	res = readSeq(t, seqOf(&pulled, errors.New("listing exploded")), Options{})
	if res.err == nil || res.err.Error() != "listing exploded" {
		t.Errorf("err = %v", res.err)
	}
}

func TestReadSeqOnSourceNamesEverySourceBeforeItsRowsAndRejects(t *testing.T) {
	var events []string
	var opts Options
	opts.OnSource = func(i int, name string) { events = append(events, fmt.Sprintf("source %d %s", i, name)) }
	opts.OnReject = func(r Reject) { events = append(events, "reject "+r.File) }
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opts.Alloc, opts.KeepGoing, opts.BatchRows, opts.Workers = mem, true, 1, 3
	srcs := []Source{
		memSource("a", []byte("{bad\n"+stepLine("a", 0))),
		memSource("empty", nil),
		unopenableSource("denied", errors.New("permission denied")),
		memSource("b", []byte(stepLine("b", 0)+stepLine("b", 1))),
	}
	_, err := Read(t.Context(), srcs, opts, func(b arrow.RecordBatch) error {
		events = append(events, fmt.Sprintf("batch of %s", b.Column(b.Schema().FieldIndices("src_file")[0]).ValueStr(0)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"source 0 a", "reject a", "batch of 0",
		"source 1 empty",
		"source 2 denied",
		"source 3 b", "batch of 3", "batch of 3",
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events:\n got  %q\n want %q", events, want)
	}
}

func TestReadSeqStopsPullingWhenItStops(t *testing.T) {
	// An endless sequence: ReadSeq must stop it, and return, when emit fails.
	var pulled atomic.Int64
	endless := func(yield func(Source, error) bool) {
		for i := 0; ; i++ {
			pulled.Add(1)
			if !yield(memSource(fmt.Sprint(i), []byte(stepLine("r", i))), nil) {
				return
			}
		}
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	stop := errors.New("stop")
	n := 0
	_, err := ReadSeq(t.Context(), endless, Options{Alloc: mem, Workers: 2}, func(arrow.RecordBatch) error {
		if n++; n == 3 {
			settle(&pulled) // the sequence may run ahead only so far, however long reading takes
			return stop
		}
		return nil
	})
	mem.AssertSize(t, 0)
	if !errors.Is(err, stop) || !strings.HasPrefix(err.Error(), "2: ") {
		t.Fatalf("err = %v", err)
	}
	if p := pulled.Load(); p > 30 { // 3 read, 16 of look-ahead (listAhead), a few in the framer's hands
		t.Errorf("pulled %d sources to read 3", p)
	}
}

func TestReadSeqCancelledWhileTheSequenceWaits(t *testing.T) {
	// A listing that hangs (a slow network) until its context ends.
	ctx, cancel := context.WithCancel(t.Context())
	hanging := func(yield func(Source, error) bool) {
		if !yield(memSource("a", []byte(stepLine("a", 0))), nil) {
			return
		}
		<-ctx.Done()
		yield(Source{}, &SourceError{Source: "s3://b/", Err: ctx.Err()})
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rows := 0
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, err = ReadSeq(ctx, hanging, Options{Alloc: mem}, func(b arrow.RecordBatch) error {
			rows += int(b.NumRows())
			cancel() // the user presses ^C while the listing hangs
			return nil
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ReadSeq did not return after its context was cancelled")
	}
	mem.AssertSize(t, 0)
	// Not a clean, complete read: the cancellation is the error.
	if !errors.Is(err, context.Canceled) || rows != 1 {
		t.Errorf("err = %v, %d rows", err, rows)
	}
}
