package pipeline

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
