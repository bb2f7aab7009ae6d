package ingest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/pricing"
)

// Options configure Read. Zero values take the defaults.
type Options struct {
	Alloc        memory.Allocator // required
	MaxLineBytes int              // default 16 MiB; longer lines are rejects
	BatchRows    int              // default 8192: the most rows of a record batch
	Workers      int              // decode goroutines; default runtime.GOMAXPROCS(0)
	KeepText     bool             // fill the args (canonical JSON), goal and reason columns; else leave them null
	VolatileKeys []string         // args keys near-duplicate digests ignore; nil: schema.DefaultVolatileKeys
	Rejects      io.Writer        // if non-nil: every rejected line verbatim + "\n", in input order
	OnReject     func(Reject)     // if non-nil: called in input order, from the goroutine that called Read
	KeepGoing    bool             // a source that cannot be listed/opened/read is recorded in Stats.Failed and skipped instead of failing Read

	// OnSource, if non-nil, is called from the goroutine that called Read with
	// each source's index (its src_file) and Name, in order, before anything
	// else of that source is reported: a caller reading a sequence builds its
	// table of names from it.
	OnSource func(index int, name string)

	// RunIDs, if non-nil, selects runs: only the steps of these runs become
	// rows, and lines that cannot hold one of the ids are skipped before
	// they are decoded (select.go). Skipped lines are counted in
	// Stats.Skipped, not rejected.
	RunIDs []string
	// OnOtherRun, if non-nil, is called with RunIDs from the goroutine that
	// called Read with the run id of skipped lines, every id at least once
	// (maybe more), when it could be known without decoding more than
	// selecting did: a line whose id hides behind an escape and holds none
	// of RunIDs' bytes is skipped unnamed. A caller told a run is missing
	// can say which are there.
	OnOtherRun func(runID string)
	// Prices estimates the cost of steps that log tokens and a model but
	// no cost (marked schema.FlagCostEstimated); nil: the built-in table.
	Prices *pricing.Table
	// MaxSpanBytes bounds the spans of tracing formats held until every
	// input is read (default 1 GiB); a document whose spans would go over
	// it is rejected, so its source is reported.
	MaxSpanBytes int64
	// OnSpans, if non-nil, is handed the spans held at the end of the read
	// (in input order), which then makes no steps of them: a caller that
	// reads its sources apart (runaway-beam, one source a worker) brings
	// the spans of each trace together first, and makes them steps with
	// AssembleSpans, as one read of every source would have.
	OnSpans func([]HeldSpan) error

	// OnStepLine, if non-nil, is called from the goroutine that called Read,
	// in input order, with every line that became a row, before the batch
	// holding its row is emitted. It costs a copy of every such line.
	OnStepLine func(StepLine)

	// InFlightBytes bounds the input being framed, decoded and emitted at
	// once (read blocks, chunks of lines and their batches, about
	// 3*Workers+2 chunks). Unset, chunks and read blocks are 4 MiB. A scan
	// with a memory budget sets it, at some cost in throughput.
	InFlightBytes int

	// InputFormat is how sources are read: FormatAuto (or "") looks at each
	// source's start and picks runaway's steps or an adapter (adapt.go);
	// FormatSteps or an adapter's name forces that reading on every source.
	InputFormat string
	// StripOutput reads trajectories without what the tools printed
	// (adapters.Doc.StripOutput): to measure what runaway finds in logs
	// that keep no tool output. Runaway's own steps are read as logged.
	StripOutput bool
	// MaxDocBytes bounds a document read whole (a trajectory file, or one
	// line of a file of them); default 256 MiB. A longer one is a reject.
	MaxDocBytes int

	// Tests shrink these to reach block and chunk boundaries with small inputs.
	blockBytes int // read buffer; default 4 MiB
	chunkBytes int // bytes of lines after which a chunk is cut; default 4 MiB
}

const (
	defaultMaxLineBytes = 16 << 20
	defaultBatchRows    = 8192
	defaultBlockBytes   = 4 << 20
	defaultChunkBytes   = 4 << 20
)

