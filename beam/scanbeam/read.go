package scanbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// Source is one input, numbered as `runaway scan` numbers it (src_file).
type Source struct {
	Index int
	Name  string
	// Found: a walk or a listing found it (ingest.Source.Found). Such a
	// file that holds no log is passed over, as runaway scan does.
	Found bool
}

// Rows are some of one run's rows from one source;
// Line is the first row's src_line, so that a run's rows are added in
// input order.
type Rows struct {
	File int
	Name string // the source's name, for the run's messages
	Line int64
	Msg  []byte // an Arrow IPC record batch message, without the schema
}

// sourcesFile is the list of the job's sources, one JSON object a line
// ({"src":0,"file":"gs://bucket/day/a.jsonl","found":true}), that the launcher writes
// to the output directory: the workers read it rather than the pipeline
// carry a day's many file names in its graph, which engines bound.
const sourcesFile = "sources.ndjson"

type sourceLine struct {
	Src   int    `json:"src"`
	File  string `json:"file"`
	Found bool   `json:"found,omitempty"` // Source.Found
}

// parseSource reads one line of the sources file.
func parseSource(line string) (Source, error) {
	var l sourceLine
	if err := json.Unmarshal([]byte(line), &l); err != nil || l.File == "" {
		return Source{}, fmt.Errorf("%s: not a source: %q", sourcesFile, line)
	}
	return Source{Index: l.Src, Name: l.File, Found: l.Found}, nil
}

// The job's counters, which every runner shows (Dataflow in its console)
// and the launcher prints: input read (decompressed), bytes of rows sent
// to the shuffle by run id, bytes of results sent to their shards.
var (
	inputBytes      = beam.NewCounter("runaway", "input_bytes")
	shuffledBytes   = beam.NewCounter("runaway", "shuffled_row_bytes")
	shuffledResults = beam.NewCounter("runaway", "shuffled_result_bytes")
)

// Dead is a dead letter: a rejected line, or a source that could not be
// read, as its JSON line, with where it was read to order the output by.
type Dead struct {
	Src  int
	Line int64
	JSON string
}

// readFn reads one source with ingest and emits its rows by run id, its
// dead letters, what it read (a part of the summary), and the spans of
// tracing formats by trace (spans.go).
type readFn struct {
	InputFormat string
	Policy      detect.Policy // its volatile keys shape what ingest hashes
}

func (f *readFn) ProcessElement(ctx context.Context, src Source, emit func(string, Rows), dead func(Dead), parts func(string),
	spans func(string, SpanPart)) error {
	fail := func(err error) {
		dead(Dead{Src: src.Index, JSON: deadLetter{File: src.Name, Error: err.Error()}.json()})
		parts(part{Src: src.Index, Input: &report.InputStats{}, Failed: []string{src.Name + ": " + err.Error()}}.json())
	}
	seq, err := ingest.ExpandArgs(ctx, []string{src.Name}, nil, ingest.Filter{})
	if err != nil {
		fail(err)
		return nil
	}
	var sources []ingest.Source
	for s, err := range seq {
		if err != nil {
			fail(err)
			return nil
		}
		sources = append(sources, s)
	}
	if len(sources) != 1 {
		return fmt.Errorf("%s: %d sources, want the one file", src.Name, len(sources))
	}
	// What crosses the shuffle, per input byte, is what a cluster pays
	// for: counted, the launcher reports it.
	rows := func(run string, r Rows) {
		shuffledBytes.Inc(ctx, int64(len(run)+len(r.Name)+len(r.Msg)+16))
		emit(run, r)
	}
	mem := memory.NewGoAllocator()
	opts := ingest.Options{
		Alloc: mem, Workers: 1, InputFormat: f.InputFormat, VolatileKeys: f.Policy.Volatile(), KeepGoing: true,
		OnReject: func(r ingest.Reject) { dead(Dead{Src: src.Index, Line: r.Line, JSON: rejected(r).json()}) },
		OnSpans:  emitSpans(src, spans),
	}
	stats, err := ingest.Read(ctx, sources, opts, func(rec arrow.RecordBatch) error {
		defer rec.Release()
		return splitByRun(mem, rec, src, rows)
	})
	if err != nil {
		return err
	}
	inputBytes.Inc(ctx, stats.Bytes)
	for _, fail := range stats.Failed {
		dead(Dead{Src: src.Index, JSON: deadLetter{File: fail.Source, Error: fail.Err.Error()}.json()})
	}
	// As `runaway scan --keep-going` counts them: a source that gave no
	// step is a failed source, after those that could not be read, unless
	// a listing found it and it holds no log (pipeline.PassOverNonLogs).
	p := part{Src: src.Index}
	for _, fail := range stats.Failed {
		p.Failed = append(p.Failed, fail.Error())
	}
	p.Skipped = pipeline.PassOverNonLogs(&stats, func(string) bool { return src.Found })
	failed := len(stats.Failed)
	pipeline.UnreadAsFailed(&stats)
	for _, fail := range stats.Failed[failed:] {
		p.Unread = append(p.Unread, fail.Error())
	}
	stats.Failed = nil
	in := pipeline.InputStats(stats, nil)
	p.Input = &in
	parts(p.json())
	return nil
}

