// Package spill bounds a scan's memory. Steps go to one in-memory
// detect.Collector until it reaches a byte budget; after that, batches are
// held as they come and, past a second budget, written to a temporary
// directory as Arrow IPC streams, one per partition of run ids (a run's
// steps all land in one partition). The analysis then goes partition by
// partition: a fresh collector gets the partition's runs from the first
// collector (Collector.Partition, CopyTo), then the partition's spilled steps. Results come out
// in run-id order, byte for byte what one collector gives: each run's result
// depends only on its own steps, which reach their collector in input order.
package spill

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// Options configure a Store. Zero values take the defaults.
type Options struct {
	Alloc  memory.Allocator // required
	Policy detect.Policy
	// Dir is where the temporary directory is made; "" is os.TempDir().
	Dir string
	// Partitions is how many groups of run ids the input is split into when
	// it spills; each is analyzed on its own. Default 128.
	Partitions int
	// MaxBytes is the most the first collector may hold (detect's
	// estimate). Default 32 MiB.
	MaxBytes int64
	// PendingBytes is the most batch data held, once the first collector
	// is full, before it spills. Default MaxBytes/2.
	PendingBytes int64
}

const (
	defaultPartitions = 128
	defaultMaxBytes   = 32 << 20
)

// Store holds or spills the batches of one scan. It is not safe for
// concurrent use; Close it to release memory and remove its files.
type Store struct {
	opts     Options
	level    int               // 0 for the scan's store; n for a partition split n times
	results  string            // where result files go: the top store's directory
	seq      *int              // result files written, shared with split partitions' stores
	splits   *int              // partitions split, shared likewise
	first    *detect.Collector // the steps read before the first overflow
	full     bool              // first is full: batches are held or spilled
	names    []string
	dir      string // the temporary directory, "" until the first spill
	parts    []partition
	pending  []arrow.RecordBatch // held as they came, until they spill
	held     int64               // bytes of the batches held in memory
	rows     int64
	spills   int
	spilledB int64

	partOf  []int32 // scratch: partition of each row of a batch
	counts  []int64
	scratch []int64
}

type partition struct {
	held []arrow.RecordBatch // in input order
	file *os.File
	buf  *bufio.Writer
	w    *ipc.Writer
	rows int64
}

// New returns an empty store.
func New(opts Options) (*Store, error) {
	if opts.Alloc == nil {
		return nil, errors.New("spill: Options.Alloc is required")
	}
	if opts.Partitions <= 0 {
		opts.Partitions = defaultPartitions
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = defaultMaxBytes
	}
	if opts.PendingBytes <= 0 {
		opts.PendingBytes = max(opts.MaxBytes/2, 1)
	}
	first, err := detect.NewCollector(opts.Policy, nil)
	if err != nil {
		return nil, err
	}
	return &Store{
		opts:    opts,
		seq:     new(int),
		splits:  new(int),
		first:   first,
		parts:   make([]partition, opts.Partitions),
		counts:  make([]int64, opts.Partitions),
		scratch: make([]int64, opts.Partitions),
	}, nil
}

// SetSourceName names source index i (src_file) for messages.
func (s *Store) SetSourceName(i int, name string) {
	for len(s.names) <= i {
		s.names = append(s.names, "")
	}
	s.names[i] = name
	s.first.SetSourceName(i, name)
}

// Splits is how many partitions were too large for the budget and were
// split again (known after Analyze).
func (s *Store) Splits() int { return *s.splits }

// Rows is the number of steps added so far.
func (s *Store) Rows() int { return int(s.rows) }

// Spilled reports whether any batch went to disk, and how many bytes of
// IPC streams were written.
func (s *Store) Spilled() (bool, int64) { return s.spills > 0, s.spilledB }

