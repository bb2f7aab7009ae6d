package spill

import (
	"bufio"
	"container/heap"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/runawayhq/runaway/detect"
)

// Analyze analyzes every run and calls emit with each result in run-id
// order. When nothing overflowed the first collector, it analyzes them
// all. Otherwise each partition gets a collector of its own (its runs from
// the first collector, then its spilled steps), whose results go to a
// temporary file in run-id order, and the files are merged. A partition too
// large for the budget is split again, recursively. Analyze stops at the
// first error emit returns.
func (s *Store) Analyze(workers int, emit func(*detect.RunResult) error) error {
	if !s.full {
		return s.first.Stream(workers, emit)
	}
	results, err := s.analyzeTo(workers)
	if err != nil {
		return err
	}
	return mergeResults(results, emit)
}

// analyzeTo analyzes every partition into result files and returns them.
func (s *Store) analyzeTo(workers int) ([]string, error) {
	if err := s.spill(); err != nil { // the rest joins its partition on disk
		return nil, err
	}
	if s.results == "" {
		s.results = s.dir
	}
	first := s.first.Partition(len(s.parts), s.partitionOf)
	var results []string
	for p := range s.parts {
		paths, err := s.analyzePartition(p, first, workers)
		if err != nil {
			return nil, err
		}
		results = append(results, paths...)
	}
	s.first = nil
	return results, nil
}

// maxSplits bounds the recursion: 64^4 partitions is far beyond any input.
const maxSplits = 3

// analyzePartition analyzes partition p into result files (one, or several
// when p had to be split) in run-id order each. The partition's stream is
// removed once read.
func (s *Store) analyzePartition(p int, first *detect.Partitioned, workers int) ([]string, error) {
	c, err := detect.NewCollector(s.opts.Policy, s.names)
	if err != nil {
		return nil, err
	}
	first.CopyTo(c, int32(p))
	part := &s.parts[p]
	if part.w != nil {
		name := part.file.Name()
		err := errors.Join(part.w.Close(), part.buf.Flush(), part.file.Close())
		part.w, part.file = nil, nil
		if err != nil {
			return nil, fmt.Errorf("spill: finishing %s: %w", name, err)
		}
		// A partition whose steps would not fit in the budget is split by
		// another hash of the run id, and its pieces analyzed in turn.
		need := c.ApproxBytes() + part.rows*detect.StepBytes
		if need > 2*s.opts.MaxBytes && s.level < maxSplits {
			return s.split(c, name, need, workers)
		}
		if err := readStream(name, s, c.Add); err != nil {
			return nil, err
		}
		if err := os.Remove(name); err != nil {
			return nil, fmt.Errorf("spill: %w", err)
		}
	}
	if c.Runs() == 0 {
		return nil, nil
	}
	*s.seq++
	out := filepath.Join(s.results, fmt.Sprintf("results-%06d.gob", *s.seq))
	f, err := os.Create(out)
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	enc := gob.NewEncoder(w)
	if err := c.Stream(workers, func(r *detect.RunResult) error { return enc.Encode(r) }); err != nil {
		return nil, fmt.Errorf("spill: writing %s: %w", out, err)
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return nil, fmt.Errorf("spill: writing %s: %w", out, err)
	}
	return []string{out}, nil
}

// split analyzes a partition too large for the budget: a child store, whose
// first collector is c (the partition's runs from this store's first
// collector), takes the partition's stream and spills it by another hash.
func (s *Store) split(c *detect.Collector, stream string, need int64, workers int) ([]string, error) {
	opts := s.opts
	opts.Dir = s.dir
	opts.Partitions = int(min(max(need/s.opts.MaxBytes+1, 2), defaultPartitions))
	child := &Store{
		opts: opts, level: s.level + 1, results: s.results, seq: s.seq, splits: s.splits, first: c, full: true, names: s.names,
		parts: make([]partition, opts.Partitions), counts: make([]int64, opts.Partitions), scratch: make([]int64, opts.Partitions),
	}
	defer child.Close()
	*s.splits++
	if err := readStream(stream, s, child.Add); err != nil {
		return nil, err
	}
	if err := os.Remove(stream); err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	return child.analyzeTo(workers)
}

func readStream(name string, s *Store, add func(arrow.RecordBatch) error) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	defer f.Close()
	r, err := ipc.NewReader(bufio.NewReaderSize(f, 256<<10), ipc.WithAllocator(s.opts.Alloc))
	if err != nil {
		return fmt.Errorf("spill: reading %s: %w", name, err)
	}
	defer r.Release()
	for r.Next() {
		if err := add(r.RecordBatch()); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("spill: reading %s: %w", name, err)
	}
	return nil
}

// mergeResults emits the results of the files (each in run-id order) in
// run-id order. Run ids are unique across files: a run lives in one
// partition.
func mergeResults(paths []string, emit func(*detect.RunResult) error) error {
	h := &resultHeap{}
	defer func() {
		for _, src := range h.items {
			src.file.Close()
		}
	}()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("spill: %w", err)
		}
		// One reader per result file, all open at once: small buffers.
		src := &resultSource{file: f, dec: gob.NewDecoder(bufio.NewReaderSize(f, 16<<10))}
		ok, err := src.next()
		if err != nil {
			f.Close()
			return fmt.Errorf("spill: reading %s: %w", path, err)
		}
		if ok {
			h.items = append(h.items, src)
		} else {
			f.Close()
		}
	}
	heap.Init(h)
	for h.Len() > 0 {
		src := h.items[0]
		if err := emit(&src.cur); err != nil {
			return err
		}
		ok, err := src.next()
		if err != nil {
			return fmt.Errorf("spill: reading %s: %w", src.file.Name(), err)
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			src.file.Close()
			heap.Pop(h)
		}
	}
	return nil
}

type resultSource struct {
	file *os.File
	dec  *gob.Decoder
	cur  detect.RunResult
}

func (s *resultSource) next() (bool, error) {
	s.cur = detect.RunResult{}
	if err := s.dec.Decode(&s.cur); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

type resultHeap struct{ items []*resultSource }

func (h *resultHeap) Len() int           { return len(h.items) }
func (h *resultHeap) Less(i, j int) bool { return h.items[i].cur.RunID < h.items[j].cur.RunID }
func (h *resultHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *resultHeap) Push(x any)         { h.items = append(h.items, x.(*resultSource)) }
func (h *resultHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
