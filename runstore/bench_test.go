package runstore_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/synth"
)

// BenchmarkCollectorAdd measures copying decoded batches into a
// collector's columns, without analysis.
func BenchmarkCollectorAdd(b *testing.B) {
	corpus, batches := benchBatches(b)
	b.SetBytes(int64(corpus))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		collectAll(b, batches)
	}
}

// collectAll adds the batches to a fresh collector.
func collectAll(b *testing.B, batches []arrow.RecordBatch) *runstore.Collector {
	c := runstore.NewCollector([]string{"corpus.jsonl"})
	for _, rec := range batches {
		if err := c.Add(rec); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// benchBatches decodes a generated corpus of 4000 runs into Arrow batches
// (released when b ends) and returns the corpus size in bytes.
func benchBatches(b *testing.B) (int, []arrow.RecordBatch) {
	var corpus bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 4000, RunawayRate: 0.2, Seed: 3}, &corpus, nil); err != nil {
		b.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	var batches []arrow.RecordBatch
	_, err := ingest.Read(b.Context(), []ingest.Source{source("corpus.jsonl", corpus.String())}, ingest.Options{Alloc: mem},
		func(rec arrow.RecordBatch) error { rec.Retain(); batches = append(batches, rec); return nil })
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		for _, rec := range batches {
			rec.Release()
		}
	})
	return corpus.Len(), batches
}

// BenchmarkIndicatorPass measures detect alone: collecting already-decoded
// Arrow batches and analyzing every run (bytes are those of the JSONL the
// batches came from, so MB/s compares with the decoder's).
func BenchmarkIndicatorPass(b *testing.B) {
	corpus, batches := benchBatches(b)
	b.SetBytes(int64(corpus))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rs := collectAll(b, batches).Results(detect.DefaultPolicy(), 0); len(rs) != 4000 {
			b.Fatalf("%d runs", len(rs))
		}
	}
}
