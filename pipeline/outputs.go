package pipeline

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/atomicfile"
	"github.com/runawayhq/runaway/report"
)

// output is one report a scan writes: --format to --out (or stdout), and
// each --output FORMAT=PATH. All are written from one analysis pass.
type output struct {
	format string
	path   string // "" or "-": stdout
	flag   string // what names it in messages: "--out r.txt", "--output json=r.json"
}

// streamedFormats are written run by run as results arrive, so a scan of
// any size holds none of them; the others need the summary (table, prom)
// or put it first (json), and are written at the end.
var streamedFormats = []string{"ndjson", "parquet"}

// OutputFormats are the formats ScanConfig.Outputs (--output) takes:
// junit, like json, is spooled as the runs arrive and written at the end,
// when its counts are known.
var OutputFormats = append(slices.Clone(report.Formats), "parquet", "prom", "junit")

// parseOutputs reads --output FORMAT=PATH values.
func parseOutputs(specs []string) ([]output, error) {
	var outs []output
	for _, spec := range specs {
		format, path, ok := strings.Cut(spec, "=")
		if !ok || path == "" {
			return nil, fmt.Errorf("--output %q: want FORMAT=PATH, FORMAT one of %s", spec, strings.Join(OutputFormats, ", "))
		}
		if !slices.Contains(OutputFormats, format) {
			return nil, fmt.Errorf("--output %q: unknown format %q; want one of %s", spec, format, strings.Join(OutputFormats, ", "))
		}
		outs = append(outs, output{format: format, path: path, flag: "--output " + spec})
	}
	return outs, nil
}

// streamSink writes one streamed output while the results arrive. Nothing
// is visible at path before commit: a failed or interrupted scan leaves no
// half-written report.
type streamSink struct {
	out    output
	dest   *destination
	buf    *bufio.Writer
	pq     *report.ParquetWriter
	closed bool
}

func openStreamSink(o output, stdout io.Writer) (*streamSink, error) {
	dest, err := openDestination(o.path, stdout)
	if err != nil {
		return nil, err
	}
	s := &streamSink{out: o, dest: dest}
	s.buf = bufio.NewWriterSize(dest.w, 64<<10)
	if o.format == "parquet" {
		pq, err := report.NewParquetWriter(s.buf)
		if err != nil {
			s.abort()
			return nil, err
		}
		s.pq = pq
	}
	return s, nil
}

func (s *streamSink) add(r *detect.RunResult) error {
	if s.pq != nil {
		return s.pq.Write(r)
	}
	return report.WriteRunNDJSON(s.buf, r)
}

func (s *streamSink) commit() error {
	s.closed = true
	if s.pq != nil {
		if err := s.pq.Close(); err != nil {
			s.abortFile()
			return err
		}
	}
	if err := s.buf.Flush(); err != nil {
		s.abortFile()
		return err
	}
	return s.dest.commit()
}

func (s *streamSink) abort() {
	if s.closed {
		return
	}
	s.closed = true
	if s.pq != nil {
		_ = s.pq.Close() // releases its buffers; the file is discarded below
	}
	s.abortFile()
}

func (s *streamSink) abortFile() { s.dest.abort() }

// writeFinal writes a report that needs the summary: table (scan holds the
// flagged runs), json and junit (their runs are in spools), html (overview
// holds the worst flagged runs), prom.
func writeFinal(o output, stdout io.Writer, scan *report.Scan, spool *report.JSONSpool, junit *report.JUnitSpool,
	overview *report.HTMLOverview, opts report.Options, timing report.ScanTiming) error {
	return WriteOutput(o.path, stdout, func(w io.Writer) error {
		switch o.format {
		case "prom":
			return report.WriteProm(w, &scan.Summary, timing)
		case "json":
			return spool.WriteDocument(w, scan.Summary)
		case "junit":
			return junit.WriteDocument(w)
		case "html":
			return overview.Write(w, &scan.Summary)
		}
		return report.Write(w, o.format, scan, opts)
	})
}

// scanTiming is the prom file's timing: wall time since start.
func scanTiming(start time.Time) report.ScanTiming {
	now := time.Now()
	return report.ScanTiming{Duration: now.Sub(start), Completed: now}
}

func countStdout(outs []output) int {
	n := 0
	for _, o := range outs {
		if toStdout(o.path) {
			n++
		}
	}
	return n
}

// WriteOutput writes a report to path atomically, or to stdout when path
// is "" or "-": a failed write leaves nothing at path.
func WriteOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	dest, err := openDestination(path, stdout)
	if err != nil {
		return err
	}
	if err := write(dest.w); err != nil {
		dest.abort()
		return err
	}
	return dest.commit()
}

// destination is where a report goes: stdout ("" or "-"), a file replaced
// atomically on commit, or a path that is not a regular file (/dev/null, a
// FIFO), written directly: there is nothing to replace atomically.
type destination struct {
	w    io.Writer
	file *atomicfile.File
	dev  *os.File
}

func openDestination(path string, stdout io.Writer) (*destination, error) {
	if path == "" || path == "-" {
		return &destination{w: stdout}, nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		dev, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &destination{w: dev, dev: dev}, nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &destination{w: f, file: f}, nil
}

func (d *destination) commit() error {
	switch {
	case d.file != nil:
		return d.file.Commit()
	case d.dev != nil:
		return d.dev.Close()
	}
	return nil
}

func (d *destination) abort() {
	if d.file != nil {
		d.file.Abort()
	}
	if d.dev != nil {
		_ = d.dev.Close()
	}
}

// toStdout reports whether path names stdout.
func toStdout(path string) bool { return path == "" || path == "-" }

// widthOn is the width a table written to path fits: width (the
// terminal's, 0 when stdout is not one) on stdout, none in a file, which
// is data.
func widthOn(path string, width int) int {
	if toStdout(path) {
		return width
	}
	return 0
}
