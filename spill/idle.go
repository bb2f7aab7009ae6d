package spill

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/tmpfiles"
	"github.com/runawayhq/runaway/runstore"
)

// Closing idle runs (Options.CloseIdle). Logs interleave the runs that are
// going on at once, and a run's steps are usually close together: the bench
// corpus has 16 runs open at a time among 85,000. When the collector passes
// its budget, the runs none of whose steps is among its most recent ones are
// taken for finished: they are analyzed there and then, into a result file
// in run-id order, and only the others are carried over to a fresh
// collector, with all they collected. Memory then follows the runs open at
// once, and nothing goes to disk but results, where spilling wrote every
// step once and read it back.
//
// A run taken for finished may log again later (a paused run, a late file).
// Its steps are then analyzed in two pieces, and its run id is in two result
// files: Finish finds such runs, and the caller reads their steps again,
// whole, into a second store (Replace), whose results take their place. So
// the report is the same byte for byte whatever the order of the input; an
// input that cannot be read twice (stdin, a pipe) must not use CloseIdle.
//
// Once the store has spilled, it keeps spilling: collectors after a spill
// hold parts of runs and cannot analyze any run alone.

// A run is idle when none of its steps is among the collector's last
// 1/idleShare, nor among the last idleGaps times the longest silence of a
// run that logged again (runstore.Collector.Idle). On the bench corpus that
// silence is at most 189 steps of other runs, and the collector holds some
// 100,000 steps; runs interleaved 400 at a time are silent for thousands.
const (
	idleShare = 16
	idleGaps  = 4
)

// maxCarryShare: when the active runs hold more than 1/maxCarryShare of the
// collector's steps, carrying them over would leave too little room to be
// worth it, and the store spills instead.
const maxCarryShare = 2

// maxEarlyFiles bounds the result files of idle runs: past it they are
// merged into one, so that the final merge keeps few files open. A
// variable for a test.
var maxEarlyFiles = 256

// firstBudget is the collector's budget when it starts closing idle runs:
// a small collector is quicker to add to and to analyze (on the 1 GB bench
// corpus at the default 1GiB, starting at 16 MiB instead of the whole 230
// MiB share took about 4% less CPU and half the RSS), and it grows, up to
// MaxBytes, only while the runs going on at once need more.
const firstBudget = 16 << 20

// limit is what the collector may hold before flush.
func (s *Store) limit() int64 {
	if !s.opts.CloseIdle || s.spills > 0 {
		return s.opts.MaxBytes
	}
	if s.grown == 0 {
		s.grown = min(firstBudget, s.opts.MaxBytes)
	}
	return s.grown
}

// flush makes room once the collector has passed its budget: it closes
// idle runs, or grows the budget when too few are idle, or spills.
func (s *Store) flush() error {
	if s.opts.CloseIdle && s.spills == 0 {
		closed, err := s.closeIdle()
		if err != nil || closed {
			return err
		}
		if s.grown < s.opts.MaxBytes {
			s.grown = min(2*s.grown, s.opts.MaxBytes)
			return nil
		}
	}
	return s.spill()
}

// closeIdle analyzes the idle runs and carries the others over; false when
// too many runs are active, and nothing was done.
func (s *Store) closeIdle() (bool, error) {
	c := s.cur
	idle, activeRows := c.Idle(func(maxGap int) int {
		s.maxGap = max(s.maxGap, maxGap)
		return max(c.Rows()/idleShare, idleGaps*s.maxGap)
	})
	if activeRows > c.Rows()/maxCarryShare {
		return false, nil
	}
	next := runstore.NewCollector(slices.Clone(s.names))
	// Carry first: analysis groups the collector's side tables.
	p := c.PartitionRuns(2, func(run int) int32 {
		if idle[run] {
			return 0
		}
		return 1
	})
	if err := p.CopyTo(next, 1); err != nil {
		return false, err
	}
	if err := s.makeDir(); err != nil {
		return false, err
	}
	path, err := s.writeResults(c.SourceRanges(), func(emit func(*detect.RunResult) error) error {
		return c.StreamRuns(s.opts.Policy, s.opts.Workers, idle, emit)
	})
	if err != nil {
		return false, err
	}
	// Only now: next's chunks are then made once c is garbage.
	next.Expect(c.Sizes())
	s.cur = next
	s.early = append(s.early, path)
	s.closes++
	if len(s.early) >= maxEarlyFiles {
		merged, err := s.mergeRaw(s.early) // removes them
		if err != nil {
			return false, err
		}
		s.early = append(s.early[:0], merged)
	}
	return true, nil
}

