package runstore

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
