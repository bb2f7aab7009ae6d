package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/runawayhq/runaway/schema"
)

// Format is one foreign log format: what it is called and documented as,
// how it is recognised, and how a document of it becomes steps.
type Format struct {
	// Name is the --input-format value and the page docs/adapters/<Name>.md.
	Name string
	// Title says in a few words what writes this format.
	Title string
	// Recognize returns nil when d is a document of this format, else why
	// not in a few words ("no \"trajectory\" list"): when no format takes a
	// file, the user is told what each one missed.
	Recognize func(d *Doc) error
	// Convert emits the steps of every run in d, each run's steps in order.
	// An error means the document is not what Recognize took it for; the
	// steps emitted before it stand.
	Convert func(d *Doc, emit func(*schema.Step) error) error
	// Spans, for a tracing format, emits the spans of d in place of steps:
	// a run's spans are spread over documents and files, and become steps
	// once all are read (AssembleRun). A format has Convert or Spans.
	Spans func(d *Doc, add func(*Span) error) error
	// Tables says that the format's exports also come as tables (Parquet),
	// a record a row: its Recognize and Spans read a row given by RowDoc.
	Tables bool
	// Transcript, if set, reports whether a JSON Lines file whose first
	// line is d (a document of the format) holds one run written an event
	// a line, as a Claude Code session is: a call on one line is answered
	// on another, so such a file is read whole, as one document whose
	// elements are its lines (ParseLines), bounded as any document read
	// whole (--max-doc-bytes).
	Transcript func(d *Doc) bool
	// Text, for a format written as plain text rather than JSON, reports
	// whether a file that opens with head (its first bytes) is one of its
	// transcripts. Such a file is read whole, as one document (TextDoc).
	Text func(head []byte) bool
}

// Registry lists the formats in the order they are tried. Recognisers look
// for keys that only their format has, so the order decides nothing but
// which reasons are listed first.
var Registry = []*Format{
	SWEAgent,
	MiniSWEAgent,
	OpenHands,
	OpenAIMessages,
	AnthropicMessages,
	AutoGen,
	OTLP,
	Langfuse,
	LangSmith,
	OpenAIAgents,
	MLflow,
	Codex,
	GeminiCLI,
	Cursor,
	CopilotCLI,
	OpenCode,
	QwenCode,
	Continue,
	RovoDev,
	SmolAgents,
	DSPy,
	Inspect,
	TraeAgent,
	ATIF,
	BrowserUse,
	Aider,
	ChatDev,
	ReactLog,
	Notebook,
}

