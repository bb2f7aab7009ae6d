// Package bufpool is an Arrow memory.Allocator that reuses the buffers of
// released batches for the next ones.
//
// A scan builds one record batch per chunk of input and releases it as soon
// as the collector has copied it: with Go's allocator every chunk's buffers
// were fresh garbage, 0.74 GB allocated per GB of input, which set the pace
// of the garbage collector. Buffers come in power-of-two classes, so a
// released buffer fits the next chunk's builder of the same column; idle
// buffers are kept up to a byte bound and the rest left to the collector.
//
// It must not import pipeline or cmd: they call it.
package bufpool

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

const (
	minClassBits = 6  // 64 bytes: Arrow's alignment
	maxClassBits = 26 // 64 MiB: larger buffers are not kept
	classes      = maxClassBits - minClassBits + 1
)

// Pool is safe for concurrent use: decoders allocate while the collector
// frees.
type Pool struct {
	mu       sync.Mutex
	idle     [classes][][]byte
	idleSize int
	maxIdle  int
}

var _ memory.Allocator = (*Pool)(nil)

// New returns a pool that keeps at most maxIdle bytes of released buffers.
func New(maxIdle int) *Pool {
	return &Pool{maxIdle: maxIdle}
}

// classOf is the class of a buffer of size bytes: capacity 1<<(class+6).
func classOf(size int) int {
	if size <= 1<<minClassBits {
		return 0
	}
	return bits.Len(uint(size-1)) - minClassBits
}

// Allocate returns size zeroed bytes, as Go's allocator does: Arrow's
// builders (the Parquet writer's, say) leave the value slots of nulls
// unwritten and count on zeros there.
func (p *Pool) Allocate(size int) []byte {
	c := classOf(size)
	if c >= classes {
		return make([]byte, size)
	}
	p.mu.Lock()
	if n := len(p.idle[c]); n > 0 {
		b := p.idle[c][n-1]
		p.idle[c][n-1] = nil
		p.idle[c] = p.idle[c][:n-1]
		p.idleSize -= cap(b)
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	return make([]byte, size, 1<<(c+minClassBits))
}

// Reallocate grows b in place when its class has room, else moves it.
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		if size > len(b) {
			clear(b[len(b):size])
		}
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free keeps b for reuse if it is one of the pool's classes and the pool
// has room.
func (p *Pool) Free(b []byte) {
	n := cap(b)
	if n < 1<<minClassBits || n > 1<<maxClassBits || n&(n-1) != 0 {
		return
	}
	c := classOf(n)
	p.mu.Lock()
	if p.idleSize+n <= p.maxIdle {
		p.idle[c] = append(p.idle[c], b[:0])
		p.idleSize += n
	}
	p.mu.Unlock()
}

// IdleBytes is the size of the buffers kept for reuse.
func (p *Pool) IdleBytes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idleSize
}
