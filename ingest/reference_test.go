package ingest

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

// The reference decoder: DecodeLine as it was before the hand-written step
// decoder (fastdecode.go), decoding each line with github.com/goccy/go-json
// into a schema.Step. FuzzFastMatchesReference checks that the two agree on
// every line; the reference is kept only for that.

// referenceDecodeLine is DecodeLine with the goccy decoder. It shares d's
// args cache, not its step decoder.
func (d *LineDecoder) referenceDecodeLine(w *batchWriter, line []byte, srcFile int32, srcLine int64) *LineError {
	if len(line) > d.maxLineBytes {
		return lineError(KindLineTooLong, "line exceeds "+strconv.Itoa(d.maxLineBytes)+" bytes")
	}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		// Checked before the JSON decoder, which uses NUL as its end marker.
		return lineError(KindNULByte, "NUL byte at column "+strconv.Itoa(i+1))
	}
	if lerr := referenceCheckObjectStart(line); lerr != nil {
		return lerr
	}
	s := new(schema.Step)
	// Strings refer to line instead of being copied: the writer copies them.
	if err := json.UnmarshalWithOption(line, s, json.DecodeNoCopyString()); err != nil {
		return referenceDecodeError(err, line)
	}
	if err := s.Validate(); err != nil {
		kind := KindMissingField
		if s.RunID != "" && s.Step != nil {
			kind = KindInvalidValue
		}
		return lineError(kind, err.Error())
	}
	// IsEmpty may decode a string payload: once a line.
	empty := s.ToolResult != nil && s.ToolResult.IsEmpty()
	args, lerr := d.args.resolve(s.ToolCall, d.keepText, empty)
	if lerr != nil {
		return lerr
	}
	d.appendRow(w, s, &args, empty, xxh3.Hash(line), srcFile, srcLine)
	return nil
}

// referenceCheckObjectStart tells a line that is not an object at all from one that
// is an object with bad content, which the JSON decoder reports less plainly.
func referenceCheckObjectStart(line []byte) *LineError {
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
	return referenceDecodeError(json.Unmarshal(line, &v), line)
}

// referenceDecodeError turns an error of the JSON decoder into a reject reason a user
// can act on: "tool_result.status: want integer, got string".
func referenceDecodeError(err error, line []byte) *LineError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		// Only reachable from referenceCheckObjectStart when json.Valid and Unmarshal
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
