package runstore

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
)

// firstChunks finds every chunked column in v (a collector, or a struct in
// it) and records, by field path, where its first chunk is and its
// capacity; columns without a chunk yet are left out.
func firstChunks(v reflect.Value, path string, out map[string]chunkAt) {
	for i := range v.NumField() {
		f, name := v.Field(i), path+"."+v.Type().Field(i).Name
		switch {
		case strings.HasPrefix(f.Type().Name(), "chunked["):
			if chunks := f.FieldByName("chunks"); chunks.Len() > 0 {
				first := chunks.Index(0)
				out[name] = chunkAt{first.UnsafePointer(), first.Cap()}
			}
		case f.Kind() == reflect.Struct:
			firstChunks(f, name, out)
		}
	}
}

type chunkAt struct {
	p   unsafe.Pointer
	cap int
}

func chunksOf(c *Collector) map[string]chunkAt {
	out := map[string]chunkAt{}
	firstChunks(reflect.ValueOf(c).Elem(), "c", out)
	return out
}

// A collector told to expect the sizes of one that read the same steps
// makes each column's first chunk once (or, told after it collected some,
// remakes it at most once), no larger than the unsized collector's, and
// holds and finds exactly what that one does.
func TestExpectMakesFirstChunksOnce(t *testing.T) {
	text := mixedLog(t, 5, 400)
	for _, tc := range []struct {
		name       string
		afterBatch int // Expect after this many batches
	}{
		{"fresh", 0},
		{"carried", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newCollector := func() *Collector { return NewCollector([]string{"in.jsonl"}) }
			plain := newCollector()
			readLog(t, text, 64, plain.Add)
			want := chunksOf(plain)
			grown := 0 // columns that doubled past firstChunk in plain
			for _, ch := range want {
				if ch.cap > firstChunk {
					grown++
				}
			}
			if grown < 20 {
				t.Fatalf("only %d columns outgrew firstChunk: the log is too small to test", grown)
			}

			sized := newCollector()
			batches := 0
			made := map[string]int{} // first chunks made after Expect, by column
			last := map[string]chunkAt{}
			readLog(t, text, 64, func(rec arrow.RecordBatch) error {
				if batches == tc.afterBatch {
					sized.Expect(plain.Sizes())
					last = chunksOf(sized)
				}
				batches++
				if err := sized.Add(rec); err != nil {
					return err
				}
				if batches > tc.afterBatch {
					now := chunksOf(sized)
					for col, ch := range now {
						if last[col].p != ch.p {
							made[col]++
						}
					}
					last = now
				}
				return nil
			})
			limit := 1 // made once, or (carried) remade once
			for col, n := range made {
				if n > limit {
					t.Errorf("%s: first chunk made %d times after Expect", col, n)
				}
			}
			for col, ch := range chunksOf(sized) {
				if ch.cap > want[col].cap {
					t.Errorf("%s: first chunk holds %d values, unsized %d", col, ch.cap, want[col].cap)
				}
			}
			if !maps.Equal(dumpRuns(sized), dumpRuns(plain)) {
				t.Error("the sized collector holds other steps than the unsized one")
			}
			if !maps.Equal(resultsByRun(t, sized), resultsByRun(t, plain)) {
				t.Error("the sized collector's results differ from the unsized one's")
			}
		})
	}
}
