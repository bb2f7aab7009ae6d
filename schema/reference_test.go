package schema

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/zeebo/xxh3"
)

// The reference walkers: Canonicalize, Normalize and Digest written one
// reader each, plainly, for the fuzz tests to hold ArgsPass to.

// refParser reads args for refCanonicalize and refNormalize.
type refParser struct {
	in  []byte
	pos int
	// norm, when set, makes the output the normalised form (refNormalize).
	norm *ArgsNormalizer
}

func (p *refParser) errorf(format string, a ...any) error {
	return fmt.Errorf("args: "+format+" at byte %d", append(a, p.pos)...)
}

// str decodes the string at p.pos as ArgsPass does.
func (p *refParser) str() (string, error) {
	q := canonParser{in: p.in, pos: p.pos}
	s, err := q.str()
	p.pos = q.pos
	return s, err
}

// refCanonicalize is Canonicalize.
func refCanonicalize(dst, raw []byte) ([]byte, error) {
	p := refParser{in: raw}
	p.skipSpace()
	out, err := p.value(dst, 0)
	if err != nil {
		return dst, err
	}
	p.skipSpace()
	if p.pos != len(p.in) {
		return dst, p.errorf("unexpected data after the value")
	}
	return out, nil
}

// refNormalize appends the normalised form of the JSON value raw to dst.
func refNormalize(n *ArgsNormalizer, dst, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return append(dst, "null"...), nil
	}
	p := refParser{in: raw, norm: n}
	p.skipSpace()
	out, err := p.value(dst, 0)
	if err != nil {
		return dst, err
	}
	p.skipSpace()
	if p.pos != len(p.in) {
		return dst, p.errorf("unexpected data after the value")
	}
	return out, nil
}

func (p *refParser) skipSpace() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *refParser) value(dst []byte, depth int) ([]byte, error) {
	if depth > maxCanonDepth {
		return dst, p.errorf("nested deeper than %d", maxCanonDepth)
	}
	if p.pos >= len(p.in) {
		return dst, p.errorf("unexpected end")
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object(dst, depth)
	case c == '[':
		return p.array(dst, depth)
	case c == '"':
		s, err := p.strView()
		if err != nil {
			return dst, err
		}
		if p.norm != nil {
			s = normalizeText(s)
		}
		return appendCanonString(dst, s), nil
	case c == 't':
		return p.literal(dst, "true")
	case c == 'f':
		return p.literal(dst, "false")
	case c == 'n':
		return p.literal(dst, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(dst)
	default:
		return dst, p.errorf("unexpected character %q", c)
	}
}

func (p *refParser) literal(dst []byte, lit string) ([]byte, error) {
	if !strings.HasPrefix(string(p.in[p.pos:min(len(p.in), p.pos+len(lit))]), lit) {
		return dst, p.errorf("invalid literal")
	}
	p.pos += len(lit)
	return append(dst, lit...), nil
}

type canonMember struct {
	key   string
	value []byte
}

func (p *refParser) object(dst []byte, depth int) ([]byte, error) {
	p.pos++ // {
	var members []canonMember
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return append(dst, "{}"...), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return dst, p.errorf("want an object key")
		}
		key, err := p.strView()
		if err != nil {
			return dst, err
		}
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return dst, p.errorf("want ':' after an object key")
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(nil, depth+1)
		if err != nil {
			return dst, err
		}
		if p.norm == nil || !p.norm.volatile(key) {
			members = append(members, canonMember{key: key, value: val})
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return dst, p.errorf("unterminated object")
		}
		if p.in[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.in[p.pos] == '}' {
			p.pos++
			break
		}
		return dst, p.errorf("want ',' or '}' in an object")
	}
	// Stable sort keeps input order among equal keys; the last one wins.
	slices.SortStableFunc(members, func(a, b canonMember) int { return compareUTF16(a.key, b.key) })
	dst = append(dst, '{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendCanonString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}'), nil
}

