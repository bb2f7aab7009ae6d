package spill

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/tmpfiles"
	"github.com/runawayhq/runaway/runstore"
)

// Options configure a Store. Zero values take the defaults.
type Options struct {
	// Policy is handed to detect with each run the store analyzes, early
	// (CloseIdle) or at the end; it must be valid.
	Policy detect.Policy
	// Dir is where the temporary directory is made; "" is os.TempDir().
	Dir string
	// Partitions is how many groups of run ids the input is split into when
	// it spills; each is analyzed on its own. Default 128.
	Partitions int
	// MaxBytes is the most a collector may hold (detect's estimate) before
	// it spills; a partition's collector may hold up to twice that before
	// the partition is split again. Default 32 MiB.
	MaxBytes int64
	// CloseIdle analyzes the runs that look finished when the collector is
	// full, instead of spilling them (idle.go). The input must be one that
	// can be read again: runs that log again after that are read again
	// (Finish, Replace).
	CloseIdle bool
	// Workers analyze idle runs (CloseIdle); default GOMAXPROCS.
	Workers int
	// Visit, if set, is called with each run's steps and result as the run
	// is analyzed, one call at a time, in no particular order: for a job
	// that needs more of a run than its result (a replay of guards). It
	// must not keep the steps after it returns. A run is analyzed once, so
	// Visit cannot be combined with CloseIdle, which may analyze a run in
	// pieces.
	Visit func(detect.RunSteps, *detect.RunResult)
}

const (
	defaultPartitions = 128
	defaultMaxBytes   = 32 << 20
	// ioBuffer is the size of the one buffer segments are written through,
	// and of the one they are read through.
	ioBuffer = 256 << 10
)

// Store collects, or spills, the batches of one scan. It is not safe for
// concurrent use; Close it to release memory and remove its files.
type Store struct {
	opts    Options
	level   int    // 0 for the scan's store; n for a partition split n times
	results string // where result files go: the top store's directory
	seq     *int   // result files written, shared with split partitions' stores
	splits  *int   // partitions split, shared likewise
	written *int64 // bytes of segments written, shared likewise
	cur     *runstore.Collector
	names   []string
	dir     string // the temporary directory, "" until the first spill
	parts   []partition
	rows    int64
	spills  int
	closes  int      // times idle runs were analyzed early (CloseIdle)
	grown   int64    // the collector's budget while it closes idle runs (0: not yet set)
	maxGap  int      // the longest silence of a run seen so far, in steps (runstore.Collector.Idle)
	early   []string // their result files, in run-id order each

	// Finish's: the result files Emit merges (nil: the collector streams),
	// the runs analyzed in pieces, and the results that replace theirs.
	finished bool
	workers  int
	final    []string
	splitIDs []string
	// the names of the sources their steps came from
	splitSources []string
	replaced     string
	// One writer and one reader for all the partitions' files (and a split
	// partition's store): a segment is written or read whole, one at a time.
	w *bufio.Writer
	r *bufio.Reader
}

type partition struct {
	file  *os.File // segments appended, in spill order; nil when none
	bytes int64    // the segments' steps in a collector (detect's estimate)
}

// New returns an empty store.
func New(opts Options) (*Store, error) {
	if opts.Partitions <= 0 {
		opts.Partitions = defaultPartitions
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = defaultMaxBytes
	}
	if err := opts.Policy.Validate(); err != nil {
		return nil, err
	}
	if opts.Visit != nil {
		if opts.CloseIdle {
			return nil, errors.New("spill: Options.Visit with CloseIdle: a run would be visited in pieces")
		}
		// Workers analyze runs at once, and a split partition's store
		// shares these options: one lock for them all.
		visit, mu := opts.Visit, new(sync.Mutex)
		opts.Visit = func(r detect.RunSteps, res *detect.RunResult) {
			mu.Lock()
			defer mu.Unlock()
			visit(r, res)
		}
	}
	cur := runstore.NewCollector(nil)
	return &Store{
		opts:    opts,
		seq:     new(int),
		splits:  new(int),
		written: new(int64),
		cur:     cur,
		parts:   make([]partition, opts.Partitions),
	}, nil
}

