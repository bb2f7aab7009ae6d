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
func sanitized(run *Run) *Run { return mapStrings(run, report.Sanitize) }

// scrubbed returns a deep copy of run without secrets (--redact): the
// secrets found in any of its strings (the run id, tools, states, error
// types, memory ids and types, intents in reasons, ...) are replaced
// wherever they appear, by report.Scrubber. Reflection reaches every string
// field, present and future, as for sanitized.
func scrubbed(run *Run, red report.Redactor) *Run {
	sc := report.NewScrubber(red)
	mapStrings(run, func(s string) string { sc.See(s); return s })
	return mapStrings(run, sc.Scrub)
}

// mapStrings returns a deep copy of run with fn applied to every string.
func mapStrings(run *Run, fn func(string) string) *Run {
	v := mapValue(reflect.ValueOf(run).Elem(), fn)
	out := v.Interface().(Run)
	return &out
}

func mapValue(v reflect.Value, fn func(string) string) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		out.SetString(fn(v.String()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if out.Field(i).CanSet() {
				out.Field(i).Set(mapValue(v.Field(i), fn))
			}
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(mapValue(v.Elem(), fn))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(mapValue(v.Index(i), fn))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			out.SetMapIndex(mapValue(iter.Key(), fn), mapValue(iter.Value(), fn))
		}
		return out
	}
	return v
}
