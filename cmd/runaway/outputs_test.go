package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// One pass writes every output: the streamed ones equal what --format
// gives on stdout, and the summary ones agree with it.
func TestOutputsAreWrittenFromOnePass(t *testing.T) {
	dir := t.TempDir()
	nd, pq, prom, js := filepath.Join(dir, "runs.ndjson"), filepath.Join(dir, "runs.parquet"), filepath.Join(dir, "runaway.prom"), filepath.Join(dir, "scan.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", "../../fixtures/", "--output", "ndjson=" + nd, "--output", "parquet=" + pq,
		"--output", "prom=" + prom, "--output", "json=" + js}, strings.NewReader(""), &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	table := stdout.String()
	stdout.Reset()
	if code := run([]string{"scan", "../../fixtures/", "--format", "ndjson"}, strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatal(stderr.String())
	}
	if got, _ := os.ReadFile(nd); !bytes.Equal(got, stdout.Bytes()) || len(got) == 0 {
		t.Fatalf("--output ndjson differs from --format ndjson (%d vs %d bytes)", len(got), stdout.Len())
	}
	runs := strings.Count(stdout.String(), "\n")
	promText, _ := os.ReadFile(prom)
	if !strings.Contains(string(promText), "runaway_runs_scanned "+strconv.Itoa(runs)+"\n") {
		t.Fatalf("prom does not count %d runs:\n%s", runs, promText)
	}
	if data, _ := os.ReadFile(pq); len(data) < 8 || string(data[:4]) != "PAR1" || string(data[len(data)-4:]) != "PAR1" {
		t.Fatalf("parquet file is not a parquet file (%d bytes)", len(data))
	}
	if data, _ := os.ReadFile(js); !bytes.Contains(data, []byte(`"runs": `+strconv.Itoa(runs))) && !bytes.Contains(data, []byte(`"runs":`+strconv.Itoa(runs))) {
		t.Fatalf("json summary does not count %d runs", runs)
	}
	if !strings.Contains(table, strconv.Itoa(runs)+" scanned") {
		t.Fatalf("the table on stdout is still written:\n%s", table)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Fatalf("%d files in the output directory, want 4 (no temporary files left)", len(entries))
	}
}

func TestBadOutputsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--output", "csv=x.csv"},
		{"--output", "parquet"},
		{"--output", "ndjson=a", "--output", "json=a"},
		{"--output", "json=-"}, // the table already goes to stdout
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"scan", "../../fixtures/"}, args...), strings.NewReader(""), &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
	}
}

func TestIncludeExcludeSelectFiles(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "../../fixtures/", "--format", "ndjson", "--include", "RA1*", "--exclude", "*.negative.jsonl"},
		strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatal(stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("want the 5 positive RA1xx fixtures, got %d runs", len(lines))
	}
	for _, l := range lines {
		if !strings.Contains(l, `"run_id":"fx-RA1`) || !strings.Contains(l, "-positive") {
			t.Fatalf("unexpected run: %.80s", l)
		}
	}
	if code := run([]string{"scan", "../../fixtures/", "--include", "[x"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Fatalf("a bad pattern: exit %d, want %d", code, exitUsage)
	}
	if code := run([]string{"scan", "ftp://bucket/x"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Fatalf("an unknown URL scheme: exit %d, want %d", code, exitUsage)
	}
}
