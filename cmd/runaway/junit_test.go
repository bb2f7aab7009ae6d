package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scan --output junit=FILE: one testcase per run, sorted by run id as
// ndjson is, the runs at or above --fail-on (default runaway) failed, the
// counts right, the same bytes every time.
func TestScanJUnitOutput(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "runaway.xml")
	code, nd, stderr := runCLI(t, "", "scan", "--format", "ndjson", "--output", "junit="+junit, fixturesDir)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var ids []string
	runaway, flagged := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(nd), "\n") {
		var r struct {
			RunID   string `json:"run_id"`
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.RunID)
		if r.Verdict == "runaway" {
			runaway++
		}
		if r.Verdict != "healthy" {
			flagged++
		}
	}
	type doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				ClassName string    `xml:"classname,attr"`
				Name      string    `xml:"name,attr"`
				Failure   *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	read := func(path string) (doc, []byte) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var d doc
		if err := xml.Unmarshal(b, &d); err != nil {
			t.Fatalf("%v:\n%s", err, b)
		}
		return d, b
	}
	d, first := read(junit)
	if d.Tests != len(ids) || d.Suite.Tests != len(ids) || d.Failures != runaway || d.Suite.Failures != runaway || len(d.Suite.Cases) != len(ids) {
		t.Fatalf("tests %d/%d failures %d/%d cases %d; want %d runs, %d runaway", d.Tests, d.Suite.Tests, d.Failures, d.Suite.Failures, len(d.Suite.Cases), len(ids), runaway)
	}
	failed := 0
	for i, c := range d.Suite.Cases {
		if c.ClassName != "runaway" || c.Name != ids[i] {
			t.Fatalf("case %d: %s %s, want runaway %s (run-id order)", i, c.ClassName, c.Name, ids[i])
		}
		if c.Failure != nil {
			failed++
		}
	}
	if failed != runaway {
		t.Fatalf("%d failure elements, %d runaway runs", failed, runaway)
	}
	// The same input, the same bytes, whatever the workers.
	if code, _, stderr := runCLI(t, "", "scan", "--workers", "1", "--output", "junit="+junit, fixturesDir); code != exitClean {
		t.Fatal(stderr)
	}
	if _, again := read(junit); !bytes.Equal(first, again) {
		t.Fatal("two scans of the same input give different junit bytes")
	}
	// --fail-on sets what fails in the report as in the exit code.
	if code, _, _ := runCLI(t, "", "scan", "--fail-on", "suspicious", "--output", "junit="+junit, fixturesDir); code != exitFindings {
		t.Fatalf("--fail-on suspicious: exit %d", code)
	}
	if d, _ := read(junit); d.Failures != flagged {
		t.Fatalf("--fail-on suspicious: %d failures, want %d flagged runs", d.Failures, flagged)
	}
	if code, _, _ := runCLI(t, "", "scan", "--fail-on", "never", "--output", "junit="+junit, fixturesDir); code != exitClean {
		t.Fatalf("--fail-on never: exit %d", code)
	}
	if d, _ := read(junit); d.Failures != 0 || d.Tests != len(ids) {
		t.Fatalf("--fail-on never: %d failures of %d", d.Failures, d.Tests)
	}
}
