package pipeline

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
)

// progress draws a bar on stderr while a job runs: bytes read of the
// total, MB/s and ETA while reading, then runs analyzed, and the runs and
// flagged runs so far. A nil *progress does nothing, so callers need not
// check; it is only made when Config.Progress is set, which the CLI sets
// for a terminal without --quiet, so logs and pipes get no control
// characters.
type progress struct {
	w        io.Writer
	mu       sync.Mutex // guards bar, which analyzing replaces
	bar      *progressbar.ProgressBar
	total    atomic.Int64 // bytes; -1 while unknown
	read     atomic.Int64
	steps    atomic.Int64
	runs     atomic.Int64 // to analyze; 0 while unknown
	analyzed atomic.Int64
	flagged  atomic.Int64
	phase    atomic.Int32 // 0 reading, 1 analyzing
	stop     chan struct{}
	done     sync.WaitGroup
}

const progressTick = 250 * time.Millisecond

// newProgress draws on w whatever w is: the caller decides whether w is a
// terminal (Config.Progress); tests use it with a buffer.
func newProgress(w io.Writer) *progress {
	p := &progress{w: w, stop: make(chan struct{})}
	p.bar = progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetDescription("reading"),
	)
	p.done.Add(1)
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer p.done.Done()
	t := time.NewTicker(progressTick)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.draw()
		}
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.phase.Load() == 0 {
		if total := p.total.Load(); total > 0 && p.bar.GetMax64() != total {
			p.bar.ChangeMax64(total)
		}
		p.bar.Describe(fmt.Sprintf("reading: %d steps", p.steps.Load()))
		_ = p.bar.Set64(p.read.Load())
		return
	}
	p.bar.Describe(fmt.Sprintf("analyzing: %d flagged", p.flagged.Load()))
	_ = p.bar.Set64(p.analyzed.Load())
}

// source counts the raw bytes read from s; sizes it knows add to the
// total, and one it does not know makes the total unknown (no ETA).
func (p *progress) source(s ingest.Source) ingest.Source {
	if p == nil {
		return s
	}
	switch {
	case s.Size < 0:
		p.total.Store(-1)
	case p.total.Load() >= 0:
		p.total.Add(s.Size)
	}
	open := s.Open
	s.Open = func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		return &countingReader{rc: rc, n: &p.read}, nil
	}
	return s
}

// setSteps records the steps read so far; call it from the goroutine that
// owns the collector.
func (p *progress) setSteps(n int) {
	if p != nil {
		p.steps.Store(int64(n))
	}
}

// analyzing replaces the bar of bytes with a bar of the n runs to analyze
// (n < 0: not known yet).
func (p *progress) analyzing(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Clear()
	p.runs.Store(int64(n))
	p.bar = progressbar.NewOptions64(max(int64(n), -1),
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetDescription("analyzing"),
	)
	p.phase.Store(1)
}

// result counts one analyzed run.
func (p *progress) result(r *detect.RunResult) {
	if p == nil {
		return
	}
	p.analyzed.Add(1)
	if r.Verdict > detect.Healthy {
		p.flagged.Add(1)
	}
}

// finish stops drawing and clears the bar, before the report or a final
// message is written.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.done.Wait()
	p.draw() // the last figures, in case the run was shorter than a tick
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Clear()
}

type countingReader struct {
	rc io.ReadCloser
	n  *atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.rc.Read(b)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingReader) Close() error { return c.rc.Close() }
