package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// junitDoc is the JUnit document as a CI reads it back.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suite    struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func writeJUnit(t *testing.T, runs []detect.RunResult, failAt *detect.Verdict) []byte {
	t.Helper()
	s, err := NewJUnitSpool(t.TempDir(), failAt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range runs {
		if err := s.Add(&runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := s.WriteDocument(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func parseJUnit(t *testing.T, b []byte) junitDoc {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("the JUnit document does not parse: %v\n%s", err, b)
	}
	return doc
}

// One testcase per run in run-id order, a failure per run at or above the
// level with the headline as message and the why in the text; the counts
// say so; the bytes are the golden file's.
func TestJUnitGolden(t *testing.T) {
	runaway := detect.Runaway
	got := writeJUnit(t, sampleScan().Runs, &runaway)
	doc := parseJUnit(t, got)
	var flagged, failed int
	for _, r := range sampleScan().Runs {
		if r.Verdict == detect.Runaway {
			failed++
		}
		if r.Verdict > detect.Healthy {
			flagged++
		}
	}
	if doc.Tests != len(sampleScan().Runs) || doc.Suite.Tests != doc.Tests || doc.Failures != failed || doc.Suite.Failures != failed || len(doc.Suite.Cases) != doc.Tests {
		t.Fatalf("counts: %+v", doc)
	}
	for i, c := range doc.Suite.Cases {
		r := sampleScan().Runs[i]
		if c.ClassName != "runaway" || c.Name != r.RunID {
			t.Errorf("case %d: %s %s, want runaway %s", i, c.ClassName, c.Name, r.RunID)
		}
		if (c.Failure != nil) != (r.Verdict == detect.Runaway) {
			t.Errorf("run %s (%s): failure %v", r.RunID, r.Verdict, c.Failure != nil)
		}
		if c.Failure != nil {
			if c.Failure.Message != sanitize(r.Headline) || !strings.Contains(c.Failure.Text, "root cause: "+string(r.RootCause)) ||
				!strings.Contains(c.Failure.Text, "onset step: ") || !strings.Contains(c.Failure.Text, "wasted: ") ||
				!strings.Contains(c.Failure.Text, "guard: "+r.Findings[0].Guard) {
				t.Errorf("run %s: failure %+v", r.RunID, c.Failure)
			}
		}
	}
	path := filepath.Join("testdata", "scan.junit")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("scan.junit differs from the golden file (run with -update after checking):\n%s", got)
	}
	// --fail-on suspicious fails the suspicious runs too; never, none.
	suspicious := detect.Suspicious
	if doc := parseJUnit(t, writeJUnit(t, sampleScan().Runs, &suspicious)); doc.Failures != flagged {
		t.Errorf("fail at suspicious: %d failures, want %d", doc.Failures, flagged)
	}
	if doc := parseJUnit(t, writeJUnit(t, sampleScan().Runs, nil)); doc.Failures != 0 || doc.Tests != len(sampleScan().Runs) {
		t.Errorf("fail never: %d failures of %d", doc.Failures, doc.Tests)
	}
	if doc := parseJUnit(t, writeJUnit(t, nil, &runaway)); doc.Tests != 0 || len(doc.Suite.Cases) != 0 {
		t.Errorf("no runs: %+v", doc)
	}
}

// Run ids and headlines are hostile data: markup characters round-trip
// exactly, and control characters, which XML 1.0 cannot hold at all, come
// back as the visible escapes the table shows, never raw.
func TestJUnitEscapesHostileText(t *testing.T) {
	markup := `a<b>&"c'` + "]]>"
	controls := "ctl\x00\x07\x1b[2J\x0b\x0c\x7f\u0085 bidi\u202e end\xff"
	runs := []detect.RunResult{
		{RunID: markup, Verdict: detect.Runaway, OnsetStep: 1, Headline: markup + " " + controls,
			Findings: []detect.Finding{{Guard: "guard <x> & \"y\""}}},
		{RunID: controls, Verdict: detect.Runaway, OnsetStep: 2, Headline: controls},
	}
	runaway := detect.Runaway
	b := writeJUnit(t, runs, &runaway)
	for i, c := range string(b) {
		if (c < 0x20 && c != '\n') || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u202e' || c == '\uFFFD' {
			t.Fatalf("raw control or replaced character %U at byte %d: %q", c, i, b[max(0, i-30):min(len(b), i+30)])
		}
	}
	doc := parseJUnit(t, b)
	if len(doc.Suite.Cases) != 2 {
		t.Fatalf("cases: %+v", doc.Suite.Cases)
	}
	first, second := doc.Suite.Cases[0], doc.Suite.Cases[1]
	if first.Name != markup || !strings.HasPrefix(first.Failure.Message, markup+" ") || !strings.Contains(first.Failure.Text, `guard: guard <x> & "y"`) {
		t.Errorf("markup does not round-trip: %+v", first)
	}
	if second.Name != sanitize(controls) || !strings.Contains(second.Name, `\x1b[2J`) || second.Failure.Message != sanitize(controls) {
		t.Errorf("control characters: name %q, message %q", second.Name, second.Failure.Message)
	}
}