// Lookup returns the format with the given name, or nil.
func Lookup(name string) *Format {
	for _, f := range Registry {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Names lists the format names in registry order.
func Names() []string {
	out := make([]string, len(Registry))
	for i, f := range Registry {
		out[i] = f.Name
	}
	return out
}

// Doc is one JSON document of a source: the whole file, or one line of a
// JSON Lines file. Its top-level value is parsed once, into raw members, so
// each recogniser looks at keys without decoding what it does not read.
type Doc struct {
	Source string // the source's name as reports show it (a path or URL)
	Line   int64  // 1-based line of the source where the document starts
	Whole  bool   // the document is the whole file, not one line of it
	Raw    []byte
	// StripOutput drops what tools printed: results keep only what the
	// format says in fields of its own (an exit code, an error event, the
	// harness rejecting a turn, and the harness's own message in place of
	// the output: OutputRule.Harness), as a log that keeps no tool output
	// would.
	// Quality is measured both ways, since many logs are kept like that.
	StripOutput bool

	text bool                       // Raw is a plain-text transcript (TextDoc), not JSON
	obj  map[string]json.RawMessage // the top-level value, if an object
	arr  []json.RawMessage          // the top-level value, if an array
	// lines, for a JSON Lines file read whole (ParseLines), is the line of
	// the file each element of arr is.
	lines []int64
	// BadLines are the lines of a JSON Lines file read whole that are not
	// JSON values (ParseLines): not elements of the document.
	BadLines []BadLine
	// Skipped are the elements of such a file that its format could not
	// read (a record of an unexpected shape), left out of the run as it
	// converted the others (skipElement).
	Skipped []BadLine
	// Prompted, set by a transcript's format, says the file holds a turn
	// of the user: a run was begun. Read to its end without a step, it is
	// the log of a run that made no action (no_steps), not a file of a
	// tool's bookkeeping, which gives nothing and says nothing.
	Prompted bool
}

// ParseDoc parses raw, the document at line of source, down to its
// top-level members. An error means raw is not one JSON object or array.
// Python's bare NaN and Infinity are read as null (nonFiniteToNull).
func ParseDoc(source string, line int64, whole bool, raw []byte) (*Doc, error) {
	// A byte order mark (.NET writes one) is no part of the document.
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	d, err := parseDoc(source, line, whole, raw)
	if err != nil {
		if clean, ok := nonFiniteToNull(raw); ok {
			if d, err2 := parseDoc(source, line, whole, clean); err2 == nil {
				return d, nil
			}
		}
		if whole {
			if els, ok := concatenatedObjects(raw); ok {
				// Objects written one after another (the OpenTelemetry
				// SDK's console exporter, a span a pretty-printed
				// object): read as the list of them.
				return &Doc{Source: source, Line: line, Whole: whole, Raw: raw, arr: els}, nil
			}
		}
	}
	return d, err
}

// concatenatedObjects splits raw, two or more JSON objects written one
// after another (white space between them, or none), into those objects.
func concatenatedObjects(raw []byte) ([]json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var els []json.RawMessage
	for {
		var el json.RawMessage
		err := dec.Decode(&el)
		if err == io.EOF {
			break
		}
		if err != nil || len(el) == 0 || el[0] != '{' {
			return nil, false
		}
		els = append(els, el)
	}
	return els, len(els) >= 2
}

func parseDoc(source string, line int64, whole bool, raw []byte) (*Doc, error) {
	d := &Doc{Source: source, Line: line, Whole: whole, Raw: raw}
	t := bytes.TrimLeft(raw, " \t\r\n\ufeff")
	switch {
	case len(t) == 0:
		return nil, errors.New("empty document")
	case t[0] == '{':
		if err := splitJSON(raw, &d.obj); err != nil {
			return nil, err
		}
	case t[0] == '[':
		if err := splitJSON(raw, &d.arr); err != nil {
			return nil, err
		}
	case t[0] == '"':
		// A document written as a JSON string holding it (older
		// LlamaIndex persisted its chat store so): the JSON inside.
		var inner string
		if json.Unmarshal(t, &inner) == nil {
			if in := strings.TrimSpace(inner); in != "" && (in[0] == '{' || in[0] == '[') {
				return parseDoc(source, line, whole, []byte(in))
			}
		}
		return nil, errors.New("a JSON string, not a JSON object or array")
	default:
		return nil, errors.New("not a JSON object or array")
	}
	return d, nil
}

// OpensJSON reports whether raw, after white space and a byte order mark,
// opens as a JSON object or array: a format that writes both JSON and text
// (AutoGen) has its text transcripts among the documents that do not.
func OpensJSON(raw []byte) bool {
	t := bytes.TrimLeft(raw, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[' && !OpensWithDate(t))
}

// OpensWithDate reports whether text opens with a bracketed date, `[2023-`
// then a digit, as a log line does (ChatDev's `[2023-25-08 09:37:05 INFO]`):
// no JSON array opens so, since a number in JSON is not followed by '-'.
func OpensWithDate(text []byte) bool {
	if len(text) < 7 || text[0] != '[' || text[5] != '-' || !isDigitByte(text[6]) {
		return false
	}
	for _, c := range text[1:5] {
		if !isDigitByte(c) {
			return false
		}
	}
	return true
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// TextDoc is a plain-text transcript, the whole file from its line line on,
// for a format with Text.
func TextDoc(source string, line int64, raw []byte) *Doc {
	return &Doc{Source: source, Line: line, Whole: true, Raw: raw, text: true}
}

// DetectText returns the format whose plain-text transcripts open with
// head, or nil.
func DetectText(head []byte) *Format {
	for _, f := range Registry {
		if f.Text != nil && f.Text(head) {
			return f
		}
	}
	return nil
}

// TextRefusals says why no text format takes a file that opens with head:
// each format's name and reason.
func TextRefusals(head []byte) string {
	d := TextDoc("", 1, head)
	var why []string
	for _, f := range Registry {
		if f.Text != nil {
			err := f.Recognize(d)
			if err == nil {
				err = errors.New("recognised")
			}
			why = append(why, f.Name+": "+err.Error())
		}
	}
	return "no text format recognises its opening (" + strings.Join(why, "; ") + ")"
}

// BadLine is a line of a JSON Lines file read whole that is not one JSON
// value: rejected alone, verbatim, while the rest of the file is read (a
// session killed mid-write ends in a cut line; the run before it is what
// the on-call engineer needs).
type BadLine struct {
	Line   int64
	Raw    []byte
	Reason string
}

// ParseLines parses raw, a JSON Lines file read whole from its line line
// on (Format.Transcript), into one document: an array whose elements are
// its non-blank lines that are JSON values. The others are listed in
// Doc.BadLines, not elements. An error only for a file without a line.
func ParseLines(source string, line int64, raw []byte) (*Doc, error) {
	d := &Doc{Source: source, Line: line, Whole: true, Raw: raw}
	rest := raw
	for n := line; len(rest) > 0; n++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if l = bytes.TrimSpace(l); len(l) == 0 {
			continue
		}
		if !json.Valid(l) {
			var v any
			d.BadLines = append(d.BadLines, BadLine{Line: n, Raw: l, Reason: jsonError(json.Unmarshal(l, &v)).Error()})
			continue
		}
		d.arr = append(d.arr, json.RawMessage(l))
		d.lines = append(d.lines, n)
	}
	if len(d.arr) == 0 && len(d.BadLines) == 0 {
		return nil, errors.New("empty document")
	}
	return d, nil
}

// skipElement leaves element i of a JSON Lines file read whole out of the
// conversion, as a reject of its own, and reports whether it did: in any
// other document an element the format cannot read fails the document.
func (d *Doc) skipElement(i int, err error) bool {
	if i >= len(d.lines) || i >= len(d.arr) {
		return false
	}
	d.Skipped = append(d.Skipped, BadLine{Line: d.lines[i], Raw: d.arr[i], Reason: err.Error()})
	return true
}

// where names element i of an array document for a message: its line in a
// JSON Lines file read whole, else its index.
func (d *Doc) where(i int) string {
	if i < len(d.lines) {
		return "line " + strconv.FormatInt(d.lines[i], 10)
	}
	return "element " + strconv.Itoa(i)
}

// RowDoc is one row of a table (a Parquet export) as a document: members
// holds each column's value as the JSON a document of the format holds
// there. Its Raw is nil: only formats with Tables read such documents.
func RowDoc(source string, row int64, members map[string]json.RawMessage) *Doc {
	return &Doc{Source: source, Line: row, obj: members}
}

// DetectRow returns the table format that recognises a row document;
// when none does, the error lists why each refused.
func DetectRow(d *Doc) (*Format, error) {
	var why []string
	for _, f := range Registry {
		if !f.Tables {
			continue
		}
		err := f.Recognize(d)
		if err == nil {
			return f, nil
		}
		why = append(why, f.Name+": "+err.Error())
	}
	return nil, &UnknownError{Reasons: why, LooksLike: looksLike(d)}
}

// splitJSON parses raw down to its top-level members or elements in one
// pass with goccy/go-json (encoding/json scans a document twice, to check
// it and to split it: on a trace export, most of the time of a read).
// A document it refuses is parsed again by encoding/json, whose error,
// with its byte offset, is the one reported.
func splitJSON(raw []byte, dst any) error {
	if err := unmarshalFast(raw, dst); err != nil {
		return jsonError(err)
	}
	return nil
}

// unmarshalFast decodes raw into dst with goccy/go-json, several times
// faster than encoding/json on the large records of trace exports. When it
// refuses raw, encoding/json decodes it again: its error (a syntax error
// with its offset, a type error naming the member) is the one returned, and
// what it accepts stands.
func unmarshalFast(raw []byte, dst any) error {
	if fastOK(raw, dst) {
		return nil
	}
	return json.Unmarshal(raw, dst)
}

// fastOK decodes with goccy/go-json; a panic in it on hostile input counts
// as a refusal, so encoding/json decides.
func fastOK(raw []byte, dst any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return gojson.Unmarshal(raw, dst) == nil
}

// jsonError shortens encoding/json's messages, which name Go types the user
// never wrote.
func jsonError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("malformed JSON at byte %d: %s", se.Offset, se.Error())
	}
	return fmt.Errorf("malformed JSON: %v", err)
}

// IsObject and IsArray say what the top-level value is.
func (d *Doc) IsObject() bool { return d.obj != nil }
func (d *Doc) IsArray() bool  { return d.arr != nil }

// Elements are the top-level array's elements, as ParseDoc split them; nil
// when the document is an object.
func (d *Doc) Elements() []json.RawMessage { return d.arr }

// firstElement returns the first element of the JSON array raw, decoding
// nothing past it: recognisers look at one entry, not a whole trajectory.
func firstElement(raw json.RawMessage) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, false
	}
	if !dec.More() {
		return nil, true // an empty list
	}
	var first json.RawMessage
	if dec.Decode(&first) != nil {
		return nil, false
	}
	return first, true
}

