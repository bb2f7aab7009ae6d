package scanbeam

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/schema"
)

// Source is one input, numbered as `runaway scan` numbers it (src_file).
type Source struct {
	Index int
	Name  string
}

// Rows are some of one run's rows from one source;
// Line is the first row's src_line, so that a run's rows are added in
// input order.
type Rows struct {
	File int
	Line int64
	Msg  []byte // an Arrow IPC record batch message, without the schema
}

// readFn reads one source with ingest and emits its rows by run id.
type readFn struct {
	InputFormat string
	Policy      detect.Policy // its volatile keys shape what ingest hashes
}

func (f *readFn) ProcessElement(ctx context.Context, src Source, emit func(string, Rows), dead func(string)) error {
	seq, err := ingest.ExpandArgs(ctx, []string{src.Name}, nil, ingest.Filter{})
	if err != nil {
		return err
	}
	var sources []ingest.Source
	for s, err := range seq {
		if err != nil {
			dead(deadLetter{File: src.Name, Error: err.Error()}.json())
			return nil
		}
		sources = append(sources, s)
	}
	if len(sources) != 1 {
		return fmt.Errorf("%s: %d sources, want the one file", src.Name, len(sources))
	}
	mem := memory.NewGoAllocator()
	opts := ingest.Options{
		Alloc: mem, Workers: 1, InputFormat: f.InputFormat, VolatileKeys: f.Policy.Volatile(), KeepGoing: true,
		OnReject: func(r ingest.Reject) { dead(rejected(r).json()) },
	}
	stats, err := ingest.Read(ctx, sources, opts, func(rec arrow.RecordBatch) error {
		defer rec.Release()
		return splitByRun(mem, rec, int32(src.Index), emit)
	})
	for _, fail := range stats.Failed {
		dead(deadLetter{File: fail.Source, Error: fail.Err.Error()}.json())
	}
	return err
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
func splitByRun(mem memory.Allocator, rec arrow.RecordBatch, file int32, emit func(string, Rows)) error {
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
		emit(id, Rows{File: int(file), Line: lineAt(idx[0]), Msg: msg})
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

// A run's rows cross the shuffle as Arrow IPC record batch messages without
// the schema, which every one would otherwise repeat (a few KB against a
// row's few hundred bytes): the stream a run is read from is the schema's
// message, then its parts' messages, then the end-of-stream marker.

var endOfStream = []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}

// batchMessage encodes rec as one IPC record batch message.
func batchMessage(mem memory.Allocator, rec arrow.RecordBatch) ([]byte, error) {
	full, err := ipcStream(mem, rec)
	if err != nil {
		return nil, err
	}
	head, err := schemaMessageLen(full)
	if err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(full, endOfStream) {
		return nil, fmt.Errorf("an IPC stream without its end marker")
	}
	return bytes.Clone(full[head : len(full)-len(endOfStream)]), nil
}

// ipcStream is the IPC stream of rec alone.
func ipcStream(mem memory.Allocator, rec arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	err := w.Write(rec)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), err
}

// schemaMessageLen is the length of a stream's first message, its schema:
// a continuation marker, the metadata's length, the metadata, no body.
func schemaMessageLen(stream []byte) (int, error) {
	if len(stream) < 8 || binary.LittleEndian.Uint32(stream) != 0xffffffff {
		return 0, fmt.Errorf("not an IPC stream")
	}
	n := 8 + int(int32(binary.LittleEndian.Uint32(stream[4:])))
	if n < 8 || n > len(stream) {
		return 0, fmt.Errorf("an IPC stream with a schema message of %d bytes", n)
	}
	return n, nil
}

// stepsSchemaMessage is the schema message that opens every run's stream.
var stepsSchemaMessage = sync.OnceValues(func() ([]byte, error) {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema.StepArrowSchema)
	defer b.Release()
	empty := b.NewRecordBatch()
	defer empty.Release()
	full, err := ipcStream(mem, empty)
	if err != nil {
		return nil, err
	}
	n, err := schemaMessageLen(full)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(full[:n]), nil
})

// analyseFn analyses one run from its rows and emits its ndjson line.
type analyseFn struct {
	Files       []string // the sources' names, by index, for messages
	Policy      detect.Policy
	MaxRunBytes int64 // the bound on a run's rows in memory (Options.MaxRunBytes)
}

