package report

import (
	"fmt"
	"io"
	"testing"
)

// benchScan repeats the sample's runs n/3 times with distinct ids.
func benchScan(n int) *Scan {
	sample := sampleScan()
	scan := &Scan{Summary: sample.Summary}
	for i := range n {
		r := sample.Runs[i%len(sample.Runs)]
		r.RunID = fmt.Sprintf("%s-%07d", r.RunID, i)
		scan.Runs = append(scan.Runs, r)
	}
	return scan
}

func BenchmarkWrite(b *testing.B) {
	scan := benchScan(10_000)
	for _, format := range Formats {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, format, scan, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A write failure in the middle of a large report (not just at the final
// flush) still reaches the caller.
func TestWriteErrorMidStream(t *testing.T) {
	scan := benchScan(3_000)
	for _, format := range Formats {
		if err := Write(&failingWriter{after: 3}, format, scan, Options{}); err == nil {
			t.Errorf("%s: write error was swallowed", format)
		}
	}
}