// Has reports whether the top-level object has all the keys.
func (d *Doc) Has(keys ...string) bool {
	for _, k := range keys {
		if _, ok := d.obj[k]; !ok {
			return false
		}
	}
	return d.obj != nil
}

// Keys lists the top-level object's keys, sorted, for messages.
func (d *Doc) Keys() []string {
	keys := make([]string, 0, len(d.obj))
	for k := range d.obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Detect returns the format that recognises d, trying the registry in order.
// When none does, the error lists every format and why it refused.
func Detect(d *Doc) (*Format, error) {
	var why []string
	for _, f := range Registry {
		err := f.Recognize(d)
		if err == nil {
			return f, nil
		}
		why = append(why, f.Name+": "+err.Error())
	}
	return nil, &UnknownError{Reasons: why, LooksLike: looksLike(d)}
}

// UnknownError says that no format recognised a document, and why each
// refused, and what the document looks like when its keys say so.
type UnknownError struct {
	Reasons   []string
	LooksLike string
}

func (e *UnknownError) Error() string {
	msg := "no adapter recognises this document (" + strings.Join(e.Reasons, "; ") + ")"
	if e.LooksLike != "" {
		msg += "; it looks like " + e.LooksLike + ", but not as its adapter reads it (the reasons above; docs/adapters/)"
	}
	return msg
}

// foreignFormats are tracing formats, each known by keys only it has at
// the top of a record: a record that has them but that the format's
// adapter refused (a field missing, another version) is named, so the user
// knows which page to read.
var foreignFormats = []struct {
	name string
	keys []string // all present
}{
	{"OpenTelemetry traces in OTLP/JSON", []string{"resourceSpans"}},
	{"an OpenAI Agents SDK trace or span export", []string{"span_data"}},
	{"LangSmith runs", []string{"run_type", "dotted_order"}},
	{"LangSmith runs", []string{"run_type", "trace_id"}},
	{"Langfuse observations", []string{"traceId", "startTime", "type"}},
	{"a Langfuse trace export", []string{"observations", "id"}},
}

// looksLike names the format d's keys point to, or "". For an array, its
// first element's keys count.
func looksLike(d *Doc) string {
	obj := d.obj
	if obj == nil && len(d.arr) > 0 {
		if json.Unmarshal(d.arr[0], &obj) != nil {
			return ""
		}
	}
	for _, f := range foreignFormats {
		all := true
		for _, k := range f.keys {
			if _, ok := obj[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return f.name
		}
	}
	return ""
}

// runName names a run so a person can find it: the file when the document
// is the whole file and holds one run; file:line for a run on one line of a
// JSON Lines file; [i] for the i-th run of a list; then #id when the run
// carries an id of its own. The file always comes first: ids such as
// SWE-bench instance ids repeat across systems and attempts, and two runs
// under one name would be merged into one.
func runName(d *Doc, index int, many bool, ownID string) string {
	var b strings.Builder
	b.WriteString(d.Source)
	if !d.Whole {
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(d.Line, 10))
	}
	if many {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(index))
		b.WriteByte(']')
	}
	if ownID = strings.TrimSpace(ownID); ownID != "" {
		b.WriteByte('#')
		b.WriteString(ownID)
	}
	return b.String()
}

// AppendStepJSON appends s as one line of schema v1 JSON (no newline).
func AppendStepJSON(dst []byte, s *schema.Step) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return dst, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil // Encode ends with a newline
}
