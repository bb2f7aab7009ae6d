package ingest

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The buffers of one column of a batch, written in place by appendRow and
// turned into Arrow data by finish. A column does not check its capacity
// per value: its owner (the batch's rows, or one list column's elements)
// checks it once per row or list for all the columns it owns and grows
// them together, where Arrow's builders check it, and look their buffers
// up, on every value.
//
// Every byte comes from the allocator passed in and goes, whole, to the
// finished data, which frees it when released: finish leaves the column
// empty, so a batch shares no memory with the next. Null slots are written
// as zeros and bitmaps are cleared when allocated, so a batch's bytes do
// not depend on what the allocator's memory held before.

// resize returns buf with room for size bytes, its bytes kept.
func resize(alloc memory.Allocator, buf []byte, size int) []byte {
	if buf == nil {
		return alloc.Allocate(size)
	}
	return alloc.Reallocate(size, buf)
}

// resizeZeroed is resize for bitmaps, whose bits are set one by one on a
// background of zeros that allocators need not give.
func resizeZeroed(alloc memory.Allocator, buf []byte, size int) []byte {
	old := len(buf)
	buf = resize(alloc, buf, size)
	clear(buf[old:])
	return buf
}

// finishBuffer gives buf, whose first n bytes are the column's, to a Buffer
// that frees all of it when released.
func finishBuffer(alloc memory.Allocator, buf []byte, n int) *memory.Buffer {
	b := memory.NewBufferWithAllocator(buf, alloc)
	b.ResizeNoShrink(n) // only sets the length: Free must get buf as allocated
	return b
}

func free(alloc memory.Allocator, buf []byte) {
	if buf != nil {
		alloc.Free(buf)
	}
}

// newData is array.NewData that takes over the caller's references to
// buffers and children.
func newData(dtype arrow.DataType, n int, buffers []*memory.Buffer, children []arrow.ArrayData, nulls int) *array.Data {
	d := array.NewData(dtype, n, buffers, children, nulls, 0)
	for _, b := range buffers {
		if b != nil {
			b.Release()
		}
	}
	for _, c := range children {
		c.Release()
	}
	return d
}

// view is buf seen as values of type T.
func view[T any](buf []byte) []T {
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)/int(unsafe.Sizeof(zero)))
}

type number interface {
	~uint8 | ~uint16 | ~uint32 | ~int32 | ~int64 | ~uint64 | ~float64
}

// values is a column of numbers that are never null.
type values[T number] struct {
	buf []byte
	v   []T
}

func (c *values[T]) grow(alloc memory.Allocator, n int) {
	var zero T
	c.buf = resize(alloc, c.buf, n*int(unsafe.Sizeof(zero)))
	c.v = view[T](c.buf)
}

func (c *values[T]) put(i int, v T) { c.v[i] = v }

func (c *values[T]) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	var zero T
	d := newData(dtype, n, []*memory.Buffer{nil, finishBuffer(alloc, c.buf, n*int(unsafe.Sizeof(zero)))}, nil, 0)
	*c = values[T]{}
	return d
}

func (c *values[T]) free(alloc memory.Allocator) {
	free(alloc, c.buf)
	*c = values[T]{}
}

// validity is the null bitmap of a column that may hold nulls.
type validity struct {
	bits  []byte
	nulls int
}

func (v *validity) growBits(alloc memory.Allocator, n int) {
	v.bits = resizeZeroed(alloc, v.bits, (n+7)/8)
}

func (v *validity) valid(i int) { v.bits[i>>3] |= 1 << (i & 7) }

func (v *validity) null() { v.nulls++ }

// finishBits returns the bitmap's buffer and null count, and empties v.
func (v *validity) finishBits(alloc memory.Allocator, n int) (*memory.Buffer, int) {
	b, nulls := finishBuffer(alloc, v.bits, (n+7)/8), v.nulls
	*v = validity{}
	return b, nulls
}

func (v *validity) freeBits(alloc memory.Allocator) {
	free(alloc, v.bits)
	*v = validity{}
}

// opt is a column of numbers that may be null.
type opt[T number] struct {
	values[T]
	validity
}

func (c *opt[T]) grow(alloc memory.Allocator, n int) {
	c.values.grow(alloc, n)
	c.growBits(alloc, n)
}

func (c *opt[T]) put(i int, v T) {
	c.v[i] = v
	c.valid(i)
}

func (c *opt[T]) putNull(i int) {
	c.v[i] = 0
	c.null()
}

func (c *opt[T]) putPtr(i int, v *T) {
	if v == nil {
		c.putNull(i)
		return
	}
	c.put(i, *v)
}

// putNonZero: budgets and costs use 0 for "not logged".
func (c *opt[T]) putNonZero(i int, v T) {
	if v == 0 {
		c.putNull(i)
		return
	}
	c.put(i, v)
}

func (c *opt[T]) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	var zero T
	bits, nulls := c.finishBits(alloc, n)
	d := newData(dtype, n, []*memory.Buffer{bits, finishBuffer(alloc, c.buf, n*int(unsafe.Sizeof(zero)))}, nil, nulls)
	c.values = values[T]{}
	return d
}

func (c *opt[T]) free(alloc memory.Allocator) {
	c.values.free(alloc)
	c.freeBits(alloc)
}

// bools is a column of booleans that are never null: a bitmap of values.
type bools struct {
	bits []byte
}

func (c *bools) grow(alloc memory.Allocator, n int) {
	c.bits = resizeZeroed(alloc, c.bits, (n+7)/8)
}

