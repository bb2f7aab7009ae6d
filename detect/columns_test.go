package detect

import "testing"

// Values written through extend read back with at as from a plain slice:
// in the first chunk while it grows, across a chunk boundary, with n = 0.
func TestChunkedExtendMatchesSlice(t *testing.T) {
	var c chunked[int64]
	var want []int64
	check := func() {
		t.Helper()
		if c.len() != len(want) {
			t.Fatalf("len %d, want %d", c.len(), len(want))
		}
		for i, v := range want {
			if got := c.at(int32(i)); got != v {
				t.Fatalf("at(%d) = %d, want %d", i, got, v)
			}
		}
	}
	for _, n := range []int{0, 1, 3, firstChunk, 1000, 0, chunkSize - 1, 5000, chunkSize, 7} {
		s := c.extend(n)
		for i := 0; i < n; i++ {
			v := int64(len(want))*3 + 1
			s.set(i, v)
			want = append(want, v)
		}
		check()
		c.append(-int64(len(want)))
		want = append(want, -int64(len(want)))
		check()
	}
	for i, ch := range c.chunks[:len(c.chunks)-1] {
		if len(ch) != chunkSize {
			t.Fatalf("chunk %d holds %d values, want %d", i, len(ch), chunkSize)
		}
	}
}

// A small collector stays small: extend grows the first chunk as append
// does, to the least doubling of firstChunk that holds the values.
func TestChunkedExtendFirstChunkGrowth(t *testing.T) {
	for _, n := range []int{1, firstChunk, firstChunk + 1, 3000, chunkSize} {
		var e, a chunked[uint32]
		e.extend(n)
		for i := 0; i < n; i++ {
			a.append(0)
		}
		if got, want := cap(e.chunks[0]), cap(a.chunks[0]); got != want {
			t.Errorf("n=%d: first chunk capacity %d, append's %d", n, got, want)
		}
	}
	var c chunked[uint32]
	if s := c.extend(0); len(s.a)+len(s.b) != 0 || len(c.chunks) != 0 {
		t.Fatalf("extend(0) allocated")
	}
}

// A column filled from recycled chunks reads as a new one: what extend
// hands out is zero, whatever the chunk held before. It takes no more
// spares than the old column had chunks, whatever it already holds, so
// spares do not pile up from one collector to the next.
func TestChunkedRecycleClearsAndBoundsSpares(t *testing.T) {
	var old chunked[int64]
	for i := 0; i < 3*chunkSize; i++ {
		old.append(int64(i) + 1)
	}
	var c chunked[int64]
	c.extend(10) // a carried-over step: c already holds a chunk of its own
	c.recycle(&old)
	if got, want := len(c.chunks)+len(c.spare), 3; got != want {
		t.Fatalf("%d chunks and spares after recycling 3 chunks into a column of 1, want %d", got, want)
	}
	if old.len() != 0 || old.chunks != nil {
		t.Fatalf("the recycled column still holds %d values", old.len())
	}
	s := c.extend(chunkSize)
	for _, part := range [][]int64{s.a, s.b} {
		for i, v := range part {
			if v != 0 {
				t.Fatalf("extend handed out %d at %d of a recycled chunk, want 0", v, i)
			}
		}
	}
	if len(c.spare) != 1 {
		t.Fatalf("%d spares left after one new chunk, want 1", len(c.spare))
	}
	c.append(7)
	if got := c.at(int32(c.len() - 1)); got != 7 {
		t.Fatalf("append into a recycled chunk reads back %d", got)
	}
}
