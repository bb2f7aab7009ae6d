package synth

import (
	"io"
	"testing"
)

// BenchmarkGenerate measures generation speed in MB/s of step lines.
func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	var bytes int64
	for i := 0; i < b.N; i++ {
		sum, err := Generate(Config{Runs: 2000, RunawayRate: 0.2, Seed: uint64(i)}, io.Discard, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		bytes = sum.Bytes
	}
	b.SetBytes(bytes)
}