func (c *bools) put(i int, v bool) {
	if v {
		c.bits[i>>3] |= 1 << (i & 7)
	}
}

func (c *bools) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	d := newData(dtype, n, []*memory.Buffer{nil, finishBuffer(alloc, c.bits, (n+7)/8)}, nil, 0)
	*c = bools{}
	return d
}

func (c *bools) free(alloc memory.Allocator) {
	free(alloc, c.bits)
	*c = bools{}
}

// optBools is a column of booleans that may be null.
type optBools struct {
	bools
	validity
}

func (c *optBools) grow(alloc memory.Allocator, n int) {
	c.bools.grow(alloc, n)
	c.growBits(alloc, n)
}

func (c *optBools) put(i int, v bool) {
	c.bools.put(i, v)
	c.valid(i)
}

func (c *optBools) putNull(int) { c.null() } // the value bit stays 0

func (c *optBools) putPtr(i int, v *bool) {
	if v == nil {
		c.putNull(i)
		return
	}
	c.put(i, *v)
}

func (c *optBools) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	bits, nulls := c.finishBits(alloc, n)
	d := newData(dtype, n, []*memory.Buffer{bits, finishBuffer(alloc, c.bools.bits, (n+7)/8)}, nil, nulls)
	c.bools = bools{}
	return d
}

func (c *optBools) free(alloc memory.Allocator) {
	c.bools.free(alloc)
	c.freeBits(alloc)
}

// offsets are the n+1 offsets of n strings or lists: value i is
// [v[i], v[i+1]).
type offsets struct {
	buf []byte
	v   []int32
}

func (o *offsets) grow(alloc memory.Allocator, n int) {
	first := o.buf == nil
	o.buf = resize(alloc, o.buf, (n+1)*4)
	o.v = view[int32](o.buf)
	if first {
		o.v[0] = 0
	}
}

func (o *offsets) finish(alloc memory.Allocator, n int) *memory.Buffer {
	b := finishBuffer(alloc, o.buf, (n+1)*4)
	*o = offsets{}
	return b
}

func (o *offsets) free(alloc memory.Allocator) {
	free(alloc, o.buf)
	*o = offsets{}
}

// strs is a column of strings that are never null. Unlike its slots, its
// bytes are not known in advance, so it grows them itself, from alloc.
type strs struct {
	alloc memory.Allocator
	off   offsets
	data  []byte
	size  int // bytes of data used
}

// minDataBytes: a column whose values are all null or empty still gets a
// data buffer, so that its bytes are empty rather than nil, as Arrow's
// builder gives them.
const minDataBytes = 64

func (c *strs) grow(alloc memory.Allocator, n int) {
	c.off.grow(alloc, n)
	if c.data == nil {
		c.data = alloc.Allocate(minDataBytes)
	}
}

// reserve makes room for n more bytes.
func (c *strs) reserve(n int) {
	if c.size+n > len(c.data) {
		c.data = resize(c.alloc, c.data, c.size+n)
	}
}

func (c *strs) put(i int, s string) {
	end := c.size + len(s)
	if end > len(c.data) {
		c.growData(end)
	}
	copy(c.data[c.size:end], s)
	c.size = end
	c.off.v[i+1] = int32(end)
}

func (c *strs) putBytes(i int, b []byte) {
	c.put(i, unsafe.String(unsafe.SliceData(b), len(b)))
}

func (c *strs) growData(end int) {
	if end > math.MaxInt32 {
		panic("ingest: a string column of a batch exceeds 2 GiB") // as Arrow's builder would
	}
	c.data = resize(c.alloc, c.data, min(max(end, 2*len(c.data)), math.MaxInt32))
}

func (c *strs) used() int { return c.size }

func (c *strs) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	return c.finishWith(alloc, dtype, n, nil, 0)
}

func (c *strs) finishWith(alloc memory.Allocator, dtype arrow.DataType, n int, bits *memory.Buffer, nulls int) *array.Data {
	d := newData(dtype, n, []*memory.Buffer{bits, c.off.finish(alloc, n), finishBuffer(alloc, c.data, c.size)}, nil, nulls)
	c.data, c.size = nil, 0
	return d
}

func (c *strs) free(alloc memory.Allocator) {
	c.off.free(alloc)
	free(alloc, c.data)
	c.data, c.size = nil, 0
}

// optStrs is a column of strings that may be null.
type optStrs struct {
	strs
	validity
}

func (c *optStrs) grow(alloc memory.Allocator, n int) {
	c.strs.grow(alloc, n)
	c.growBits(alloc, n)
}

func (c *optStrs) put(i int, s string) {
	c.strs.put(i, s)
	c.valid(i)
}

func (c *optStrs) putBytes(i int, b []byte) {
	c.strs.putBytes(i, b)
	c.valid(i)
}

func (c *optStrs) putNull(i int) {
	c.off.v[i+1] = int32(c.size)
	c.null()
}

// putNonEmpty: an absent and an empty string are both null.
func (c *optStrs) putNonEmpty(i int, s string) {
	if s == "" {
		c.putNull(i)
		return
	}
	c.put(i, s)
}

func (c *optStrs) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	bits, nulls := c.finishBits(alloc, n)
	return c.finishWith(alloc, dtype, n, bits, nulls)
}

func (c *optStrs) free(alloc memory.Allocator) {
	c.strs.free(alloc)
	c.freeBits(alloc)
}