// child returns a store for the pieces of one of s's partitions, split
// into n by another hash of the run id.
func (s *Store) child(n int) *Store {
	opts := s.opts
	opts.Dir = s.dir
	opts.Partitions = n
	return &Store{opts: opts, level: s.level + 1, results: s.results, seq: s.seq, splits: s.splits, written: s.written,
		names: s.names, parts: make([]partition, n), w: s.w, r: s.r}
}

// SetSourceName names source index i (src_file) for messages.
func (s *Store) SetSourceName(i int, name string) {
	for len(s.names) <= i {
		s.names = append(s.names, "")
	}
	s.names[i] = name
	s.cur.SetSourceName(i, name)
}

// Splits is how many partitions were too large for the budget and were
// split again (known after Analyze).
func (s *Store) Splits() int { return *s.splits }

// Rows is the number of steps added so far.
func (s *Store) Rows() int { return int(s.rows) }

// Spilled reports whether any step went to disk, and how many bytes of
// segments were written.
func (s *Store) Spilled() (bool, int64) { return s.spills > 0, *s.written }

// Add takes one batch of schema.StepArrowSchema. The store keeps what it
// needs; the caller still releases rec.
func (s *Store) Add(rec arrow.RecordBatch) error {
	n := rec.NumRows()
	if n == 0 {
		return nil
	}
	if err := s.cur.Add(rec); err != nil {
		return err
	}
	s.rows += n
	if s.cur.ApproxBytes() > s.limit() {
		return s.flush()
	}
	return nil
}

// partitionOf is the partition of a run id.
func (s *Store) partitionOf(runID string) int32 {
	h := xxhash.Sum64String(runID)
	if s.level > 0 { // a split partition: bits independent of the parent's
		h = xxhash.Sum64(append([]byte{byte(s.level)}, runID...))
	}
	return int32(h % uint64(len(s.parts)))
}

// spill appends the current collector's steps to the partitions' files and
// starts a fresh collector.
func (s *Store) spill() error {
	if err := s.makeDir(); err != nil {
		return err
	}
	if s.w == nil {
		s.w = bufio.NewWriterSize(nil, ioBuffer)
	}
	p := s.cur.Partition(len(s.parts), s.partitionOf)
	for i := range s.parts {
		if p.Rows(int32(i)) == 0 {
			continue
		}
		part := &s.parts[i]
		if part.file == nil {
			f, err := os.Create(filepath.Join(s.dir, fmt.Sprintf("part-%03d.seg", i)))
			if err != nil {
				return fmt.Errorf("spill: %w", err)
			}
			part.file = f
		}
		s.w.Reset(&countingWriter{w: part.file, n: s.written})
		if err := errors.Join(p.WriteSegment(s.w, int32(i)), s.w.Flush()); err != nil {
			return fmt.Errorf("spill: writing %s: %w", part.file.Name(), err)
		}
		part.bytes += p.ApproxBytes(int32(i))
	}
	s.spills++
	s.cur = runstore.NewCollector(slices.Clone(s.names))
	return nil
}

// dirBase starts the name of a store's temporary directory, which
// tmpfiles completes with the pid: runaway-spill-<pid>-<random>.
const dirBase = "runaway-spill-"

// RemoveStale removes the temporary directories stores of processes that
// no longer exist left in dir ("" is os.TempDir()), killed before they
// could (tmpfiles.RemoveStale), and returns their paths.
func RemoveStale(dir string) []string { return tmpfiles.RemoveStale(dir, dirBase) }

// Close releases what the store holds and removes its temporary files. It
// may be called more than once.
func (s *Store) Close() error {
	var errs []error
	s.cur = nil
	for p := range s.parts {
		part := &s.parts[p]
		if part.file != nil {
			errs = append(errs, part.file.Close())
			part.file = nil
		}
	}
	if s.dir != "" {
		errs = append(errs, os.RemoveAll(s.dir))
		s.dir = ""
	}
	return errors.Join(errs...)
}

type countingWriter struct {
	w interface{ Write([]byte) (int, error) }
	n *int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	*c.n += int64(n)
	return n, err
}
