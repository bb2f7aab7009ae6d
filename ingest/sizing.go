package ingest

// A batchWriter's buffers are sized once per chunk, from what the previous
// chunk took, so that they are allocated once rather than grown by
// doubling. It is only an optimisation: a writer works without it.

// sizeHint learns how much of a buffer that grows by content (string bytes,
// list values) a chunk takes per byte of input.
type sizeHint struct {
	buf interface {
		used() int
		reserve(n int)
	}
	perByte float64
	atStart int
}

// beginChunk sizes w for a chunk of lines holding size bytes.
func (w *batchWriter) beginChunk(lines, size int) {
	if need := w.rows + lines; need > w.rowsCap {
		w.growRows(need)
	}
	for i := range w.hints {
		h := &w.hints[i]
		if h.perByte > 0 {
			h.buf.reserve(int(h.perByte*float64(size)*1.1) + 1)
		}
		h.atStart = h.buf.used()
	}
}

// sizeRest sizes the buffers for the rest of a chunk that beginChunk could
// not size (the writer's first), from what its first done bytes took of its
// size bytes.
func (w *batchWriter) sizeRest(done, size int) {
	if w.sized || done <= 0 || done >= size {
		return
	}
	w.sized = true
	rest := float64(size-done) * 1.1
	for i := range w.hints {
		h := &w.hints[i]
		h.buf.reserve(int(float64(h.buf.used()-h.atStart)/float64(done)*rest) + 1)
	}
}

// endChunk learns the sizes of the chunk begun by beginChunk.
func (w *batchWriter) endChunk(size int) {
	if size <= 0 {
		return
	}
	w.sized = true
	for i := range w.hints {
		h := &w.hints[i]
		h.perByte = float64(h.buf.used()-h.atStart) / float64(size)
	}
}
