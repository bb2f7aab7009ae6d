package ingest

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/runawayhq/runaway/schema"
)

// Reading the cells of a table (a Parquet file, as Arrow arrays): each
// function reads one cell as what a field of runaway's step, or a member of
// a foreign record, holds. Tables write the same field with the types their
// writer chose (a count as int32 or int64 or a decimal, a time as a
// timestamp or an ISO string, an object as a struct or as JSON text), so
// every reader takes the types that can mean its field and says which type
// it got when it cannot.

// tableCell is one column of a table as a field of a record: the array holding
// the values and the structs enclosing it, whose rows must be valid too.
type tableCell struct {
	name    string // as messages name it: "tool_call.name"
	arr     arrow.Array
	parents []*array.Struct
}

// valid reports whether row i has a value: the column is there, and
// neither it nor an enclosing struct is null at i.
func (c *tableCell) valid(i int) bool {
	if c.arr == nil || c.arr.IsNull(i) {
		return false
	}
	for _, p := range c.parents {
		if p.IsNull(i) {
			return false
		}
	}
	return true
}

// cellTypeError says that a cell's type cannot mean what its field holds.
func cellTypeError(c *tableCell, want string) error {
	return fmt.Errorf("column %s: want %s, not %s", c.name, want, c.arr.DataType())
}

// dictValue is the array and index that a dictionary-encoded cell refers to.
func dictValue(arr arrow.Array, i int) (arrow.Array, int) {
	if d, ok := arr.(*array.Dictionary); ok {
		return d.Dictionary(), d.GetValueIndex(i)
	}
	return arr, i
}

// cellString reads text: any string or binary type. Invalid UTF-8 becomes
// U+FFFD, as in a line.
func cellString(c *tableCell, i int) (string, error) {
	s, err := cellBytes(c, i)
	if err == nil && !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s, err
}

func cellBytes(c *tableCell, i int) (string, error) {
	arr, j := dictValue(c.arr, i)
	switch a := arr.(type) {
	case *array.String:
		return a.Value(j), nil
	case *array.LargeString:
		return a.Value(j), nil
	case *array.StringView:
		return a.Value(j), nil
	case *array.Binary:
		return a.ValueString(j), nil
	case *array.LargeBinary:
		return a.ValueString(j), nil
	case *array.BinaryView:
		return a.ValueString(j), nil
	}
	return "", cellTypeError(c, "text")
}

// isTextType reports whether an array holds text (cellString reads it).
func isTextType(arr arrow.Array) bool {
	t := arr.DataType()
	if d, ok := t.(*arrow.DictionaryType); ok {
		t = d.ValueType
	}
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW, arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return true
	}
	return false
}

// cellFloat reads a number: any integer, float or decimal type, or text
// holding a number (a cost a writer kept as a string).
func cellFloat(c *tableCell, i int) (float64, error) {
	arr, j := dictValue(c.arr, i)
	switch a := arr.(type) {
	case *array.Int8:
		return float64(a.Value(j)), nil
	case *array.Int16:
		return float64(a.Value(j)), nil
	case *array.Int32:
		return float64(a.Value(j)), nil
	case *array.Int64:
		return float64(a.Value(j)), nil
	case *array.Uint8:
		return float64(a.Value(j)), nil
	case *array.Uint16:
		return float64(a.Value(j)), nil
	case *array.Uint32:
		return float64(a.Value(j)), nil
	case *array.Uint64:
		return float64(a.Value(j)), nil
	case *array.Float16:
		return float64(a.Value(j).Float32()), nil
	case *array.Float32:
		return float64(a.Value(j)), nil
	case *array.Float64:
		return a.Value(j), nil
	case *array.Decimal128:
		return a.Value(j).ToFloat64(a.DataType().(*arrow.Decimal128Type).Scale), nil
	case *array.Decimal256:
		return a.Value(j).ToFloat64(a.DataType().(*arrow.Decimal256Type).Scale), nil
	}
	if isTextType(c.arr) {
		s, _ := cellString(c, i)
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0, fmt.Errorf("column %s: %q is not a number", c.name, clipText(s, 40))
		}
		return f, nil
	}
	return 0, cellTypeError(c, "a number")
}

// cellInt reads a whole number: as cellFloat, and it must be whole.
func cellInt(c *tableCell, i int) (int64, error) {
	arr, j := dictValue(c.arr, i)
	switch a := arr.(type) { // exact for the widest integers
	case *array.Int64:
		return a.Value(j), nil
	case *array.Uint64:
		if v := a.Value(j); v <= math.MaxInt64 {
			return int64(v), nil
		}
		return 0, fmt.Errorf("column %s: %d is too large", c.name, a.Value(j))
	}
	f, err := cellFloat(c, i)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("column %s: %v is not a whole number", c.name, f)
	}
	return int64(f), nil
}

// cellBool reads a boolean: a boolean type, or 0 and 1.
func cellBool(c *tableCell, i int) (bool, error) {
	if a, ok := c.arr.(*array.Boolean); ok {
		return a.Value(i), nil
	}
	if isTextType(c.arr) {
		s, _ := cellString(c, i)
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b, nil
		}
		return false, fmt.Errorf("column %s: %q is not a boolean", c.name, clipText(s, 40))
	}
	n, err := cellInt(c, i)
	if err != nil || (n != 0 && n != 1) {
		return false, cellTypeError(c, "a boolean")
	}
	return n == 1, nil
}

