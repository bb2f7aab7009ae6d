package spill

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
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
