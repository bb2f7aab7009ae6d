package main

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
)

func TestProgressCountsBytesAndDrawsRunsAndFlagged(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out)
	data := strings.Repeat(`{"run_id":"r","step":1}`+"\n", 1000)
	src := p.source(ingest.Source{Name: "a.jsonl", Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data)), nil
	}})
	rc, err := src.Open()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := io.Copy(io.Discard, rc); n != int64(len(data)) || p.read.Load() != n {
		t.Fatalf("read %d bytes, counted %d", n, p.read.Load())
	}
	p.setSteps(7)
	p.draw() // what the ticker does; called here so the test does not wait on it
	p.analyzing(7)
	p.result(&detect.RunResult{Verdict: detect.Runaway})
	p.result(&detect.RunResult{Verdict: detect.Healthy})
	p.finish() // draws the last figures
	got := out.String()
	for _, want := range []string{"reading: 7 steps", "analyzing: 1 flagged", "(2/7, "} {
		if !strings.Contains(got, want) {
			t.Errorf("bar output lacks %q:\n%q", want, got)
		}
	}
	// The rate's unit follows the machine's speed (kB/s on a slow one, GB/s
	// on a fast one); what matters is that a byte rate is drawn.
	if !byteRate.MatchString(got) {
		t.Errorf("bar output lacks a byte rate:\n%q", got)
	}
}

var byteRate = regexp.MustCompile(`\([0-9.]+ [kMGT]?B/s\)`)

func TestUnknownSizeMakesTheTotalUnknown(t *testing.T) {
	p := newProgress(io.Discard)
	defer p.finish()
	p.source(ingest.Source{Size: 10})
	p.source(ingest.Source{Size: -1})
	p.source(ingest.Source{Size: 10})
	if p.total.Load() != -1 {
		t.Fatalf("total %d, want unknown", p.total.Load())
	}
}

// Without a terminal (a pipe, a file, a CI log) nothing but messages reaches
// stderr: no bar, no carriage returns.
func TestNoProgressBarWithoutATerminal(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "../../fixtures/"}, strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.ContainsAny(stderr.String(), "\r\x1b") {
		t.Fatalf("stderr has control characters: %q", stderr.String())
	}
	if startProgress(&stderr, false) != nil {
		t.Fatal("a buffer is not a terminal")
	}
}
