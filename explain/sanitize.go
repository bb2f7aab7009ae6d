package explain

import (
	"reflect"

	"github.com/runawayhq/runaway/report"
)

// sanitized returns a deep copy of run with every string passed through
// report.Sanitize, map keys included. The HTML renderer works on it, so no
// control character from a log reaches the page (html/template escapes
// markup, not terminal escapes), and none can be forgotten: reflection
// reaches every string field, present and future.
func sanitized(run *Run) *Run {
	v := sanitizeValue(reflect.ValueOf(run).Elem())
	out := v.Interface().(Run)
	return &out
}

func sanitizeValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		out.SetString(report.Sanitize(v.String()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if out.Field(i).CanSet() {
				out.Field(i).Set(sanitizeValue(v.Field(i)))
			}
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(sanitizeValue(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(sanitizeValue(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(sanitizeValue(iter.Key()), sanitizeValue(iter.Value()))
		}
		return out
	}
	return v
}