// cellMillis reads a time as epoch milliseconds: a timestamp or date
// type, an RFC 3339 string, or a number read as the JSON ts is.
func cellMillis(c *tableCell, i int) (int64, error) {
	arr, j := dictValue(c.arr, i)
	switch a := arr.(type) {
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return int64(a.Value(j)) * int64(unit.Multiplier()) / int64(time.Millisecond), nil
	case *array.Date32:
		return a.Value(j).ToTime().UnixMilli(), nil
	case *array.Date64:
		return a.Value(j).ToTime().UnixMilli(), nil
	}
	if isTextType(c.arr) {
		s, _ := cellString(c, i)
		ms, err := parseTableTime(s)
		if err != nil {
			return 0, fmt.Errorf("column %s: %v", c.name, err)
		}
		return ms, nil
	}
	f, err := cellFloat(c, i)
	if err != nil {
		return 0, cellTypeError(c, "a time")
	}
	return schema.EpochToMilli(f), nil
}

// parseTableTime reads RFC 3339, and the "2024-05-29 13:46:19.963000" that
// warehouses write (UTC, a space, no zone).
func parseTableTime(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if ms, err := schema.ParseTimestamp(s); err == nil {
		return ms, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return schema.EpochToMilli(f), nil // a number written as text
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("%q is not a time", clipText(s, 40))
}

// cellStrings reads a list of text, or text holding a JSON list of strings.
func cellStrings(c *tableCell, i int) ([]string, error) {
	var values arrow.Array
	var start, end int64
	switch a := c.arr.(type) {
	case *array.List:
		start, end = a.ValueOffsets(i)
		values = a.ListValues()
	case *array.LargeList:
		start, end = a.ValueOffsets(i)
		values = a.ListValues()
	default:
		if isTextType(c.arr) {
			s, _ := cellString(c, i)
			var out []string
			if err := json.Unmarshal([]byte(s), &out); err != nil {
				return nil, fmt.Errorf("column %s: not a JSON list of strings", c.name)
			}
			return out, nil
		}
		return nil, cellTypeError(c, "a list of text")
	}
	el := &tableCell{name: c.name + "[]", arr: values}
	out := make([]string, 0, end-start)
	for k := start; k < end; k++ {
		if !el.valid(int(k)) {
			continue
		}
		s, err := cellString(el, int(k))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// cellJSON reads a value that is JSON in a step (tool arguments, a result's
// data): nested types become the JSON they hold, and text holding a JSON
// object or list is that JSON (so args logged as JSON text read as the
// object they are); other text is a JSON string.
func cellJSON(dst []byte, c *tableCell, i int) ([]byte, error) {
	if isTextType(c.arr) {
		s, _ := cellString(c, i)
		if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
			return append(dst, t...), nil
		}
		return schema.AppendJSONString(dst, s), nil
	}
	return appendArrowJSON(dst, c.arr, i, c.name)
}

// appendArrowJSON appends the value at row i of arr as JSON: text as a
// string, numbers, booleans, times as RFC 3339 strings (UTC), structs and
// maps as objects, lists as lists, null as null.
func appendArrowJSON(dst []byte, arr arrow.Array, i int, name string) ([]byte, error) {
	if arr.IsNull(i) {
		return append(dst, "null"...), nil
	}
	arr, i = dictValue(arr, i)
	if arr.IsNull(i) {
		return append(dst, "null"...), nil
	}
	c := &tableCell{name: name, arr: arr}
	switch a := arr.(type) {
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i)), nil
	case *array.Int8, *array.Int16, *array.Int32, *array.Int64, *array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64:
		if u, ok := a.(*array.Uint64); ok {
			return strconv.AppendUint(dst, u.Value(i), 10), nil
		}
		n, err := cellInt(c, i)
		if err != nil {
			return dst, err
		}
		return strconv.AppendInt(dst, n, 10), nil
	case *array.Float16, *array.Float32, *array.Float64, *array.Decimal128, *array.Decimal256:
		f, err := cellFloat(c, i)
		if err != nil {
			return dst, err
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return append(dst, "null"...), nil
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		ns := int64(a.Value(i)) * int64(unit.Multiplier())
		return strconv.AppendQuote(dst, time.Unix(0, ns).UTC().Format(time.RFC3339Nano)), nil
	case *array.Date32, *array.Date64:
		ms, err := cellMillis(c, i)
		if err != nil {
			return dst, err
		}
		return strconv.AppendQuote(dst, time.UnixMilli(ms).UTC().Format("2006-01-02")), nil
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		dst = append(dst, '{')
		for k := 0; k < a.NumField(); k++ {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = schema.AppendJSONString(dst, st.Field(k).Name)
			dst = append(dst, ':')
			var err error
			if dst, err = appendArrowJSON(dst, a.Field(k), i, name+"."+st.Field(k).Name); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		dst = append(dst, '{')
		for k := start; k < end; k++ {
			if k > start {
				dst = append(dst, ',')
			}
			key, err := appendArrowJSON(nil, keys, int(k), name)
			if err != nil {
				return dst, err
			}
			if len(key) == 0 || key[0] != '"' {
				key = schema.AppendJSONString(nil, string(key))
			}
			dst = append(append(dst, key...), ':')
			if dst, err = appendArrowJSON(dst, items, int(k), name); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		values := a.ListValues()
		dst = append(dst, '[')
		for k := start; k < end; k++ {
			if k > start {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendArrowJSON(dst, values, int(k), name); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	if isTextType(arr) {
		s, _ := cellString(c, i)
		return schema.AppendJSONString(dst, s), nil
	}
	return dst, fmt.Errorf("column %s: cannot read type %s", name, arr.DataType())
}

// clipText shortens s for a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
