package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/synth"
)

// benchLines is a realistic step log: about 500-byte lines with a tool call
// and its args, a result, memory, usage and state, 40 interleaved runs.
func benchLines(n int) []byte {
	var sb strings.Builder
	states := []string{"PLAN", "ACT", "EVAL", "ACT", "RECOVER"}
	for i := range n {
		run := i % 40
		fmt.Fprintf(&sb, `{"run_id":"run-%04d-7f3a9c","step":%d,"ts":"2026-11-29T10:%02d:%02d.%03dZ","state":%q,`+
			`"intent":"find-cheapest-flight-%d","tool_call":{"name":"search_flights","args":{"origin":"SFO","destination":"NRT",`+
			`"date":"2026-12-%02d","passengers":%d,"filters":{"max_stops":1,"airlines":["UA","NH"],"cabin":"economy"}}},`+
			`"tool_result":{"ok":%v,"status":%d,"result_count":%d,"retryable":true},`+
			`"memory":{"retrieved":["mem-%d","mem-%d"],"written":["obs-%d"],"write_tags":["observation"]},`+
			`"decision":{"next_state":"EVAL","reason":"compare prices"},`+
			`"usage":{"prompt_tokens":%d,"completion_tokens":%d,"cost_usd":0.%04d}}`+"\n",
			run, i/40, (i/60)%60, i%60, i%1000, states[i%len(states)], run%7, 1+i%28, 1+i%3,
			i%9 != 0, 200+(i%9/8)*229, i%4, i%17, i%5, i, 1000+i%500, 50+i%80, i%9999)
	}
	return []byte(sb.String())
}

func BenchmarkDecode(b *testing.B) {
	data := benchLines(20000)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			mem := memory.NewGoAllocator()
			src := []Source{memSource("bench.jsonl", data)}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				st, err := Read(context.Background(), src, Options{Alloc: mem, Workers: workers}, func(arrow.RecordBatch) error { return nil })
				if err != nil || st.Steps != 20000 {
					b.Fatalf("%v, %+v", err, st)
				}
			}
			// CPU time is steadier than wall time on a shared machine: MB per
			// CPU-second is what one core decodes, all overheads (GC) included.
			if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(b.N)*float64(len(data))/1e6/cpu, "MB/cpu-s")
			}
		})
	}
}

// BenchmarkFraming measures the serial part of Read: cutting a source into
// chunks of lines, without decoding them.
func BenchmarkFraming(b *testing.B) {
	data := benchLines(20000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		lines := 0
		fr := &framing{
			maxLine:    defaultMaxLineBytes,
			batchRows:  defaultBatchRows,
			chunkBytes: defaultChunkBytes,
			pool:       sharedBlocks,
			stopped:    func() bool { return false },
			ctx:        context.Background(),
			send: func(it *item) bool {
				lines += len(it.lineLens)
				it.releaseBlocks()
				if it.kind == itemLongLine {
					go io.Copy(io.Discard, it.long.pipe)
				}
				return true
			},
		}
		if !fr.frameSource(0, memSource("bench.jsonl", data)) || lines != 20000 {
			b.Fatalf("framed %d lines", lines)
		}
	}
}

// cpuTime is the CPU time this process has used, all threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecodeLine measures DecodeLine alone, one goroutine, no framing:
// "parse" is the step decoder only, "row" everything DecodeLine does.
func BenchmarkDecodeLine(b *testing.B) {
	data := benchLines(20000)
	var lines [][]byte
	for l := range bytes.SplitSeq(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		lines = append(lines, l)
	}
	b.Run("parse", func(b *testing.B) {
		var d stepDecoder
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range lines {
				if _, err := d.decode(l); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("row", func(b *testing.B) { benchRows(b, data, lines) })
	// The generated bench corpus: reasons, args and results as varied as
	// runaway gen makes them (benchLines repeats a few).
	var gen bytes.Buffer
	if _, err := synth.Generate(synth.Config{TargetBytes: 8 << 20, RunawayRate: 0.2, Seed: 7}, &gen, nil); err != nil {
		b.Fatal(err)
	}
	var genLines [][]byte
	for l := range bytes.SplitSeq(bytes.TrimSuffix(gen.Bytes(), []byte("\n")), []byte("\n")) {
		genLines = append(genLines, l)
	}
	b.Run("parse-generated", func(b *testing.B) {
		var d stepDecoder
		b.SetBytes(int64(gen.Len()))
		for b.Loop() {
			for _, l := range genLines {
				if _, err := d.decode(l); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("row-generated", func(b *testing.B) { benchRows(b, gen.Bytes(), genLines) })
}

func benchRows(b *testing.B, data []byte, lines [][]byte) {
	{
		mem := memory.NewGoAllocator()
		w := newBatchWriter(mem)
		defer w.release()
		d := NewLineDecoder(false, 0)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			w.beginChunk(len(lines), len(data))
			for i, l := range lines {
				if err := d.DecodeLine(w, l, 0, int64(i+1)); err != nil {
					b.Fatal(err)
				}
			}
			w.endChunk(len(data))
			w.newBatch().Release()
		}
	}
}
