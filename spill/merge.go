package spill

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
)

// A merge by run id of result files, each in run-id order, one reader a
// file, all open at once: the final merge decodes every result
// (resultSource), the search for split runs and the merging of idle runs'
// files read only each result's run id and sources (idSource).

// mergeSource is a result file read one result ahead.
type mergeSource interface {
	next() (bool, error) // false at the end of the file
	runID() string       // of the current result
	file() *os.File
}

// sourceHeap orders the sources by their current run id.
type sourceHeap[S mergeSource] struct{ items []S }

// openSources opens the files, reads each one's first result, and drops
// those that hold none; close the heap whatever the error.
func openSources[S mergeSource](paths []string, source func(i int, f *os.File, r *bufio.Reader) S) (*sourceHeap[S], error) {
	h := &sourceHeap[S]{}
	for i, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return h, fmt.Errorf("spill: %w", err)
		}
		// All open at once: small buffers.
		src := source(i, f, bufio.NewReaderSize(f, 16<<10))
		ok, err := src.next()
		if err != nil {
			f.Close()
			return h, fmt.Errorf("spill: reading %s: %w", path, err)
		}
		if ok {
			h.items = append(h.items, src)
		} else {
			f.Close()
		}
	}
	heap.Init(h)
	return h, nil
}

// advance moves the least source on by one result.
func (h *sourceHeap[S]) advance() error {
	src := h.items[0]
	ok, err := src.next()
	if err != nil {
		return fmt.Errorf("spill: reading %s: %w", src.file().Name(), err)
	}
	if ok {
		heap.Fix(h, 0)
	} else {
		src.file().Close()
		heap.Pop(h)
	}
	return nil
}

func (h *sourceHeap[S]) close() {
	for _, src := range h.items {
		src.file().Close()
	}
	h.items = nil
}

func (h *sourceHeap[S]) Len() int           { return len(h.items) }
func (h *sourceHeap[S]) Less(i, j int) bool { return h.items[i].runID() < h.items[j].runID() }
func (h *sourceHeap[S]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *sourceHeap[S]) Push(x any)         { h.items = append(h.items, x.(S)) }
func (h *sourceHeap[S]) Pop() any {
	old := h.items
	x := old[len(old)-1]
	h.items = old[:len(old)-1]
	return x
}

// resultSource reads a result file one result ahead.
type resultSource struct {
	drop map[string]bool // results of these runs are left out
	f    *os.File
	r    *bufio.Reader
	buf  []byte
	cur  detect.RunResult
}

func (s *resultSource) runID() string  { return s.cur.RunID }
func (s *resultSource) file() *os.File { return s.f }

// next reads the next result into cur; false at the end of the file.
func (s *resultSource) next() (bool, error) {
	var ok bool
	var err error
	if s.buf, ok, err = runstore.ReadRecord(s.r, s.buf); !ok || err != nil {
		return false, err
	}
	return true, runstore.DecodeResult(s.buf, &s.cur)
}

// mergeResults emits the results of the files (each in run-id order) in
// run-id order, leaving out the results of the runs in drop from the first
// n files: those runs were analyzed in pieces, and the later files hold
// their whole results (Store.Replace). Otherwise a run lives in one file.
// The files are read and decoded on a goroutine of their own, a batch of
// results ahead of emit: emit (encoding the reports) is the longer part,
// and it need not wait for the decoding.
func mergeResults(paths []string, n int, drop map[string]bool, emit func(*detect.RunResult) error) error {
	batches := make(chan []detect.RunResult, 2)
	free := make(chan []detect.RunResult, 3)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(batches)
		readErr = readMerged(paths, n, drop, free, batches, stop)
	}()
	var err error
	for batch := range batches {
		for i := range batch {
			if err == nil {
				err = emit(&batch[i])
			}
		}
		if err != nil {
			close(stop)
			for range batches { // let the reader see stop and end
			}
			return err
		}
		select {
		case free <- batch[:0]:
		default:
		}
	}
	return readErr
}

const mergeBatch = 256

// readMerged merges the files into batches of results sent to out, taking
// emptied batches back from free, until the files end or stop closes; the
// first n files' results of runs in drop are left out.
func readMerged(paths []string, n int, drop map[string]bool, free <-chan []detect.RunResult, out chan<- []detect.RunResult, stop <-chan struct{}) error {
	h, err := openSources(paths, func(i int, f *os.File, r *bufio.Reader) *resultSource {
		src := &resultSource{f: f, r: r}
		if i < n {
			src.drop = drop
		}
		return src
	})
	defer h.close()
	if err != nil {
		return err
	}
	var batch []detect.RunResult
	send := func() bool {
		select {
		case out <- batch:
		case <-stop:
			return false
		}
		select {
		case batch = <-free:
		default:
			batch = make([]detect.RunResult, 0, mergeBatch)
		}
		return true
	}
	batch = make([]detect.RunResult, 0, mergeBatch)
	for h.Len() > 0 {
		src := h.items[0]
		if !src.drop[src.cur.RunID] {
			batch = append(batch, src.cur)
			if len(batch) == mergeBatch && !send() {
				return nil
			}
		}
		if err := h.advance(); err != nil {
			return err
		}
	}
	if len(batch) > 0 {
		send()
	}
	return nil
}
