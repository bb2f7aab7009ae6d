package ingest

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// Parquet rows as Arrow record batches. The Parquet library yields a row as
// the values of its leaf columns, each with a repetition and a definition
// level; a table's cells are read as Arrow arrays (tablecells.go), so each
// row is assembled back into nested values (Dremel's record assembly):
// structs, lists and maps, nulls where a definition level stops short.

// tableNodeKind is how a schema node is assembled.
type tableNodeKind uint8

const (
	tableLeaf tableNodeKind = iota
	tableStruct
	tableList // a LIST group, or a repeated field
	tableMap
)

// tableNode is one node of a Parquet schema as read.
type tableNode struct {
	name     string
	kind     tableNodeKind
	typ      arrow.DataType
	present  int // definition level from which the node has a value (not null)
	elemRep  int // a list's or map's elements: the repetition level that starts one
	col      int // its first leaf column
	leaves   int
	children []*tableNode // a struct's fields; a list's element; a map's key and value
	leaf     leafReader
}

// leafReader appends one Parquet value to an Arrow builder.
type leafReader func(b array.Builder, v parquet.Value)

// tableLayout is a Parquet file's schema as Arrow: the top-level columns.
type tableLayout struct {
	schema *arrow.Schema
	fields []*tableNode
	leaves int
}

// newTableLayout maps a Parquet schema to Arrow types, or says which
// column it cannot read.
func newTableLayout(sc *parquet.Schema) (*tableLayout, error) {
	l := &tableLayout{}
	var fields []arrow.Field
	col := 0
	for _, f := range sc.Fields() {
		n, err := tableNodeOf(f, f.Name(), 0, 0, &col)
		if err != nil {
			return nil, err
		}
		l.fields = append(l.fields, n)
		fields = append(fields, arrow.Field{Name: f.Name(), Type: n.typ, Nullable: true})
	}
	l.leaves = col
	l.schema = arrow.NewSchema(fields, nil)
	return l, nil
}

// tableNodeOf maps node (named name) whose parent has a value from
// definition level def and whose enclosing lists repeat up to level rep.
func tableNodeOf(node parquet.Node, name string, def, rep int, col *int) (*tableNode, error) {
	if node.Repeated() {
		// A repeated field without a LIST annotation is a list of it.
		elem, err := tableNodeOf(parquet.Required(node), name, def+1, rep+1, col)
		if err != nil {
			return nil, err
		}
		return listNode(name, def, rep+1, elem), nil
	}
	present := def
	if node.Optional() {
		present++
	}
	switch {
	case node.Leaf():
		n := &tableNode{name: name, kind: tableLeaf, present: present, col: *col, leaves: 1}
		*col++
		var err error
		if n.typ, n.leaf, err = leafOf(node); err != nil {
			return nil, fmt.Errorf("column %s: %v", name, err)
		}
		return n, nil
	case isAnnotated(node, deprecated.List) && len(node.Fields()) == 1 && node.Fields()[0].Repeated():
		repeated := node.Fields()[0]
		elemNode := parquet.Node(parquet.Required(repeated))
		// Three levels (list.element) unless the repeated group is itself
		// the element (two-level lists of structs from older writers).
		if !repeated.Leaf() && len(repeated.Fields()) == 1 && repeated.Name() != "array" && repeated.Name() != name+"_tuple" {
			elemNode = repeated.Fields()[0]
		}
		first := *col
		elem, err := tableNodeOf(elemNode, name+"[]", present+1, rep+1, col)
		if err != nil {
			return nil, err
		}
		n := listNode(name, present, rep+1, elem)
		n.col = first
		return n, nil
	case isAnnotated(node, deprecated.Map) || isAnnotated(node, deprecated.MapKeyValue):
		kv := node.Fields()
		if len(kv) != 1 || !kv[0].Repeated() || kv[0].Leaf() || len(kv[0].Fields()) != 2 {
			return nil, fmt.Errorf("column %s: a MAP that is not a repeated group of a key and a value", name)
		}
		first := *col
		key, err := tableNodeOf(kv[0].Fields()[0], name+".key", present+1, rep+1, col)
		if err != nil {
			return nil, err
		}
		value, err := tableNodeOf(kv[0].Fields()[1], name+".value", present+1, rep+1, col)
		if err != nil {
			return nil, err
		}
		if key.kind != tableLeaf {
			return nil, fmt.Errorf("column %s: a MAP whose key is not a value", name)
		}
		return &tableNode{name: name, kind: tableMap, typ: arrow.MapOf(key.typ, value.typ), present: present, elemRep: rep + 1,
			col: first, leaves: *col - first, children: []*tableNode{key, value}}, nil
	}
	n := &tableNode{name: name, kind: tableStruct, present: present, col: *col}
	var fields []arrow.Field
	for _, f := range node.Fields() {
		child, err := tableNodeOf(f, f.Name(), present, rep, col)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, child)
		fields = append(fields, arrow.Field{Name: f.Name(), Type: child.typ, Nullable: true})
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("column %s: a group with no fields", name)
	}
	n.leaves = *col - n.col
	n.typ = arrow.StructOf(fields...)
	return n, nil
}

