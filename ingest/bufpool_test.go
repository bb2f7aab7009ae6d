package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/internal/bufpool"
)

// Scan builds batches in recycled buffers (internal/bufpool). A byte of a
// batch that neither the pool nor the batch writer zeroes (a null's value
// slot, a bitmap's unused bits) would keep what the buffer held before, and
// batches would differ from fresh ones where a reader does not look at
// validity first. Every buffer of every batch, byte for byte, must be what
// Go's fresh, zeroed memory gives, even when every buffer the pool hands out
// was dirtied first.
func TestBatchesInRecycledBuffersEqualFreshOnes(t *testing.T) {
	paths, err := filepath.Glob("../fixtures/*/*.jsonl")
	if err != nil || len(paths) < 10 {
		t.Fatalf("fixtures: %d files, %v", len(paths), err)
	}
	var data []byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b...)
	}
	sources := []Source{memSource("fixtures.jsonl", data)}

	fresh := readBuffers(t, memory.NewGoAllocator(), sources)

	pool := bufpool.New(64 << 20)
	var dirty [][]byte
	for size := 64; size <= 1<<20; size *= 2 {
		for range 64 {
			b := pool.Allocate(size)
			for i := range b {
				b[i] = 0xAB
			}
			dirty = append(dirty, b)
		}
	}
	for _, b := range dirty {
		pool.Free(b)
	}
	recycled := readBuffers(t, pool, sources)

	if len(fresh) < 5 || len(recycled) != len(fresh) {
		t.Fatalf("batches: %d fresh, %d recycled; want the same number, at least 5", len(fresh), len(recycled))
	}
	for i := range fresh {
		if len(fresh[i]) != len(recycled[i]) {
			t.Fatalf("batch %d: %d buffers fresh, %d recycled", i, len(fresh[i]), len(recycled[i]))
		}
		for j := range fresh[i] {
			if !bytes.Equal(fresh[i][j], recycled[i][j]) {
				t.Fatalf("batch %d buffer %d differs in recycled memory:\n fresh    %x\n recycled %x", i, j, fresh[i][j], recycled[i][j])
			}
		}
	}
	if pool.IdleBytes() == 0 {
		t.Error("no buffer came back to the pool: the test did not exercise reuse")
	}
}

// readBuffers reads sources in small chunks, so that released batches'
// buffers are reused by later ones, and returns a copy of every buffer of
// every batch, children included, in order. One worker, so that which
// buffers are recycled into which batch is the same in every run.
func readBuffers(t *testing.T, alloc memory.Allocator, sources []Source) [][][]byte {
	t.Helper()
	mem := memory.NewCheckedAllocator(alloc)
	defer mem.AssertSize(t, 0)
	var out [][][]byte
	_, err := Read(context.Background(), sources, Options{Alloc: mem, chunkBytes: 2 << 10, Workers: 1}, func(b arrow.RecordBatch) error {
		var bufs [][]byte
		for _, col := range b.Columns() {
			bufs = appendBuffers(bufs, col.Data())
		}
		out = append(out, bufs)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func appendBuffers(out [][]byte, d arrow.ArrayData) [][]byte {
	for _, b := range d.Buffers() {
		if b == nil {
			out = append(out, nil)
			continue
		}
		out = append(out, bytes.Clone(b.Bytes()))
	}
	for _, c := range d.Children() {
		out = appendBuffers(out, c)
	}
	return out
}
