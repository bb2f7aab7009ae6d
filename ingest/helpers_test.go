package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"
)

// readResult is everything Read showed its caller.
type readResult struct {
	rows      []map[string]any // every column of every row, from the batches' JSON
	batchJSON [][]byte         // the batches as Arrow marshals them, for byte comparisons
	rejects   []Reject
	rejected  string // what Read wrote to Options.Rejects
	stats     Stats
	err       error
}

// read runs Read with a checked allocator and fails the test if any Arrow
// memory is left allocated afterwards.
func read(t testing.TB, sources []Source, opts Options) readResult {
	t.Helper()
	return readWith(t, memory.NewGoAllocator(), sources, opts)
}

// readWith is read with batches built by alloc.
func readWith(t testing.TB, alloc memory.Allocator, sources []Source, opts Options) readResult {
	t.Helper()
	mem := memory.NewCheckedAllocator(alloc)
	defer mem.AssertSize(t, 0)
	var res readResult
	var rejected bytes.Buffer
	opts.Alloc = mem
	if opts.Rejects == nil {
		opts.Rejects = &rejected
	}
	if opts.OnReject == nil {
		opts.OnReject = func(r Reject) {
			res.rejects = append(res.rejects, Reject{File: r.File, Line: r.Line, Reason: r.Reason})
		}
	}
	res.stats, res.err = Read(context.Background(), sources, opts, func(b arrow.RecordBatch) error {
		js, err := b.MarshalJSON()
		if err != nil {
			return err
		}
		res.batchJSON = append(res.batchJSON, js)
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var rows []map[string]any
		if err := dec.Decode(&rows); err != nil {
			return err
		}
		res.rows = append(res.rows, rows...)
		return nil
	})
	res.rejected = rejected.String()
	return res
}

func mustRead(t testing.TB, sources []Source, opts Options) readResult {
	t.Helper()
	res := read(t, sources, opts)
	if res.err != nil {
		t.Fatalf("Read: %v", res.err)
	}
	return res
}

func memSource(name string, data []byte) Source {
	return Source{
		Name: name,
		Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
	}
}

func gzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstdBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zw.Close()
	return zw.EncodeAll(data, nil)
}

func num(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return "<not a number>"
}

func reasons(rs []Reject) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Reason)
	}
	return out
}
