package ingest

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The scanning primitives of the step decoder (fastdecode.go): one pass over
// the bytes of a line, validating them as JSON (RFC 8259, as encoding/json's
// scanner does: no UTF-8 check, at most maxJSONDepth nested arrays and
// objects) while the decoder picks out the fields it knows. They return the
// index after what they read and whether it was valid; they never allocate.

// maxJSONDepth is encoding/json's limit on nesting, the enclosing object
// included: a deeper line is malformed JSON, as it is for the decoder the
// step decoder replaces.
const maxJSONDepth = 10000

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stringStopMask has the high bit of every byte of x, a little-endian word of
// string content, that ends a run of plain bytes: '"', '\\' or a control
// character. Only the lowest flagged byte is exact (a borrow can flag a byte
// above a real match), which is the only one used.
func stringStopMask(x uint64) uint64 {
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	return (((q - lsb) &^ q) | ((b - lsb) &^ b) | ((x - lsb*0x20) &^ x)) & msb
}

// isSpace is JSON's white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// white space.
func skipSpace(buf []byte, i int) int {
	for i < len(buf) && buf[i] <= ' ' && isSpace(buf[i]) {
		i++
	}
	return i
}

// stringFlags say what a string holds besides plain ASCII.
type stringFlags uint8

const (
	strEscaped  stringFlags = 1 << iota // a backslash escape
	strNonASCII                         // a byte >= 0x80 (it may be invalid UTF-8)
)

// scanString reads the string whose opening quote is buf[i] and returns the
// index after its closing quote. Escapes are validated, not decoded.
func scanString(buf []byte, i int) (end int, flags stringFlags, ok bool) {
	i++ // "
	// The common case, plain ASCII, in a loop of its own: it stops at the
	// first byte that is not, which scanStringRest takes from there.
	for i+8 <= len(buf) {
		x := binary.LittleEndian.Uint64(buf[i:])
		if m := stringStopMask(x) | x&msb; m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if buf[i] == '"' {
				return i + 1, 0, true
			}
			return scanStringRest(buf, i)
		}
		i += 8
	}
	for ; i < len(buf); i++ {
		if c := buf[i]; c == '"' {
			return i + 1, 0, true
		} else if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	return scanStringRest(buf, i)
}

// scanStringRest is scanString from buf[i] on, anything but plain ASCII
// before it.
func scanStringRest(buf []byte, i int) (end int, flags stringFlags, ok bool) {
	var high uint64
	for {
		for i+8 <= len(buf) {
			x := binary.LittleEndian.Uint64(buf[i:])
			if m := stringStopMask(x); m != 0 {
				k := uint(bits.TrailingZeros64(m)) &^ 7 // bit offset of the stop byte
				high |= x & (1<<k - 1)
				i += int(k >> 3)
				break
			}
			high |= x
			i += 8
		}
		for i < len(buf) {
			c := buf[i]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			high |= uint64(c)
			i++
		}
		if i >= len(buf) {
			return i, flags, false
		}
		switch c := buf[i]; {
		case c == '"':
			if high&msb != 0 {
				flags |= strNonASCII
			}
			return i + 1, flags, true
		case c == '\\':
			flags |= strEscaped
			n, ok := escapeLen(buf, i)
			if !ok {
				return i, flags, false
			}
			i += n
		default: // a control character
			return i, flags, false
		}
	}
}

// escapeLen validates the escape at buf[i] == '\\' and returns its length.
func escapeLen(buf []byte, i int) (int, bool) {
	if i+1 >= len(buf) {
		return 0, false
	}
	switch buf[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		if i+6 > len(buf) {
			return 0, false
		}
		for _, c := range buf[i+2 : i+6] {
			if hexVal(c) < 0 {
				return 0, false
			}
		}
		return 6, true
	}
	return 0, false
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		v := hexVal(c)
		if v < 0 {
			return -1
		}
		r = r*16 + rune(v)
	}
	return r
}

// appendUnquoted appends the content of a validated string (without its
// quotes) to dst, decoding escapes and coercing it to valid UTF-8 exactly as
// encoding/json does: each byte of an invalid sequence, and each unpaired
// surrogate escape, becomes U+FFFD.
func appendUnquoted(dst, s []byte) []byte {
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			switch s[r+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				rr := getu4(s[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != utf8.RuneError {
						r += 6
						dst = utf8.AppendRune(dst, dec)
						continue
					}
					rr = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, s[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			if rr == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, rr)
			} else {
				dst = append(dst, s[r:r+size]...)
			}
			r += size
		}
	}
	return dst
}

