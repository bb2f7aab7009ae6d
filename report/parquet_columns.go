package report

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"

	"github.com/runawayhq/runaway/detect"
)

// The Parquet columns are derived from detect.RunResult's json fields by
// reflection, once: a field detect adds becomes a column (or a struct child)
// with no change here, named as in ndjson, so a query reads the same in
// DuckDB over runs.ndjson and runs.parquet (`indicators.tool_calls`). A field
// of a type with no mapping fails parquetLayout, and so
// TestParquetLayoutMapsRunResult, instead of being dropped silently.

// A column's shape says both what readers see (its Arrow type, which is
// how Arrow-based readers and docs name it) and how a Go value becomes
// Parquet values: leaves, and the repetition and definition levels of the
// lists, maps and structs around them.

// shapeKind is how one Go value is written.
type shapeKind uint8

const (
	leafString shapeKind = iota // string, UTF-8 repaired
	leafText                    // an encoding.TextMarshaler (a Verdict), as its text
	leafInt                     // signed integers, as INT64
	leafUint                    // small unsigned integers, as INT64
	leafFloat                   // floats, as DOUBLE
	leafBool
	shapeList   // a slice: LIST of its element, nil and empty alike
	shapeMap    // a map with string keys: MAP, entries sorted by key
	shapeStruct // a struct: a group of its json fields
)

// shape is one Go type's mapping.
type shape struct {
	kind   shapeKind
	typ    arrow.DataType
	elem   *shape      // a list's element, a map's value
	fields []jsonField // a struct's fields
	col    int         // its first leaf column in the file
	leaves int         // how many leaf columns it spans
}

// parquetColumn is one top-level column: where its value comes from and how
// it is written.
type parquetColumn struct {
	field    arrow.Field
	shape    *shape
	nullable bool                                            // null when the value is the field's none sentinel
	value    func(r *detect.RunResult) (reflect.Value, bool) // false: null
}

// parquetNone lists the run fields whose json value for "none" is a
// sentinel; Parquet stores null instead, so that SQL aggregates and filters
// skip them (avg(onset_step) is not pulled down by the healthy runs' -1).
var parquetNone = map[string]any{
	"root_cause": detect.CauseNone,
	"onset_step": int64(-1),
}

// parquetDerived are columns that are not RunResult fields but save every
// query an unnest: the ids of the detectors that fired, primary first.
var parquetDerived = []parquetColumn{{
	field: arrow.Field{Name: "detectors", Type: arrow.ListOfNonNullable(arrow.BinaryTypes.String)},
	shape: &shape{kind: shapeList, typ: arrow.ListOfNonNullable(arrow.BinaryTypes.String), elem: &shape{kind: leafString, typ: arrow.BinaryTypes.String}},
	value: func(r *detect.RunResult) (reflect.Value, bool) {
		ids := make([]string, len(r.Findings))
		for i := range r.Findings {
			ids[i] = r.Findings[i].Detector
		}
		return reflect.ValueOf(ids), true
	},
}}

// runLayout is the Parquet file's columns: the Arrow schema readers see,
// the Parquet schema written, and for each column where its value comes
// from.
type runLayout struct {
	schema  *arrow.Schema
	parquet *parquet.Schema
	columns []parquetColumn
	leaves  int
}

// parquetLayout is derived on first use and shared: reflection is paid once
// per process, not once per run.
var parquetLayout = sync.OnceValues(func() (*runLayout, error) {
	return deriveParquetLayout(reflect.TypeFor[detect.RunResult](), parquetNone, parquetDerived)
})

// deriveParquetLayout makes one column per json field of struct t (a
// RunResult; other types in tests), null where the field holds its none
// sentinel, then the derived columns.
func deriveParquetLayout(t reflect.Type, none map[string]any, derived []parquetColumn) (*runLayout, error) {
	fields, err := jsonFields(t)
	if err != nil {
		return nil, err
	}
	layout := &runLayout{}
	seen := map[string]bool{}
	for _, f := range fields {
		column := parquetColumn{field: arrow.Field{Name: f.name, Type: f.shape.typ}, shape: f.shape}
		index := f.index
		if null, ok := none[f.name]; ok {
			nv := reflect.ValueOf(null)
			if nv.Type() != f.goType {
				return nil, fmt.Errorf("parquet: null sentinel for %s is a %s, the field a %s", f.name, nv.Type(), f.goType)
			}
			column.field.Nullable, column.nullable = true, true
			column.value = func(r *detect.RunResult) (reflect.Value, bool) {
				v := reflect.ValueOf(r).Elem().FieldByIndex(index)
				return v, !v.Equal(nv)
			}
		} else {
			column.value = func(r *detect.RunResult) (reflect.Value, bool) {
				return reflect.ValueOf(r).Elem().FieldByIndex(index), true
			}
		}
		seen[f.name] = true
		layout.columns = append(layout.columns, column)
	}
	for name := range none {
		if !seen[name] {
			return nil, fmt.Errorf("parquet: null sentinel for %s, which is not a field of %s", name, t)
		}
	}
	for _, d := range derived {
		if seen[d.field.Name] {
			return nil, fmt.Errorf("parquet: derived column %s has the name of a field of %s", d.field.Name, t)
		}
		seen[d.field.Name] = true
		layout.columns = append(layout.columns, d)
	}
	arrowFields := make([]arrow.Field, len(layout.columns))
	nodes := make([]parquet.Field, len(layout.columns))
	for i := range layout.columns {
		c := &layout.columns[i]
		arrowFields[i] = c.field
		// Derived shapes are shared package values: number a copy.
		sh := cloneShape(c.shape)
		layout.leaves = sh.number(layout.leaves)
		c.shape = sh
		node := sh.node()
		if c.nullable {
			node = parquet.Optional(node)
		}
		nodes[i] = namedField{Node: node, name: c.field.Name}
	}
	layout.schema = arrow.NewSchema(arrowFields, nil)
	layout.parquet = parquet.NewSchema("run", orderedGroup{Group: parquet.Group{}, fields: nodes})
	return layout, nil
}

