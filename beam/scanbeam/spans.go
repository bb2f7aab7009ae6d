package scanbeam

import (
	"bytes"
	"cmp"
	"context"
	"encoding/gob"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/report"
)

// A tracing export's spans become steps only once every span of their run
// is in: a trace may be cut over files (an exporter's rotation), and a run
// (a session) may hold several traces. One read of every source, as the
// scan does, holds them all; the job brings them together in two
// shuffles instead. Each source's spans are keyed by trace (nameSpansFn
// names each trace's run as the scan names it, which needs the whole
// trace), then by run (assembleSpansFn makes the run's steps with the same
// ingest code), and the steps join the other rows of their run.

// SpanPart is one span on its way to its trace's and then its run's group.
type SpanPart struct {
	Src    int
	Name   string // the source's name
	Line   int64
	Seq    int // its place among its source's spans, in input order
	Format string
	Run    string // its run, once its trace is named
	Span   []byte // the span, gob-encoded: its JSON arguments and texts keep their bytes
}

// emitSpans is readFn's Options.OnSpans: each span keyed by its trace.
func emitSpans(src Source, emit func(string, SpanPart)) func([]ingest.HeldSpan) error {
	return func(spans []ingest.HeldSpan) error {
		for i := range spans {
			sp := &spans[i]
			var b bytes.Buffer
			if err := gob.NewEncoder(&b).Encode(&sp.Span); err != nil {
				return fmt.Errorf("span %s: %w", sp.SpanID, err)
			}
			part := SpanPart{Src: src.Index, Name: src.Name, Line: sp.Line, Seq: i, Format: sp.Format, Span: b.Bytes()}
			emit(traceKey(sp, part), part)
		}
		return nil
	}
}

// traceKey groups a span with the rest of its trace; a span with no trace
// is named on its own.
func traceKey(sp *ingest.HeldSpan, p SpanPart) string {
	if sp.TraceID != "" {
		return "trace\x00" + sp.TraceID
	}
	return fmt.Sprintf("span\x00%d\x00%d\x00%d", p.Src, p.Line, p.Seq)
}

func decodeSpan(p *SpanPart) (adapters.Span, error) {
	var sp adapters.Span
	err := gob.NewDecoder(bytes.NewReader(p.Span)).Decode(&sp)
	return sp, err
}

// inputOrder is the order one read of every source takes spans in
// (ingest's originOrder): by source name, the sources' order when names
// are equal, line, then as the document listed them.
func inputOrder(a, b SpanPart) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Src, b.Src), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Seq, b.Seq))
}

// sortedSpans is a group's spans in inputOrder.
func sortedSpans(parts func(*SpanPart) bool) []SpanPart {
	var all []SpanPart
	var p SpanPart
	for parts(&p) {
		all = append(all, p)
	}
	slices.SortFunc(all, inputOrder)
	return all
}

// nameSpansFn names the run of each span of one trace, as the scan does
// (adapters.NameRuns), and sends the span to its run's group.
func nameSpansFn(_ string, parts func(*SpanPart) bool, emit func(string, SpanPart)) error {
	all := sortedSpans(parts)
	spans := make([]adapters.Span, len(all))
	for i := range all {
		var err error
		if spans[i], err = decodeSpan(&all[i]); err != nil {
			return err
		}
	}
	adapters.NameRuns(len(spans), func(i int) *adapters.Span { return &spans[i] })
	for i := range all {
		all[i].Run = spans[i].Run
		emit(spans[i].Run, all[i])
	}
	return nil
}

// assembleSpansFn makes one run's steps of its spans with ingest's code,
// and sends them on as the rows of a source are sent.
type assembleSpansFn struct {
	Policy detect.Policy
}

func (f *assembleSpansFn) ProcessElement(_ context.Context, run string, parts func(*SpanPart) bool,
	emit func(string, Rows), dead func(Dead), summary func(string)) error {
	all := sortedSpans(parts)
	held := make([]ingest.HeldSpan, len(all))
	var names []string
	for i := range all {
		sp, err := decodeSpan(&all[i])
		if err != nil {
			return err
		}
		sp.Run = all[i].Run
		held[i] = ingest.HeldSpan{Span: sp, Format: all[i].Format, Src: int32(all[i].Src), Line: all[i].Line}
		if all[i].Src >= len(names) {
			names = append(names, make([]string, all[i].Src+1-len(names))...)
		}
		names[all[i].Src] = all[i].Name
	}
	mem := memory.NewGoAllocator()
	opts := ingest.Options{
		Alloc: mem, Workers: 1, VolatileKeys: f.Policy.Volatile(), KeepGoing: true,
		OnReject: func(r ingest.Reject) { dead(Dead{Src: srcOf(names, r.File), Line: r.Line, JSON: rejected(r).json()}) },
	}
	stats, err := ingest.AssembleSpans(held, names, opts, func(rec arrow.RecordBatch) error {
		defer rec.Release()
		// A run's rows carry the source and line of its first span.
		first := Source{Index: int(held[0].Src), Name: names[held[0].Src]}
		return splitByRun(mem, rec, first, emit)
	})
	if err != nil {
		return fmt.Errorf("run %q: %w", run, err)
	}
	in := report.InputStats{
		LinesRejected: stats.Rejected, RejectsByKind: stats.RejectsByKind, Steps: stats.Steps,
	}
	for name, fs := range stats.Formats {
		if in.Formats == nil {
			in.Formats = map[string]report.FormatRead{}
		}
		in.Formats[name] = report.FormatRead{Steps: fs.Steps}
	}
	summary(part{Src: -1, Shard: -1, Input: &in}.json())
	return nil
}

// srcOf is the index of the source named name.
func srcOf(names []string, name string) int {
	if i := slices.Index(names, name); i >= 0 {
		return i
	}
	return -1
}
