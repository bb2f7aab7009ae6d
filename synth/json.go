package synth

import "strconv"

// Lines are built by appending bytes rather than through encoding/json:
// reflection would dominate the cost of a 1 GB corpus.

// appendString appends s as a JSON string. Only the escapes JSON requires
// are written (no HTML escaping), so what the canonical hash sees is what
// a JSON encoder in any language would write.
func appendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// obj builds one JSON object by appending members; close() ends it.
type obj []byte

func object() obj { return append(make(obj, 0, 96), '{') }

func (o obj) key(k string) obj {
	if o[len(o)-1] != '{' {
		o = append(o, ',')
	}
	o = appendString(o, k)
	return append(o, ':')
}

func (o obj) str(k, v string) obj { return appendString(o.key(k), v) }

func (o obj) int(k string, v int64) obj { return strconv.AppendInt(o.key(k), v, 10) }

// num writes v with at most prec decimals and no trailing zeros.
func (o obj) num(k string, v float64, prec int) obj {
	return appendFloat(o.key(k), v, prec)
}

func (o obj) bool(k string, v bool) obj { return strconv.AppendBool(o.key(k), v) }

func (o obj) raw(k string, v []byte) obj { return append(o.key(k), v...) }

func (o obj) strs(k string, vs ...string) obj {
	return appendStrings(o.key(k), vs)
}

func (o obj) close() []byte { return append(o, '}') }

func appendStrings(b []byte, vs []string) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

// array joins already-encoded JSON values.
func array(vs ...[]byte) []byte {
	n := 2
	for _, v := range vs {
		n += len(v) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

func appendFloat(b []byte, v float64, prec int) []byte {
	b = strconv.AppendFloat(b, v, 'f', prec, 64)
	// Trim trailing zeros so 0.500000 reads 0.5, as loggers write it.
	if prec > 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	return b
}