// jsonField is one field of a struct as encoding/json sees it, with its
// shape.
type jsonField struct {
	name   string
	index  []int
	goType reflect.Type
	shape  *shape
}

// jsonFields lists the fields encoding/json writes for struct type t, in its
// order, following embedded structs as it does.
func jsonFields(t reflect.Type) ([]jsonField, error) {
	var out []jsonField
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			inner, err := jsonFields(f.Type)
			if err != nil {
				return nil, err
			}
			for _, g := range inner {
				g.index = append([]int{f.Index[0]}, g.index...)
				out = append(out, g)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		sh, err := shapeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		out = append(out, jsonField{name: name, index: f.Index, goType: f.Type, shape: sh})
	}
	return out, nil
}

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()

// shapeOf maps a Go type. Nothing in a run is ever null (the json documents
// hold no null), so every value is required: Parquet then stores no
// definition levels for it and readers know there are no nulls.
func shapeOf(t reflect.Type) (*shape, error) {
	// Before the kind: a Verdict is a uint8 but its json is its name.
	if t.Implements(textMarshalerType) {
		return &shape{kind: leafText, typ: arrow.BinaryTypes.String}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return &shape{kind: leafString, typ: arrow.BinaryTypes.String}, nil
	case reflect.Bool:
		return &shape{kind: leafBool, typ: arrow.FixedWidthTypes.Boolean}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &shape{kind: leafInt, typ: arrow.PrimitiveTypes.Int64}, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return &shape{kind: leafUint, typ: arrow.PrimitiveTypes.Int64}, nil
	case reflect.Float32, reflect.Float64:
		return &shape{kind: leafFloat, typ: arrow.PrimitiveTypes.Float64}, nil
	case reflect.Slice:
		// encoding/json writes []byte as base64 text, not as a list.
		if t.Elem().Kind() == reflect.Uint8 {
			break
		}
		elem, err := shapeOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &shape{kind: shapeList, typ: arrow.ListOfNonNullable(elem.typ), elem: elem}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		item, err := shapeOf(t.Elem())
		if err != nil {
			return nil, err
		}
		mt := arrow.MapOfFields(arrow.Field{Name: "key", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "value", Type: item.typ})
		mt.KeysSorted = true
		return &shape{kind: shapeMap, typ: mt, elem: item}, nil
	case reflect.Struct:
		fields, err := jsonFields(t)
		if err != nil {
			return nil, err
		}
		if len(fields) == 0 {
			return nil, fmt.Errorf("no Parquet mapping for Go type %s: no json fields", t)
		}
		children := make([]arrow.Field, len(fields))
		for i, f := range fields {
			children[i] = arrow.Field{Name: f.name, Type: f.shape.typ}
		}
		return &shape{kind: shapeStruct, typ: arrow.StructOf(children...), fields: fields}, nil
	}
	return nil, fmt.Errorf("no Parquet mapping for Go type %s", t)
}

// cloneShape copies a shape tree, so that numbering it touches no other
// layout's.
func cloneShape(s *shape) *shape {
	c := *s
	if s.elem != nil {
		c.elem = cloneShape(s.elem)
	}
	if s.fields != nil {
		c.fields = slices.Clone(s.fields)
		for i := range c.fields {
			c.fields[i].shape = cloneShape(c.fields[i].shape)
		}
	}
	return &c
}

// number gives the shape's leaves their column indexes from col on, in the
// order Parquet numbers them (depth first, fields in order), and returns
// the next free index.
func (s *shape) number(col int) int {
	s.col = col
	switch s.kind {
	case shapeList:
		col = s.elem.number(col)
	case shapeMap:
		col = s.elem.number(col + 1) // the key is the entry's first leaf
	case shapeStruct:
		for i := range s.fields {
			col = s.fields[i].shape.number(col)
		}
	default:
		col++
	}
	s.leaves = col - s.col
	return col
}

