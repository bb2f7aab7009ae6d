package ingest

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// spanStore holds the spans read from tracing formats until every source is
// read: a run's spans come in any order, across lines and files, so its
// steps can be numbered only once all of them are in. Workers add to it;
// the reader turns it into steps at the end (flushSpans).
//
// The spans are held in memory, up to Options.MaxSpanBytes (scan passes
// --max-memory): a trace export is the size of what an agent did, not of a
// fleet's logs, and a span is a few hundred bytes of strings once parsed.
type spanStore struct {
	mu    sync.Mutex
	spans []HeldSpan
	bytes int64 // about what the held spans take
	max   int64 // Options.MaxSpanBytes
}

// HeldSpan is a span read from a tracing format and where it was read:
// the format, the source's index in the read, and the line (or document).
type HeldSpan struct {
	adapters.Span
	Format string
	Src    int32
	Line   int64
}

// add holds the spans of one document, or refuses them when the spans held
// would go over the budget: a run cut short would be judged on what is left of it, so the
// sources past the budget are failures the user is told of.
func (s *spanStore) add(spans []adapters.Span, format string, src int32, line int64) error {
	var size int64
	for i := range spans {
		size += spanSize(&spans[i])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes+size > s.max {
		return fmt.Errorf("the spans held until every input is read would exceed %d bytes (--max-memory): scan fewer traces at once", s.max)
	}
	s.bytes += size
	for i := range spans {
		s.spans = append(s.spans, HeldSpan{Span: spans[i], Format: format, Src: src, Line: line})
	}
	return nil
}

// spanSize is about what a held span takes: the struct and its strings.
func spanSize(sp *adapters.Span) int64 {
	n := int64(unsafe.Sizeof(HeldSpan{})) + int64(len(sp.Run)+len(sp.Session)+len(sp.TraceID)+len(sp.SpanID)+len(sp.ParentID)+
		len(sp.Name)+len(sp.Tool)+len(sp.CallID)+len(sp.Args)+len(sp.ErrorType)+len(sp.ErrorText)+len(sp.Model)+len(sp.Text))
	if sp.Output != nil {
		n += int64(len(*sp.Output))
	}
	for _, tc := range sp.ToolCalls {
		n += int64(len(tc.ID)+len(tc.Name)+len(tc.Args)) + int64(unsafe.Sizeof(tc))
	}
	return n
}

// originOrder orders spans by where they were read: source name, then line
// (a source's index is its place in the order the sources were given,
// which must not change what the runs are); sources of the same name by
// index.
func originOrder(spans []HeldSpan, name func(int32) string) func(a, b HeldSpan) int {
	var srcs []int32
	for i := range spans {
		if src := spans[i].Src; int(src) >= len(srcs) {
			srcs = append(srcs, make([]int32, int(src)+1-len(srcs))...)
		}
	}
	for i := range srcs {
		srcs[i] = int32(i)
	}
	slices.SortStableFunc(srcs, func(a, b int32) int { return strings.Compare(name(a), name(b)) })
	rank := make([]int32, len(srcs))
	for r, src := range srcs {
		rank[src] = int32(r)
	}
	return func(a, b HeldSpan) int {
		if a.Src != b.Src {
			if c := cmp.Compare(rank[a.Src], rank[b.Src]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Line, b.Line)
	}
}

// runs groups the spans by run, runs in name order, and calls fn with the
// spans of each, where its first span was read and its format. name names
// a source index. Spans are taken in the order of where they were read:
// source name, then line (a source's index is its place in the order the
// sources were given, which must not change what the runs are).
func (s *spanStore) runs(name func(int32) string, fn func(spans []adapters.Span, src int32, line int64, format string) error) error {
	compareOrigin := originOrder(s.spans, name)
	// Workers added documents in any order; within one, in its order.
	slices.SortStableFunc(s.spans, compareOrigin)
	adapters.NameRuns(len(s.spans), func(i int) *adapters.Span { return &s.spans[i].Span })
	slices.SortStableFunc(s.spans, func(a, b HeldSpan) int {
		if c := strings.Compare(a.Run, b.Run); c != 0 {
			return c
		}
		return compareOrigin(a, b)
	})
	var group []adapters.Span
	for i := 0; i < len(s.spans); {
		j := i
		for j < len(s.spans) && s.spans[j].Run == s.spans[i].Run {
			j++
		}
		group = group[:0]
		for k := i; k < j; k++ {
			group = append(group, s.spans[k].Span)
		}
		if err := fn(group, s.spans[i].Src, s.spans[i].Line, s.spans[i].Format); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// flushSpans turns the stored spans into steps, run by run, and emits them
// as the other steps are: decoded from their JSON, so they are checked and
// derived exactly as logged steps are. A run's rows carry the source and
// line of its first span; a batch holds the rows of one source.
func (r *reader) flushSpans() error {
	st := r.spans
	if st == nil || len(st.spans) == 0 {
		return nil
	}
	dec := r.newDecoder(max(r.opts.MaxLineBytes, r.opts.MaxDocBytes))
	w := newBatchWriter(r.opts.Alloc)
	defer w.release()
	curSrc := int32(-1)
	cut := func() error {
		if w.rows == 0 {
			return nil
		}
		return r.emitBatch(r.sourceName(curSrc), w.newBatch())
	}
	err := st.runs(r.sourceName, func(spans []adapters.Span, src int32, at int64, format string) error {
		if src != curSrc {
			if err := cut(); err != nil {
				return err
			}
			curSrc = src
		}
		crash, err := assembleSafe(adapters.AssembleRun, spans, format, r.opts.StripOutput, func(s *schema.Step) error {
			switch lerr := dec.decodeConverted(w, s, src, at); {
			case lerr == errNotSelected:
				r.stats.Skipped++
			case lerr != nil:
				line, _ := adapters.AppendStepJSON(nil, s)
				return r.reject(r.sourceName(src), at, lerr.Kind, "a step assembled from spans: "+lerr.Reason, line, 0)
			default:
				r.stats.Steps++
				fs := r.stats.Formats[format]
				fs.Steps++
				r.stats.Formats[format] = fs
				if dec.keepLines {
					line, _ := adapters.AppendStepJSON(nil, s)
					r.opts.OnStepLine(StepLine{Source: int(src), Line: at, RunID: dec.lastRunID, Step: dec.lastStep, Raw: line})
				}
				if w.rows >= r.opts.BatchRows {
					return cut()
				}
			}
			return nil
		})
		if crash != "" {
			// The run's spans as read stand for its lines, which are
			// spread over the traces.
			raw, _ := json.Marshal(spans)
			return r.reject(r.sourceName(src), at, KindInternal, crash, raw, 0)
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := cut(); err != nil {
		return err
	}
	if dec.sel != nil {
		for _, id := range dec.sel.takeOthers() {
			r.opts.OnOtherRun(id)
		}
	}
	st.spans = nil
	return nil
}

// handOverSpans hands the held spans to Options.OnSpans, in the order of
// where they were read (originOrder).
func (r *reader) handOverSpans() error {
	st := r.spans
	if len(st.spans) == 0 {
		return nil
	}
	slices.SortStableFunc(st.spans, originOrder(st.spans, r.sourceName))
	err := r.opts.OnSpans(st.spans)
	st.spans = nil
	return err
}

// AssembleSpans makes steps of spans that reads with Options.OnSpans
// handed over, as one read of all their sources would have made them at
// its end: every span of a trace must be there, with the source and line
// it was read at, in the order of where they were read (source name,
// line, then as the document listed them). names are the sources' names by index, for rejects. The
// steps go to emit as record batches; rejected steps to opts.OnReject
// (and opts.Rejects). Stats count the steps made and rejected.
func AssembleSpans(spans []HeldSpan, names []string, opts Options, emit func(arrow.RecordBatch) error) (Stats, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Stats{}, err
	}
	r := &reader{
		ctx:   context.Background(),
		opts:  opts,
		emit:  emit,
		stats: Stats{RejectsByKind: make(map[string]int64), Formats: make(map[string]FormatStats)},
		spans: &spanStore{spans: spans, max: opts.MaxSpanBytes},
		names: names,
	}
	if opts.Rejects != nil {
		r.rejects = bufio.NewWriterSize(opts.Rejects, 64<<10)
	}
	err = r.flushSpans()
	if r.rejects != nil {
		if ferr := r.rejects.Flush(); ferr != nil && err == nil {
			err = fmt.Errorf("write rejects: %w", ferr)
		}
	}
	return r.stats, err
}

// sourceName is the name of source index src, as reported.
func (r *reader) sourceName(src int32) string {
	if int(src) < len(r.names) {
		return r.names[src]
	}
	return fmt.Sprintf("source %d", src)
}

// assembleSafe runs assemble (adapters.AssembleRun) with a panic in it turned
// into crash, the reason of the run's reject: a bug costs the run, not the
// scan. A panic in emit (runaway's own decoding, a row half written) is not
// recovered.
func assembleSafe(assemble func([]adapters.Span, bool, func(*schema.Step) error) error, spans []adapters.Span, format string, strip bool, emit func(*schema.Step) error) (crash string, err error) {
	emitting := false
	defer func() {
		if emitting {
			return
		}
		if p := recover(); p != nil {
			crash = crashReason(format, p)
		}
	}()
	return "", assemble(spans, strip, func(s *schema.Step) error {
		emitting = true
		err := emit(s)
		emitting = false
		return err
	})
}
