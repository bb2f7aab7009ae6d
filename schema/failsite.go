package schema

import (
	"bytes"
	"regexp"

	"github.com/zeebo/xxh3"
)

// A failed call's output often carries more than its failure: a patch
// helper prints the code it replaced, a script its progress, before the
// traceback. Two such outputs are the same failure when Python reports the
// same exception at the same place, however different what came before.
// The failure site is that place and exception: the last
// `File "PATH", line N` of the output and the first exception line after
// it (`IndentationError: unexpected indent`), or the file, line and
// exception of py_compile's `Sorry:` line, its volatile tokens normalised,
// for an output with at most one traceback. A failure's
// fingerprint and SimHash are taken of its site when it has one
// (ResultFingerprint, ResultSimHash).

// reFailFrame is a Python traceback frame or a syntax error's location, in
// a JSON string's escaped form (a quote is \", and Go's encoder writes the
// `<` of `<stdin>` as \u003c). A path with a backslash (Windows) is not
// matched: such a failure is compared by its whole text.
var reFailFrame = regexp.MustCompile(`File \\"((?:[^"\\]|\\u[0-9a-fA-F]{4})+)\\", line (\d{1,9})`)

// reFailException is an exception line, in escaped form: at the start of
// the text or after a \n, a dotted name whose last part is CamelCase and
// ends in Error, Exception, Exit or Interrupt, then its message up to the
// end of the line (any escape but \n; an unescaped quote ends the string).
var reFailException = regexp.MustCompile(`(?:^|\\n)((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt)(?::(?:[^\\"]|\\[^n]){0,300})?)(?:\\n|"$|$)`)

// reFailSorry is py_compile's one line for code that does not parse, in
// escaped form: `Sorry: IndentationError: expected an indented block
// (python.py, line 1272)`. Its site is the file and line in parentheses
// and the exception with its message.
var reFailSorry = regexp.MustCompile(`Sorry: ((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception): (?:[^\\"]|\\[^n])*?) \(((?:[^,()"\\]|\\u[0-9a-fA-F]{4})+), line (\d{1,9})\)`)

// tracebackHeader opens a Python traceback. An output with two is not
// one failure: a script's traceback and then its harness's own, or a
// chain of exceptions; such a failure is compared by its whole text.
var tracebackHeader = []byte("Traceback (most recent call last):")

// AppendFailureSite appends to dst the failure site of data, a failed
// result's data as a JSON string (escaped form, quotes included), and
// reports whether it has one. Without one, dst is returned unchanged.
func AppendFailureSite(dst, data []byte) ([]byte, bool) {
	if bytes.Count(data, tracebackHeader) > 1 {
		return dst, false
	}
	if bytes.Contains(data, []byte("Sorry: ")) {
		if m := reFailSorry.FindSubmatchIndex(data); m != nil {
			dst = append(dst, "site="...)
			dst = AppendVolatileNormalized(dst, data[m[4]:m[5]])
			dst = append(dst, ':')
			dst = append(dst, data[m[6]:m[7]]...)
			dst = append(dst, ' ')
			return AppendVolatileNormalized(dst, data[m[2]:m[3]]), true
		}
	}
	last, rest, exc := lastFrameException(data)
	if exc == nil {
		return dst, false
	}
	dst = append(dst, "site="...)
	dst = AppendVolatileNormalized(dst, data[last[2]:last[3]]) // a temporary file's name changes by itself
	dst = append(dst, ':')
	dst = append(dst, data[last[4]:last[5]]...)
	dst = append(dst, ' ')
	return AppendVolatileNormalized(dst, rest[exc[2]:exc[3]]), true
}

// lastFrameException finds the last frame of data's traceback (escaped
// JSON string form) and the exception line after it: the frame's
// submatch indexes in data, the data after the frame, and the exception's
// submatch indexes in that rest; exc is nil without both.
func lastFrameException(data []byte) (frame []int, rest []byte, exc []int) {
	if !bytes.Contains(data, []byte(`File \"`)) {
		return nil, nil, nil
	}
	frames := reFailFrame.FindAllSubmatchIndex(data, -1)
	if len(frames) == 0 {
		return nil, nil, nil
	}
	frame = frames[len(frames)-1]
	rest = data[frame[1]:]
	return frame, rest, reFailException.FindSubmatchIndex(rest)
}

// reFailCodeLine is the source line a traceback prints under its last
// frame, in escaped form: after the frame's \n, its indentation, then the
// code up to the end of the line.
var reFailCodeLine = regexp.MustCompile(`^[^\\]*\\n\s*((?:[^\\]|\\[^n])*)`)

// AppendFailureMistake appends to dst the exception line of data's failure
// site (AppendFailureSite) without its file and line, volatile tokens
// normalised, and reports whether it has one: the same mistake made in
// two scripts, or at two lines of one, has one such line. It has none
// when the failure is a verdict rather than a mistake: an AssertionError,
// or an exception raised by a `raise` or `assert` statement at the site (a
// check's own verdict on the code it checks); nor for code that does not
// parse (SyntaxError, IndentationError, TabError), whose message names a
// kind of mistake and not which. What is left is code that failed to run
// at that line: a call with the wrong arguments, a name not defined, an
// import that fails.
func AppendFailureMistake(dst, data []byte) ([]byte, bool) {
	if bytes.Count(data, tracebackHeader) > 1 {
		return dst, false
	}
	_, rest, exc := lastFrameException(data)
	if exc == nil {
		return dst, false
	}
	line := rest[exc[2]:exc[3]]
	class, _, _ := bytes.Cut(line, []byte(":"))
	if i := bytes.LastIndexByte(class, '.'); i >= 0 {
		class = class[i+1:]
	}
	switch string(class) {
	case "AssertionError", "SyntaxError", "IndentationError", "TabError":
		// A check's verdict; code that does not parse, whose message
		// names a kind of mistake, not which (its site says which).
		return dst, false
	}
	if m := reFailCodeLine.FindSubmatchIndex(rest[:exc[0]+1]); m != nil {
		code := rest[m[2]:m[3]]
		if bytes.HasPrefix(code, []byte("raise ")) || bytes.HasPrefix(code, []byte("raise(")) || bytes.HasPrefix(code, []byte("assert ")) {
			return dst, false
		}
	}
	dst = append(dst, "mistake="...)
	return AppendVolatileNormalized(dst, line), true
}

// FailureMistakeKey is the key of data's failure mistake
// (AppendFailureMistake), 0 without one. data is a failed result's data as
// a JSON string, escaped form, quotes included.
func FailureMistakeKey(data []byte) uint64 {
	data = bytes.TrimSpace(data)
	if !IsJSONString(data) {
		return 0
	}
	var buf [256]byte
	m, ok := AppendFailureMistake(buf[:0], data)
	if !ok {
		return 0
	}
	return xxh3.Hash(m) | 1
}