func listNode(name string, present, elemRep int, elem *tableNode) *tableNode {
	return &tableNode{name: name, kind: tableList, typ: arrow.ListOf(elem.typ), present: present, elemRep: elemRep,
		col: elem.col, leaves: elem.leaves, children: []*tableNode{elem}}
}

// isAnnotated reports whether a node carries a converted type, or the
// logical type that replaced it.
func isAnnotated(node parquet.Node, ct deprecated.ConvertedType) bool {
	if c := node.Type().ConvertedType(); c != nil && *c == ct {
		return true
	}
	lt := node.Type().LogicalType()
	if lt == nil {
		return false
	}
	switch lt.Value.(type) {
	case *format.ListType:
		return ct == deprecated.List
	case *format.MapType:
		return ct == deprecated.Map
	}
	return false
}

// leafOf is the Arrow type of a leaf column and how its values are read:
// text as strings, integers and floats as themselves, decimals as floats
// (a cost), timestamps with their unit, dates as dates, other bytes as
// binary.
func leafOf(node parquet.Node) (arrow.DataType, leafReader, error) {
	t := node.Type()
	var lt format.LogicalTypeValue
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	ct := deprecated.ConvertedType(-1)
	if c := t.ConvertedType(); c != nil {
		ct = *c
	}
	if d, ok := lt.(*format.DecimalType); ok {
		return arrow.PrimitiveTypes.Float64, decimalReader(t.Kind(), int(d.Scale)), nil
	}
	switch t.Kind() {
	case parquet.Boolean:
		return arrow.FixedWidthTypes.Boolean, func(b array.Builder, v parquet.Value) { b.(*array.BooleanBuilder).Append(v.Boolean()) }, nil
	case parquet.Int32:
		if _, ok := lt.(*format.DateType); ok || ct == deprecated.Date {
			return arrow.FixedWidthTypes.Date32, func(b array.Builder, v parquet.Value) { b.(*array.Date32Builder).Append(arrow.Date32(v.Int32())) }, nil
		}
		if it, ok := lt.(*format.IntType); (ok && !it.IsSigned) || ct == deprecated.Uint8 || ct == deprecated.Uint16 || ct == deprecated.Uint32 {
			return arrow.PrimitiveTypes.Uint32, func(b array.Builder, v parquet.Value) { b.(*array.Uint32Builder).Append(uint32(v.Int32())) }, nil
		}
		return arrow.PrimitiveTypes.Int32, func(b array.Builder, v parquet.Value) { b.(*array.Int32Builder).Append(v.Int32()) }, nil
	case parquet.Int64:
		if ts, ok := lt.(*format.TimestampType); ok {
			unit := arrow.Millisecond
			switch ts.Unit.Value.(type) {
			case *format.MicroSeconds:
				unit = arrow.Microsecond
			case *format.NanoSeconds:
				unit = arrow.Nanosecond
			}
			return timestampOf(unit)
		}
		switch ct {
		case deprecated.TimestampMillis:
			return timestampOf(arrow.Millisecond)
		case deprecated.TimestampMicros:
			return timestampOf(arrow.Microsecond)
		}
		if it, ok := lt.(*format.IntType); (ok && !it.IsSigned) || ct == deprecated.Uint64 {
			return arrow.PrimitiveTypes.Uint64, func(b array.Builder, v parquet.Value) { b.(*array.Uint64Builder).Append(uint64(v.Int64())) }, nil
		}
		return arrow.PrimitiveTypes.Int64, func(b array.Builder, v parquet.Value) { b.(*array.Int64Builder).Append(v.Int64()) }, nil
	case parquet.Int96:
		// Impala's and Spark's old timestamps: nanoseconds of the day, then
		// the Julian day.
		typ, _, _ := timestampOf(arrow.Nanosecond)
		return typ, func(b array.Builder, v parquet.Value) {
			x := v.Int96()
			nanos := int64(uint64(x[1])<<32 | uint64(x[0]))
			days := int64(x[2]) - 2440588
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(days*86400e9 + nanos))
		}, nil
	case parquet.Float:
		return arrow.PrimitiveTypes.Float32, func(b array.Builder, v parquet.Value) { b.(*array.Float32Builder).Append(v.Float()) }, nil
	case parquet.Double:
		return arrow.PrimitiveTypes.Float64, func(b array.Builder, v parquet.Value) { b.(*array.Float64Builder).Append(v.Double()) }, nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		text := ct == deprecated.UTF8 || ct == deprecated.Enum || ct == deprecated.Json
		switch lt.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			text = true
		}
		if text {
			return arrow.BinaryTypes.String, func(b array.Builder, v parquet.Value) { b.(*array.StringBuilder).BinaryBuilder.Append(v.ByteArray()) }, nil
		}
		return arrow.BinaryTypes.Binary, func(b array.Builder, v parquet.Value) { b.(*array.BinaryBuilder).Append(v.ByteArray()) }, nil
	}
	return nil, nil, fmt.Errorf("cannot read Parquet type %s", t)
}