func (p *refParser) array(dst []byte, depth int) ([]byte, error) {
	p.pos++ // [
	dst = append(dst, '[')
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		return append(dst, ']'), nil
	}
	for n := 0; ; n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		p.skipSpace()
		var err error
		dst, err = p.value(dst, depth+1)
		if err != nil {
			return dst, err
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return dst, p.errorf("unterminated array")
		}
		if p.in[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.in[p.pos] == ']' {
			p.pos++
			return append(dst, ']'), nil
		}
		return dst, p.errorf("want ',' or ']' in an array")
	}
}

func (p *refParser) number(dst []byte) ([]byte, error) {
	start := p.pos
	if p.in[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return dst, p.errorf("invalid number")
	}
	if p.in[intStart] == '0' && p.pos-intStart > 1 {
		return dst, p.errorf("leading zero in number")
	}
	if p.pos < len(p.in) && p.in[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return dst, p.errorf("invalid number")
		}
	}
	if p.pos < len(p.in) && (p.in[p.pos] == 'e' || p.in[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.in) && (p.in[p.pos] == '+' || p.in[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return dst, p.errorf("invalid number")
		}
	}
	f, err := strconv.ParseFloat(string(p.in[start:p.pos]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return dst, p.errorf("invalid number")
	}
	if math.IsInf(f, 0) {
		return dst, p.errorf("number out of range")
	}
	return AppendES6Number(dst, f), nil
}

// str decodes a JSON string starting at p.pos (the opening quote).
// strView reads the string at p.pos like str, but a plain ASCII string
// without escapes is returned as a view of the input instead of a copy:
// keys and values are used and dropped within the call that parses them,
// and most of them are plain, so canonicalising allocates little.
func (p *refParser) strView() (string, error) {
	start := p.pos + 1
	for end := start; end < len(p.in); end++ {
		switch c := p.in[end]; {
		case c == '"':
			p.pos = end + 1
			return unsafe.String(unsafe.SliceData(p.in[start:]), end-start), nil
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return p.str()
		}
	}
	return p.str()
}

// refDigest computes the ArgsDigest of the JSON value raw in one pass without
// building the normalised text: object members are combined with a
// commutative sum, so key order does not matter and no sorting is needed.
// An object with a repeated key falls back to Normalize, where the last
// member wins as in the canonical form. Words is filled only withWords:
// only calls that came back empty need it, and it costs a third of the
// time.
func refDigest(n *ArgsNormalizer, raw []byte, withWords bool) (ArgsDigest, error) {
	d, _, err := refDigestScratch(n, raw, withWords, nil)
	return d, err
}

// refDigestScratch is refDigest with a scratch buffer for the normalised text of
// string values, returned (maybe grown) for the next call: a decoder that
// digests every call's args keeps one instead of allocating one a call.
func refDigestScratch(n *ArgsNormalizer, raw []byte, withWords bool, scratch []byte) (ArgsDigest, []byte, error) {
	d := digester{norm: n, p: refParser{in: raw, norm: n}, withWords: withWords, scratch: scratch[:0]}
	d.p.skipSpace()
	if len(raw) == 0 || d.p.pos == len(raw) {
		return ArgsDigest{}, d.scratch, errors.New("args: empty")
	}
	h, err := d.value(0)
	if errors.Is(err, errRepeatedKey) {
		out, err := refDigestSlow(n, raw, withWords)
		return out, d.scratch, err
	}
	if err != nil {
		return ArgsDigest{}, d.scratch, err
	}
	d.p.skipSpace()
	if d.p.pos != len(raw) {
		return ArgsDigest{}, d.scratch, d.p.errorf("unexpected data after the value")
	}
	return ArgsDigest{Norm: h | 1, Words: d.words}, d.scratch, nil
}

var errRepeatedKey = errors.New("repeated key")

// refDigestSlow handles the rare object with a repeated key through the
// normalised text, which keeps only the last member, and digests that.
func refDigestSlow(n *ArgsNormalizer, raw []byte, withWords bool) (ArgsDigest, error) {
	text, err := refNormalize(n, nil, raw)
	if err != nil {
		return ArgsDigest{}, err
	}
	return refDigest(n, text, withWords)
}

type digester struct {
	norm      *ArgsNormalizer
	withWords bool
	p         refParser
	words     uint64
	scratch   []byte
}

func (d *digester) value(depth int) (uint64, error) {
	p := &d.p
	if depth > maxCanonDepth {
		return 0, p.errorf("nested deeper than %d", maxCanonDepth)
	}
	if p.pos >= len(p.in) {
		return 0, p.errorf("unexpected end")
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str(true)
	case c == 't':
		_, err := p.literal(nil, "true")
		return seedTrue, err
	case c == 'f':
		_, err := p.literal(nil, "false")
		return seedFalse, err
	case c == 'n':
		_, err := p.literal(nil, "null")
		return seedNull, err
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if _, err := p.number(nil); err != nil {
			return 0, err
		}
		f, _ := strconv.ParseFloat(string(p.in[start:p.pos]), 64)
		if f == 0 {
			f = 0 // -0 prints as 0 in the canonical form
		}
		return mix(seedNumber, math.Float64bits(f)), nil
	default:
		return 0, p.errorf("unexpected character %q", c)
	}
}

// str hashes the normalised text of the string at p.pos; words adds its
// words to the signature (values do, keys do not).
func (d *digester) str(words bool) (uint64, error) {
	p := &d.p
	start := p.pos + 1
	end := start
	for end < len(p.in) && p.in[end] != '"' && p.in[end] != '\\' && p.in[end] >= 0x20 {
		end++
	}
	var s []byte
	if end < len(p.in) && p.in[end] == '"' && utf8.Valid(p.in[start:end]) {
		s = p.in[start:end]
		p.pos = end + 1
	} else {
		decoded, err := p.str()
		if err != nil {
			return 0, err
		}
		s = []byte(decoded)
	}
	norm := s
	if !IsNormalText(s) {
		d.scratch = AppendNormalizedText(d.scratch[:0], s)
		norm = d.scratch
	}
	if words && d.withWords {
		d.words |= wordBits(norm)
	}
	return mix(seedString, xxh3.Hash(norm)), nil
}

func (d *digester) array(depth int) (uint64, error) {
	p := &d.p
	p.pos++ // [
	h, n := seedArray, uint64(0)
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		return h, nil
	}
	for {
		p.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return 0, err
		}
		h, n = mix(h, v), n+1
		p.skipSpace()
		if p.pos >= len(p.in) {
			return 0, p.errorf("unterminated array")
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return mix(h, n), nil
		default:
			return 0, p.errorf("want ',' or ']' in an array")
		}
	}
}

