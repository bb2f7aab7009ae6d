package schema

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonicalize appends the RFC 8785 (JSON Canonicalization Scheme) form of the
// JSON value in raw to dst: object keys sorted by UTF-16 code units at every
// depth, no white space, numbers in ECMAScript form, strings with only the
// escapes JCS requires (no HTML escaping). A key that appears twice keeps its
// last value, as JSON.parse does. Invalid UTF-8 becomes U+FFFD.
func Canonicalize(dst, raw []byte) ([]byte, error) {
	a := ArgsPass{norm: noVolatileKeys}
	if _, ok := a.run(raw, false, true, false, dst); !ok {
		return dst, a.err
	}
	return a.out, nil
}

// noVolatileKeys is the normalizer of a pass run for the canonical form
// alone, whose digest is not used.
var noVolatileKeys = NewArgsNormalizer(nil)

// ArgsHash returns "sha256:" + hex SHA-256 of the canonical JSON of args.
// Absent args (nil or empty) hash as JSON null, so calls without arguments
// share one key.
func ArgsHash(args []byte) (string, error) {
	var buf [256]byte
	canon := buf[:0]
	if len(args) == 0 {
		canon = append(canon, "null"...)
	} else {
		var err error
		canon, err = Canonicalize(canon, args)
		if err != nil {
			return "", err
		}
	}
	return HashCanonical(canon), nil
}

// HashCanonical is ArgsHash for bytes that are already canonical.
func HashCanonical(canon []byte) string {
	sum := sha256.Sum256(canon)
	var out [7 + 64]byte
	copy(out[:], "sha256:")
	hex.Encode(out[7:], sum[:])
	return string(out[:])
}

// CanonicalKey is ArgsKey(HashCanonical(canon)) without the text: the
// first 8 bytes of the digest are its first 16 hex digits.
func CanonicalKey(canon []byte) uint64 {
	sum := sha256.Sum256(canon)
	return binary.BigEndian.Uint64(sum[:8])
}

const maxCanonDepth = 512

// canonParser decodes the strings of args ArgsPass does not read as a view
// of the input (escapes, invalid UTF-8), and words its errors.
type canonParser struct {
	in  []byte
	pos int
}

func (p *canonParser) errorf(format string, a ...any) error {
	return fmt.Errorf("args: "+format+" at byte %d", append(a, p.pos)...)
}

// AppendES6Number formats f as ECMAScript's Number.prototype.toString does,
// which is what RFC 8785 requires (section 3.2.2.3).
func AppendES6Number(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0') // also -0
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	format := byte('e')
	if f < 1e21 && f >= 1e-6 {
		format = 'f'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07 and e+07; ECMAScript writes e-7 and e+7.
		e := start + strings.IndexByte(string(dst[start:]), 'e')
		if e+2 < len(dst) && dst[e+2] == '0' {
			dst = append(dst[:e+2], dst[e+3:]...)
		}
	}
	return dst
}

// str decodes a JSON string starting at p.pos (the opening quote).
func (p *canonParser) str() (string, error) {
	p.pos++ // "
	start := p.pos
	// Fast path: no escapes, valid UTF-8.
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		if c == '"' {
			s := p.in[start:p.pos]
			p.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return strings.ToValidUTF8(string(s), "\uFFFD"), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errorf("control character in string")
		}
		p.pos++
	}
	var b strings.Builder
	b.Write(p.in[start:p.pos])
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return strings.ToValidUTF8(b.String(), "\uFFFD"), nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(p.in) {
			break
		}
		e := p.in[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errorf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair is \uD83D\uDE00; a lone surrogate becomes U+FFFD.
				if p.pos+1 < len(p.in) && p.in[p.pos] == '\\' && p.in[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					r2, ok2 := p.hex4()
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						r = dec
					} else {
						p.pos = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", p.errorf("invalid escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *canonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.in) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.in[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}

// AppendJSONString appends s as a JSON string with the fewest escapes (those
// of JCS, RFC 8785) and no HTML escaping: for code that writes JSON data
// by hand, as the canonical form does.
func AppendJSONString(dst []byte, s string) []byte { return appendCanonString(dst, s) }

// appendCanonString writes s with the JCS escapes: \" \\ \b \f \n \r \t and
// \u00xx (lower-case hex) for the other control characters; nothing else.
func appendCanonString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			dst = append(dst, '\\', '"')
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c >= 0x20:
			dst = append(dst, c)
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
	}
	return append(dst, '"')
}

// compareUTF16 orders strings by their UTF-16 code units (RFC 8785, 3.2.3).
// It differs from byte order only for runes above U+FFFF against U+E000..U+FFFF.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := utf16Unit(ra), utf16Unit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// Same high surrogate: compare the low ones.
			_, la := utf16.EncodeRune(ra)
			_, lb := utf16.EncodeRune(rb)
			if la < lb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// utf16Unit is the first UTF-16 code unit of r.
func utf16Unit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}
