package spill_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/spill"
)

// BenchmarkSpill is a spilling scan without the decoding: batches decoded
// once, then added to a store whose collector budget is a tenth of the
// input's (about what --max-memory 128MiB gives a 1 GB input), and
// analyzed. Compare with BenchmarkInMemory for what spilling costs.
func BenchmarkSpill(b *testing.B) {
	benchmarkStore(b, 0.1)
}

// BenchmarkInMemory is BenchmarkSpill with a budget nothing overflows.
func BenchmarkInMemory(b *testing.B) {
	benchmarkStore(b, 0)
}

func benchmarkStore(b *testing.B, share float64) {
	srcs := corpus(b, 3000)
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(b, 0)
	var batches []arrow.RecordBatch
	defer func() {
		for _, rec := range batches {
			rec.Release()
		}
	}()
	read(b, srcs, alloc, func(rec arrow.RecordBatch) error {
		rec.Retain()
		batches = append(batches, rec)
		return nil
	}, nil)
	var rows int64
	size := int64(0)
	{
		c := runstore.NewCollector(names(srcs))
		for _, rec := range batches {
			rows += rec.NumRows()
			if err := c.Add(rec); err != nil {
				b.Fatal(err)
			}
		}
		size = c.ApproxBytes()
	}
	maxBytes := int64(1 << 40)
	if share > 0 {
		maxBytes = int64(float64(size) * share)
	}
	dir := b.TempDir()
	var spilled int64
	b.ResetTimer()
	for b.Loop() {
		s, err := spill.New(spill.Options{Policy: detect.DefaultPolicy(), Dir: dir, MaxBytes: maxBytes})
		if err != nil {
			b.Fatal(err)
		}
		for i, n := range names(srcs) {
			s.SetSourceName(i, n)
		}
		for _, rec := range batches {
			if err := s.Add(rec); err != nil {
				b.Fatal(err)
			}
		}
		_, spilled = s.Spilled()
		if err := s.Analyze(2, func(*detect.RunResult) error { return nil }); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/step")
	b.ReportMetric(float64(spilled)/float64(rows), "spilled-B/step")
}