// Closes is how many times idle runs were analyzed before the input ended.
func (s *Store) Closes() int { return s.closes }

// makeDir makes the store's temporary directory, once.
func (s *Store) makeDir() error {
	if s.dir != "" {
		return nil
	}
	dir, err := os.MkdirTemp(s.opts.Dir, tmpfiles.Prefix(dirBase))
	if err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	s.dir = dir
	if s.results == "" {
		s.results = dir
	}
	return nil
}

// writeResults writes what stream emits (in run-id order) to a new result
// file, each result with the range of its run's sources.
func (s *Store) writeResults(sources func(string) (int32, int32), stream func(emit func(*detect.RunResult) error) error) (string, error) {
	return s.createResults(func(w *bufio.Writer) error {
		rw := &runstore.ResultWriter{W: w, Sources: sources}
		return stream(rw.Write)
	})
}

// createResults writes a new result file through the store's one writer:
// result files, like segments, are written one at a time.
func (s *Store) createResults(write func(w *bufio.Writer) error) (string, error) {
	*s.seq++
	out := filepath.Join(s.results, fmt.Sprintf("results-%06d.bin", *s.seq))
	f, err := os.Create(out)
	if err != nil {
		return "", fmt.Errorf("spill: %w", err)
	}
	defer f.Close()
	if s.w == nil {
		s.w = bufio.NewWriterSize(nil, ioBuffer)
	}
	s.w.Reset(f)
	if err := write(s.w); err != nil {
		return "", fmt.Errorf("spill: writing %s: %w", out, err)
	}
	if err := errors.Join(s.w.Flush(), f.Close()); err != nil {
		return "", fmt.Errorf("spill: writing %s: %w", out, err)
	}
	return out, nil
}

// splitRuns returns, sorted, the run ids found in more than one of the
// result files (runs analyzed in pieces), and the sources, sorted, that
// their steps came from.
func splitRuns(paths []string) (split []string, sources []int32, err error) {
	h, err := openSources(paths, newIDSource)
	defer h.close()
	if err != nil {
		return nil, nil, err
	}
	type span struct{ lo, hi int32 }
	var spans []span // of the pieces of split runs
	last, seen := idSource{}, false
	for h.Len() > 0 {
		src := h.items[0]
		if seen && src.cur == last.cur {
			if n := len(split); n == 0 || split[n-1] != last.cur {
				split = append(split, last.cur)
				spans = append(spans, span{last.lo, last.hi})
			}
			spans = append(spans, span{src.lo, src.hi})
		}
		last.cur, last.lo, last.hi, seen = src.cur, src.lo, src.hi, true
		if err := h.advance(); err != nil {
			return nil, nil, err
		}
	}
	if len(spans) == 0 {
		return nil, nil, nil
	}
	slices.SortFunc(spans, func(a, b span) int { return int(a.lo) - int(b.lo) })
	for _, sp := range spans {
		from := sp.lo
		if n := len(sources); n > 0 {
			from = max(from, sources[n-1]+1)
		}
		for i := from; i <= sp.hi; i++ {
			sources = append(sources, i)
		}
	}
	return split, sources, nil
}

// mergeRaw merges result files into a new one without decoding the
// results, and removes them.
func (s *Store) mergeRaw(paths []string) (string, error) {
	h, err := openSources(paths, newIDSource)
	defer h.close()
	if err != nil {
		return "", err
	}
	out, err := s.createResults(func(w *bufio.Writer) error {
		for h.Len() > 0 {
			src := h.items[0]
			runstore.WriteRecord(w, src.buf) // a write error sticks until Flush
			if err := h.advance(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	for _, p := range paths {
		os.Remove(p)
	}
	return out, nil
}

// idSource reads the run ids and source ranges of a result file, and
// keeps each result's bytes as they are.
type idSource struct {
	f      *os.File
	r      *bufio.Reader
	cur    string
	lo, hi int32
	buf    []byte
}

func (s *idSource) runID() string  { return s.cur }
func (s *idSource) file() *os.File { return s.f }

func (s *idSource) next() (bool, error) {
	var ok bool
	var err error
	if s.buf, ok, err = runstore.ReadRecord(s.r, s.buf); !ok || err != nil {
		return false, err
	}
	s.cur, s.lo, s.hi, err = runstore.ResultKey(s.buf)
	return true, err
}

func newIDSource(_ int, f *os.File, r *bufio.Reader) *idSource { return &idSource{f: f, r: r} }
