package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	json "github.com/goccy/go-json"

	"github.com/runawayhq/runaway/schema"
)

// LineDecoder turns one line into one row. It keeps its scratch state between
// lines, so each goroutine uses its own.
type LineDecoder struct {
	keepText     bool
	maxLineBytes int

	step  schema.Step
	args  argsCache
	cols  columns
	colsB *array.RecordBuilder // the builder cols belongs to
	vars  []varColumn          // size hints of cols' variable-length builders
}

// NewLineDecoder returns a decoder with Read's behaviour for these options;
// maxLineBytes <= 0 means the default, 16 MiB.
func NewLineDecoder(keepText bool, maxLineBytes int) *LineDecoder {
	if maxLineBytes <= 0 {
		maxLineBytes = defaultMaxLineBytes
	}
	return &LineDecoder{keepText: keepText, maxLineBytes: maxLineBytes}
}

// DecodeLine appends one row for line to b, a builder of
// schema.StepArrowSchema, or appends nothing and says why the line is
// rejected. line is one line without its terminator (Read strips "\n" and a
// trailing "\r"); srcFile and srcLine fill the src_file and src_line columns.
// It never panics, and a nil result means exactly one row was appended.
func (d *LineDecoder) DecodeLine(b *array.RecordBuilder, line []byte, srcFile int32, srcLine int64) *LineError {
	if len(line) > d.maxLineBytes {
		return lineError(KindLineTooLong, fmt.Sprintf("line exceeds %d bytes", d.maxLineBytes))
	}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		// Checked before the JSON decoder, which uses NUL as its end marker.
		return lineError(KindNULByte, fmt.Sprintf("NUL byte at column %d", i+1))
	}
	if lerr := checkObjectStart(line); lerr != nil {
		return lerr
	}
	s := &d.step
	*s = schema.Step{}
	// Strings refer to line instead of being copied: the builders copy them.
	if err := json.UnmarshalWithOption(line, s, json.DecodeNoCopyString()); err != nil {
		return decodeError(err, line)
	}
	if err := s.Validate(); err != nil {
		kind := KindMissingField
		if s.RunID != "" && s.Step != nil {
			kind = KindInvalidValue
		}
		return lineError(kind, err.Error())
	}
	argsHash, argsText, lerr := d.args.resolve(s.ToolCall, d.keepText)
	if lerr != nil {
		return lerr
	}
	d.appendRow(b, s, argsHash, argsText, line, srcFile, srcLine)
	return nil
}

// checkObjectStart tells a line that is not an object at all from one that
// is an object with bad content, which the JSON decoder reports less plainly.
func checkObjectStart(line []byte) *LineError {
	trimmed := bytes.TrimLeft(line, " \t\r\n")
	if len(trimmed) == 0 {
		return lineError(KindMalformedJSON, "malformed JSON: blank line")
	}
	if trimmed[0] == '{' {
		return nil
	}
	if json.Valid(line) {
		return lineError(KindNotObject, "not a JSON object: got "+jsonValueKind(trimmed))
	}
	var v any
	return decodeError(json.Unmarshal(line, &v), line)
}

// jsonValueKind names the kind of a valid JSON value by its first byte.
func jsonValueKind(v []byte) string {
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// decodeError turns an error of the JSON decoder into a reject reason a user
// can act on: "tool_result.status: want integer, got string".
func decodeError(err error, line []byte) *LineError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		// Only reachable from checkObjectStart when json.Valid and Unmarshal
		// disagree; still a reject, never a silent skip.
		return lineError(KindMalformedJSON, "malformed JSON")
	case errors.As(err, &syn):
		msg := strings.TrimPrefix(syn.Error(), "json: ")
		if syn.Offset > 0 && !strings.Contains(msg, "end of JSON input") {
			msg += " at column " + strconv.FormatInt(syn.Offset, 10)
		}
		return lineError(KindMalformedJSON, "malformed JSON: "+msg)
	case errors.As(err, &typ):
		got := typ.Value
		if got == "bool" {
			got = "boolean"
		}
		if typ.Field == "" {
			return lineError(KindNotObject, "not a JSON object: got "+got)
		}
		return lineError(KindWrongType, fieldPath(typ.Field)+": want "+wantKind(typ.Type)+", got "+got)
	default:
		// An UnmarshalJSON method failed: only schema.Timestamp has one.
		return lineError(KindWrongType, timestampReason(err, line))
	}
}

// fieldPath writes the decoder's "memory.entries.1.id" as "memory.entries[1].id".
func fieldPath(p string) string {
	if !strings.ContainsAny(p, "0123456789") {
		return p
	}
	parts := strings.Split(p, ".")
	var sb strings.Builder
	for i, part := range parts {
		if _, err := strconv.Atoi(part); err == nil && i > 0 {
			sb.WriteString("[" + part + "]")
			continue
		}
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(part)
	}
	return sb.String()
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// wantKind names a Go field type in JSON's terms.
func wantKind(t reflect.Type) string {
	if t == nil {
		return "a different type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		return "any JSON value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return t.String()
}

// timestampReason says what ts held when it is neither a string nor a
// number; a string that is not RFC 3339 keeps schema's message, which quotes it.
func timestampReason(err error, line []byte) string {
	var probe struct {
		TS json.RawMessage `json:"ts"`
	}
	if json.Unmarshal(line, &probe) == nil && len(probe.TS) > 0 {
		if kind := jsonValueKind(probe.TS); kind != "string" && kind != "number" {
			return "ts: want RFC 3339 string or epoch milliseconds, got " + kind
		}
	}
	return err.Error()
}
