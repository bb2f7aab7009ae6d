package detect

// chunked is an append-only column stored in fixed-size chunks, so a column
// of millions of rows grows without the copy-and-double of a slice (which
// would briefly hold twice the data).
type chunked[T any] struct {
	chunks [][]T
	n      int
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
			size = firstChunk
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
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
