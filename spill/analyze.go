package spill

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
)

// Analyze analyzes every run and calls emit with each result in run-id
// order: Finish, then Emit. When nothing spilled, the one collector
// analyzes them all. Otherwise each partition gets a collector of its own
// (its segments, then its runs from the last collector), whose results go
// to a temporary file in run-id order, and the files are merged with those
// of the runs closed early (CloseIdle). A partition too large for the
// budget is split again, recursively. Analyze stops at the first error emit
// returns; it fails if runs were analyzed in pieces (a store with
// CloseIdle needs Finish, Replace and Emit). emit must not keep r after it
// returns.
func (s *Store) Analyze(workers int, emit func(*detect.RunResult) error) error {
	split, err := s.Finish(workers)
	if err != nil {
		return err
	}
	if len(split) > 0 {
		return fmt.Errorf("spill: %d runs logged again after they were analyzed (Options.CloseIdle); their steps must be read again (Replace)", len(split))
	}
	return s.Emit(emit)
}

// Finish analyzes what is not analyzed yet, into result files, and returns
// the runs, sorted, that were analyzed in pieces: runs that CloseIdle took
// for finished and that logged again later. Their steps must then be read
// again, theirs only, into a second store given to Replace before Emit.
// Without CloseIdle there are none.
func (s *Store) Finish(workers int) ([]string, error) {
	if s.finished {
		return s.splitIDs, nil
	}
	s.finished, s.workers = true, workers
	switch {
	case s.spills == 0 && len(s.early) == 0:
		return nil, nil // Emit streams the one collector
	case s.spills == 0:
		path, err := s.writeResults(s.cur.SourceRanges(), func(emit func(*detect.RunResult) error) error {
			return s.stream(s.cur, workers, emit)
		})
		if err != nil {
			return nil, err
		}
		s.cur = nil
		s.final = append(slices.Clone(s.early), path)
	default:
		results, err := s.analyzeTo(workers)
		if err != nil {
			return nil, err
		}
		s.final = append(slices.Clone(s.early), results...)
	}
	if len(s.early) == 0 {
		return nil, nil
	}
	split, sources, err := splitRuns(s.final)
	s.splitIDs = split
	for _, i := range sources {
		if int(i) < len(s.names) {
			s.splitSources = append(s.splitSources, s.names[i])
		}
	}
	return split, err
}

// SplitSources names the sources (as SetSourceName named them) that hold
// the steps of the runs Finish found analyzed in pieces: the sources to
// read again, in the order they were read. Names, not indices: a listing
// made again may hold objects the first did not.
func (s *Store) SplitSources() []string { return s.splitSources }

// Replace takes the results of the runs Finish found split from second, a
// store that read their steps, and only theirs, again.
func (s *Store) Replace(second *Store, workers int) error {
	if !s.finished || s.replaced != "" {
		return errors.New("spill: Replace before Finish, or twice")
	}
	if split, err := second.Finish(workers); err != nil {
		return err
	} else if len(split) > 0 {
		return errors.New("spill: the second store analyzed runs in pieces too")
	}
	path, err := s.writeResults(nil, second.Emit)
	if err != nil {
		return err
	}
	s.replaced = path
	return nil
}

// Emit calls emit with each result in run-id order, after Finish (and
// Replace, when Finish found runs analyzed in pieces). It stops at the
// first error emit returns. emit must not keep r after it returns.
func (s *Store) Emit(emit func(*detect.RunResult) error) error {
	switch {
	case !s.finished:
		return errors.New("spill: Emit before Finish")
	case len(s.splitIDs) > 0 && s.replaced == "":
		return fmt.Errorf("spill: %d runs analyzed in pieces were not read again (Replace)", len(s.splitIDs))
	case s.final == nil:
		return s.stream(s.cur, s.workers, emit)
	}
	var drop map[string]bool
	paths := s.final
	if s.replaced != "" {
		drop = make(map[string]bool, len(s.splitIDs))
		for _, id := range s.splitIDs {
			drop[id] = true
		}
		paths = append(slices.Clone(paths), s.replaced)
	}
	return mergeResults(paths, len(s.final), drop, emit)
}

// analyzeTo analyzes every partition into result files and returns them.
//
// Loading a partition (reading its segments back, taking its runs from the
// last collector) is one goroutine's work, so it is done for the next
// partition while the workers analyze this one: on the 1 GB bench corpus
// at 128MiB, loading was a third of the time after reading. Two
// partitions are held at once only while together they need no more than
// one partition may (twice the collector budget); a partition split again
// is loaded and analyzed alone.
func (s *Store) analyzeTo(workers int) ([]string, error) {
	if s.r == nil {
		s.r = bufio.NewReaderSize(nil, ioBuffer)
	}
	last := s.cur.Partition(len(s.parts), s.partitionOf)
	s.cur = nil
	g := &memoryGate{limit: 2 * s.opts.MaxBytes}
	g.cond.L = &g.mu
	loaded := make(chan loadedPartition, 1)
	go func() {
		defer close(loaded)
		for p := range s.parts {
			lp, ok := s.loadPartition(int32(p), last, workers, g)
			if !ok {
				return // the analysis stopped
			}
			loaded <- lp
			if lp.err != nil {
				return
			}
		}
	}()
	var results []string
	var err error
	for lp := range loaded {
		if err == nil && lp.err != nil {
			err = lp.err
		}
		if err == nil && lp.c != nil {
			var paths []string
			paths, err = s.resultsOf(lp.c, workers)
			lp.paths = paths
		}
		if lp.held {
			g.release(lp.need)
		}
		if err != nil {
			g.stop() // the loader ends at its next wait; drain what it sends
			continue
		}
		results = append(results, lp.paths...)
	}
	if err != nil {
		return nil, err
	}
	return results, nil
}

