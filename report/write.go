package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// Scan is everything a report shows: the summary and every run.
type Scan struct {
	Summary Summary
	// Runs are sorted by RunID; the caller guarantees it, and the json and
	// ndjson renderers keep that order.
	Runs []detect.RunResult
}

// Options tune the human-facing table; the json formats ignore them.
type Options struct {
	// Color paints verdict words. The caller decides (terminal, NO_COLOR).
	Color bool
	// MaxRows caps the table of flagged runs; 0 shows them all (html: at
	// most DefaultHTMLRuns).
	MaxRows int
	// Width is the terminal's, which the table fits by cutting its
	// evidence (Table.Fit); 0, for a file or a pipe, cuts nothing.
	Width int
}

// Formats lists the formats Write accepts, for flag help and validation.
var Formats = []string{"table", "json", "ndjson", "html"}

// Write renders scan in format to w. Output is buffered; the error is the
// first write error, so a failed write (a full disk, a closed pipe) is never
// silent.
func Write(w io.Writer, format string, scan *Scan, opts Options) error {
	if scan == nil {
		return errors.New("report: nil scan")
	}
	var render func(*bufio.Writer, *Scan, Options) error
	switch format {
	case "table":
		render = writeTable
	case "json":
		render = writeJSON
	case "ndjson":
		render = writeNDJSON
	case "html":
		render = writeHTML
	default:
		return fmt.Errorf("unknown format %q (want one of: %s)", format, strings.Join(Formats, ", "))
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := render(bw, scan, opts); err != nil {
		return err
	}
	return bw.Flush()
}
