package detect

// chunked is an append-only column stored in fixed-size chunks, so a column
// of millions of rows grows without the copy-and-double of a slice (which
// would briefly hold twice the data).
type chunked[T any] struct {
	chunks [][]T
	n      int
	// spare are full chunks of a collector done with (recycle), used
	// before new ones: allocating and faulting in fresh chunks, and
	// collecting the old ones, cost more than clearing them.
	spare [][]T
}

const chunkBits = 16
const chunkSize = 1 << chunkBits

// firstChunk is the capacity a column's first chunk starts with. A
// collector of one small run (explain, the minimizer's thousands of trials)
// would otherwise zero 64Ki values a column, about 5 MB, for a few rows.
const firstChunk = 256

func (c *chunked[T]) append(v T) {
	if c.n&(chunkSize-1) == 0 {
		c.chunks = append(c.chunks, c.newChunk())
	}
	last := &c.chunks[len(c.chunks)-1]
	if len(*last) == cap(*last) {
		// Double a short chunk, never past chunkSize: chunk i must hold
		// rows i*chunkSize and on (at).
		grown := make([]T, len(*last), min(max(2*cap(*last), firstChunk), chunkSize))
		copy(grown, *last)
		*last = grown
	}
	*last = append(*last, v)
	c.n++
}

// extend appends n zero values, n <= chunkSize, for a caller to fill: a
// batch's values then cost a store each rather than a call to append.
func (c *chunked[T]) extend(n int) (s span[T]) {
	if n > chunkSize {
		panic("detect: chunked.extend past one chunk")
	}
	s.a = c.grow(min(n, chunkSize-c.n&(chunkSize-1)))
	s.b = c.grow(n - len(s.a))
	return s
}

// grow appends k zero values that fit in the last chunk (or a new one) and
// returns them. The first chunk grows by doubling from firstChunk, as
// append's does, so a small collector stays small.
func (c *chunked[T]) grow(k int) []T {
	if k == 0 {
		return nil
	}
	if c.n&(chunkSize-1) == 0 {
		c.chunks = append(c.chunks, c.newChunk())
	}
	last := &c.chunks[len(c.chunks)-1]
	l := len(*last)
	if l+k > cap(*last) {
		size := max(cap(*last), firstChunk)
		for size < l+k {
			size *= 2
		}
		grown := make([]T, l, min(size, chunkSize))
		copy(grown, *last)
		*last = grown
	}
	*last = (*last)[:l+k]
	c.n += k
	return (*last)[l:]
}

// newChunk is an empty chunk to fill: a spare, cleared, else a new one, but
// for a column's first chunk, which grows from nothing (grow, append).
func (c *chunked[T]) newChunk() []T {
	if k := len(c.spare) - 1; k >= 0 {
		next := c.spare[k]
		c.spare = c.spare[:k]
		clear(next[:chunkSize])
		return next[:0]
	}
	if len(c.chunks) == 0 {
		return nil
	}
	return make([]T, 0, chunkSize)
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

// recycle takes the full chunks of from, a column no longer read, as
// spares, as many as c needs to grow as large as from was: more would be
// memory that no budget counts, and would pile up from one collector to
// the next (c's own chunks, the steps carried over, are new).
func (c *chunked[T]) recycle(from *chunked[T]) {
	for _, ch := range from.chunks {
		if cap(ch) == chunkSize && len(c.chunks)+len(c.spare) < len(from.chunks) {
			c.spare = append(c.spare, ch)
		}
	}
	*from = chunked[T]{}
}

func (c *chunked[T]) at(i int32) T {
	return c.chunks[i>>chunkBits][i&(chunkSize-1)]
}

func (c *chunked[T]) len() int { return c.n }

// Row flags: what a step did and got back.
const (
	flagCall        uint16 = 1 << iota // has a tool call
	flagResult                         // has a tool result
	flagError                          // the result is an error
	flagEmpty                          // the result is empty
	flagRetryableF                     // retryable is logged and false
	flagMemProgress                    // wrote memory typed observation/decision
	flagArtifacts                      // logged artifacts (see runArtifacts for ids)
	flagPayload                        // the result carries items, data or result_count
)

// Recycle takes the column chunks of old, a collector whose steps are no
// longer read (its runs analyzed, the others copied to c), for c to fill
// before it allocates any: a scan that closes idle runs goes through
// collectors of the same size again and again. old must not be used after.
func (c *Collector) Recycle(old *Collector) {
	c.run.recycle(&old.run)
	c.step.recycle(&old.step)
	c.ts.recycle(&old.ts)
	c.argsKey.recycle(&old.argsKey)
	c.tool.recycle(&old.tool)
	c.state.recycle(&old.state)
	c.flags.recycle(&old.flags)
	c.errType.recycle(&old.errType)
	c.resHash.recycle(&old.resHash)
	c.tokens.recycle(&old.tokens)
	c.cost.recycle(&old.cost)
	c.file.recycle(&old.file)
	c.line.recycle(&old.line)
	c.lineHash.recycle(&old.lineHash)
	c.intent.recycle(&old.intent)
	c.normKey.recycle(&old.normKey)
}
