package spill

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/runawayhq/runaway/detect"
)

// Analyze analyzes every run and calls emit with each result in run-id
// order. When nothing spilled, the one collector analyzes them all.
// Otherwise each partition gets a collector of its own (its segments, then
// its runs from the last collector), whose results go to a temporary file
// in run-id order, and the files are merged. A partition too large for the
// budget is split again, recursively. Analyze stops at the first error emit
// returns. emit must not keep r after it returns.
func (s *Store) Analyze(workers int, emit func(*detect.RunResult) error) error {
	if s.spills == 0 {
		return s.cur.Stream(workers, emit)
	}
	results, err := s.analyzeTo(workers)
	if err != nil {
		return err
	}
	return mergeResults(results, emit)
}

// analyzeTo analyzes every partition into result files and returns them.
func (s *Store) analyzeTo(workers int) ([]string, error) {
	if s.results == "" {
		s.results = s.dir
	}
	if s.r == nil {
		s.r = bufio.NewReaderSize(nil, ioBuffer)
	}
	last := s.cur.Partition(len(s.parts), s.partitionOf)
	var results []string
	for p := range s.parts {
		paths, err := s.analyzePartition(int32(p), last, workers)
		if err != nil {
			return nil, err
		}
		results = append(results, paths...)
	}
	s.cur = nil
	return results, nil
}

// maxSplits bounds the recursion: 64^4 partitions is far beyond any input.
const maxSplits = 3

// analyzePartition analyzes partition p into result files (one, or several
// when p had to be split) in run-id order each. The partition's file is
// removed once read.
func (s *Store) analyzePartition(p int32, last *detect.Partitioned, workers int) ([]string, error) {
	// A partition whose steps would not fit in the budget is split by
	// another hash of the run id, and its pieces analyzed in turn.
	need := s.parts[p].bytes + last.ApproxBytes(p)
	if s.parts[p].file != nil && need > 2*s.opts.MaxBytes && s.level < maxSplits {
		return s.split(p, last, need, workers)
	}
	c, err := detect.NewCollector(s.opts.Policy, s.names)
	if err != nil {
		return nil, err
	}
	if err := s.readSegments(p, c.ReadSegment); err != nil {
		return nil, err
	}
	if err := last.CopyTo(c, p); err != nil {
		return nil, err
	}
	return s.resultsOf(c, workers)
}

// split analyzes a partition too large for the budget: a child store reads
// the partition's segments (spilling them again, by another hash, as its
// collector fills), takes the partition's runs from the last collector, and
// analyzes its own partitions.
func (s *Store) split(p int32, last *detect.Partitioned, need int64, workers int) ([]string, error) {
	child := s.child(int(min(max(need/s.opts.MaxBytes+1, 2), defaultPartitions)))
	defer child.Close()
	*s.splits++
	c, err := detect.NewCollector(s.opts.Policy, s.names)
	if err != nil {
		return nil, err
	}
	child.cur = c
	err = s.readSegments(p, func(r *bufio.Reader) error {
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
func (s *Store) resultsOf(c *detect.Collector, workers int) ([]string, error) {
	if c.Runs() == 0 {
		return nil, nil
	}
	*s.seq++
	out := filepath.Join(s.results, fmt.Sprintf("results-%06d.bin", *s.seq))
	f, err := os.Create(out)
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	defer f.Close()
	// The segments' writer: nothing is spilled while a partition is analyzed.
	s.w.Reset(f)
	rw := &resultWriter{w: s.w}
	if err := c.Stream(workers, rw.write); err != nil {
		return nil, fmt.Errorf("spill: writing %s: %w", out, err)
	}
	if err := errors.Join(s.w.Flush(), f.Close()); err != nil {
		return nil, fmt.Errorf("spill: writing %s: %w", out, err)
	}
	return []string{out}, nil
}
