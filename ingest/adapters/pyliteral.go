package adapters

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// Python literals as repr() writes them, which several frameworks print or
// log in place of JSON: LangSmith's exports keep some inputs so, AgentChat's
// Console prints its tool calls so.

// pyLiteralJSON reads a Python literal as repr() writes it (dicts, lists,
// tuples, strings, numbers, True, False, None) and writes it as JSON, keys
// in their order. False when s is not one literal.
func pyLiteralJSON(s string) (json.RawMessage, bool) {
	p := &pyParser{s: s}
	var b bytes.Buffer
	if !p.value(&b, 0) {
		return nil, false
	}
	p.space()
	if p.i != len(p.s) || !json.Valid(b.Bytes()) {
		return nil, false
	}
	return b.Bytes(), true
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value(b *bytes.Buffer, depth int) bool {
	if depth > 64 {
		return false
	}
	p.space()
	if p.i >= len(p.s) {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.seq(b, depth, '}', true)
	case c == '[':
		return p.seq(b, depth, ']', false)
	case c == '(':
		return p.seq(b, depth, ')', false)
	case c == '\'' || c == '"':
		str, ok := p.str()
		if !ok {
			return false
		}
		b.Write(jsonString(str))
		return true
	}
	for _, w := range []struct{ py, js string }{{"True", "true"}, {"False", "false"}, {"None", "null"}} {
		if strings.HasPrefix(p.s[p.i:], w.py) {
			p.i += len(w.py)
			b.WriteString(w.js)
			return true
		}
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[j]) >= 0 {
		j++
	}
	f, err := strconv.ParseFloat(p.s[p.i:j], 64)
	if j == p.i || err != nil {
		return false
	}
	num := p.s[p.i:j]
	if _, err := strconv.ParseInt(num, 10, 64); err != nil || strings.HasPrefix(num, "+") {
		num = strconv.FormatFloat(f, 'g', -1, 64)
	}
	b.WriteString(num)
	p.i = j
	return true
}

// seq reads a dict (key: value pairs) or a list or tuple, up to close.
func (p *pyParser) seq(b *bytes.Buffer, depth int, close byte, dict bool) bool {
	p.i++
	if dict {
		b.WriteByte('{')
	} else {
		b.WriteByte('[')
	}
	for n := 0; ; n++ {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			break
		}
		if n > 0 {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return false
			}
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == close { // a trailing comma
				p.i++
				break
			}
			b.WriteByte(',')
		}
		if dict {
			// JSON keys are strings: a number or None key is written as
			// its text.
			var key bytes.Buffer
			if !p.value(&key, depth+1) {
				return false
			}
			k := key.Bytes()
			if k[0] != '"' {
				k = jsonString(string(k))
			}
			b.Write(k)
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return false
			}
			p.i++
			b.WriteByte(':')
		}
		if !p.value(b, depth+1) {
			return false
		}
	}
	if dict {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
	return true
}

// str reads a quoted Python string with its escapes.
func (p *pyParser) str() (string, bool) {
	q := p.s[p.i]
	p.i++
	var out strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return out.String(), true
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				out.WriteByte('\n')
			case 't':
				out.WriteByte('\t')
			case 'r':
				out.WriteByte('\r')
			case '0':
				out.WriteByte(0)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", false
				}
				v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || v > unicode.MaxRune {
					return "", false
				}
				out.WriteRune(rune(v))
				p.i += n
			default: // \\, \', \" and anything Python keeps as is
				if e != '\\' && e != '\'' && e != '"' {
					out.WriteByte('\\')
				}
				out.WriteByte(e)
			}
		default:
			out.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

// eat consumes t when the text goes on with it.
func (p *pyParser) eat(t string) bool {
	if strings.HasPrefix(p.s[p.i:], t) {
		p.i += len(t)
		return true
	}
	return false
}

// ident reads a Python identifier (a keyword argument's name).
func (p *pyParser) ident() string {
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || j > p.i && p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

// pyCallList reads the repr of a list of one class's instances,
// `[Name(key='value', key=True), ...]`, as a JSON array of objects of their
// keyword arguments. ok is false when s does not open with such a list;
// what follows the list is not read.
func pyCallList(s, name string) (json.RawMessage, bool) {
	p := &pyParser{s: strings.TrimSpace(s)}
	if !p.eat("[") {
		return nil, false
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for n := 0; ; n++ {
		p.space()
		if p.eat("]") {
			b.WriteByte(']')
			return b.Bytes(), n > 0 && json.Valid(b.Bytes())
		}
		if n > 0 {
			if !p.eat(",") {
				return nil, false
			}
			p.space()
			b.WriteByte(',')
		}
		if !p.eat(name + "(") {
			return nil, false
		}
		b.WriteByte('{')
		for k := 0; ; k++ {
			p.space()
			if p.eat(")") {
				break
			}
			if k > 0 {
				if !p.eat(",") {
					return nil, false
				}
				p.space()
				b.WriteByte(',')
			}
			key := p.ident()
			if key == "" || !p.eat("=") {
				return nil, false
			}
			b.Write(jsonString(key))
			b.WriteByte(':')
			if !p.value(&b, 1) {
				return nil, false
			}
		}
		b.WriteByte('}')
	}
}