func (o Options) withDefaults() (Options, error) {
	if o.Alloc == nil {
		return o, errors.New("ingest: Options.Alloc is required")
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = defaultMaxLineBytes
	}
	if o.MaxDocBytes <= 0 {
		o.MaxDocBytes = defaultMaxDocBytes
	}
	if o.MaxSpanBytes <= 0 {
		o.MaxSpanBytes = 1 << 30
	}
	if err := checkInputFormat(o.InputFormat); err != nil {
		return o, err
	}
	if o.BatchRows <= 0 {
		o.BatchRows = defaultBatchRows
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.InFlightBytes > 0 {
		// A chunk is about twice its bytes once decoded; a block is one chunk.
		per := max(o.InFlightBytes/(2*(3*o.Workers+2)), 64<<10)
		if o.chunkBytes <= 0 {
			o.chunkBytes = min(per, defaultChunkBytes)
		}
		if o.blockBytes <= 0 {
			o.blockBytes = min(per, defaultBlockBytes)
		}
	}
	if o.blockBytes <= 0 {
		o.blockBytes = defaultBlockBytes
	}
	if o.chunkBytes <= 0 {
		o.chunkBytes = defaultChunkBytes
	}
	return o, nil
}

// Stats describe what Read read. Lines = Steps + Rejected + Skipped.
type Stats struct {
	Files         int              // sources read to their end
	EmptyFiles    int              // of those, the ones without a non-blank line
	Bytes         int64            // decompressed bytes read
	Lines         int64            // non-blank lines seen
	Skipped       int64            // with RunIDs: lines of runs not selected
	BlankLines    int64            // whitespace-only lines: counted, not rejected
	Steps         int64            // rows emitted
	Rejected      int64            // rejected lines
	RejectsByKind map[string]int64 // by Kind constant
	Failed        []SourceError    // sources that could not be listed, opened or read (only with KeepGoing)
	// Unread lists the sources read to their end that gave no step while
	// some of their lines were rejected: a file of a format runaway does
	// not read, or of steps all broken. Read does not fail on them; the
	// caller decides (the CLI stops, or with --keep-going reports them).
	Unread []UnreadSource
	// Formats counts, per way of reading (FormatSteps for runaway's own
	// steps, else the adapter's name), the files that gave steps or spans
	// read that way and the steps made.
	Formats map[string]FormatStats
}

// FormatStats is what one way of reading read.
type FormatStats struct {
	Files int
	Steps int64
}

// countFormat adds steps read by the named format to the stats, and the
// format to those of the current source.
func (r *reader) countFormat(name string, steps int64) {
	fs := r.stats.Formats[name]
	fs.Steps += steps
	r.stats.Formats[name] = fs
	if !slices.Contains(r.sourceFormats, name) {
		r.sourceFormats = append(r.sourceFormats, name)
	}
}

// UnreadSource is a source that gave no step: how many of its lines were
// rejected, and the first rejection.
type UnreadSource struct {
	Source   string
	Rejected int64
	Line     int64  // the first rejected line
	Kind     string // the first rejection's Kind constant
	Reason   string // why it was rejected
}

// Read decodes the sources into Arrow record batches of schema.StepArrowSchema.
// It is ReadSeq over a list: column src_file is the index of the source in
// sources.
func Read(ctx context.Context, sources []Source, opts Options, emit func(arrow.RecordBatch) error) (Stats, error) {
	return ReadSeq(ctx, SliceSeq(sources), opts, emit)
}

// SliceSeq is the sequence of sources, for ReadSeq.
func SliceSeq(sources []Source) iter.Seq2[Source, error] {
	return func(yield func(Source, error) bool) {
		for _, src := range sources {
			if !yield(src, nil) {
				return
			}
		}
	}
}

// ReadSeq decodes the sources a sequence yields into Arrow record batches of
// schema.StepArrowSchema, pulling them as it goes: a listing of many objects
// is never held whole, and reading starts with the first source. The
// sequence is pulled on a goroutine of its own and may run ahead of reading
// by a few sources only (listAhead); it is stopped, and waited for, before
// ReadSeq returns, so a sequence that blocks must give up when the context
// it lists with is cancelled.
//
// emit (nil: rows are only counted) is called from the goroutine that called
// ReadSeq, in input order (sources in order, lines in order); ReadSeq releases
// each batch after emit returns (emit Retains it to keep it). A batch holds
// the rows of one source only, at most BatchRows of them; it may hold fewer
// (rejected and blank lines, a chunk's byte limit, the end of a source), and
// no batch is empty. The rejects of a chunk of lines are reported before its
// batch is emitted.
//
// Column src_file is the index of the source in the order the sequence
// yielded it (yielded errors take no index); src_line the 1-based line.
// Options.OnSource names each index before anything else of its source is
// reported.
//
// An error yielded by the sequence is a source that could not be listed
// (a missing bucket, denied access, the network): it is reported in its
// place, like a source that cannot be opened. It should be a *SourceError
// naming what failed; any other error is taken as the failure of an unnamed
// source.
//
// ReadSeq returns an error, naming the source, when emit fails, ctx is
// cancelled, a source cannot be listed, opened or read (unless KeepGoing), or
// writing Rejects fails. A truncated or corrupt compressed stream is not an
// error: it is a reject at the line where the stream broke (the partial
// line's bytes go to Rejects verbatim), and the complete lines before it are
// analysed.
func ReadSeq(ctx context.Context, sources iter.Seq2[Source, error], opts Options, emit func(arrow.RecordBatch) error) (Stats, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Stats{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	r := &reader{
		ctx:   ctx,
		opts:  opts,
		emit:  emit,
		stats: Stats{RejectsByKind: make(map[string]int64), Formats: make(map[string]FormatStats)},
		spans: &spanStore{max: opts.MaxSpanBytes},
	}
	if opts.Rejects != nil {
		r.rejects = bufio.NewWriterSize(opts.Rejects, 64<<10)
	}
	inFlight := 2 * opts.Workers
	r.order = make(chan *item, inFlight)
	r.work = make(chan *item, inFlight)

	next := make(chan listed, listAhead)
	listerDone := make(chan struct{})
	go func() {
		defer close(listerDone)
		defer close(next)
		for src, err := range sources {
			select {
			case next <- listed{src, err}:
			case <-ctx.Done():
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(r.decodeChunks)
	}
	framerDone := make(chan struct{})
	go func() {
		defer close(framerDone)
		r.frameAll(next)
	}()

	for it := range r.order {
		if err == nil {
			if err = r.consume(it); err != nil {
				cancel() // the lister, the framer and the workers stop; the loop drains what is in flight
			}
		}
		if err != nil {
			r.discard(it)
		}
	}
	<-framerDone
	wg.Wait()
	if err == nil && !r.stopped {
		if opts.OnSpans != nil {
			err = r.handOverSpans()
		} else {
			err = r.flushSpans()
		}
	}
	cancel()
	<-listerDone

	if err == nil && r.stopped {
		err = context.Cause(ctx)
		if r.stoppedIn != "" {
			err = fmt.Errorf("%s: %w", r.stoppedIn, err)
		}
	}
	if r.rejects != nil {
		if ferr := r.rejects.Flush(); ferr != nil && err == nil {
			err = fmt.Errorf("write rejects: %w", ferr)
		}
	}
	return r.stats, err
}

// listAhead is how many sources the sequence may be pulled ahead of the one
// being framed: enough to hide the latency of fetching the next page of a
// listing behind reading, small enough that a read stopped early has listed
// little more than it read.
const listAhead = 16

// listed is one value of the source sequence.
type listed struct {
	src Source
	err error
}

type reader struct {
	ctx     context.Context
	opts    Options
	emit    func(arrow.RecordBatch) error
	rejects *bufio.Writer
	// rejectsOff is the bytes written to Options.Rejects so far: where the
	// next rejected line starts (Reject.Offset).
	rejectsOff int64

	order chan *item // every item, in input order, to the consumer
	work  chan *item // chunks, to the workers

	stopped   bool   // the framer was cancelled before the sequence ended
	stoppedIn string // the source it was cancelled in, if any

	stats       Stats
	spans       *spanStore // spans of tracing formats, made steps at the end
	names       []string   // the sources' names, by index
	announced   int        // sources named to OnSource so far
	sourceLines int64      // non-blank lines of the current source so far
	// the current source's steps, rejected lines and first rejection
	sourceSteps    int64
	sourceFormats  []string // the formats that gave the current source's steps or spans
	sourceRejected int64
	firstReject    UnreadSource
}

var errAborted = errors.New("ingest: read aborted")

// frameAll runs in its own goroutine and owns the sources' readers.
func (r *reader) frameAll(next <-chan listed) {
	defer close(r.order)
	defer close(r.work)
	fr := &framing{
		maxLine:    r.opts.MaxLineBytes,
		batchRows:  r.opts.BatchRows,
		chunkBytes: r.opts.chunkBytes,
		pool:       blockPoolFor(r.opts.blockBytes),
		stopped:    func() bool { return r.ctx.Err() != nil },
		send:       r.send,
		ctx:        r.ctx,

		inputFormat: r.opts.InputFormat,
		maxDoc:      r.opts.MaxDocBytes,
		alloc:       r.opts.Alloc,
	}
	for idx := 0; ; {
		var l listed
		var ok bool
		select {
		case l, ok = <-next:
		case <-r.ctx.Done():
			r.stopped = true
			return
		}
		if !ok {
			return
		}
		if l.err != nil {
			it := &item{kind: itemSourceFailed, src: -1, err: l.err}
			var se *SourceError
			if errors.As(l.err, &se) {
				it.name, it.err = se.Source, se.Err
			}
			if !r.send(it) {
				r.stopped = true
				return
			}
			continue
		}
		if !fr.frameSource(idx, l.src) {
			r.stopped, r.stoppedIn = true, l.src.Name
			return
		}
		idx++
	}
}

// send hands an item to the consumer and, for chunks, to the workers. The
// consumer gets it first, so that everything sent is released by someone.
func (r *reader) send(it *item) bool {
	if it.kind == itemChunk {
		it.done = make(chan struct{})
	}
	select {
	case r.order <- it:
	case <-r.ctx.Done():
		it.releaseBlocks()
		return false
	}
	if it.kind != itemChunk {
		return true
	}
	select {
	case r.work <- it:
		return true
	case <-r.ctx.Done():
		it.releaseBlocks()
		close(it.done)
		return false
	}
}

// chunkResult is a worker's output for one chunk.
type chunkResult struct {
	more    []arrow.RecordBatch // full batches before batch: an adapted chunk can make many rows
	batch   arrow.RecordBatch   // nil when no line made a row
	rejects []lineReject
	kept    []StepLine // with OnStepLine
	others  []string   // with OnOtherRun: run ids of lines skipped, new to the worker
	skipped int64
	lines   int64 // non-blank
	blank   int64
	steps   int64
	spans   int64 // spans stored, to become steps at the end
	// adapted counts, per adapter, the steps it made (spans: 0, but the
	// adapter is listed); the rest of steps are runaway's own.
	adapted map[string]int64
}

func (res *chunkResult) countFormat(name string, steps int64) {
	if res.adapted == nil {
		res.adapted = map[string]int64{}
	}
	res.adapted[name] += steps
}

// newDecoder is a decoder set up as the options say, for lines of at most
// maxLine bytes.
func (r *reader) newDecoder(maxLine int) *LineDecoder {
	dec := NewLineDecoder(r.opts.KeepText, maxLine)
	dec.SetVolatileKeys(r.opts.VolatileKeys)
	dec.SetPrices(r.opts.Prices)
	dec.sel = newRunSelector(r.opts.RunIDs)
	if dec.sel != nil && r.opts.OnOtherRun != nil {
		dec.sel.others = map[string]struct{}{}
	}
	dec.keepLines = r.opts.OnStepLine != nil
	return dec
}

// decodeChunks is a worker: one decoder and one batch writer, reused.
func (r *reader) decodeChunks() {
	dec := r.newDecoder(r.opts.MaxLineBytes)
	w := newBatchWriter(r.opts.Alloc)
	defer w.release()
	for it := range r.work {
		if r.ctx.Err() == nil {
			if it.table != nil {
				decodeTable(dec, w, it, r.opts.BatchRows, r.opts.StripOutput, r.spans)
			} else if it.doc != nil || it.adapter != nil {
				decodeAdapted(dec, w, it, r.opts.BatchRows, r.opts.StripOutput, r.spans)
			} else {
				decodeChunk(dec, w, it)
			}
			if dec.sel != nil {
				it.result.others = dec.sel.takeOthers()
			}
		}
		it.releaseBlocks()
		close(it.done)
	}
}

// sizingLines is how many lines of its first chunk a worker decodes before
// it sizes its batch writer for the rest of the chunk from them.
const sizingLines = 256

func decodeChunk(dec *LineDecoder, w *batchWriter, it *item) {
	res := &it.result
	w.beginChunk(len(it.lineLens), it.size)
	lineNo := it.firstLine
	src := int32(it.src)
	done := 0 // bytes of the chunk decoded
	lens := it.lineLens
	for _, seg := range it.segs {
		for len(seg) > 0 {
			n := lens[0]
			lens = lens[1:]
			raw := seg[:n]
			seg = seg[n:]
			if raw[n-1] == '\n' {
				raw = raw[:n-1]
			}
			if done += len(raw) + 1; lineNo-it.firstLine == sizingLines {
				w.sizeRest(done, it.size)
			}
			line := raw
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			switch {
			case isBlank(line):
				res.blank++
			case dec.sel != nil && !dec.sel.mayHold(line):
				res.lines++
				res.skipped++
			default:
				res.lines++
				switch err := dec.DecodeLine(w, line, src, lineNo); {
				case err == errNotSelected:
					res.skipped++
				case err != nil:
					kind, reason := err.Kind, err.Reason
					switch {
					case it.unknownWhy != "" && lineNo == it.unknownLine:
						kind, reason = KindUnknownFormat, it.unknownWhy
					case it.unknownWhy != "" && lineNo > it.unknownLine && kind == KindMissingField && strings.HasPrefix(reason, "run_id:"):
						// The file's first document was no step and no
						// adapter's: its other lines are read as steps, and
						// the user needs to know why this one was.
						reason = fmt.Sprintf("not a runaway step (no run_id); no adapter recognised line %d of this file either, so its lines are read as runaway steps", it.unknownLine)
					}
					res.rejects = append(res.rejects, lineReject{
						line: lineNo, kind: kind, reason: reason, raw: bytes.Clone(raw),
					})
				default:
					res.steps++
					if dec.keepLines {
						res.kept = append(res.kept, StepLine{Source: int(src), Line: lineNo, RunID: dec.lastRunID, Step: dec.lastStep, Raw: bytes.Clone(line)})
					}
				}
			}
			lineNo++
		}
	}
	if it.tail != nil {
		res.lines++
		res.rejects = append(res.rejects, *it.tail)
	}
	w.endChunk(it.size)
	if res.steps > 0 {
		res.batch = w.newBatch()
	}
}

// isBlank reports whether a line holds only JSON white space.
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// consume reports one item, in order, on the goroutine that called Read.
func (r *reader) consume(it *item) error {
	name := it.name
	if err := r.ctx.Err(); err != nil {
		return prefixName(name, err)
	}
	if it.src == r.announced {
		// Every source sends at least one item, so each index is seen here
		// first, and in order.
		if r.opts.OnSource != nil {
			r.opts.OnSource(it.src, name)
		}
		r.names = append(r.names, name)
		r.announced++
	}
	switch it.kind {
	case itemChunk:
		<-it.done
		res := &it.result
		r.stats.Lines += res.lines
		r.stats.BlankLines += res.blank
		r.stats.Steps += res.steps
		r.sourceSteps += res.steps + res.skipped + res.spans
		native := res.steps
		for name, n := range res.adapted {
			native -= n
			r.countFormat(name, n)
		}
		if native > 0 {
			r.countFormat(FormatSteps, native)
		}
		r.stats.Skipped += res.skipped
		r.sourceLines += res.lines
		for i := range res.rejects {
			rj := &res.rejects[i]
			if err := r.reject(name, rj.line, rj.kind, rj.reason, rj.raw, 0); err != nil {
				return err
			}
		}
		for _, l := range res.kept {
			r.opts.OnStepLine(l)
		}
		res.kept = nil
		for _, id := range res.others {
			r.opts.OnOtherRun(id)
		}
		res.others = nil
		for len(res.more) > 0 {
			batch := res.more[0]
			res.more = res.more[1:]
			if err := r.emitBatch(name, batch); err != nil {
				return err
			}
		}
		if res.batch != nil {
			batch := res.batch
			res.batch = nil
			if err := r.emitBatch(name, batch); err != nil {
				return err
			}
		}
	case itemLongLine:
		return r.consumeLongLine(name, it.long)
	case itemSourceEnd:
		r.stats.Files++
		r.stats.Bytes += it.bytes
		if r.sourceLines == 0 {
			r.stats.EmptyFiles++
		}
		for _, name := range r.sourceFormats {
			fs := r.stats.Formats[name]
			fs.Files++
			r.stats.Formats[name] = fs
		}
		r.sourceFormats = r.sourceFormats[:0]
		if r.sourceSteps == 0 && r.sourceRejected > 0 {
			u := r.firstReject
			u.Rejected = r.sourceRejected
			r.stats.Unread = append(r.stats.Unread, u)
		}
		r.sourceLines, r.sourceSteps, r.sourceRejected = 0, 0, 0
	case itemSourceFailed:
		r.stats.Bytes += it.bytes
		r.sourceLines, r.sourceSteps, r.sourceRejected = 0, 0, 0
		serr := SourceError{Source: name, Err: it.err}
		if !r.opts.KeepGoing {
			return &serr
		}
		r.stats.Failed = append(r.stats.Failed, serr)
	}
	return nil
}

// emitBatch hands a batch to emit and releases it.
func (r *reader) emitBatch(name string, batch arrow.RecordBatch) error {
	var err error
	if r.emit != nil {
		err = r.emit(batch)
	}
	batch.Release()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (r *reader) consumeLongLine(name string, ll *longLine) error {
	var dst io.Writer = io.Discard
	if r.rejects != nil {
		dst = r.rejects
	}
	n, err := io.Copy(dst, ll.pipe)
	if err != nil {
		ll.pipe.CloseWithError(errAborted)
		if errors.Is(err, errAborted) && r.ctx.Err() != nil {
			return fmt.Errorf("%s: %w", name, r.ctx.Err())
		}
		return fmt.Errorf("%s: write rejects: %w", name, err)
	}
	r.stats.Lines++
	r.sourceLines++
	// The line's bytes are written already; reject adds the rest.
	r.rejectsOff += n
	return r.reject(name, ll.line, ll.kind, ll.reason, nil, n)
}

// reject reports a rejected line whose bytes are raw, or, for a line too
// long to hold, the written bytes already copied to Rejects.
func (r *reader) reject(name string, line int64, kind, reason string, raw []byte, written int64) error {
	r.stats.Rejected++
	r.stats.RejectsByKind[kind]++
	if r.sourceRejected == 0 {
		r.firstReject = UnreadSource{Source: name, Line: line, Kind: kind, Reason: reason}
	}
	r.sourceRejected++
	length := written + int64(len(raw))
	offset := r.rejectsOff - written
	if r.rejects != nil {
		r.rejects.Write(raw)
		if err := r.rejects.WriteByte('\n'); err != nil {
			return fmt.Errorf("%s: write rejects: %w", name, err)
		}
	}
	r.rejectsOff += int64(len(raw)) + 1
	if r.opts.OnReject != nil {
		r.opts.OnReject(Reject{File: name, Line: line, Reason: reason, Kind: kind, Raw: raw, Offset: offset, Length: length})
	}
	return nil
}

// discard releases an item that will not be reported, after an error.
func (r *reader) discard(it *item) {
	switch it.kind {
	case itemChunk:
		<-it.done
		for _, b := range it.result.more {
			b.Release()
		}
		it.result.more = nil
		if it.result.batch != nil {
			it.result.batch.Release()
			it.result.batch = nil
		}
	case itemLongLine:
		it.long.pipe.CloseWithError(errAborted)
	}
}
