package bufpool

import (
	"sync"
	"testing"
)

func TestReleasedBufferIsReusedZeroed(t *testing.T) {
	p := New(1 << 20)
	b := p.Allocate(100)
	if len(b) != 100 || cap(b) != 128 {
		t.Fatalf("Allocate(100): len %d cap %d, want 100 and the class's 128", len(b), cap(b))
	}
	for i := range b {
		b[i] = 0xff
	}
	p.Free(b)
	if got := p.IdleBytes(); got != 128 {
		t.Fatalf("idle after Free: %d bytes, want 128", got)
	}
	c := p.Allocate(120)
	if &c[0] != &b[0] {
		t.Fatal("a buffer of the same class was not reused")
	}
	for i, v := range c {
		if v != 0 {
			t.Fatalf("reused buffer byte %d is %#x: Arrow leaves null slots unwritten and expects zeros", i, v)
		}
	}
	if got := p.IdleBytes(); got != 0 {
		t.Fatalf("idle after reuse: %d bytes, want 0", got)
	}
}

func TestReallocateGrowsInPlaceWithZeros(t *testing.T) {
	p := New(1 << 20)
	b := p.Allocate(70) // class 128
	for i := range b {
		b[i] = 1
	}
	b = b[:64]
	g := p.Reallocate(100, b)
	if &g[0] != &b[0] {
		t.Fatal("growing within the class moved the buffer")
	}
	for i := 64; i < 100; i++ {
		if g[i] != 0 {
			t.Fatalf("byte %d of the grown part is %d, want 0", i, g[i])
		}
	}
	m := p.Reallocate(1000, g)
	if len(m) != 1000 || m[0] != 1 || m[63] != 1 || m[64] != 0 {
		t.Fatalf("moving to a larger class lost the contents: len %d, %v", len(m), m[:66])
	}
	if got := p.IdleBytes(); got != 128 {
		t.Fatalf("the moved-from buffer was not kept: idle %d, want 128", got)
	}
}

func TestIdleBytesStayWithinTheBound(t *testing.T) {
	p := New(1000)
	var bufs [][]byte
	for range 20 {
		bufs = append(bufs, p.Allocate(200)) // class 256
	}
	for _, b := range bufs {
		p.Free(b)
	}
	if got := p.IdleBytes(); got > 1000 || got != 768 {
		t.Fatalf("idle %d bytes, want the 3 buffers of 256 that fit in 1000", got)
	}
}

func TestForeignAndHugeBuffersAreNotKept(t *testing.T) {
	p := New(1 << 30)
	p.Free(make([]byte, 100))               // not a power of two
	p.Free(make([]byte, 10))                // below the smallest class
	huge := p.Allocate(1<<maxClassBits + 1) // above the largest
	p.Free(huge)
	if got := p.IdleBytes(); got != 0 {
		t.Fatalf("kept %d bytes of buffers that are not the pool's classes", got)
	}
	if len(huge) != 1<<maxClassBits+1 {
		t.Fatalf("huge allocation has len %d", len(huge))
	}
}

// Decoders allocate while the collector frees: run under -race.
func TestConcurrentAllocateAndFree(t *testing.T) {
	p := New(1 << 20)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				b := p.Allocate(64 << (i % 8))
				b[0] = byte(w)
				p.Free(b)
			}
		})
	}
	wg.Wait()
	if got := p.IdleBytes(); got > 1<<20 {
		t.Fatalf("idle %d bytes, over the bound", got)
	}
}