// loadedPartition is a partition ready to analyze (c), or already analyzed
// (paths, for a split partition), or the error that stopped loading.
type loadedPartition struct {
	c     *runstore.Collector
	held  bool // the gate holds need bytes for it until it is analyzed
	need  int64
	paths []string
	err   error
}

// maxSplits bounds the recursion: 64^4 partitions is far beyond any input.
const maxSplits = 3

// loadPartition loads partition p into a collector, once the gate lets its
// steps into memory (false: the gate was stopped first); a partition too large for the budget is split by
// another hash of the run id and its pieces analyzed in turn, alone. The
// partition's file is removed once read.
func (s *Store) loadPartition(p int32, last *runstore.Partitioned, workers int, g *memoryGate) (loadedPartition, bool) {
	need := s.parts[p].bytes + last.ApproxBytes(p)
	if s.parts[p].file != nil && need > 2*s.opts.MaxBytes && s.level < maxSplits {
		if !g.acquireAll() {
			return loadedPartition{}, false
		}
		paths, err := s.split(p, last, need, workers)
		g.release(g.limit)
		return loadedPartition{paths: paths, err: err}, true
	}
	if !g.acquire(need) {
		return loadedPartition{}, false
	}
	lp := loadedPartition{held: true, need: need}
	c := runstore.NewCollector(s.names)
	err := s.readSegments(p, c.ReadSegment)
	if err == nil {
		err = last.CopyTo(c, p)
	}
	if err != nil {
		lp.err = err
		return lp, true
	}
	lp.c = c
	return lp, true
}

// memoryGate bounds the partitions' steps held at once. One partition is
// always let in, whatever its size: it could not be analyzed otherwise.
type memoryGate struct {
	mu      sync.Mutex
	cond    sync.Cond
	limit   int64
	held    int64
	holders int
	halted  bool
}

// acquire waits until need fits next to what is held, or nothing is; false
// once the gate is stopped.
func (g *memoryGate) acquire(need int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.halted && g.holders > 0 && g.held+need > g.limit {
		g.cond.Wait()
	}
	if g.halted {
		return false
	}
	g.held += need
	g.holders++
	return true
}

// acquireAll waits until nothing is held and holds the whole limit.
func (g *memoryGate) acquireAll() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.halted && g.holders > 0 {
		g.cond.Wait()
	}
	if g.halted {
		return false
	}
	g.held += g.limit
	g.holders++
	return true
}

func (g *memoryGate) release(n int64) {
	g.mu.Lock()
	g.held -= n
	g.holders--
	g.cond.Broadcast()
	g.mu.Unlock()
}

func (g *memoryGate) stop() {
	g.mu.Lock()
	g.halted = true
	g.cond.Broadcast()
	g.mu.Unlock()
}

// split analyzes a partition too large for the budget: a child store reads
// the partition's segments (spilling them again, by another hash, as its
// collector fills), takes the partition's runs from the last collector, and
// analyzes its own partitions.
func (s *Store) split(p int32, last *runstore.Partitioned, need int64, workers int) ([]string, error) {
	child := s.child(int(min(max(need/s.opts.MaxBytes+1, 2), defaultPartitions)))
	defer child.Close()
	*s.splits++
	child.cur = runstore.NewCollector(s.names)
	err := s.readSegments(p, func(r *bufio.Reader) error {
		if err := child.cur.ReadSegment(r); err != nil {
			return err
		}
		if child.cur.ApproxBytes() > child.opts.MaxBytes {
			return child.spill()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := last.CopyTo(child.cur, p); err != nil {
		return nil, err
	}
	if child.spills == 0 {
		return s.resultsOf(child.cur, workers)
	}
	return child.analyzeTo(workers)
}

// readSegments calls read for each segment of partition p's file, in the
// order they were written, until read returns io.EOF; then it removes the
// file.
func (s *Store) readSegments(p int32, read func(*bufio.Reader) error) error {
	f := s.parts[p].file
	if f == nil {
		return nil
	}
	s.parts[p].file = nil
	name := f.Name()
	defer f.Close()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("spill: reading %s: %w", name, err)
	}
	s.r.Reset(f)
	for {
		err := read(s.r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("spill: reading %s: %w", name, err)
		}
	}
	s.r.Reset(nil)
	if err := f.Close(); err != nil {
		return fmt.Errorf("spill: reading %s: %w", name, err)
	}
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	return nil
}

// resultsOf analyzes c into a result file, in run-id order.
func (s *Store) resultsOf(c *runstore.Collector, workers int) ([]string, error) {
	if c.Runs() == 0 {
		return nil, nil
	}
	path, err := s.writeResults(c.SourceRanges(), func(emit func(*detect.RunResult) error) error {
		return s.stream(c, workers, emit)
	})
	if err != nil {
		return nil, err
	}
	return []string{path}, nil
}

// stream analyzes the runs of c, handing each to Options.Visit if set, and
// calls emit with the results in run-id order.
func (s *Store) stream(c *runstore.Collector, workers int, emit func(*detect.RunResult) error) error {
	if s.opts.Visit != nil {
		return c.StreamVisit(s.opts.Policy, workers, s.opts.Visit, emit)
	}
	return c.Stream(s.opts.Policy, workers, emit)
}
