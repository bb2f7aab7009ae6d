package ingest

import (
	stdjson "encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/runawayhq/runaway/schema"
)

// stepDecoder decodes one line into a schema.Step in a single pass over its
// bytes, with the semantics of encoding/json (as github.com/goccy/go-json,
// the decoder it replaces, implements them; FuzzFastMatchesReference holds
// the two together):
//
//   - object keys match field names exactly, else ignoring case (Unicode
//     simple folding); unknown keys are skipped, their values validated;
//   - a key given twice: the last value wins, and an object given twice is
//     merged into the first, as are the elements of an array of objects;
//     an array's elements keep the values of a longer array given before
//     where the later one holds null (encoding/json reuses the backing
//     array);
//   - null leaves a string or number field unchanged and clears a pointer,
//     slice or object field; null as a raw value (args, items, data) is
//     kept as "null";
//   - invalid UTF-8 in strings becomes U+FFFD, byte by byte, as do unpaired
//     surrogate escapes;
//   - errors: a line that is not valid JSON is malformed, whatever else is
//     wrong with it; otherwise the first field of the wrong type, in the
//     order of the line, rejects it.
//
// Strings without escapes are slices of the line; others are decoded into
// scratch. Both stay valid until the next line: the batch writer copies
// what it keeps.
type stepDecoder struct {
	line    []byte
	pos     int
	scratch []byte // decoded strings of the current line
	kinds   containerKinds

	sem    semError // the first field of the wrong type
	hasSem bool

	s schema.Step // refers to the fields below

	stepNum  int64
	ts       schema.Timestamp
	hours    hourCache
	tc       schema.ToolCall
	tr       schema.ToolResult
	trBools  [7]bool // ok, empty, retryable, done, found, seen, reports_failure
	trStatus int64
	trCount  int64
	trConf   float64
	mem      schema.Memory
	decision schema.Decision
	usage    schema.Usage
	tokens   schema.TokensAlt
	budget   schema.Budget

	retrieved, written, writeTags, artifacts stringSlice
	entries                                  entrySlice

	order keyOrders
}

// semError is a field of the wrong type: "path: want W, got G", or reason.
// The path names the keys as the line spells them ("Memory.entries[1].id"
// for a key matched ignoring case, as the reference decoder does), prefixed
// level by level as the decoder returns from the failed value.
type semError struct {
	path, want, got string
	reason          string
}

// keyed prefixes the path of a failure in the value of key with the key.
func (d *stepDecoder) keyed(key []byte) bool {
	if e := &d.sem; d.hasSem && e.reason == "" {
		switch {
		case e.path == "":
			e.path = string(key)
		case e.path[0] == '[':
			e.path = string(key) + e.path
		default:
			e.path = string(key) + "." + e.path
		}
	}
	return false
}

// indexed prefixes the path of a failure in element n of an array; ok is
// the element's result, returned.
func (d *stepDecoder) indexed(n int, ok bool) bool {
	if e := &d.sem; !ok && d.hasSem && e.reason == "" {
		if e.path == "" {
			e.path = "[" + strconv.Itoa(n) + "]"
		} else if e.path[0] == '[' {
			e.path = "[" + strconv.Itoa(n) + "]" + e.path
		} else {
			e.path = "[" + strconv.Itoa(n) + "]." + e.path
		}
	}
	return ok
}

func (e *semError) String() string {
	if e.reason != "" {
		return e.reason
	}
	return e.path + ": want " + e.want + ", got " + e.got
}

// decode decodes line into d.s. The step is valid until the next call.
func (d *stepDecoder) decode(line []byte) (*schema.Step, *LineError) {
	i := skipSpace(line, 0)
	if i == len(line) {
		return nil, lineError(KindMalformedJSON, "malformed JSON: blank line")
	}
	if line[i] != '{' {
		if validJSON(line, &d.kinds) {
			return nil, lineError(KindNotObject, "not a JSON object: got "+jsonValueKind(line[i:]))
		}
		return nil, syntaxError(line)
	}
	d.line, d.pos = line, i
	d.scratch = d.scratch[:0]
	d.hasSem = false
	d.s = schema.Step{}
	d.artifacts.reset()
	if !d.decodeStep() || skipSpace(line, d.pos) != len(line) {
		return nil, d.failure()
	}
	if d.s.Memory != nil {
		d.mem.Retrieved = d.retrieved.slice()
		d.mem.Written = d.written.slice()
		d.mem.WriteTags = d.writeTags.slice()
		d.mem.Entries = d.entries.slice()
	}
	d.s.Artifacts = d.artifacts.slice()
	return &d.s, nil
}