func (f *analyseFn) ProcessElement(run string, rows func(*Rows) bool, emit func(string)) error {
	var parts []Rows
	var r Rows
	held := int64(0)
	for rows(&r) {
		if held += int64(len(r.Msg)); held > f.MaxRunBytes {
			emit(runError(run, fmt.Sprintf("the run's steps are over %d bytes, the bound on one run (--max-run-bytes): not analysed", f.MaxRunBytes)))
			return nil
		}
		parts = append(parts, r)
	}
	slices.SortFunc(parts, func(a, b Rows) int {
		if a.File != b.File {
			return a.File - b.File
		}
		return int(a.Line - b.Line)
	})
	head, err := stepsSchemaMessage()
	if err != nil {
		return err
	}
	stream := slices.Clone(head)
	for _, p := range parts {
		stream = append(stream, p.Msg...)
	}
	stream = append(stream, endOfStream...)
	mem := memory.NewGoAllocator()
	c := runstore.NewCollector(f.Files)
	rd, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem), ipc.WithSchema(schema.StepArrowSchema))
	if err != nil {
		return err
	}
	for rd.Next() {
		if err := c.Add(rd.RecordBatch()); err != nil {
			rd.Release()
			return err
		}
	}
	err = rd.Err()
	rd.Release()
	if err != nil {
		return err
	}
	results := c.Results(f.Policy, 1)
	if len(results) != 1 {
		return fmt.Errorf("run %q: %d results, want 1", run, len(results))
	}
	var line bytes.Buffer
	if err := report.WriteRunNDJSON(&line, &results[0]); err != nil {
		return err
	}
	emit(strings.TrimSuffix(line.String(), "\n")) // textio ends each line
	return nil
}

// runError is the line of a run that could not be analysed: its id and
// why, in place of its result, so that the job goes on.
func runError(run, why string) string {
	b, _ := json.Marshal(struct {
		RunID string `json:"run_id"`
		Error string `json:"error"`
	}{run, why})
	return string(b)
}

// Register registers the pipeline's functions and types with Beam, which
// needs them by name on the workers. Call it from main (and tests) before
// building the pipeline.
func Register() {
	register.DoFn4x1[context.Context, Source, func(string, Rows), func(string), error](&readFn{})
	register.DoFn3x1[string, func(*Rows) bool, func(string), error](&analyseFn{})
	register.Emitter2[string, Rows]()
	register.Emitter1[string]()
	register.Iter1[Rows]()
	beam.RegisterType(reflect.TypeFor[Source]())
	beam.RegisterType(reflect.TypeFor[Rows]())
}

// Options are the scan's settings.
type Options struct {
	InputFormat string // as runaway scan's --input-format ("" is auto)
	Policy      detect.Policy
	// MaxRunBytes bounds the memory one run's analysis holds: its steps as
	// they crossed the shuffle (about 1.5 KB a step from generated logs)
	// are read into memory before the analysis. A run over it is not
	// analysed: its line says why, and the job goes on.
	MaxRunBytes int64
}

// DefaultMaxRunBytes is the bound on one run when Options leave it unset:
// about 350,000 steps.
const DefaultMaxRunBytes = 512 << 20

// Scan adds the scan of sources to the pipeline and returns the ndjson
// lines of the runs, one per run, and the dead letters (rejected lines and
// unreadable sources, as JSON lines), in no order.
func Scan(s beam.Scope, sources []Source, opts Options) (runs, deadLetters beam.PCollection) {
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = DefaultMaxRunBytes
	}
	s = s.Scope("runaway.Scan")
	names := make([]string, len(sources))
	for _, src := range sources {
		names[src.Index] = src.Name
	}
	srcs := beam.CreateList(s, sources)
	rows, deadLetters := beam.ParDo2(s, &readFn{InputFormat: opts.InputFormat, Policy: opts.Policy}, srcs)
	grouped := beam.GroupByKey(s, rows)
	runs = beam.ParDo(s, &analyseFn{Files: names, Policy: opts.Policy, MaxRunBytes: opts.MaxRunBytes}, grouped)
	return runs, deadLetters
}