func (d *digester) object(depth int) (uint64, error) {
	p := &d.p
	p.pos++ // {
	var sum, n uint64
	var keysBuf [16]uint64
	keys := keysBuf[:0]
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return seedObject, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return 0, p.errorf("want an object key")
		}
		key, err := p.str()
		if err != nil {
			return 0, err
		}
		// xxhash, as NewArgsNormalizer hashes the volatile keys for volatileHashed.
		kh := xxhash.Sum64String(key)
		for _, k := range keys {
			if k == kh {
				return 0, errRepeatedKey
			}
		}
		keys = append(keys, kh)
		p.skipSpace()
		if p.pos >= len(p.in) || p.in[p.pos] != ':' {
			return 0, p.errorf("want ':' after an object key")
		}
		p.pos++
		p.skipSpace()
		volatile := d.norm.volatileHashed(key, kh)
		saved := d.words
		v, err := d.value(depth + 1)
		if err != nil {
			return 0, err
		}
		if volatile {
			d.words = saved // a request id is not part of the question
		} else {
			sum += mix(seedMember^kh, v)
			n++
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return 0, p.errorf("unterminated object")
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return mix(mix(seedObject, sum), n), nil
		default:
			return 0, p.errorf("want ',' or '}' in an object")
		}
	}
}

// normalizeText lower-cases s, trims it and collapses runs of white space,
// so "Vector  DB benchmark " and "vector db benchmark" ask the same thing.
func normalizeText(s string) string {
	clean := true
	prevSpace := true
	for _, r := range s {
		if unicode.ToLower(r) != r || (unicode.IsSpace(r) && (prevSpace || r != ' ')) {
			clean = false
			break
		}
		prevSpace = unicode.IsSpace(r)
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
