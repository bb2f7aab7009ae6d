package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// JUnit XML of a scan, for CI systems that show test reports (GitHub
// Actions reporters, GitLab, Jenkins, CircleCI): one testsuite, one
// testcase per run (classname "runaway", name the run id), a failure for
// each run at or above the level given (its message the headline, its
// text the root cause, onset, waste and the guard that would have stopped
// it). The same shape as runaway verify's. No timestamps or durations
// (time is 0): a run has no test time of its own, and the same input gives
// the same bytes.

type junitCase struct {
	XMLName   xml.Name      `xml:"testcase"`
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"` // lines, kept as lines (encoding/xml splits a "]]>" in it)
}

// JUnitSpool writes the JUnit document of a scan whose runs arrive one at
// a time, without holding them, as JSONSpool does: the testcases go to a
// spool file, and WriteDocument writes the counts, known only at the end,
// then copies them.
type JUnitSpool struct {
	file     *os.File
	buf      *bufio.Writer
	failAt   detect.Verdict // runs at or above it fail, unless never
	never    bool
	tests    int
	failures int
}

// NewJUnitSpool spools into a new temporary file in dir ("" is the system's
// temporary directory); runs at or above failAt are failures, none when
// failAt is nil. Close removes the file.
func NewJUnitSpool(dir string, failAt *detect.Verdict) (*JUnitSpool, error) {
	f, err := os.CreateTemp(dir, "runaway-junit-*.spool")
	if err != nil {
		return nil, err
	}
	s := &JUnitSpool{file: f, buf: bufio.NewWriterSize(f, 64<<10), never: failAt == nil}
	if failAt != nil {
		s.failAt = *failAt
	}
	return s, nil
}

// Add encodes one run's testcase, in the order they are to appear (by run
// id, as ndjson).
func (s *JUnitSpool) Add(r *detect.RunResult) error {
	c := junitCase{ClassName: "runaway", Name: xmlSafe(r.RunID), Time: "0"}
	if !s.never && r.Verdict >= s.failAt && r.Verdict > detect.Healthy {
		c.Failure = &junitFailure{Message: xmlSafe(r.Headline), Type: r.Verdict.String(), Text: junitFailureText(r)}
		s.failures++
	} else if r.Verdict > detect.Healthy {
		c.SystemOut = xmlSafe(r.Verdict.String() + ": " + r.Headline)
	}
	s.tests++
	b, err := xml.MarshalIndent(c, "    ", "  ")
	if err != nil {
		return fmt.Errorf("run %q: %w", r.RunID, err)
	}
	s.buf.WriteString("\n")
	_, err = s.buf.Write(b)
	return err
}

// junitFailureText is what a CI shows under a failed run: the why, where,
// what it cost and what would have stopped it, a line each; the text from
// the log in it is made safe (xmlSafe).
func junitFailureText(r *detect.RunResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: %s\nroot cause: %s\n", r.Verdict, xmlSafe(rootCauseLabel(r.RootCause)))
	if r.OnsetStep >= 0 {
		fmt.Fprintf(&b, "onset step: %d\n", r.OnsetStep)
	}
	fmt.Fprintf(&b, "wasted: %s of %s steps, %s tokens, %s\n", formatCount(r.WastedSteps), formatCount(r.Steps),
		formatCount(r.WastedTokens), formatCost(r.WastedCostUSD, r.CostLogged, r.CostEstimated))
	if len(r.Findings) > 0 {
		fmt.Fprintf(&b, "guard: %s\n", xmlSafe(r.Findings[0].Guard))
	}
	fmt.Fprintf(&b, "explain: runaway explain %s PATH...\n", xmlSafe(r.RunID))
	return b.String()
}

// xmlSafe makes text from a log safe for XML 1.0: control characters,
// which XML 1.0 cannot hold even as references, and invalid bytes become
// the visible escapes the table shows (Sanitize); encoding/xml escapes the
// markup characters.
func xmlSafe(s string) string { return sanitize(s) }

// WriteDocument writes the whole document to w: the head with the
// counts, then the spooled testcases, copied.
func (s *JUnitSpool) WriteDocument(w io.Writer) error {
	if err := s.buf.Flush(); err != nil {
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(xml.Header)
	fmt.Fprintf(bw, "<testsuites name=\"runaway scan\" tests=\"%d\" failures=\"%d\" errors=\"0\" time=\"0\">\n", s.tests, s.failures)
	fmt.Fprintf(bw, "  <testsuite name=\"runaway scan\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"0\">", s.tests, s.failures)
	if _, err := io.Copy(bw, s.file); err != nil {
		return err
	}
	bw.WriteString("\n  </testsuite>\n</testsuites>\n")
	return bw.Flush()
}

// Close removes the spool file.
func (s *JUnitSpool) Close() error {
	name := s.file.Name()
	err := s.file.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
