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
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/runawayhq/runaway/detect"
)

// The Parquet columns are derived from detect.RunResult's json fields by
// reflection, once: a field detect adds becomes a column (or a struct child)
// with no change here, named as in ndjson, so a query reads the same in
// DuckDB over runs.ndjson and runs.parquet (`indicators.tool_calls`). A field
// of a type with no mapping fails parquetLayout, and so
// TestParquetLayoutMapsRunResult, instead of being dropped silently.

// appendFunc appends one Go value to the builder of its column.
type appendFunc func(b array.Builder, v reflect.Value) error

// parquetColumn is one top-level column: where its value comes from and how
// it is appended.
type parquetColumn struct {
	field  arrow.Field
	append func(b array.Builder, r *detect.RunResult) error
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
	append: func(b array.Builder, r *detect.RunResult) error {
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		vb := lb.ValueBuilder().(*array.StringBuilder)
		for i := range r.Findings {
			vb.Append(validUTF8(r.Findings[i].Detector))
		}
		return nil
	},
}}

// runLayout is the Parquet file's columns: the Arrow schema, and for each
// of its fields the function that fills it from a run.
type runLayout struct {
	schema  *arrow.Schema
	columns []parquetColumn
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
		column := parquetColumn{field: arrow.Field{Name: f.name, Type: f.typ}}
		index, app := f.index, f.append
		if null, ok := none[f.name]; ok {
			nv := reflect.ValueOf(null)
			if nv.Type() != f.goType {
				return nil, fmt.Errorf("parquet: null sentinel for %s is a %s, the field a %s", f.name, nv.Type(), f.goType)
			}
			column.field.Nullable = true
			column.append = func(b array.Builder, r *detect.RunResult) error {
				v := reflect.ValueOf(r).Elem().FieldByIndex(index)
				if v.Equal(nv) {
					b.AppendNull()
					return nil
				}
				return app(b, v)
			}
		} else {
			column.append = func(b array.Builder, r *detect.RunResult) error {
				return app(b, reflect.ValueOf(r).Elem().FieldByIndex(index))
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
	for i, c := range layout.columns {
		arrowFields[i] = c.field
	}
	layout.schema = arrow.NewSchema(arrowFields, nil)
	return layout, nil
}

// jsonField is one field of a struct as encoding/json sees it, with its
// Arrow type.
type jsonField struct {
	name   string
	index  []int
	goType reflect.Type
	typ    arrow.DataType
	append appendFunc
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
		typ, app, err := arrowTypeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		out = append(out, jsonField{name: name, index: f.Index, goType: f.Type, typ: typ, append: app})
	}
	return out, nil
}

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()

// arrowTypeOf maps a Go type to the Arrow type of its values and the
// function that appends one. Nothing in a run is ever null (the json
// documents hold no null), so every type is non-nullable: Parquet then
// stores no definition levels for it and readers know there are no nulls.
func arrowTypeOf(t reflect.Type) (arrow.DataType, appendFunc, error) {
	// Before the kind: a Verdict is a uint8 but its json is its name.
	if t.Implements(textMarshalerType) {
		return arrow.BinaryTypes.String, appendText, nil
	}
	switch t.Kind() {
	case reflect.String:
		return arrow.BinaryTypes.String, func(b array.Builder, v reflect.Value) error {
			b.(*array.StringBuilder).Append(validUTF8(v.String()))
			return nil
		}, nil
	case reflect.Bool:
		return arrow.FixedWidthTypes.Boolean, func(b array.Builder, v reflect.Value) error {
			b.(*array.BooleanBuilder).Append(v.Bool())
			return nil
		}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return arrow.PrimitiveTypes.Int64, func(b array.Builder, v reflect.Value) error {
			b.(*array.Int64Builder).Append(v.Int())
			return nil
		}, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return arrow.PrimitiveTypes.Int64, func(b array.Builder, v reflect.Value) error {
			b.(*array.Int64Builder).Append(int64(v.Uint()))
			return nil
		}, nil
	case reflect.Float32, reflect.Float64:
		return arrow.PrimitiveTypes.Float64, func(b array.Builder, v reflect.Value) error {
			b.(*array.Float64Builder).Append(v.Float())
			return nil
		}, nil
	case reflect.Slice:
		// encoding/json writes []byte as base64 text, not as a list.
		if t.Elem().Kind() == reflect.Uint8 {
			break
		}
		return listOf(t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		return mapOf(t)
	case reflect.Struct:
		return structOf(t)
	}
	return nil, nil, fmt.Errorf("no Parquet mapping for Go type %s", t)
}

func appendText(b array.Builder, v reflect.Value) error {
	text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return err
	}
	b.(*array.StringBuilder).Append(validUTF8(string(text)))
	return nil
}

// listOf maps a slice; a nil slice is an empty list, as in the json
// documents.
func listOf(t reflect.Type) (arrow.DataType, appendFunc, error) {
	elem, appendElem, err := arrowTypeOf(t.Elem())
	if err != nil {
		return nil, nil, err
	}
	return arrow.ListOfNonNullable(elem), func(b array.Builder, v reflect.Value) error {
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		vb := lb.ValueBuilder()
		for i := range v.Len() {
			if err := appendElem(vb, v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// mapOf maps a map with string keys to a Parquet MAP, entries sorted by key
// so that the same run gives the same bytes.
func mapOf(t reflect.Type) (arrow.DataType, appendFunc, error) {
	item, appendItem, err := arrowTypeOf(t.Elem())
	if err != nil {
		return nil, nil, err
	}
	mt := arrow.MapOfFields(arrow.Field{Name: "key", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "value", Type: item})
	mt.KeysSorted = true
	return mt, func(b array.Builder, v reflect.Value) error {
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder()
		for _, k := range keys {
			kb.Append(validUTF8(k.String()))
			if err := appendItem(ib, v.MapIndex(k)); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// structOf maps a struct to an Arrow struct of its json fields.
func structOf(t reflect.Type) (arrow.DataType, appendFunc, error) {
	fields, err := jsonFields(t)
	if err != nil {
		return nil, nil, err
	}
	if len(fields) == 0 {
		return nil, nil, fmt.Errorf("no Parquet mapping for Go type %s: no json fields", t)
	}
	children := make([]arrow.Field, len(fields))
	for i, f := range fields {
		children[i] = arrow.Field{Name: f.name, Type: f.typ}
	}
	return arrow.StructOf(children...), func(b array.Builder, v reflect.Value) error {
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, f := range fields {
			if err := f.append(sb.FieldBuilder(i), v.FieldByIndex(f.index)); err != nil {
				return err
			}
		}
		return nil
	}, nil
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
