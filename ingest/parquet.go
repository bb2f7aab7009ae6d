package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"

	"github.com/runawayhq/runaway/ingest/adapters"
	"github.com/runawayhq/runaway/schema"
)

// Parquet input. A source whose bytes open with Parquet's magic is read as
// a table, a chunk of rows at a time assembled into an Arrow record batch
// (parquetrows.go): runaway's steps (a column per field, tablesteps.go), or
// the rows of a tracing export whose adapter reads tables (Langfuse's blob
// storage export, LangSmith's bulk export). A row's number stands for a
// line's: rejects and src_line name the 1-based row.

// FormatParquetSteps names runaway's steps read from a Parquet table in
// Stats.Formats.
const FormatParquetSteps = "parquet"

var parquetMagic = []byte("PAR1")

// isParquet reports whether a source's first bytes open a Parquet file.
func isParquet(head []byte) bool { return bytes.HasPrefix(head, parquetMagic) }

// lockedReaderAt reads at offsets through a Seek and a Read (an object
// store's reader), one at a time: the Parquet reader wants ReadAt.
type lockedReaderAt struct {
	mu sync.Mutex
	rs io.ReadSeeker
}

func (l *lockedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.rs.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	return io.ReadFull(l.rs, p)
}

// randomAccess is what a reader of a container read at offsets (a
// Parquet file, a zip archive) reads: the file itself when it can be read
// at offsets (a local file, an object), else its bytes in memory (a pipe,
// a compressed file), up to MaxDocBytes. what names the container in the
// error of one that is too big.
func (f *framer) randomAccess(rc io.ReadCloser, what string) (io.ReaderAt, int64, error) {
	if f.format == "" {
		switch r := rc.(type) {
		case interface {
			io.ReaderAt
			io.Seeker
		}:
			size, err := r.Seek(0, io.SeekEnd)
			return r, size, err
		case io.ReadSeeker:
			size, err := r.Seek(0, io.SeekEnd)
			return &lockedReaderAt{rs: r}, size, err
		}
	}
	buf := bytes.NewBuffer(bytes.Clone(f.blk.buf[f.pos:f.end]))
	if f.readErr == nil {
		n, err := io.Copy(buf, io.LimitReader(f.in, int64(f.maxDoc)+1-int64(buf.Len())))
		f.bytes += n
		if err != nil {
			return nil, 0, err
		}
		if buf.Len() > f.maxDoc {
			return nil, 0, fmt.Errorf("a %s read from a stream or a compressed file is held whole, and this one is over %d bytes: name the file uncompressed", what, f.maxDoc)
		}
	} else if f.readErr != io.EOF {
		return nil, 0, f.readErr
	}
	return bytes.NewReader(buf.Bytes()), int64(buf.Len()), nil
}

// frameTable reads a Parquet source a chunk of rows at a time and hands
// each chunk to the workers as a record batch.
func (f *framer) frameTable(rc io.ReadCloser) (ok bool) {
	fail := func(err error) bool {
		return f.send(&item{kind: itemSourceFailed, src: f.src, name: f.name, err: err, bytes: f.bytes})
	}
	var asm *tableAssembler
	defer func() {
		// The Parquet reader trusts the file's metadata further than a
		// hostile file deserves: a panic in it is a file that cannot be read.
		if p := recover(); p != nil {
			ok = fail(fmt.Errorf("not a readable Parquet file: %v", p))
		}
		if asm != nil {
			asm.release()
		}
	}()
	in, size, err := f.randomAccess(rc, "Parquet file")
	if err != nil {
		return fail(err)
	}
	pf, err := parquet.OpenFile(in, size, parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true), parquet.ReadBufferSize(1<<20))
	if err != nil {
		return fail(fmt.Errorf("not a readable Parquet file: %v", err))
	}
	if err := checkTableLayout(pf, size); err != nil {
		return fail(fmt.Errorf("not a readable Parquet file: %v", err))
	}
	layout, err := newTableLayout(pf.Schema())
	if err != nil {
		return fail(fmt.Errorf("Parquet: %v", err))
	}
	var kind *tableKind
	if _, ok := pf.Lookup("runaway.schema_version"); ok {
		// What scan --output parquet writes: a row a run, not a step.
		kind = &tableKind{why: "runaway's own report of runs (scan --output parquet), not steps: scan the logs it was made from"}
	}
	asm = newTableAssembler(layout, f.alloc)
	rows := make([]parquet.Row, max(f.batchRows, 1))
	row := int64(1)
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		for {
			if f.stopped() {
				rr.Close()
				return false
			}
			n, err := rr.ReadRows(rows)
			if n == 0 && err == nil {
				err = errors.New("the reader returned no rows and no error")
			}
			for i := range n {
				if aerr := asm.add(rows[i]); aerr != nil {
					rr.Close()
					return fail(fmt.Errorf("Parquet, row %d: %v", row+int64(i), aerr))
				}
			}
			if n > 0 {
				rec := asm.batch()
				if kind == nil {
					kind = f.tableKindOf(rec)
				}
				it := &item{kind: itemChunk, src: f.src, name: f.name, firstLine: row, table: rec, tableKind: kind}
				row += int64(n)
				if !f.send(it) {
					rr.Close()
					return false
				}
			}
			if err != nil {
				rr.Close()
				if errors.Is(err, io.EOF) {
					break
				}
				return fail(fmt.Errorf("Parquet, after row %d: %v", row-1, err))
			}
		}
	}
	return f.send(&item{kind: itemSourceEnd, src: f.src, name: f.name, bytes: size})
}

