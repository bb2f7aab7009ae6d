package pipeline

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
)

// lastFrame is the last frame a bar drew: the text after the last carriage
// return, without the erase-to-end-of-line and the final newline.
func lastFrame(out string) string {
	out = strings.TrimSuffix(out, "\n")
	out = out[strings.LastIndexByte(out, '\r')+1:]
	return strings.TrimSuffix(out, "\x1b[K")
}

func TestProgressCountsBytesAndEndsAt100Percent(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out)
	data := strings.Repeat(`{"run_id":"r","step":1}`+"\n", 1000)
	src := p.source(ingest.Source{Name: "a.jsonl", Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data[:len(data)/2])), nil
	}})
	rc, err := src.Open()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := io.Copy(io.Discard, rc); n != int64(len(data)/2) || p.read.Load() != n {
		t.Fatalf("read %d bytes, counted %d", n, p.read.Load())
	}
	p.setSteps(500, 3)
	p.draw(false) // what the ticker does; called here so the test does not wait on it
	if f := lastFrame(out.String()); !strings.HasPrefix(f, "reading [##########----------]  50% ") ||
		!strings.Contains(f, ", 500 steps (") || !strings.Contains(f, " steps/s), 3 runs") {
		t.Errorf("frame while reading: %q", f)
	}
	p.read.Add(int64(len(data) / 2))
	p.setSteps(1000, -1)
	p.analyzing()
	p.result(&detect.RunResult{Verdict: detect.Runaway})
	p.result(&detect.RunResult{Verdict: detect.Healthy})
	p.draw(false)
	if f := lastFrame(out.String()); !strings.HasPrefix(f, "analyzing: 2 runs, 1 flagged; read 100% ") {
		t.Errorf("frame while analyzing: %q", f)
	}
	p.finish()
	p.finish() // a second call draws nothing more
	got := out.String()
	if !strings.HasSuffix(got, "\x1b[K\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("the last frame must end its line once: %q", got)
	}
	want := "read [####################] 100% of 24,000 bytes, 1,000 steps ("
	if f := lastFrame(got); !strings.HasPrefix(f, want) || !strings.HasSuffix(f, " steps/s), 2 runs, 1 flagged") {
		t.Errorf("last frame %q, want %q... 2 runs, 1 flagged", f, want)
	}
}

// A source of unknown size (stdin, a FIFO) makes the total unknown: the
// bytes read are shown, without a percentage or a bar.
func TestUnknownSizeShowsBytesWithoutAPercentage(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out)
	p.source(ingest.Source{Size: 10})
	p.source(ingest.Source{Size: -1})
	p.source(ingest.Source{Size: 10})
	if p.total.Load() != -1 {
		t.Fatalf("total %d, want unknown", p.total.Load())
	}
	p.read.Store(1234)
	p.finish()
	f := lastFrame(out.String())
	if strings.ContainsAny(f, "%[") || !strings.HasPrefix(f, "read 1,234 bytes, 0 steps") {
		t.Fatalf("last frame %q", f)
	}
}