// node is the shape's Parquet schema node. Strings are dictionary encoded:
// verdicts, causes, detector ids and tool names repeat run after run.
func (s *shape) node() parquet.Node {
	switch s.kind {
	case leafString, leafText:
		return parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
	case leafInt, leafUint:
		return parquet.Int(64)
	case leafFloat:
		return parquet.Leaf(parquet.DoubleType)
	case leafBool:
		return parquet.Leaf(parquet.BooleanType)
	case shapeList:
		return parquet.List(s.elem.node())
	case shapeMap:
		return parquet.Map(parquet.Encoded(parquet.String(), &parquet.RLEDictionary), s.elem.node())
	}
	fields := make([]parquet.Field, len(s.fields))
	for i, f := range s.fields {
		fields[i] = namedField{Node: f.shape.node(), name: f.name}
	}
	return orderedGroup{Group: parquet.Group{}, fields: fields}
}

// orderedGroup is a Parquet group whose fields keep their order: the
// library's Group sorts them by name, and the columns are to read in the
// order of the ndjson fields.
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

// namedField is a node under its name in a group. Rows are built by
// shredder, never by the library from Go values, so Value is not used.
type namedField struct {
	parquet.Node
	name string
}

func (f namedField) Name() string                           { return f.name }
func (f namedField) Value(base reflect.Value) reflect.Value { return base }

// shredder turns one run into a Parquet row: each leaf column's values
// with their repetition and definition levels (Dremel's record shredding),
// gathered per column because a row lists its columns in order.
type shredder struct {
	cols [][]parquet.Value
}

// emit writes value v of shape s at repetition level rep and definition
// level def; depth is how many repeated fields enclose s.
func (w *shredder) emit(s *shape, v reflect.Value, rep, def, depth int) error {
	switch s.kind {
	case leafString:
		w.leaf(s.col, parquet.ByteArrayValue([]byte(validUTF8(v.String()))), rep, def)
	case leafText:
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return err
		}
		w.leaf(s.col, parquet.ByteArrayValue([]byte(validUTF8(string(text)))), rep, def)
	case leafInt:
		w.leaf(s.col, parquet.Int64Value(v.Int()), rep, def)
	case leafUint:
		w.leaf(s.col, parquet.Int64Value(int64(v.Uint())), rep, def)
	case leafFloat:
		w.leaf(s.col, parquet.DoubleValue(v.Float()), rep, def)
	case leafBool:
		w.leaf(s.col, parquet.BooleanValue(v.Bool()), rep, def)
	case shapeList:
		n := v.Len()
		if n == 0 {
			w.nulls(s, rep, def)
			return nil
		}
		for i := range n {
			if err := w.emit(s.elem, v.Index(i), rep, def+1, depth+1); err != nil {
				return err
			}
			rep = depth + 1
		}
	case shapeMap:
		if v.Len() == 0 {
			w.nulls(s, rep, def)
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		for _, k := range keys {
			w.leaf(s.col, parquet.ByteArrayValue([]byte(validUTF8(k.String()))), rep, def+1)
			if err := w.emit(s.elem, v.MapIndex(k), rep, def+1, depth+1); err != nil {
				return err
			}
			rep = depth + 1
		}
	case shapeStruct:
		for _, f := range s.fields {
			if err := w.emit(f.shape, v.FieldByIndex(f.index), rep, def, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *shredder) leaf(col int, v parquet.Value, rep, def int) {
	w.cols[col] = append(w.cols[col], v.Level(rep, def, col))
}

// nulls writes an empty list or map, or a null, for every leaf under s.
func (w *shredder) nulls(s *shape, rep, def int) {
	for col := s.col; col < s.col+s.leaves; col++ {
		w.leaf(col, parquet.NullValue(), rep, def)
	}
}

// row shreds run r into row, reusing its storage.
func (w *shredder) row(layout *runLayout, r *detect.RunResult, row parquet.Row) (parquet.Row, error) {
	if len(w.cols) != layout.leaves {
		w.cols = make([][]parquet.Value, layout.leaves)
	}
	for i := range w.cols {
		w.cols[i] = w.cols[i][:0]
	}
	for _, c := range layout.columns {
		v, ok := c.value(r)
		def := 0
		switch {
		case !ok:
			w.nulls(c.shape, 0, 0)
			continue
		case c.nullable:
			def = 1
		}
		if err := w.emit(c.shape, v, 0, def, 0); err != nil {
			return row, fmt.Errorf("column %s: %w", c.field.Name, err)
		}
	}
	row = row[:0]
	for _, vs := range w.cols {
		row = append(row, vs...)
	}
	return row, nil
}

// validUTF8 replaces each byte that is not part of valid UTF-8 with U+FFFD,
// byte for byte as encoding/json does, so a run id reads the same in the
// json formats and in Parquet (whose strings must be UTF-8: DuckDB refuses
// a file that breaks this).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s { // range yields U+FFFD for every invalid byte
		b.WriteRune(r)
	}
	return b.String()
}
