package report

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// ParquetRowGroupRuns is how many runs a row group holds. The writer
// buffers that many runs' column values before encoding them, so it bounds
// the writer's memory; smaller groups cost file size (per-group metadata
// and dictionaries).
const ParquetRowGroupRuns = 16 << 10

// ParquetWriter writes runs as a Parquet file, one row per run, as they
// arrive: the nightly scan streams results and must not hold them all.
// docs/output.md lists the columns.
//
// The file is deterministic: the same runs in the same order give the same
// bytes (no timestamps; created_by names runaway's version).
type ParquetWriter struct {
	out       *sink
	layout    *runLayout
	fw        *parquet.Writer
	shred     shredder
	row       []parquet.Row
	groupRuns int // ParquetRowGroupRuns; tests lower it to see several groups
	err       error
	closed    bool
}

// NewParquetWriter starts a Parquet file on w. w is not closed by Close:
// the caller owns it (an atomic output file is committed or aborted by the
// caller).
func NewParquetWriter(w io.Writer) (*ParquetWriter, error) {
	layout, err := parquetLayout()
	if err != nil {
		return nil, err
	}
	return &ParquetWriter{out: &sink{w: w}, layout: layout, row: make([]parquet.Row, 1), groupRuns: ParquetRowGroupRuns}, nil
}

// start makes the library's writer on the first write or at Close, when
// tests have set groupRuns.
func (p *ParquetWriter) start() {
	if p.fw != nil {
		return
	}
	p.fw = parquet.NewWriter(p.out, p.layout.parquet,
		// Zstd: a fifth smaller than Snappy on the synth corpus at the
		// same write speed, and every reader that matters (DuckDB, Spark,
		// pyarrow, polars, BigQuery, Athena) decodes it. The file is
		// written once and read many times.
		parquet.Compression(&zstd.Codec{}),
		parquet.MaxRowsPerRowGroup(int64(p.groupRuns)),
		// Version 1 pages compress the levels with the values; version 2
		// stores them raw, which took BenchmarkParquetWrite's file from
		// 5.5 to 13.8 bytes a run.
		parquet.DataPageVersion(1),
		parquet.KeyValueMetadata("runaway.schema_version", schema.OutputVersion),
		parquet.KeyValueMetadata("runaway.version", schema.ProductVersion),
		parquet.CreatedBy("runaway", schema.ProductVersion, ""),
	)
}

// sink passes writes on to the caller's writer until one fails, then keeps
// that error and discards the rest, so that the library finishes on its
// normal paths and ParquetWriter reports the error. Having no Close method
// also keeps the library from closing the caller's file, which the caller
// commits or aborts.
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
	p.start()
	row, err := p.shred.row(p.layout, r, p.row[0])
	if err != nil {
		p.err = fmt.Errorf("report: parquet: run %q: %w", r.RunID, err)
		return p.err
	}
	p.row[0] = row
	if _, err := p.fw.WriteRows(p.row); err != nil {
		p.err = fmt.Errorf("report: parquet: %w", err)
	} else if p.out.err != nil {
		p.err = p.out.err
	}
	return p.err
}

// Close writes the buffered runs and the file footer. A file with no runs
// is valid: it has the columns and no row groups.
func (p *ParquetWriter) Close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.err != nil {
		return p.err
	}
	p.start()
	if err := p.fw.Close(); err != nil {
		p.err = fmt.Errorf("report: parquet: %w", err)
	}
	if p.err == nil {
		p.err = p.out.err
	}
	return p.err
}
