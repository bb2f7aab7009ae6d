package report

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/tmpfiles"
)

// JSONSpool writes the json document of a scan whose runs arrive one at a
// time, without holding them: each run is encoded into a spool file as it
// comes, and WriteDocument writes the head (with the summary, known only at
// the end) and then copies the spool. The document is byte-identical to
// Write's json.
type JSONSpool struct {
	file *os.File
	buf  *bufio.Writer
	runs int
	line []byte // a run's json, its buffer kept for the next
}

// spoolBase starts a spool file's name, which tmpfiles completes with the
// pid: runaway-json-<pid>-<random>.spool.
const spoolBase = "runaway-json-"

// RemoveStaleSpools removes the spool files of processes that no longer
// exist left in dir ("" is os.TempDir()), killed before they could
// (tmpfiles.RemoveStale), and returns their paths.
func RemoveStaleSpools(dir string) []string { return tmpfiles.RemoveStale(dir, spoolBase) }

// NewJSONSpool spools into a new temporary file in dir ("" is the system's
// temporary directory); Close removes it.
func NewJSONSpool(dir string) (*JSONSpool, error) {
	f, err := os.CreateTemp(dir, tmpfiles.Prefix(spoolBase)+"*.spool")
	if err != nil {
		return nil, err
	}
	return &JSONSpool{file: f, buf: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Add encodes one run, in the order they are to appear.
func (s *JSONSpool) Add(r *detect.RunResult) error {
	var err error
	s.line, err = appendRunJSONIndented(s.line[:0], r)
	if err != nil {
		return fmt.Errorf("run %q: %w", r.RunID, err)
	}
	if s.runs > 0 {
		s.buf.WriteByte(',')
	}
	s.runs++
	s.buf.WriteString("\n" + jsonRunPrefix)
	_, err = s.buf.Write(s.line)
	return err
}

// WriteDocument writes the whole document to w.
func (s *JSONSpool) WriteDocument(w io.Writer, summary Summary) error {
	if err := s.buf.Flush(); err != nil {
		return err
	}
	head, err := encodeJSON(newJSONHead(summary))
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head[:len(head)-2]) // the head ends in "\n}"; the runs continue the object
	bw.WriteString(",\n" + jsonIndent + `"runs": [`)
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(bw, s.file); err != nil {
		return err
	}
	if s.runs > 0 {
		bw.WriteString("\n" + jsonIndent)
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// Close removes the spool file.
func (s *JSONSpool) Close() error {
	name := s.file.Name()
	err := s.file.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
