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

// hashList is a list<uint64> column of the schema.IDHash of ids (memory
// reads, artifacts): the pass compares ids, never prints them. A list is
// null when its field was absent (nil), empty for [].
type hashList struct {
	alloc memory.Allocator
	listSlots
	vals values[uint64]
}

func (l *hashList) reserve(k int) {
	if c := l.elems.grownCap(k); c > 0 {
		l.vals.grow(l.alloc, c)
		l.elems.capacity = c
	}
}

func (l *hashList) put(i int, ids []string) {
	if len(ids) > 0 {
		l.reserve(len(ids))
		for _, id := range ids {
			l.vals.put(l.elems.n, schema.IDHash(id))
			l.elems.n++
		}
	}
	l.endRow(i, ids != nil)
}

func (l *hashList) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	if l.elems.capacity == 0 { // the values' buffers exist even when no row has a value
		l.reserve(1)
	}
	return l.finishSlots(alloc, dtype, n, l.vals.finish(alloc, dtype.(*arrow.ListType).Elem(), l.elems.n))
}

func (l *hashList) free(alloc memory.Allocator) {
	l.freeSlots(alloc)
	l.vals.free(alloc)
}

// suspectList is the mem_suspect column: a list of
// schema.SuspectWriteType structs, null for a step without any (most).
type suspectList struct {
	alloc memory.Allocator
	listSlots
	id, why strs
}

func (l *suspectList) reserve(k int) {
	if c := l.elems.grownCap(k); c > 0 {
		l.id.grow(l.alloc, c)
		l.why.grow(l.alloc, c)
		l.elems.capacity = c
	}
}

func (l *suspectList) put(i int, ws []schema.SuspectWrite) {
	if len(ws) > 0 {
		l.reserve(len(ws))
	}
	for k := range ws {
		j := l.elems.n
		l.id.put(j, ws[k].ID)
		l.why.put(j, ws[k].Why)
		l.elems.n++
	}
	l.endRow(i, len(ws) > 0)
}

func (l *suspectList) finish(alloc memory.Allocator, dtype arrow.DataType, n int) *array.Data {
	if l.elems.capacity == 0 { // the values' buffers exist even when no row has a value
		l.reserve(1)
	}
	st, m := dtype.(*arrow.ListType).Elem().(*arrow.StructType), l.elems.n
	fields := []arrow.ArrayData{
		l.id.finish(alloc, st.Field(0).Type, m),
		l.why.finish(alloc, st.Field(1).Type, m),
	}
	return l.finishSlots(alloc, dtype, n, newData(st, m, []*memory.Buffer{nil}, fields, 0))
}

func (l *suspectList) free(alloc memory.Allocator) {
	l.freeSlots(alloc)
	l.id.free(alloc)
	l.why.free(alloc)
}
