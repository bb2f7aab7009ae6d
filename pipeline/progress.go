package pipeline

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/report"
)

// progress draws a one-line bar on stderr while a job runs, and says only
// what it knows: the bytes read of the bytes known (the sum of the input
// sizes; a source of unknown size, stdin or a FIFO, makes the total
// unknown, and then no percentage is drawn), the steps read and how many a
// second, the runs found (when the job's collector counts them) or
// analyzed, and the flagged ones. finish draws a last frame with the
// totals and keeps it on the terminal: a read that ended says 100%.
//
// A nil *progress does nothing, so callers need not check; it is only made
// when Config.Progress is set, which the CLI sets for a terminal (not
// TERM=dumb) without --quiet, so logs and pipes get no control characters.
type progress struct {
	w     io.Writer
	mu    sync.Mutex // one frame at a time
	start time.Time

	total    atomic.Int64 // bytes; -1 once a source's size is unknown
	read     atomic.Int64
	steps    atomic.Int64
	runs     atomic.Int64 // runs found while reading; -1 while not counted
	analyzed atomic.Int64
	flagged  atomic.Int64
	readFor  atomic.Int64 // nanoseconds the read took, once it ended; 0 before
	phase    atomic.Int32 // 0 reading, 1 analyzing

	stop     chan struct{}
	done     sync.WaitGroup
	finished sync.Once
}

const (
	progressTick = 250 * time.Millisecond
	barWidth     = 20
)

// newProgress draws on w whatever w is: the caller decides whether w is a
// terminal (Config.Progress); tests use it with a buffer.
func newProgress(w io.Writer) *progress {
	p := &progress{w: w, stop: make(chan struct{}), start: time.Now()}
	p.runs.Store(-1)
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
			p.draw(false)
		}
	}
}

// draw writes a frame over the previous one: a carriage return, the frame,
// and erase-to-end-of-line for what a longer frame left.
func (p *progress) draw(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	end := "\x1b[K"
	if final {
		end += "\n"
	}
	io.WriteString(p.w, "\r"+p.frame(final)+end)
}

// frame is the text of one frame.
func (p *progress) frame(final bool) string {
	total, read, steps := p.total.Load(), p.read.Load(), p.steps.Load()
	var b strings.Builder
	switch {
	case final:
		b.WriteString("read")
	case p.phase.Load() == 1:
		fmt.Fprintf(&b, "analyzing: %s runs, %s flagged; read", report.FormatCount(p.analyzed.Load()), report.FormatCount(p.flagged.Load()))
	default:
		b.WriteString("reading")
	}
	if total >= 0 {
		pct := 100 * float64(read) / float64(max(total, 1))
		if total == 0 {
			pct = 100 // nothing to read, all of it read
		}
		pct = min(pct, 100)
		if p.phase.Load() == 0 || final {
			filled := int(pct * barWidth / 100)
			b.WriteString(" [" + strings.Repeat("#", filled) + strings.Repeat("-", barWidth-filled) + "]")
		}
		fmt.Fprintf(&b, " %3.0f%%", pct)
	}
	switch {
	case final && total >= 0:
		fmt.Fprintf(&b, " of %s bytes", report.FormatCount(total))
	case final:
		fmt.Fprintf(&b, " %s bytes", report.FormatCount(read))
	case total >= 0:
		fmt.Fprintf(&b, " %s of %s", humanize.Bytes(uint64(read)), humanize.Bytes(uint64(total)))
	default:
		fmt.Fprintf(&b, " %s", humanize.Bytes(uint64(read)))
	}
	fmt.Fprintf(&b, ", %s steps (%s steps/s)", report.FormatCount(steps), report.FormatCount(p.stepRate(steps)))
	switch {
	case p.phase.Load() == 1 && final:
		fmt.Fprintf(&b, ", %s runs, %s flagged", report.FormatCount(p.analyzed.Load()), report.FormatCount(p.flagged.Load()))
	case p.phase.Load() == 0 && p.runs.Load() >= 0:
		fmt.Fprintf(&b, ", %s runs", report.FormatCount(p.runs.Load()))
	}
	return b.String()
}

// stepRate is the steps read a second, over the read: it stops with it.
func (p *progress) stepRate(steps int64) int64 {
	d := time.Duration(p.readFor.Load())
	if d == 0 {
		d = time.Since(p.start)
	}
	if d <= 0 {
		return 0
	}
	return int64(float64(steps) / d.Seconds())
}

// source counts the raw bytes read from s; sizes it knows add to the
// total, and one it does not know makes the total unknown.
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

// setSteps records the steps read so far, and the runs found when the
// collector counts them (runs < 0: it does not); call it from the
// goroutine that owns the collector.
func (p *progress) setSteps(steps, runs int) {
	if p != nil {
		p.steps.Store(int64(steps))
		if runs >= 0 {
			p.runs.Store(int64(runs))
		}
	}
}

// analyzing says the read is over and the runs are being analyzed.
func (p *progress) analyzing() {
	if p == nil {
		return
	}
	p.endRead()
	p.phase.Store(1)
}

func (p *progress) endRead() {
	p.readFor.CompareAndSwap(0, int64(max(time.Since(p.start), 1)))
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

// finish stops drawing and draws the last frame, the totals, ending its
// line so that it stays above the report or a final message; later calls
// do nothing.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.finished.Do(func() {
		close(p.stop)
		p.done.Wait()
		p.endRead()
		p.draw(true)
	})
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