// checkTableLayout checks what the Parquet reader trusts in a file's
// metadata before it reads a page: every column chunk lies inside the
// file, and counts are not negative, so that a lying footer is refused
// before it sizes a buffer.
func checkTableLayout(pf *parquet.File, size int64) error {
	md := pf.Metadata()
	for rg, g := range md.RowGroups {
		if g.NumRows < 0 {
			return fmt.Errorf("row group %d has %d rows", rg, g.NumRows)
		}
		for c, col := range g.Columns {
			m := col.MetaData
			start := m.DataPageOffset
			if m.DictionaryPageOffset > 0 && start > m.DictionaryPageOffset {
				start = m.DictionaryPageOffset
			}
			n := m.TotalCompressedSize
			if start < int64(len(parquetMagic)) || n < 0 || start > size || n > size-start || m.NumValues < 0 {
				return fmt.Errorf("row group %d, column %d lies outside the file (%d bytes at offset %d of %d)", rg, c, n, start, size)
			}
		}
	}
	return nil
}

// tableKind is how a table's rows are read: as runaway's steps, or by a
// tracing format's adapter; why, when neither, says why for every row.
type tableKind struct {
	format *adapters.Format // nil: runaway's steps (unless why is set)
	// docs: each row is one document of format, a JSON object of its
	// columns, read as a line of a JSON Lines file is (a dataset of agent
	// runs published as Parquet: a run a row).
	docs bool
	why  string
}

// tableKindOf decides from the columns and the first row: a forced
// --input-format, else a run_id column for runaway's steps, else the
// adapter that recognises the first row.
func (f *framer) tableKindOf(rec arrow.RecordBatch) *tableKind {
	forced := f.inputFormat
	switch {
	case forced == FormatSteps:
		return &tableKind{}
	case forced != "" && forced != FormatAuto:
		a := adapters.Lookup(forced)
		return &tableKind{format: a, docs: !a.Tables}
	}
	// A run_id column with a step column is runaway's steps; a run_id
	// column alone may be a dataset's own (nativeStep): its rows are
	// steps only when no adapter reads them.
	hasRunID := len(rec.Schema().FieldIndices("run_id")) > 0
	if hasRunID && len(rec.Schema().FieldIndices("step")) > 0 {
		return &tableKind{}
	}
	members, err := rowMembers(rec, 0)
	if err == nil {
		var a *adapters.Format
		if a, err = adapters.DetectRow(adapters.RowDoc(f.name, 1, members)); err == nil {
			return &tableKind{format: a}
		}
		// A run a row: the row's columns are a document an adapter reads.
		if d, perr := adapters.ParseDoc(f.name, 1, false, rowJSON(rec, 0)); perr == nil {
			if a, derr := guarded("", func() (*adapters.Format, error) { return adapters.Detect(d) }); derr == nil {
				return &tableKind{format: a, docs: true}
			}
		}
	}
	if hasRunID {
		return &tableKind{}
	}
	names := make([]string, rec.NumCols())
	for i := range names {
		names[i] = rec.ColumnName(i)
	}
	return &tableKind{why: fmt.Sprintf("a Parquet table whose columns (%s) are not runaway's steps (no run_id column) and %v", clipText(strings.Join(names, ", "), 200), err)}
}