// deadLetter is a line of the dead-letter output: a rejected line with its
// file and line, kind, reason and text (base64 when it is not UTF-8, so
// that its bytes survive JSON), or a source that could not be read.
type deadLetter struct {
	File       string `json:"file"`
	Line       int64  `json:"line,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Text       string `json:"text,omitempty"`
	TextBase64 []byte `json:"text_base64,omitempty"`
	Error      string `json:"error,omitempty"`
}

func rejected(r ingest.Reject) deadLetter {
	d := deadLetter{File: r.File, Line: r.Line, Kind: r.Kind, Reason: r.Reason}
	if utf8.Valid(r.Raw) {
		d.Text = string(r.Raw)
	} else {
		d.TextBase64 = bytes.Clone(r.Raw)
	}
	return d
}

func (d deadLetter) json() string {
	b, _ := json.Marshal(d)
	return string(b)
}

// splitByRun emits each run's rows of rec, with src_file set to file.
func splitByRun(mem memory.Allocator, rec arrow.RecordBatch, src Source, emit func(string, Rows)) error {
	file := int32(src.Index)
	sc := rec.Schema()
	col := func(name string) (arrow.Array, error) {
		idx := sc.FieldIndices(name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("batch without a %s column", name)
		}
		return rec.Column(idx[0]), nil
	}
	ids, err := col("run_id")
	if err != nil {
		return err
	}
	lines, err := col("src_line")
	if err != nil {
		return err
	}
	// The other side opens every run's stream with the steps' schema.
	if !sc.Equal(schema.StepArrowSchema) {
		return fmt.Errorf("a batch of another schema than the steps': %s", sc)
	}
	srcIdx := sc.FieldIndices("src_file")
	if len(srcIdx) != 1 {
		return fmt.Errorf("batch without a src_file column")
	}
	// The source's own number, as the scan of every input numbers it.
	fb := array.NewInt32Builder(mem)
	for range rec.NumRows() {
		fb.Append(file)
	}
	files := fb.NewArray()
	fb.Release()
	defer files.Release()
	cols := slices.Clone(rec.Columns())
	cols[srcIdx[0]] = files
	renum := array.NewRecordBatch(sc, cols, rec.NumRows())
	defer renum.Release()

	runID := func(i int) string {
		switch a := ids.(type) {
		case *array.String:
			return a.Value(i)
		case *array.Binary:
			return string(a.Value(i))
		case *array.Dictionary:
			return a.Dictionary().(*array.String).Value(a.GetValueIndex(i))
		}
		return fmt.Sprint(ids.GetOneForMarshal(i))
	}
	lineAt := func(i int) int64 {
		switch a := lines.(type) {
		case *array.Int64:
			return a.Value(i)
		case *array.Int32:
			return int64(a.Value(i))
		}
		return 0
	}
	// A run's rows of this batch, gathered: generated and traced logs
	// interleave runs line by line.
	var order []string
	rowsOf := map[string][]int{}
	for i := range int(rec.NumRows()) {
		id := runID(i)
		if _, ok := rowsOf[id]; !ok {
			order = append(order, id)
		}
		rowsOf[id] = append(rowsOf[id], i)
	}
	for _, id := range order {
		idx := rowsOf[id]
		part, err := gather(mem, renum, idx)
		if err != nil {
			return err
		}
		msg, err := batchMessage(mem, part)
		part.Release()
		if err != nil {
			return err
		}
		emit(id, Rows{File: src.Index, Name: src.Name, Line: lineAt(idx[0]), Msg: msg})
	}
	return nil
}

// gather is the rows idx of rec (in that order) as one record.
func gather(mem memory.Allocator, rec arrow.RecordBatch, idx []int) (arrow.RecordBatch, error) {
	if idx[len(idx)-1]-idx[0] == len(idx)-1 {
		return rec.NewSlice(int64(idx[0]), int64(idx[len(idx)-1]+1)), nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := range cols {
		pieces := make([]arrow.Array, len(idx))
		for k, i := range idx {
			pieces[k] = array.NewSlice(rec.Column(c), int64(i), int64(i+1))
		}
		var err error
		cols[c], err = array.Concatenate(pieces, mem)
		for _, p := range pieces {
			p.Release()
		}
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(len(idx))), nil
}
