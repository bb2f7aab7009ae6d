package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyFixtureDir copies fixtures/<sub> into a temporary directory.
func copyFixtureDir(t *testing.T, sub string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join(fixturesDir, sub)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.WriteFile(filepath.Join(dst, e.Name()), readFile(t, filepath.Join(src, e.Name())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func TestVerifyProjectFixturesPass(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "verify", fixturesDir)
	if code != exitClean || !strings.Contains(stdout, "0 failed, 0 errors") || !strings.Contains(stdout, "causes/error-storm-one-call") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// A tampered want file fails verify with exit 1, and the difference is in
// the table and in the JUnit report.
func TestVerifyTamperedWantFile(t *testing.T) {
	dir := copyFixtureDir(t, "causes")
	tampered := filepath.Join(dir, "error-storm-one-call.want.json")
	os.WriteFile(tampered, []byte(strings.Replace(string(readFile(t, tampered)), `"root_cause": "error-storm"`, `"root_cause": "tool-retry-loop"`, 1)), 0o644)

	code, stdout, _ := runCLI(t, "", "verify", dir)
	if code != exitFindings {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, `root_cause: want "tool-retry-loop", got "error-storm"`) || !strings.Contains(stdout, "FAIL") {
		t.Errorf("table lacks the difference:\n%s", stdout)
	}

	code, stdout, _ = runCLI(t, "", "verify", "--format", "junit", dir)
	if code != exitFindings {
		t.Errorf("junit: exit %d, want 1", code)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("JUnit is not XML: %v", err)
	}
	failures := 0
	for _, c := range doc.Suites[0].Cases {
		if c.Failure != nil {
			failures++
			if c.Name != "error-storm-one-call" || c.Failure.Message != `root_cause: want "tool-retry-loop", got "error-storm"` {
				t.Errorf("failure %s: %q", c.Name, c.Failure.Message)
			}
		}
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if failures != 1 || len(doc.Suites[0].Cases) != len(entries) {
		t.Errorf("%d failures in %d testcases for %d fixtures", failures, len(doc.Suites[0].Cases), len(entries))
	}
}

// --update rewrites the want files that differ, says which, and leaves the
// others alone.
func TestVerifyUpdateRewritesOnlyWhatChanged(t *testing.T) {
	dir := copyFixtureDir(t, "detectors")
	tampered := filepath.Join(dir, "RA301.positive.want.json")
	original := readFile(t, tampered)
	os.WriteFile(tampered, []byte(strings.Replace(string(original), `"onset_step": `, `"onset_step": 1`, 1)), 0o644)
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	others, _ := filepath.Glob(filepath.Join(dir, "*.want.json"))
	for _, p := range others {
		if p != tampered {
			os.Chtimes(p, past, past)
		}
	}
	code, stdout, stderr := runCLI(t, "", "verify", "--update", dir)
	if code != exitClean {
		t.Fatalf("--update: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "updated "+tampered) || strings.Count(stderr, "updated ") != 1 {
		t.Errorf("stderr should name the one updated file:\n%s", stderr)
	}
	if got := readFile(t, tampered); string(got) != string(original) {
		t.Errorf("updated want file:\n%s\nwant\n%s", got, original)
	}
	for _, p := range others {
		if st, _ := os.Stat(p); p != tampered && !st.ModTime().Equal(past) {
			t.Errorf("%s was rewritten", p)
		}
	}
	if code, stdout, _ := runCLI(t, "", "verify", dir); code != exitClean {
		t.Errorf("after --update: exit %d\n%s", code, stdout)
	}
}

func TestVerifyExitCodes(t *testing.T) {
	healthy := copyFixtureDir(t, "healthy")
	noWant := copyFixtureDir(t, "healthy")
	os.Remove(filepath.Join(noWant, "volatile-ids.want.json"))
	broken := copyFixtureDir(t, "healthy")
	os.WriteFile(filepath.Join(broken, "seed001-minimal.jsonl"), []byte("{\"run_id\": \"x\", \"step\": \"zero\"}\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"verify", healthy}, exitClean, ""},
		{[]string{"verify", noWant}, exitFailure, "no want file"},
		{[]string{"verify", broken}, exitFailure, "seed001-minimal.jsonl:1"},
		{[]string{"verify", filepath.Join(healthy, "missing")}, exitFailure, "missing"},
		{[]string{"verify", t.TempDir()}, exitFailure, "no fixtures"},
		{[]string{"verify", "--exclude", "*", healthy}, exitFailure, "no fixtures"},
		{[]string{"verify"}, exitUsage, "name the fixture directories"},
		{[]string{"verify", "--format", "xml", healthy}, exitUsage, "--format"},
		{[]string{"verify", "--rejects", "x", healthy}, exitUsage, "--rejects"},
		{[]string{"verify", "--include", "[", healthy}, exitUsage, "pattern"},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stdout+stderr, c.msg) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", c.args, code, c.code, c.msg, stdout, stderr)
		}
	}
}

// Thresholds given to verify apply, as they do to scan: a fixture pinned
// under the default policy fails under another.
func TestVerifyHonoursPolicyFlags(t *testing.T) {
	dir := copyFixtureDir(t, "detectors")
	code, stdout, _ := runCLI(t, "", "verify", "--include", "RA101.positive.jsonl", dir)
	if code != exitClean || !strings.Contains(stdout, "1 fixtures: 1 passed") {
		t.Fatalf("--include: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "verify", "--include", "RA101.positive.jsonl", "--repeat-suspicious", "50", "--repeat-runaway", "60", dir)
	if code != exitFindings || !strings.Contains(stdout, "detectors: want [RA101") {
		t.Errorf("raised thresholds: exit %d\n%s", code, stdout)
	}
}
