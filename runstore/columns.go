package runstore

import "github.com/runawayhq/runaway/schema"

// chunked is an append-only column stored in fixed-size chunks, so a column
// of millions of rows grows without the copy-and-double of a slice (which
// would briefly hold twice the data).
type chunked[T any] struct {
	chunks [][]T
	n      int
	// expect is the capacity the first chunk takes, at least, when it is
	// made or next grows (Collector.Expect); 0 leaves it to doubling.
	expect int
}

const chunkBits = 16
const chunkSize = 1 << chunkBits

// firstChunk is the capacity a column's first chunk starts with. A
// collector of one small run (explain, the minimizer's thousands of trials)
// would otherwise zero 64Ki values a column, about 5 MB, for a few rows.
const firstChunk = 256

func (c *chunked[T]) append(v T) {
	if c.n&(chunkSize-1) == 0 {
		size := chunkSize
		if len(c.chunks) == 0 {
			size = max(firstChunk, c.expect)
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
	}
	last := &c.chunks[len(c.chunks)-1]
	if len(*last) == cap(*last) {
		// Double a short chunk, never past chunkSize: chunk i must hold
		// rows i*chunkSize and on (at).
		grown := make([]T, len(*last), min(max(2*cap(*last), firstChunk, c.atLeast()), chunkSize))
		copy(grown, *last)
		*last = grown
	}
	*last = append(*last, v)
	c.n++
}

// atLeast is the capacity the last chunk takes, at least, when it is made
// or grows: expect while it is the first (a segment's reader makes short
// later chunks too; doubling suits them).
func (c *chunked[T]) atLeast() int {
	if c.n < chunkSize {
		return c.expect
	}
	return 0
}

// extend appends n zero values, n <= chunkSize, for a caller to fill: a
// batch's values then cost a store each rather than a call to append.
func (c *chunked[T]) extend(n int) (s span[T]) {
	if n > chunkSize {
		panic("runstore: chunked.extend past one chunk")
	}
	s.a = c.grow(min(n, chunkSize-c.n&(chunkSize-1)))
	s.b = c.grow(n - len(s.a))
	return s
}

// grow appends k zero values that fit in the last chunk (or a new one) and
// returns them. The first chunk grows by doubling from firstChunk, as
// append's does, so a small collector stays small (unless told to expect
// more).
func (c *chunked[T]) grow(k int) []T {
	if k == 0 {
		return nil
	}
	if c.n&(chunkSize-1) == 0 {
		var next []T // the first chunk: sized below
		if len(c.chunks) > 0 {
			next = make([]T, 0, chunkSize)
		}
		c.chunks = append(c.chunks, next)
	}
	last := &c.chunks[len(c.chunks)-1]
	l := len(*last)
	if l+k > cap(*last) {
		size := max(cap(*last), firstChunk)
		for size < l+k {
			size *= 2
		}
		grown := make([]T, l, min(max(size, c.atLeast()), chunkSize))
		copy(grown, *last)
		*last = grown
	}
	*last = (*last)[:l+k]
	c.n += k
	return (*last)[l:]
}

// span is n values that extend appended, split where a chunk ends.
type span[T any] struct{ a, b []T }

func (s span[T]) set(i int, v T) {
	if i < len(s.a) {
		s.a[i] = v
	} else {
		s.b[i-len(s.a)] = v
	}
}

// copyFrom sets the span to vs, which is as long.
func (s span[T]) copyFrom(vs []T) {
	copy(s.b, vs[copy(s.a, vs):])
}

func (c *chunked[T]) at(i int32) T {
	return c.chunks[i>>chunkBits][i&(chunkSize-1)]
}

func (c *chunked[T]) len() int { return c.n }

// Row flags the collector reads as it adds steps (schema.Flag*, which
// ingest computes; the columns keep them as they come).
const (
	flagCall  = schema.FlagCall
	flagError = schema.FlagError
	flagEmpty = schema.FlagEmpty
)

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