// scanNumber reads the number starting at buf[i] ('-' or a digit) and returns
// the index after it and whether it is an integer (no fraction, no exponent).
func scanNumber(buf []byte, i int) (end int, integer, ok bool) {
	if buf[i] == '-' {
		i++
	}
	if i >= len(buf) {
		return i, false, false
	}
	switch c := buf[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		i++
		for i < len(buf) && isDigit(buf[i]) {
			i++
		}
	default:
		return i, false, false
	}
	integer = true
	if i < len(buf) && buf[i] == '.' {
		integer = false
		i++
		if i >= len(buf) || !isDigit(buf[i]) {
			return i, false, false
		}
		for i < len(buf) && isDigit(buf[i]) {
			i++
		}
	}
	if i < len(buf) && (buf[i] == 'e' || buf[i] == 'E') {
		integer = false
		i++
		if i < len(buf) && (buf[i] == '+' || buf[i] == '-') {
			i++
		}
		if i >= len(buf) || !isDigit(buf[i]) {
			return i, false, false
		}
		for i < len(buf) && isDigit(buf[i]) {
			i++
		}
	}
	return i, integer, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseInt64 converts a validated integer literal, reporting whether it fits.
func parseInt64(lit []byte) (int64, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range lit {
		u = u*10 + uint64(c-'0') // 19 digits cannot overflow a uint64
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}

// parseFloat is strconv.ParseFloat(lit, 64) for a validated JSON number
// literal, false where it fails (beyond float64). Short decimals take
// Clinger's fast path, as strconv does after its own parsing: a mantissa
// below 2^53 and a power of ten up to 1e22 are exact, so their quotient is
// the correctly rounded value, which ParseFloat returns too.
func parseFloat(lit []byte) (float64, bool) {
	i, neg := 0, lit[0] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits, frac := 0, 0
	for ; i < len(lit) && isDigit(lit[i]); i++ {
		mant = mant*10 + uint64(lit[i]-'0')
		digits++
	}
	if i < len(lit) && lit[i] == '.' {
		for i++; i < len(lit) && isDigit(lit[i]); i++ {
			mant = mant*10 + uint64(lit[i]-'0')
			digits++
			frac++
		}
	}
	if i == len(lit) && digits <= 15 {
		f := float64(mant) / float64pow10[frac] // frac < 15
		if neg {
			f = -f
		}
		return f, true
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), 64)
	return f, err == nil
}

var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// scanLiteral reads true, false or null at buf[i].
func scanLiteral(buf []byte, i int, lit string) (int, bool) {
	if len(buf)-i < len(lit) || string(buf[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// containerKinds has a bit per open array or object while skipValue skips
// a value: set for an object. It is a fixed size, so that skipping never
// allocates.
type containerKinds [maxJSONDepth/64 + 1]uint64

// skipValue validates the value starting at buf[i] (not white space), nested
// in depth arrays and objects, and returns the index after it.
func skipValue(buf []byte, i, depth int, kinds *containerKinds) (int, bool) {
	open := 0 // containers opened by this value and not closed yet
	var ok bool
value:
	if i >= len(buf) {
		return i, false
	}
	switch c := buf[i]; c {
	case '{', '[':
		if depth+open >= maxJSONDepth {
			return i, false
		}
		w, bit := open>>6, uint64(1)<<(open&63)
		if c == '{' {
			kinds[w] |= bit
		} else {
			kinds[w] &^= bit
		}
		open++
		i = skipSpace(buf, i+1)
		if i < len(buf) && buf[i] == c+2 { // '}' or ']'
			i++
			open--
			goto next
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		if i, _, ok = scanString(buf, i); !ok {
			return i, false
		}
	case 't':
		if i, ok = scanLiteral(buf, i, "true"); !ok {
			return i, false
		}
	case 'f':
		if i, ok = scanLiteral(buf, i, "false"); !ok {
			return i, false
		}
	case 'n':
		if i, ok = scanLiteral(buf, i, "null"); !ok {
			return i, false
		}
	default:
		if c != '-' && !isDigit(c) {
			return i, false
		}
		if i, _, ok = scanNumber(buf, i); !ok {
			return i, false
		}
	}
next:
	if open == 0 {
		return i, true
	}
	i = skipSpace(buf, i)
	if i >= len(buf) {
		return i, false
	}
	if c := buf[i]; c == ',' {
		i = skipSpace(buf, i+1)
		if kinds[(open-1)>>6]&(1<<((open-1)&63)) != 0 {
			goto key
		}
		goto value
	} else if c == '}' || c == ']' {
		isObject := kinds[(open-1)>>6]&(1<<((open-1)&63)) != 0
		if isObject != (c == '}') {
			return i, false
		}
		i++
		open--
		goto next
	}
	return i, false
key:
	if i >= len(buf) || buf[i] != '"' {
		return i, false
	}
	if i, _, ok = scanString(buf, i); !ok {
		return i, false
	}
	i = skipSpace(buf, i)
	if i >= len(buf) || buf[i] != ':' {
		return i, false
	}
	i = skipSpace(buf, i+1)
	goto value
}

// validJSON reports whether line is one valid JSON value, white space around
// it allowed.
func validJSON(line []byte, kinds *containerKinds) bool {
	i, ok := skipValue(line, skipSpace(line, 0), 0, kinds)
	return ok && skipSpace(line, i) == len(line)
}
