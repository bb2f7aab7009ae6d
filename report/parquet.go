package report

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// ParquetRowGroupRuns is how many runs a row group holds. The writer
// buffers that many in Arrow builders before encoding them, so it bounds the
// writer's memory: measured on the synth corpus (33,731 runs), a peak of
// 15 MiB with groups of 16,384 runs against 37 MiB for one group of all
// (about 72 MiB at 64Ki runs), next to a scan that peaks near 300 MiB per
// GB of logs. Smaller groups cost file size (per-group metadata and
// dictionaries): +2% here against one group, +29% at 1,024 runs.
const ParquetRowGroupRuns = 16 << 10

// ParquetWriter writes runs as a Parquet file, one row per run, as they
// arrive: the nightly scan streams results and must not hold them all.
// docs/output.md lists the columns.
//
// The file is deterministic: the same runs in the same order give the same
// bytes (no timestamps; created_by names only the library version).
type ParquetWriter struct {
	out       *sink
	layout    *runLayout
	fw        *pqarrow.FileWriter
	rb        *array.RecordBuilder
	rows      int
	groupRuns int // ParquetRowGroupRuns; tests lower it to see several groups
	err       error
	closed    bool
}

// NewParquetWriter starts a Parquet file on w. Every Arrow and Parquet
// buffer comes from alloc. w is not closed by Close: the caller owns it (an
// atomic output file is committed or aborted by the caller).
func NewParquetWriter(w io.Writer, alloc memory.Allocator) (*ParquetWriter, error) {
	if alloc == nil {
		return nil, errors.New("report: parquet: nil allocator")
	}
	layout, err := parquetLayout()
	if err != nil {
		return nil, err
	}
	md := arrow.NewMetadata(
		[]string{"runaway.schema_version", "runaway.version"},
		[]string{schema.OutputVersion, schema.ProductVersion},
	)
	sc := arrow.NewSchema(layout.schema.Fields(), &md)
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(alloc),
		// Zstd: a fifth smaller than Snappy on the synth corpus (76 against
		// 96 bytes per run) at the same write speed, and every reader that
		// matters (DuckDB, Spark, pyarrow, polars, BigQuery, Athena)
		// decodes it. The file is written once and read many times.
		parquet.WithCompression(compress.Codecs.Zstd),
	)
	out := &sink{w: w}
	fw, err := pqarrow.NewFileWriter(sc, out, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(alloc)))
	if err != nil {
		return nil, fmt.Errorf("report: parquet: %w", err)
	}
	if out.err != nil {
		fw.Close()
		return nil, out.err
	}
	return &ParquetWriter{
		out:       out,
		layout:    layout,
		fw:        fw,
		rb:        array.NewRecordBuilder(alloc, sc),
		groupRuns: ParquetRowGroupRuns,
	}, nil
}

// sink passes writes on to the caller's writer until one fails, then keeps
// that error and discards the rest. pqarrow (arrow-go v18.8.0) leaves
// column buffers allocated when its writer fails mid row group, so it is
// never shown a failure: it finishes on its normal paths and ParquetWriter
// reports the error. Having no Close method also keeps pqarrow from closing
// the caller's file, which the caller commits or aborts.
type sink struct {
	w   io.Writer
	err error
}

func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return len(p), nil
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.err = fmt.Errorf("report: parquet: %w", err)
	}
	return len(p), nil
}

// Write adds one run. Runs are written in the order given; for a
// deterministic file give them sorted by run_id, as detect's Collector.Stream
// does. After an error the writer is unusable and Write and Close return
// that error.
func (p *ParquetWriter) Write(r *detect.RunResult) error {
	if p.err != nil {
		return p.err
	}
	if p.closed {
		return errors.New("report: parquet: write after Close")
	}
	for i, c := range p.layout.columns {
		if err := c.append(p.rb.Field(i), r); err != nil {
			// The row is half appended: nothing more can be written.
			p.err = fmt.Errorf("report: parquet: run %q: column %s: %w", r.RunID, c.field.Name, err)
			return p.err
		}
	}
	p.rows++
	if p.rows >= p.groupRuns {
		return p.flush()
	}
	return nil
}

// flush writes the buffered runs as one row group.
func (p *ParquetWriter) flush() error {
	if p.rows == 0 {
		return nil
	}
	rec := p.rb.NewRecordBatch()
	defer rec.Release()
	p.rows = 0
	if err := p.fw.Write(rec); err != nil {
		p.err = fmt.Errorf("report: parquet: %w", err)
	} else if p.out.err != nil {
		p.err = p.out.err
	}
	return p.err
}

// Close writes the buffered runs and the file footer and frees every
// buffer, also after an error. A file with no runs is valid: it has the
// columns and no row groups.
func (p *ParquetWriter) Close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.err == nil {
		p.flush()
	}
	p.rb.Release()
	// Closed even after an error: pqarrow frees its buffers in Close. Its
	// error matters only when nothing failed before.
	if err := p.fw.Close(); err != nil && p.err == nil {
		p.err = fmt.Errorf("report: parquet: %w", err)
	}
	if p.err == nil {
		p.err = p.out.err
	}
	return p.err
}