func timestampOf(unit arrow.TimeUnit) (arrow.DataType, leafReader, error) {
	return &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}, func(b array.Builder, v parquet.Value) {
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(v.Int64()))
	}, nil
}

// decimalReader reads a decimal stored as an integer or as big-endian
// two's complement bytes, as the float it stands for.
func decimalReader(kind parquet.Kind, scale int) leafReader {
	div := math.Pow10(scale)
	return func(b array.Builder, v parquet.Value) {
		var f float64
		switch kind {
		case parquet.Int32:
			f = float64(v.Int32())
		case parquet.Int64:
			f = float64(v.Int64())
		default:
			raw := v.ByteArray()
			if len(raw) > 0 && len(raw) <= 8 {
				// Big-endian two's complement that fits an int64: most
				// decimals (costs), without a big.Int each.
				var u uint64
				for _, b := range raw {
					u = u<<8 | uint64(b)
				}
				shift := uint(64 - 8*len(raw))
				f = float64(int64(u<<shift) >> shift)
				break
			}
			n := new(big.Int).SetBytes(raw)
			if len(raw) > 0 && raw[0]&0x80 != 0 {
				n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(raw))))
			}
			f, _ = new(big.Float).SetInt(n).Float64()
		}
		b.(*array.Float64Builder).Append(f / div)
	}
}

// tableAssembler builds record batches of rows.
type tableAssembler struct {
	layout *tableLayout
	rb     *array.RecordBuilder
	cols   [][]parquet.Value
}

func newTableAssembler(layout *tableLayout, alloc memory.Allocator) *tableAssembler {
	return &tableAssembler{layout: layout, rb: array.NewRecordBuilder(alloc, layout.schema), cols: make([][]parquet.Value, layout.leaves)}
}

func (t *tableAssembler) release() { t.rb.Release() }

// add appends one row.
func (t *tableAssembler) add(row parquet.Row) error {
	for i := range t.cols {
		t.cols[i] = nil
	}
	row.Range(func(col int, values []parquet.Value) bool {
		if col < len(t.cols) {
			t.cols[col] = values
		}
		return true
	})
	for i, n := range t.layout.fields {
		if err := t.assemble(t.rb.Field(i), n, t.cols[n.col:n.col+n.leaves]); err != nil {
			return err
		}
	}
	return nil
}

// assemble appends the value of node n made of the leaf values cols (one
// slice per leaf under n, holding this value's values only).
func (t *tableAssembler) assemble(b array.Builder, n *tableNode, cols [][]parquet.Value) error {
	if len(cols) == 0 || len(cols[0]) == 0 {
		return fmt.Errorf("column %s: no value in the row", n.name)
	}
	if cols[0][0].DefinitionLevel() < n.present {
		b.AppendNull()
		return nil
	}
	switch n.kind {
	case tableLeaf:
		n.leaf(b, cols[0][0])
	case tableStruct:
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		at := n.col
		for k, c := range n.children {
			if err := t.assemble(sb.FieldBuilder(k), c, cols[c.col-at:c.col-at+c.leaves]); err != nil {
				return err
			}
		}
	case tableList, tableMap:
		var vb, kb array.Builder
		if n.kind == tableList {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			vb = lb.ValueBuilder()
		} else {
			mb := b.(*array.MapBuilder)
			mb.Append(true)
			kb, vb = mb.KeyBuilder(), mb.ItemBuilder()
		}
		if cols[0][0].DefinitionLevel() <= n.present {
			return nil // an empty list
		}
		// Elements start where a value repeats at this list's level. The
		// bounds and element slices are allocated once per list, not per
		// element: a row can hold thousands.
		starts := make([]int, len(cols))
		ends := make([]int, len(cols))
		elem := make([][]parquet.Value, len(cols))
		for {
			for l, vs := range cols {
				e := starts[l] + 1
				for e < len(vs) && vs[e].RepetitionLevel() > n.elemRep {
					e++
				}
				ends[l] = e
			}
			for l := range cols {
				elem[l] = cols[l][starts[l]:ends[l]]
			}
			if n.kind == tableList {
				if err := t.assemble(vb, n.children[0], elem); err != nil {
					return err
				}
			} else {
				key, value := n.children[0], n.children[1]
				if elem[0][0].DefinitionLevel() < key.present {
					return fmt.Errorf("column %s: a map entry with a null key", n.name)
				}
				if err := t.assemble(kb, key, elem[:1]); err != nil {
					return err
				}
				if err := t.assemble(vb, value, elem[1:]); err != nil {
					return err
				}
			}
			if ends[0] >= len(cols[0]) {
				return nil
			}
			copy(starts, ends)
		}
	}
	return nil
}

// batch returns the rows added since the last batch.
func (t *tableAssembler) batch() arrow.RecordBatch { return t.rb.NewRecordBatch() }