// failure says why the line being decoded failed: its first syntax error if
// it is not valid JSON, else its first field of the wrong type.
func (d *stepDecoder) failure() *LineError {
	if d.hasSem && validJSON(d.line, &d.kinds) {
		return lineError(KindWrongType, d.sem.String())
	}
	return syntaxError(d.line)
}

// syntaxError describes the first syntax error of line as encoding/json
// reports it: "invalid character '}' looking for beginning of object key
// string at column 24". It is only called for lines that fail.
func syntaxError(line []byte) *LineError {
	var v struct{}
	var syn *stdjson.SyntaxError
	if err := stdjson.Unmarshal(line, &v); errors.As(err, &syn) {
		msg := syn.Error()
		if syn.Offset > 0 && !strings.Contains(msg, "end of JSON input") {
			msg += " at column " + strconv.FormatInt(syn.Offset, 10)
		}
		return lineError(KindMalformedJSON, "malformed JSON: "+msg)
	}
	// Unreachable while validJSON and encoding/json agree; still a reject.
	return lineError(KindMalformedJSON, "malformed JSON")
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

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ---- members ----

// objectKind is an object of the step schema: its field names, in the
// order of its decoder's switch.
type objectKind struct {
	names []string
	field func(key []byte) int // the field of a key, -1 if unknown
}

// keyOrder predicts the next key of an object from the one before it:
// loggers write the fields of an object in one order, so a key is most
// often recognised by comparing it with the one expected, without scanning
// it first. By slot (0 before the first member, field+1 after a field,
// len(names)+1 after an unknown key), the expected field + 1, or 0. An
// optional field makes two keys follow one (a result's "ok" is followed
// by "status" or "error_type"): the key expected before the last miss is
// tried second.
type keyOrder struct {
	next, alt [maxObjectFields + 2]int8
}

// maxObjectFields bounds the fields of one object kind (tool_result has
// the most); TestObjectKindsFitKeyOrder holds every kind to it.
const maxObjectFields = 20

const (
	memberNext = iota // a key was read; d.pos is at its value
	memberEnd         // the object ended
	memberBad         // a syntax error
)

// member reads the next member of an object up to its value: the first one
// right after '{' (slot 0), the others after the previous value. It returns
// the key, valid until the next line, and its field (-1 if unknown).
func (d *stepDecoder) member(slot int, kind *objectKind, order *keyOrder) (key []byte, field, status int) {
	buf := d.line
	i := skipSpace(buf, d.pos)
	if i >= len(buf) {
		return nil, -1, memberBad
	}
	c := buf[i]
	if c == '}' {
		d.pos = i + 1
		return nil, -1, memberEnd
	}
	if slot != 0 {
		if c != ',' {
			return nil, -1, memberBad
		}
		if i = skipSpace(buf, i+1); i >= len(buf) {
			return nil, -1, memberBad
		}
		c = buf[i]
	}
	if c != '"' {
		return nil, -1, memberBad
	}
	// An expected key, closing quote included, is the key: it holds no
	// escape, no quote and no control character.
	field = int(order.next[slot]) - 1
	if field < 0 || !isKeyAt(buf, i, kind.names[field]) {
		if field = int(order.alt[slot]) - 1; field >= 0 && !isKeyAt(buf, i, kind.names[field]) {
			field = -1
		}
	}
	var end int
	if field >= 0 {
		end = i + 2 + len(kind.names[field])
		key = buf[i+1 : end-1]
	} else {
		var flags stringFlags
		var ok bool
		if end, flags, ok = scanString(buf, i); !ok {
			return nil, -1, memberBad
		}
		key = buf[i+1 : end-1]
		if flags&strEscaped != 0 {
			// Into scratch, not over the key of an enclosing object, which a
			// failure's path may still need.
			n := len(d.scratch)
			d.scratch = appendUnquoted(d.scratch, key)
			key = d.scratch[n:]
		}
		field = kind.field(key)
		order.alt[slot], order.next[slot] = order.next[slot], int8(field+1)
	}
	i = skipSpace(buf, end)
	if i >= len(buf) || buf[i] != ':' {
		return nil, -1, memberBad
	}
	if i = skipSpace(buf, i+1); i >= len(buf) {
		return nil, -1, memberBad
	}
	d.pos = i
	return key, field, memberNext
}

// isKeyAt reports whether the string at buf[i] is name, closing quote
// included.
func isKeyAt(buf []byte, i int, name string) bool {
	e := i + 1 + len(name)
	return e < len(buf) && buf[e] == '"' && string(buf[i+1:e]) == name
}

// nextSlot is the keyOrder slot after a member of field f.
func (k *objectKind) nextSlot(f int) int {
	if f < 0 {
		return len(k.names) + 1
	}
	return f + 1
}

// lookupField finds key among names: exactly, else ignoring case, as
// encoding/json matches keys; -1 if none.
func lookupField(key []byte, names []string) int {
	for i, n := range names {
		if string(key) == n {
			return i
		}
	}
	return foldField(key, names)
}

// foldField finds key among names ignoring case (Unicode simple folding);
// -1 if none.
func foldField(key []byte, names []string) int {
	fold := false
	for _, c := range key {
		if c >= 0x80 || ('A' <= c && c <= 'Z') {
			fold = true
			break
		}
	}
	if fold {
		for i, n := range names {
			if strings.EqualFold(unsafeString(key), n) {
				return i
			}
		}
	}
	return -1
}

// ---- values: d.pos is at the first byte of the value ----

// typeError records that the value at d.pos is not of the type want, unless
// it is no JSON value at all (a syntax error); both fail.
func (d *stepDecoder) typeError(want string) bool {
	var got string
	switch c := d.line[d.pos]; {
	case c == '"':
		got = "string"
	case c == '{':
		got = "object"
	case c == '[':
		got = "array"
	case c == 't' || c == 'f':
		got = "boolean"
	case c == '-' || isDigit(c):
		got = "number"
	default:
		return false
	}
	return d.fail(semError{want: want, got: got})
}

func (d *stepDecoder) fail(e semError) bool {
	d.sem, d.hasSem = e, true
	return false
}

func (d *stepDecoder) null() bool {
	i, ok := scanLiteral(d.line, d.pos, "null")
	d.pos = i
	return ok
}

// skip skips a value nested in depth arrays and objects.
func (d *stepDecoder) skip(depth int) bool {
	i, ok := skipValue(d.line, d.pos, depth, &d.kinds)
	d.pos = i
	return ok
}

// raw returns a value as it is in the line, validated.
func (d *stepDecoder) raw(depth int) ([]byte, bool) {
	start := d.pos
	i, ok := skipValue(d.line, start, depth, &d.kinds)
	d.pos = i
	return d.line[start:i], ok
}

// readString reads the string at d.pos: a slice of the line when it is
// plain valid UTF-8, else decoded into scratch.
func (d *stepDecoder) readString() (string, bool) {
	start := d.pos
	end, flags, ok := scanString(d.line, start)
	d.pos = end
	if !ok {
		return "", false
	}
	content := d.line[start+1 : end-1]
	if flags == 0 || (flags == strNonASCII && utf8.Valid(content)) {
		return unsafeString(content), true
	}
	n := len(d.scratch)
	d.scratch = appendUnquoted(d.scratch, content)
	return unsafeString(d.scratch[n:]), true
}

// str decodes a string field; null leaves it unchanged.
func (d *stepDecoder) str(dst *string) bool {
	switch d.line[d.pos] {
	case '"':
		s, ok := d.readString()
		if ok {
			*dst = s
		}
		return ok
	case 'n':
		return d.null()
	}
	return d.typeError("string")
}

// number reads a validated number literal.
func (d *stepDecoder) number() (lit []byte, integer, ok bool) {
	start := d.pos
	end, integer, ok := scanNumber(d.line, start)
	d.pos = end
	return d.line[start:end], integer, ok
}

// intValue decodes an integer value, or null.
func (d *stepDecoder) intValue() (v int64, null, ok bool) {
	c := d.line[d.pos]
	if c == '-' || isDigit(c) {
		lit, integer, ok := d.number()
		if !ok {
			return 0, false, false
		}
		if integer {
			if v, fits := parseInt64(lit); fits {
				return v, false, true
			}
		}
		return 0, false, d.fail(semError{want: "integer", got: "number " + string(lit)})
	}
	if c == 'n' {
		return 0, true, d.null()
	}
	return 0, false, d.typeError("integer")
}

// intField decodes an int64 field; null leaves it unchanged.
func (d *stepDecoder) intField(dst *int64) bool { return setField(dst)(d.intValue()) }

// intPtr decodes a *int64 field, pointing it at store; null clears it.
func (d *stepDecoder) intPtr(dst **int64, store *int64) bool {
	return setPtr(dst, store)(d.intValue())
}

// setField stores a decoded value unless it was null (which, as in
// encoding/json, leaves a plain field unchanged).
func setField[T any](dst *T) func(v T, null, ok bool) bool {
	return func(v T, null, ok bool) bool {
		if ok && !null {
			*dst = v
		}
		return ok
	}
}

// setPtr points a pointer field at store holding the decoded value; null
// clears the field.
func setPtr[T any](dst **T, store *T) func(v T, null, ok bool) bool {
	return func(v T, null, ok bool) bool {
		switch {
		case !ok:
		case null:
			*dst = nil
		default:
			*store, *dst = v, store
		}
		return ok
	}
}

// floatValue decodes a number value, or null.
func (d *stepDecoder) floatValue() (v float64, null, ok bool) {
	c := d.line[d.pos]
	if c == '-' || isDigit(c) {
		lit, _, ok := d.number()
		if !ok {
			return 0, false, false
		}
		f, ok := parseFloat(lit)
		if !ok {
			return 0, false, d.fail(semError{want: "number", got: "number " + string(lit)})
		}
		return f, false, true
	}
	if c == 'n' {
		return 0, true, d.null()
	}
	return 0, false, d.typeError("number")
}

func (d *stepDecoder) floatField(dst *float64) bool { return setField(dst)(d.floatValue()) }

func (d *stepDecoder) floatPtr(dst **float64, store *float64) bool {
	return setPtr(dst, store)(d.floatValue())
}

// boolPtr decodes a *bool field, pointing it at store; null clears it.
func (d *stepDecoder) boolPtr(dst **bool, store *bool) bool {
	var v, ok bool
	switch d.line[d.pos] {
	case 't':
		d.pos, ok = scanLiteral(d.line, d.pos, "true")
		v = true
	case 'f':
		d.pos, ok = scanLiteral(d.line, d.pos, "false")
	case 'n':
		*dst = nil
		return d.null()
	default:
		return d.typeError("boolean")
	}
	if ok {
		*store, *dst = v, store
	}
	return ok
}

// objectStart reads the start of an object field's value: an object
// (true, true; d.pos is after its '{'), null (false, true; the caller clears
// the field) or else a failure.
func (d *stepDecoder) objectStart() (isObject, ok bool) {
	switch d.line[d.pos] {
	case '{':
		d.pos++
		return true, true
	case 'n':
		return false, d.null()
	}
	return false, d.typeError("object")
}

// ---- arrays ----

// stringSlice is a []string field. vals holds every element written since
// the field was last absent or null, so that a later, shorter array's null
// elements keep them, as encoding/json's reuse of the backing array does.
type stringSlice struct {
	vals []string
	n    int  // length
	set  bool // not nil
}

var (
	emptyStrings = []string{}
	emptyEntries = []schema.MemoryEntry{}
)

func (l *stringSlice) reset() { l.vals, l.n, l.set = l.vals[:0], 0, false }

func (l *stringSlice) slice() []string {
	switch {
	case !l.set:
		return nil
	case l.n == 0:
		return emptyStrings
	}
	return l.vals[:l.n:l.n]
}

// stringList decodes a []string field.
func (d *stepDecoder) stringList(l *stringSlice) bool {
	switch d.line[d.pos] {
	case '[':
	case 'n':
		l.reset()
		return d.null()
	default:
		return d.typeError("array")
	}
	buf := d.line
	d.pos = skipSpace(buf, d.pos+1)
	n := 0
	if d.pos < len(buf) && buf[d.pos] == ']' {
		d.pos++
	} else {
		for {
			if d.pos >= len(buf) {
				return false
			}
			switch buf[d.pos] {
			case '"':
				s, ok := d.readString()
				if !ok {
					return false
				}
				if n < len(l.vals) {
					l.vals[n] = s
				} else {
					l.vals = append(l.vals, s)
				}
			case 'n':
				if !d.null() {
					return false
				}
				if n >= len(l.vals) {
					l.vals = append(l.vals, "")
				}
			default:
				return d.indexed(n, d.typeError("string"))
			}
			n++
			if d.pos = skipSpace(buf, d.pos); d.pos >= len(buf) {
				return false
			}
			if buf[d.pos] == ']' {
				d.pos++
				break
			}
			if buf[d.pos] != ',' {
				return false
			}
			d.pos = skipSpace(buf, d.pos+1)
		}
	}
	l.n, l.set = n, true
	return true
}

// entrySlice is memory.entries, with stringSlice's rules; an element given
// again is merged into the one before, as encoding/json does.
type entrySlice struct {
	vals []entryValue
	n    int
	set  bool
	out  []schema.MemoryEntry
}

type entryValue struct {
	id, typ, source string
	conf            float64
	hasConf         bool
}

func (l *entrySlice) reset() { l.vals, l.n, l.set = l.vals[:0], 0, false }

func (l *entrySlice) slice() []schema.MemoryEntry {
	switch {
	case !l.set:
		return nil
	case l.n == 0:
		return emptyEntries
	}
	l.out = l.out[:0]
	for i := range l.n {
		v := &l.vals[i]
		e := schema.MemoryEntry{ID: v.id, Type: v.typ, Source: v.source}
		if v.hasConf {
			e.Confidence = &v.conf
		}
		l.out = append(l.out, e)
	}
	return l.out
}

func (d *stepDecoder) decodeEntries() bool {
	l := &d.entries
	switch d.line[d.pos] {
	case '[':
	case 'n':
		l.reset()
		return d.null()
	default:
		return d.typeError("array")
	}
	buf := d.line
	d.pos = skipSpace(buf, d.pos+1)
	n := 0
	if d.pos < len(buf) && buf[d.pos] == ']' {
		d.pos++
	} else {
		for {
			if d.pos >= len(buf) {
				return false
			}
			if n >= len(l.vals) {
				l.vals = append(l.vals, entryValue{})
			}
			switch buf[d.pos] {
			case '{':
				d.pos++
				if !d.decodeEntry(&l.vals[n]) {
					return d.indexed(n, false)
				}
			case 'n':
				if !d.null() {
					return false
				}
			default:
				return d.indexed(n, d.typeError("object"))
			}
			n++
			if d.pos = skipSpace(buf, d.pos); d.pos >= len(buf) {
				return false
			}
			if buf[d.pos] == ']' {
				d.pos++
				break
			}
			if buf[d.pos] != ',' {
				return false
			}
			d.pos = skipSpace(buf, d.pos+1)
		}
	}
	l.n, l.set = n, true
	return true
}

var entryNames = []string{"id", "type", "source", "confidence"}

var entryKind = objectKind{
	names: entryNames,
	field: func(key []byte) int { return lookupField(key, entryNames) },
}

func (d *stepDecoder) decodeEntry(e *entryValue) bool {
	for slot := 0; ; {
		key, f, st := d.member(slot, &entryKind, &d.order.entry)
		if st != memberNext {
			return st == memberEnd
		}
		slot = entryKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.str(&e.id)
		case 1:
			ok = d.str(&e.typ)
		case 2:
			ok = d.str(&e.source)
		case 3:
			var v float64
			var null bool
			if v, null, ok = d.floatValue(); ok {
				e.conf, e.hasConf = v, !null
			}
		default:
			ok = d.skip(4)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

// ---- objects ----

// keyOrders are the key predictions of each kind of object, learned over
// the lines a decoder decodes.
type keyOrders struct {
	step, toolCall, toolResult, memory, decision, usage, tokens, budget, entry keyOrder
}

var stepNames = []string{"run_id", "step", "ts", "state", "goal", "intent", "tool_call", "tool_result",
	"memory", "decision", "artifacts", "usage", "tokens", "budget"}

var stepKind = objectKind{names: stepNames, field: stepField}

const (
	fRunID = iota
	fStep
	fTS
	fState
	fGoal
	fIntent
	fToolCall
	fToolResult
	fMemory
	fDecision
	fArtifacts
	fUsage
	fTokens
	fBudget
)

func stepField(key []byte) int {
	switch string(key) {
	case "run_id":
		return fRunID
	case "step":
		return fStep
	case "ts":
		return fTS
	case "state":
		return fState
	case "goal":
		return fGoal
	case "intent":
		return fIntent
	case "tool_call":
		return fToolCall
	case "tool_result":
		return fToolResult
	case "memory":
		return fMemory
	case "decision":
		return fDecision
	case "artifacts":
		return fArtifacts
	case "usage":
		return fUsage
	case "tokens":
		return fTokens
	case "budget":
		return fBudget
	}
	return foldField(key, stepNames)
}

// decodeStep decodes the line's object; d.pos is at its '{'.
func (d *stepDecoder) decodeStep() bool {
	d.pos++
	s := &d.s
	for slot := 0; ; {
		key, f, st := d.member(slot, &stepKind, &d.order.step)
		if st != memberNext {
			return st == memberEnd
		}
		slot = stepKind.nextSlot(f)
		var ok, obj bool
		switch f {
		case fRunID:
			ok = d.str(&s.RunID)
		case fStep:
			ok = d.intPtr(&s.Step, &d.stepNum)
		case fTS:
			ok = d.timestamp()
		case fState:
			ok = d.str(&s.State)
		case fGoal:
			ok = d.str(&s.Goal)
		case fIntent:
			ok = d.str(&s.Intent)
		case fToolCall:
			if obj, ok = d.objectStart(); obj {
				if s.ToolCall == nil {
					d.tc, s.ToolCall = schema.ToolCall{}, &d.tc
				}
				ok = d.decodeToolCall()
			} else if ok {
				s.ToolCall = nil
			}
		case fToolResult:
			if obj, ok = d.objectStart(); obj {
				if s.ToolResult == nil {
					d.tr, s.ToolResult = schema.ToolResult{}, &d.tr
				}
				ok = d.decodeToolResult()
			} else if ok {
				s.ToolResult = nil
			}
		case fMemory:
			if obj, ok = d.objectStart(); obj {
				if s.Memory == nil {
					d.mem, s.Memory = schema.Memory{}, &d.mem
					d.retrieved.reset()
					d.written.reset()
					d.writeTags.reset()
					d.entries.reset()
				}
				ok = d.decodeMemory()
			} else if ok {
				s.Memory = nil
			}
		case fDecision:
			if obj, ok = d.objectStart(); obj {
				if s.Decision == nil {
					d.decision, s.Decision = schema.Decision{}, &d.decision
				}
				ok = d.decodeDecision()
			} else if ok {
				s.Decision = nil
			}
		case fArtifacts:
			ok = d.stringList(&d.artifacts)
		case fUsage:
			if obj, ok = d.objectStart(); obj {
				if s.Usage == nil {
					d.usage, s.Usage = schema.Usage{}, &d.usage
				}
				ok = d.decodeUsage()
			} else if ok {
				s.Usage = nil
			}
		case fTokens:
			if obj, ok = d.objectStart(); obj {
				if s.Tokens == nil {
					d.tokens, s.Tokens = schema.TokensAlt{}, &d.tokens
				}
				ok = d.decodeTokens()
			} else if ok {
				s.Tokens = nil
			}
		case fBudget:
			if obj, ok = d.objectStart(); obj {
				if s.Budget == nil {
					d.budget, s.Budget = schema.Budget{}, &d.budget
				}
				ok = d.decodeBudget()
			} else if ok {
				s.Budget = nil
			}
		default:
			ok = d.skip(1)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

// timestamp decodes ts as schema.Timestamp.UnmarshalJSON does, without its
// allocations in the common cases.
func (d *stepDecoder) timestamp() bool {
	start := d.pos
	switch c := d.line[start]; {
	case c == 'n':
		d.s.TS = nil
		return d.null()
	case c == '"':
		end, flags, ok := scanString(d.line, start)
		d.pos = end
		if !ok {
			return false
		}
		if flags&strEscaped == 0 {
			if ms, ok := d.hours.parse(d.line[start+1 : end-1]); ok {
				d.ts.UnixMilli, d.s.TS = ms, &d.ts
				return true
			}
		}
		var t schema.Timestamp
		if err := t.UnmarshalJSON(d.line[start:end]); err != nil {
			return d.fail(semError{reason: err.Error()})
		}
		d.ts.UnixMilli, d.s.TS = t.UnixMilli, &d.ts
		return true
	case c == '-' || isDigit(c):
		lit, _, ok := d.number()
		if !ok {
			return false
		}
		f, ok := parseFloat(lit)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return d.fail(semError{reason: "ts: want an RFC 3339 string or epoch milliseconds"})
		}
		d.ts.UnixMilli, d.s.TS = schema.EpochToMilli(f), &d.ts
		return true
	case c == 't' || c == 'f' || c == '{' || c == '[':
		return d.fail(semError{reason: "ts: want RFC 3339 string or epoch milliseconds, got " + jsonValueKind(d.line[start:])})
	}
	return false
}

var toolCallNames = []string{"name", "args", "args_hash", "simhash", "shape", "edit_file", "creates", "edit_copy", "adds_print"}

var toolCallKind = objectKind{
	names: toolCallNames,
	field: func(key []byte) int { return lookupField(key, toolCallNames) },
}

func (d *stepDecoder) decodeToolCall() bool {
	tc := &d.tc
	for slot := 0; ; {
		key, f, st := d.member(slot, &toolCallKind, &d.order.toolCall)
		if st != memberNext {
			return st == memberEnd
		}
		slot = toolCallKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.str(&tc.Name)
		case 1:
			tc.Args, ok = d.raw(2)
		case 2:
			ok = d.str(&tc.ArgsHash)
		case 3:
			ok = d.str(&tc.SimHash)
		case 4:
			ok = d.str(&tc.Shape)
		case 5:
			ok = d.str(&tc.EditFile)
		case 6:
			var creates *bool
			var store bool
			ok = d.boolPtr(&creates, &store)
			tc.Creates = creates != nil && *creates
		case 7:
			ok = d.str(&tc.EditCopy)
		case 8:
			var adds *bool
			var store bool
			ok = d.boolPtr(&adds, &store)
			tc.AddsPrint = adds != nil && *adds
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var toolResultNames = []string{"ok", "error_type", "status", "empty", "retryable", "done", "result_count",
	"items", "found", "data", "confidence", "reason", "seen", "fingerprint", "simhash", "fail_file", "reports_failure", "fail_copy", "fail_mistake"}

var toolResultKind = objectKind{names: toolResultNames, field: toolResultField}

func toolResultField(key []byte) int {
	switch string(key) {
	case "ok":
		return 0
	case "error_type":
		return 1
	case "status":
		return 2
	case "empty":
		return 3
	case "retryable":
		return 4
	case "done":
		return 5
	case "result_count":
		return 6
	case "items":
		return 7
	case "found":
		return 8
	case "data":
		return 9
	case "confidence":
		return 10
	case "reason":
		return 11
	case "seen":
		return 12
	case "fingerprint":
		return 13
	case "simhash":
		return 14
	case "fail_file":
		return 15
	case "reports_failure":
		return 16
	case "fail_copy":
		return 17
	case "fail_mistake":
		return 18
	}
	return foldField(key, toolResultNames)
}

func (d *stepDecoder) decodeToolResult() bool {
	r := &d.tr
	for slot := 0; ; {
		key, f, st := d.member(slot, &toolResultKind, &d.order.toolResult)
		if st != memberNext {
			return st == memberEnd
		}
		slot = toolResultKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.boolPtr(&r.OK, &d.trBools[0])
		case 1:
			ok = d.str(&r.ErrorType)
		case 2:
			ok = d.intPtr(&r.Status, &d.trStatus)
		case 3:
			ok = d.boolPtr(&r.Empty, &d.trBools[1])
		case 4:
			ok = d.boolPtr(&r.Retryable, &d.trBools[2])
		case 5:
			ok = d.boolPtr(&r.Done, &d.trBools[3])
		case 6:
			ok = d.intPtr(&r.ResultCount, &d.trCount)
		case 7:
			r.Items, ok = d.raw(2)
		case 8:
			ok = d.boolPtr(&r.Found, &d.trBools[4])
		case 9:
			r.Data, ok = d.raw(2)
		case 10:
			ok = d.floatPtr(&r.Confidence, &d.trConf)
		case 11:
			ok = d.str(&r.Reason)
		case 12:
			ok = d.boolPtr(&r.Seen, &d.trBools[5])
		case 13:
			ok = d.str(&r.Fingerprint)
		case 14:
			ok = d.str(&r.SimHash)
		case 15:
			ok = d.str(&r.FailFile)
		case 16:
			ok = d.boolPtr(&r.ReportsFailure, &d.trBools[6])
		case 17:
			ok = d.str(&r.FailCopy)
		case 18:
			ok = d.str(&r.FailMistake)
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var memoryNames = []string{"retrieved", "written", "write_tags", "entries"}

var memoryKind = objectKind{
	names: memoryNames,
	field: func(key []byte) int { return lookupField(key, memoryNames) },
}

func (d *stepDecoder) decodeMemory() bool {
	for slot := 0; ; {
		key, f, st := d.member(slot, &memoryKind, &d.order.memory)
		if st != memberNext {
			return st == memberEnd
		}
		slot = memoryKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.stringList(&d.retrieved)
		case 1:
			ok = d.stringList(&d.written)
		case 2:
			ok = d.stringList(&d.writeTags)
		case 3:
			ok = d.decodeEntries()
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var decisionNames = []string{"next_state", "reason"}

var decisionKind = objectKind{
	names: decisionNames,
	field: func(key []byte) int { return lookupField(key, decisionNames) },
}

func (d *stepDecoder) decodeDecision() bool {
	for slot := 0; ; {
		key, f, st := d.member(slot, &decisionKind, &d.order.decision)
		if st != memberNext {
			return st == memberEnd
		}
		slot = decisionKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.str(&d.decision.NextState)
		case 1:
			ok = d.str(&d.decision.Reason)
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var usageNames = []string{"prompt_tokens", "completion_tokens", "cost_usd", "model", "cache_read_tokens", "cache_write_tokens", "cache_write_1h_tokens"}

var usageKind = objectKind{
	names: usageNames,
	field: func(key []byte) int { return lookupField(key, usageNames) },
}

func (d *stepDecoder) decodeUsage() bool {
	u := &d.usage
	for slot := 0; ; {
		key, f, st := d.member(slot, &usageKind, &d.order.usage)
		if st != memberNext {
			return st == memberEnd
		}
		slot = usageKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.intField(&u.PromptTokens)
		case 1:
			ok = d.intField(&u.CompletionTokens)
		case 2:
			ok = d.floatField(&u.CostUSD)
		case 3:
			ok = d.str(&u.Model)
		case 4:
			ok = d.intField(&u.CacheReadTokens)
		case 5:
			ok = d.intField(&u.CacheWriteTokens)
		case 6:
			ok = d.intField(&u.CacheWrite1hTokens)
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var tokensNames = []string{"prompt", "completion"}

var tokensKind = objectKind{
	names: tokensNames,
	field: func(key []byte) int { return lookupField(key, tokensNames) },
}

func (d *stepDecoder) decodeTokens() bool {
	t := &d.tokens
	for slot := 0; ; {
		key, f, st := d.member(slot, &tokensKind, &d.order.tokens)
		if st != memberNext {
			return st == memberEnd
		}
		slot = tokensKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.intField(&t.Prompt)
		case 1:
			ok = d.intField(&t.Completion)
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

var budgetNames = []string{"max_steps", "max_tool_calls", "max_tokens", "max_cost_usd", "max_seconds"}

var budgetKind = objectKind{
	names: budgetNames,
	field: func(key []byte) int { return lookupField(key, budgetNames) },
}

func (d *stepDecoder) decodeBudget() bool {
	b := &d.budget
	for slot := 0; ; {
		key, f, st := d.member(slot, &budgetKind, &d.order.budget)
		if st != memberNext {
			return st == memberEnd
		}
		slot = budgetKind.nextSlot(f)
		var ok bool
		switch f {
		case 0:
			ok = d.intField(&b.MaxSteps)
		case 1:
			ok = d.intField(&b.MaxToolCalls)
		case 2:
			ok = d.intField(&b.MaxTokens)
		case 3:
			ok = d.floatField(&b.MaxCostUSD)
		case 4:
			ok = d.floatField(&b.MaxSeconds)
		default:
			ok = d.skip(2)
		}
		if !ok {
			return d.keyed(key)
		}
	}
}

// ---- timestamps ----

// parseRFC3339Millis is time.Parse(time.RFC3339Nano, s) in epoch
// milliseconds for the strings time's own fast path accepts (it is a copy
// of it, without the allocation of a time zone); for any other string it
// reports false and the caller falls back to schema.ParseTimestamp, which
// gives the same answer or the same error as before.
func parseRFC3339Millis(s []byte) (int64, bool) {
	var h hourCache
	return h.parse(s)
}

// hourCache remembers the last date and hour parsed: a log's timestamps
// come in order, so most share them with the line before, and only the
// minutes, seconds, fraction and offset are left to read.
type hourCache struct {
	prefix [len("2006-01-02T15")]byte
	base   int64 // seconds from the epoch to prefix's hour, before the offset
	valid  bool
}

// parse is parseRFC3339Millis(s), the date and hour taken from the cache
// when s starts with the ones cached.
func (h *hourCache) parse(s []byte) (int64, bool) {
	if len(s) < len("2006-01-02T15:04:05") {
		return 0, false
	}
	if !h.valid || string(s[:len(h.prefix)]) != string(h.prefix[:]) {
		base, ok := parseDateHour(s[:len(h.prefix)])
		if !ok {
			return 0, false
		}
		copy(h.prefix[:], s)
		h.base, h.valid = base, true
	}
	minute, ok1 := parseDigits(s[14:16], 0, 59)
	sec, ok2 := parseDigits(s[17:19], 0, 59)
	if !ok1 || !ok2 || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	s = s[19:]
	nsec := 0
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		n := 2
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		digits := min(n, 10) // time keeps nine digits of the fraction
		for _, c := range s[1:digits] {
			nsec = nsec*10 + int(c-'0')
		}
		for range 10 - digits {
			nsec *= 10
		}
		s = s[n:]
	}
	offset := 0
	if len(s) != 1 || s[0] != 'Z' {
		if len(s) != len("-07:00") || (s[0] != '-' && s[0] != '+') || s[3] != ':' {
			return 0, false
		}
		hr, ok1 := parseDigits(s[1:3], 0, 23)
		mm, ok2 := parseDigits(s[4:6], 0, 59)
		if !ok1 || !ok2 {
			return 0, false
		}
		offset = (hr*60 + mm) * 60
		if s[0] == '-' {
			offset = -offset
		}
	}
	secs := h.base + int64(minute*60+sec-offset)
	return secs*1000 + int64(nsec/1e6), true
}

// parseDateHour reads "2006-01-02T15" into seconds from the epoch.
func parseDateHour(s []byte) (int64, bool) {
	year, ok1 := parseDigits(s[0:4], 0, 9999)
	month, ok2 := parseDigits(s[5:7], 1, 12)
	if !ok1 || !ok2 {
		return 0, false
	}
	day, ok3 := parseDigits(s[8:10], 1, daysIn(month, year))
	hour, ok4 := parseDigits(s[11:13], 0, 23)
	if !ok3 || !ok4 || s[4] != '-' || s[7] != '-' || s[10] != 'T' {
		return 0, false
	}
	return daysFromCivil(year, month, day)*86400 + int64(hour*3600), true
}

// daysFromCivil is the number of days from 1970-01-01 to a date of the
// proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400                     // [0, 399]
	mp := (m + 9) % 12                     // March is 0
	doy := (153*mp+2)/5 + d - 1            // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return int64(era)*146097 + int64(doe) - 719468
}

func parseDigits(s []byte, lo, hi int) (int, bool) {
	x := 0
	for _, c := range s {
		if !isDigit(c) {
			return 0, false
		}
		x = x*10 + int(c-'0')
	}
	return x, lo <= x && x <= hi
}

func daysIn(month, year int) int {
	if month == 2 {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (month+month/8)%2 // 31 in Jan, Mar, May, Jul, Aug, Oct, Dec
}
