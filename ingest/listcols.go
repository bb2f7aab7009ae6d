package ingest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/schema"
)

// The list columns: a slot per row (offsets and validity, as colbuf.go's
// columns) over values of their own, which the list counts and grows.

// elements counts a list column's values and the room its value columns
// have, all of which grow together.
type elements struct {
	n, capacity int
}

// grownCap is the capacity to grow to for k more values, or 0 when they fit.
func (e *elements) grownCap(k int) int {
	if e.n+k <= e.capacity {
		return 0
	}
	return max(e.n+k, 2*e.capacity, 64)
}

// listSlots is what every list column has besides its values: a row's
// offsets and validity, and the count of values.
type listSlots struct {
	off offsets
	validity
	elems elements
}

func (l *listSlots) grow(alloc memory.Allocator, n int) {
	l.off.grow(alloc, n)
	l.growBits(alloc, n)
}

func (l *listSlots) used() int { return l.elems.n }

// endRow closes row i after its values (a null list when present is false).
func (l *listSlots) endRow(i int, present bool) {
	if present {
		l.valid(i)
	} else {
		l.null()
	}
	l.off.v[i+1] = int32(l.elems.n)
}

// finishSlots makes the list's data over its values, and empties l.
func (l *listSlots) finishSlots(alloc memory.Allocator, dtype arrow.DataType, n int, values arrow.ArrayData) *array.Data {
	bits, nulls := l.finishBits(alloc, n)
	d := newData(dtype, n, []*memory.Buffer{bits, l.off.finish(alloc, n)}, []arrow.ArrayData{values}, nulls)
	l.elems = elements{}
	return d
}

func (l *listSlots) freeSlots(alloc memory.Allocator) {
	l.off.free(alloc)
	l.freeBits(alloc)
	l.elems = elements{}
}

// strList is a list<string> column; a list is null when its field was
// absent (nil), empty for [].
type strList struct {
	alloc memory.Allocator
	listSlots
	vals strs
}

func (l *strList) reserve(k int) {
	if c := l.elems.grownCap(k); c > 0 {
		l.vals.grow(l.alloc, c)
		l.elems.capacity = c
	}
}

func (l *strList) put(i int, vs []string) {
	if len(vs) > 0 {
		l.reserve(len(vs))
		for _, v := range vs {
			l.vals.put(l.elems.n, v)
			l.elems.n++
		}
	}
	l.endRow(i, vs != nil)
}

func (l *strList) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	if l.elems.capacity == 0 { // the values' buffers exist even when no row has a value
		l.reserve(1)
	}
	return l.finishSlots(alloc, dtype, n, l.vals.finish(alloc, dtype.(*arrow.ListType).Elem(), l.elems.n))
}

func (l *strList) free(alloc memory.Allocator) {
	l.freeSlots(alloc)
	l.vals.free(alloc)
}

// entryList is the mem_entries column: a list of schema.MemoryEntryType
// structs, which are never null themselves.
type entryList struct {
	alloc memory.Allocator
	listSlots
	id, typ, source optStrs
	confidence      opt[float64]
}

func (l *entryList) reserve(k int) {
	if c := l.elems.grownCap(k); c > 0 {
		l.id.grow(l.alloc, c)
		l.typ.grow(l.alloc, c)
		l.source.grow(l.alloc, c)
		l.confidence.grow(l.alloc, c)
		l.elems.capacity = c
	}
}

func (l *entryList) put(i int, entries []schema.MemoryEntry) {
	if len(entries) > 0 {
		l.reserve(len(entries))
	}
	for k := range entries {
		e, j := &entries[k], l.elems.n
		l.id.putNonEmpty(j, e.ID)
		l.typ.putNonEmpty(j, e.Type)
		l.source.putNonEmpty(j, e.Source)
		l.confidence.putPtr(j, e.Confidence)
		l.elems.n++
	}
	l.endRow(i, entries != nil)
}

func (l *entryList) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	if l.elems.capacity == 0 { // the values' buffers exist even when no row has a value
		l.reserve(1)
	}
	st, m := dtype.(*arrow.ListType).Elem().(*arrow.StructType), l.elems.n
	fields := []arrow.ArrayData{
		l.id.finish(alloc, st.Field(0).Type, m),
		l.typ.finish(alloc, st.Field(1).Type, m),
		l.source.finish(alloc, st.Field(2).Type, m),
		l.confidence.finish(alloc, st.Field(3).Type, m),
	}
	return l.finishSlots(alloc, dtype, n, newData(st, m, []*memory.Buffer{nil}, fields, 0))
}

func (l *entryList) free(alloc memory.Allocator) {
	l.freeSlots(alloc)
	l.id.free(alloc)
	l.typ.free(alloc)
	l.source.free(alloc)
	l.confidence.free(alloc)
}