// Add takes one batch of schema.StepArrowSchema. The store keeps what it
// needs (a copy of the rows, regrouped by partition); the caller still
// releases rec.
func (s *Store) Add(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(schema.StepArrowSchema) {
		return errors.New("spill: batch schema does not match schema.StepArrowSchema")
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	s.rows += int64(n)
	if !s.full {
		if err := s.first.Add(rec); err != nil {
			return err
		}
		s.full = s.first.ApproxBytes() > s.opts.MaxBytes
		return nil
	}
	// Batches are held as they came; they are regrouped by partition only
	// when they spill, so an input that fits costs no regrouping.
	rec.Retain()
	s.pending = append(s.pending, rec)
	s.held += batchBytes(rec)
	if s.held > s.opts.PendingBytes {
		return s.spill()
	}
	return nil
}

// distribute regroups the pending batches by partition into the
// partitions' held slices.
func (s *Store) distribute() error {
	for i, rec := range s.pending {
		grouped, offsets, err := s.group(rec)
		rec.Release()
		s.pending[i] = nil
		if err != nil {
			s.pending = s.pending[:0]
			return err
		}
		for p := range s.parts {
			if offsets[p+1] > offsets[p] {
				s.parts[p].held = append(s.parts[p].held, grouped.NewSlice(offsets[p], offsets[p+1]))
			}
		}
		grouped.Release()
	}
	s.pending = s.pending[:0]
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

// group reorders rec's rows by partition (stably: input order within each)
// and returns the reordered batch with the row offsets of each partition.
func (s *Store) group(rec arrow.RecordBatch) (arrow.RecordBatch, []int64, error) {
	n := int(rec.NumRows())
	ids := rec.Column(schema.ColRunID).(*array.String)
	s.partOf = s.partOf[:0]
	clear(s.counts)
	last, lastPart := "", int32(-1)
	for i := 0; i < n; i++ {
		id := ids.Value(i)
		if lastPart < 0 || id != last {
			last, lastPart = id, s.partitionOf(id)
		}
		s.partOf = append(s.partOf, lastPart)
		s.counts[lastPart]++
	}
	offsets := make([]int64, len(s.parts)+1)
	for p := range s.parts {
		offsets[p+1] = offsets[p] + s.counts[p]
	}
	if s.counts[s.partOf[0]] == int64(n) { // one partition: no reordering
		rec.Retain()
		return rec, offsets, nil
	}
	copy(s.scratch, offsets[:len(s.parts)])
	b := array.NewInt32Builder(s.opts.Alloc)
	defer b.Release()
	b.Resize(n)
	idx := make([]int32, n)
	for i, p := range s.partOf {
		idx[s.scratch[p]] = int32(i)
		s.scratch[p]++
	}
	b.AppendValues(idx, nil)
	indices := b.NewInt32Array()
	defer indices.Release()
	ctx := compute.WithAllocator(context.Background(), s.opts.Alloc)
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := range cols {
		taken, err := compute.TakeArray(ctx, rec.Column(c), indices)
		if err != nil {
			return nil, nil, fmt.Errorf("spill: regrouping column %s: %w", rec.Schema().Field(c).Name, err)
		}
		cols[c] = taken
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(n)), offsets, nil
}

func batchBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += int64(arrayBytes(c.Data()))
	}
	return n
}

func arrayBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += b.Len()
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	return n
}

// spill writes every held batch to its partition's stream and releases it.
func (s *Store) spill() error {
	if err := s.distribute(); err != nil {
		return err
	}
	if s.dir == "" {
		dir, err := os.MkdirTemp(s.opts.Dir, "runaway-spill-")
		if err != nil {
			return fmt.Errorf("spill: %w", err)
		}
		s.dir = dir
	}
	for p := range s.parts {
		part := &s.parts[p]
		if len(part.held) == 0 {
			continue
		}
		if part.w == nil {
			f, err := os.Create(filepath.Join(s.dir, fmt.Sprintf("part-%03d.arrows", p)))
			if err != nil {
				return fmt.Errorf("spill: %w", err)
			}
			part.file = f
			part.buf = bufio.NewWriterSize(&countingWriter{w: f, n: &s.spilledB}, 32<<10) // one per partition: small
			part.w = ipc.NewWriter(part.buf, ipc.WithSchema(schema.StepArrowSchema), ipc.WithAllocator(s.opts.Alloc))
		}
		rec, err := concatenate(part.held, s.opts.Alloc)
		for _, h := range part.held {
			h.Release()
		}
		part.held = part.held[:0]
		if err != nil {
			return err
		}
		err = part.w.Write(rec)
		part.rows += rec.NumRows()
		rec.Release()
		if err != nil {
			return fmt.Errorf("spill: writing %s: %w", part.file.Name(), err)
		}
	}
	s.held = 0
	s.spills++
	return nil
}

// concatenate joins a partition's held slices into one batch of fresh
// arrays: fewer, larger IPC messages, and arrow-go's IPC writer leaks
// buffers of sliced list arrays (v18.8.0), which slices would be.
func concatenate(recs []arrow.RecordBatch, alloc memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.StepArrowSchema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	parts := make([]arrow.Array, len(recs))
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for c := range cols {
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		joined, err := array.Concatenate(parts, alloc)
		if err != nil {
			return nil, fmt.Errorf("spill: joining column %s: %w", schema.StepArrowSchema.Field(c).Name, err)
		}
		cols[c] = joined
	}
	return array.NewRecordBatch(schema.StepArrowSchema, cols, rows), nil
}

// Close releases what the store holds and removes its temporary files. It
// may be called more than once.
func (s *Store) Close() error {
	var errs []error
	s.first = nil
	for _, rec := range s.pending {
		rec.Release()
	}
	s.pending = nil
	for p := range s.parts {
		part := &s.parts[p]
		for _, rec := range part.held {
			rec.Release()
		}
		part.held = nil
		if part.w != nil {
			errs = append(errs, part.w.Close())
			part.w = nil
		}
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