// rowMembers is row i as a record's members: each column's value as JSON.
func rowMembers(rec arrow.RecordBatch, i int) (map[string]json.RawMessage, error) {
	m := make(map[string]json.RawMessage, rec.NumCols())
	for k := 0; k < int(rec.NumCols()); k++ {
		name := rec.ColumnName(k)
		v, err := appendArrowJSON(nil, rec.Column(k), i, name)
		if err != nil {
			return nil, err
		}
		m[name] = v
	}
	return m, nil
}

// rowJSON is row i as one JSON object, its columns in order: what the
// rejects file keeps of a row that could not be read.
func rowJSON(rec arrow.RecordBatch, i int) []byte {
	b := []byte{'{'}
	for k := 0; k < int(rec.NumCols()); k++ {
		if k > 0 {
			b = append(b, ',')
		}
		name := rec.ColumnName(k)
		b = append(schema.AppendJSONString(b, name), ':')
		v, err := appendArrowJSON(nil, rec.Column(k), i, name)
		if err != nil {
			v = schema.AppendJSONString(nil, "unreadable: "+err.Error())
		}
		b = append(b, v...)
	}
	return append(b, '}')
}

// decodeTable decodes a chunk of rows of a Parquet source.
func decodeTable(dec *LineDecoder, w *batchWriter, it *item, batchRows int, strip bool, spans *spanStore) {
	res := &it.result
	rec, kind := it.table, it.tableKind
	n := int(rec.NumRows())
	res.lines += int64(n)
	src := int32(it.src)
	reject := func(i int, kind, reason string) {
		res.rejects = append(res.rejects, lineReject{line: it.firstLine + int64(i), kind: kind, reason: reason, raw: rowJSON(rec, i)})
	}
	switch {
	case kind.why != "":
		for i := range n {
			reject(i, KindUnknownFormat, kind.why)
		}
	case kind.docs:
		a := &adaptedDecoder{dec: dec, w: w, batchRows: batchRows, res: res, src: src, strip: strip, spans: spans}
		for i := range n {
			a.document(it.name, it.firstLine+int64(i), false, rowJSON(rec, i), kind.format)
		}
	case kind.format != nil:
		a := &adaptedDecoder{dec: dec, w: w, batchRows: batchRows, res: res, src: src, strip: strip, spans: spans}
		for i := range n {
			members, err := rowMembers(rec, i)
			if err != nil {
				reject(i, KindWrongType, err.Error())
				continue
			}
			d := adapters.RowDoc(it.name, it.firstLine+int64(i), members)
			d.StripOutput = strip
			_, err = guarded(kind.format.Name, func() (struct{}, error) { return struct{}{}, a.rowSpans(d, kind.format) })
			var crash *crashError
			switch {
			case errors.As(err, &crash):
				// A row's spans are added only once all were converted:
				// nothing of it is half kept.
				reject(i, KindInternal, crash.reason)
			case err != nil:
				reject(i, KindAdapter, kind.format.Name+": "+err.Error())
			}
		}
	default:
		t := bindSteps(rec)
		a := &adaptedDecoder{dec: dec, w: w, batchRows: batchRows, res: res, src: src}
		var s schema.Step
		var scratch []byte
		for i := range n {
			line := it.firstLine + int64(i)
			if err := t.row(&s, i, &scratch); err != nil {
				reject(i, KindWrongType, err.Error())
				continue
			}
			lerr := a.count(dec.decodeStep(w, &s, 0, src, line), line, func() []byte {
				raw, _ := adapters.AppendStepJSON(nil, &s)
				return raw
			})
			if lerr != nil {
				reject(i, lerr.Kind, lerr.Reason)
			}
		}
		if res.steps > 0 {
			res.countFormat(FormatParquetSteps, res.steps)
		}
	}
	if w.rows > 0 {
		res.batch = w.newBatch()
	}
}

// rowSpans holds the spans of one row, all or none.
func (a *adaptedDecoder) rowSpans(d *adapters.Doc, format *adapters.Format) error {
	if err := format.Recognize(d); err != nil {
		return fmt.Errorf("not a %s row: %v", format.Name, err)
	}
	a.docSpans = a.docSpans[:0]
	err := format.Spans(d, func(sp *adapters.Span) error {
		a.docSpans = append(a.docSpans, *sp)
		return nil
	})
	if err == nil {
		err = a.spans.add(a.docSpans, format.Name, a.src, d.Line)
	}
	if err != nil {
		return err
	}
	if len(a.docSpans) > 0 {
		a.res.spans += int64(len(a.docSpans))
		a.res.countFormat(format.Name, 0)
	}
	return nil
}
