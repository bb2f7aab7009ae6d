package schema

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/zeebo/xxh3"
)

// ArgsPass derives in one parse of a call's args everything ingest keeps of
// them: the near-duplicate digest, the short rendering and, when asked, the
// canonical form. Digest, AppendShortArgs and Canonicalize each read the
// args again, and most args are new to ingest's cache: the three passes
// took a sixth of a scan's CPU. Args the pass does not handle itself
// (invalid JSON, a repeated key) go through those three, whose errors are
// the ones users see; on all others the fuzz tests hold the pass to their
// results, byte for byte.
//
// An ArgsPass keeps buffers between calls; one goroutine uses it.
type ArgsPass struct {
	norm *ArgsNormalizer

	in        []byte
	pos       int
	withWords bool
	withCanon bool
	spaced    bool // white space was skipped: the short rendering is not a cut of the input
	words     uint64
	out       []byte       // the canonical form
	text      []byte       // the normalised text of a string value
	members   []passMember // the members of the objects being read, innermost last (with the canonical form only)
	tmp       []byte       // an unsorted object's members while they are reordered
}

// passMember is one member of an object in the canonical output.
type passMember struct {
	key        string
	start, end int // `"key":value` in out
}

// ArgsForms is what ArgsPass.Derive derives from one call's args.
type ArgsForms struct {
	Digest    ArgsDigest // as ArgsNormalizer.Digest; zero with DigestErr
	DigestErr error
	Short     []byte // as AppendShortArgs with ShortArgsBytes
	Canon     []byte // as Canonicalize, only when asked
	CanonErr  error
}

// NewArgsPass returns a pass that digests with n's volatile keys.
func NewArgsPass(n *ArgsNormalizer) *ArgsPass { return &ArgsPass{norm: n} }

// Derive derives the forms of raw, appending the short rendering to short
// and, withCanon, the canonical form to canon. Words is computed only
// withWords, as in Digest.
func (a *ArgsPass) Derive(raw []byte, withWords, withCanon bool, short, canon []byte) ArgsForms {
	a.in, a.pos, a.spaced, a.words = raw, 0, false, 0
	a.withWords, a.withCanon, a.out = withWords, withCanon, canon
	h, ok := a.top()
	out := a.out
	// Keys of a failed parse may still point into raw.
	clear(a.members)
	a.in, a.out, a.members = nil, nil, a.members[:0]
	if !ok {
		return a.slow(raw, withWords, withCanon, short, canon)
	}
	f := ArgsForms{Digest: ArgsDigest{Norm: h | 1, Words: a.words}}
	if withCanon {
		f.Canon = out
	}
	if a.spaced {
		f.Short = AppendShortArgs(short, raw, ShortArgsBytes)
	} else {
		f.Short = appendShortCompact(short, raw, ShortArgsBytes)
	}
	return f
}

// slow derives the forms of args the pass gave up on, with the functions
// it stands for; their errors are the ones users see.
func (a *ArgsPass) slow(raw []byte, withWords, withCanon bool, short, canon []byte) ArgsForms {
	var f ArgsForms
	f.Digest, a.text, f.DigestErr = a.norm.DigestScratch(raw, withWords, a.text)
	f.Short = AppendShortArgs(short, raw, ShortArgsBytes)
	if withCanon {
		f.Canon, f.CanonErr = Canonicalize(canon, raw)
	}
	return f
}

// appendShortCompact is AppendShortArgs for valid JSON without white space
// outside strings: a string holds no raw control character either, so
// nothing is removed or replaced, and the rendering is raw, cut.
func appendShortCompact(dst, raw []byte, max int) []byte {
	if len(raw) <= max {
		return append(dst, raw...)
	}
	start := len(dst)
	return cutShort(append(dst, raw[:max]...), start)
}

// top reads the one value raw must hold, with white space around it.
func (a *ArgsPass) top() (uint64, bool) {
	a.skipSpace()
	if a.pos == len(a.in) {
		return 0, false // empty: Digest and Canonicalize word their errors differently
	}
	h, ok := a.value(0)
	if !ok {
		return 0, false
	}
	a.skipSpace()
	return h, a.pos == len(a.in)
}

func (a *ArgsPass) skipSpace() {
	for a.pos < len(a.in) {
		switch a.in[a.pos] {
		case ' ', '\t', '\n', '\r':
			a.pos++
			a.spaced = true
		default:
			return
		}
	}
}

// value reads the value at a.pos, as canonParser.value and digester.value
// do, and returns its digest hash; false means the input is not what the
// pass handles.
func (a *ArgsPass) value(depth int) (uint64, bool) {
	if depth > maxCanonDepth || a.pos >= len(a.in) {
		return 0, false
	}
	switch c := a.in[a.pos]; {
	case c == '{':
		return a.object(depth)
	case c == '[':
		return a.array(depth)
	case c == '"':
		return a.stringValue()
	case c == 't':
		return seedTrue, a.literal("true")
	case c == 'f':
		return seedFalse, a.literal("false")
	case c == 'n':
		return seedNull, a.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return a.number()
	}
	return 0, false
}

func (a *ArgsPass) literal(lit string) bool {
	if len(a.in)-a.pos < len(lit) || string(a.in[a.pos:a.pos+len(lit)]) != lit {
		return false
	}
	a.pos += len(lit)
	if a.withCanon {
		a.out = append(a.out, lit...)
	}
	return true
}

// str reads the string at a.pos. Most strings have no escapes and are valid
// UTF-8 (plain): they are returned as a view of the input, and their
// canonical form is their input bytes. Others are decoded by canonParser.
func (a *ArgsPass) str() (s string, plain, ok bool) {
	start := a.pos + 1
	var high byte
	for end := start; end < len(a.in); end++ {
		c := a.in[end]
		if c == '"' {
			b := a.in[start:end]
			if high < utf8.RuneSelf || utf8.Valid(b) {
				a.pos = end + 1
				return unsafe.String(unsafe.SliceData(b), len(b)), true, true
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		high |= c
	}
	p := canonParser{in: a.in, pos: a.pos}
	s, err := p.str()
	if err != nil {
		return "", false, false
	}
	a.pos = p.pos
	return s, false, true
}

// stringValue reads a string value: its canonical form as it is, its
// digest hash and words from its normalised text, as digester.str does.
func (a *ArgsPass) stringValue() (uint64, bool) {
	start := a.pos
	s, plain, ok := a.str()
	if !ok {
		return 0, false
	}
	if a.withCanon {
		if plain {
			a.out = append(a.out, a.in[start:a.pos]...)
		} else {
			a.out = appendCanonString(a.out, s)
		}
	}
	norm := unsafe.Slice(unsafe.StringData(s), len(s))
	if !IsNormalText(s) {
		a.text = AppendNormalizedText(a.text[:0], norm)
		norm = a.text
	}
	if a.withWords {
		a.words |= wordBits(norm)
	}
	return mix(seedString, xxh3.Hash(norm)), true
}

// number reads a number as canonParser.number does. An integer of at most
// 15 digits is exact in a float64 and prints as it is written (but -0), so
// neither ParseFloat nor AppendES6Number is needed for it: most numbers in
// args are such counts and limits.
func (a *ArgsPass) number() (uint64, bool) {
	in, start := a.in, a.pos
	pos := start
	neg := in[pos] == '-'
	if neg {
		pos++
	}
	intStart := pos
	var v uint64
	for pos < len(in) && in[pos]-'0' <= 9 {
		v = v*10 + uint64(in[pos]-'0') // overflows only past 19 digits, where v is not used
		pos++
	}
	digits := pos - intStart
	if digits == 0 || (in[intStart] == '0' && digits > 1) {
		return 0, false
	}
	integer := digits <= 15
	if pos < len(in) && in[pos] == '.' {
		pos++
		integer = false
		after := pos
		if pos = skipDigits(in, pos); pos == after {
			return 0, false
		}
	}
	if pos < len(in) && (in[pos] == 'e' || in[pos] == 'E') {
		pos++
		integer = false
		if pos < len(in) && (in[pos] == '+' || in[pos] == '-') {
			pos++
		}
		after := pos
		if pos = skipDigits(in, pos); pos == after {
			return 0, false
		}
	}
	a.pos = pos
	var f float64
	if integer {
		f = float64(v)
		if neg {
			f = -f
		}
		if a.withCanon {
			if v == 0 {
				a.out = append(a.out, '0')
			} else {
				a.out = append(a.out, in[start:pos]...)
			}
		}
	} else {
		var err error
		f, err = strconv.ParseFloat(unsafe.String(&in[start], pos-start), 64)
		if (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsInf(f, 0) {
			return 0, false
		}
		if a.withCanon {
			a.out = AppendES6Number(a.out, f)
		}
	}
	if f == 0 {
		f = 0 // -0 prints as 0 in the canonical form
	}
	return mix(seedNumber, math.Float64bits(f)), true
}

func skipDigits(in []byte, pos int) int {
	for pos < len(in) && in[pos]-'0' <= 9 {
		pos++
	}
	return pos
}

// canonByte writes c to the canonical form, when one is asked for.
func (a *ArgsPass) canonByte(c byte) {
	if a.withCanon {
		a.out = append(a.out, c)
	}
}

func (a *ArgsPass) array(depth int) (uint64, bool) {
	a.pos++ // [
	a.canonByte('[')
	a.skipSpace()
	if a.pos < len(a.in) && a.in[a.pos] == ']' {
		a.pos++
		a.canonByte(']')
		return seedArray, true
	}
	h, n := seedArray, uint64(0)
	for {
		a.skipSpace()
		v, ok := a.value(depth + 1)
		if !ok {
			return 0, false
		}
		h, n = mix(h, v), n+1
		a.skipSpace()
		if a.pos >= len(a.in) {
			return 0, false
		}
		switch a.in[a.pos] {
		case ',':
			a.pos++
			a.canonByte(',')
		case ']':
			a.pos++
			a.canonByte(']')
			return mix(h, n), true
		default:
			return 0, false
		}
	}
}

// object reads an object: its digest hash is digester.object's commutative
// sum; its members are written to the canonical form as they come and
// reordered afterwards in the objects (nearly half) whose keys are not in
// order already. A repeated key is left to the slow path: the last member
// wins there, and the digest falls back to the normalised text.
func (a *ArgsPass) object(depth int) (uint64, bool) {
	a.pos++ // {
	open := len(a.out)
	a.canonByte('{')
	a.skipSpace()
	if a.pos < len(a.in) && a.in[a.pos] == '}' {
		a.pos++
		a.canonByte('}')
		return seedObject, true
	}
	var keysBuf [16]uint64
	keys := keysBuf[:0]
	base, sorted := len(a.members), true
	var sum, n uint64
	for {
		a.skipSpace()
		if a.pos >= len(a.in) || a.in[a.pos] != '"' {
			return 0, false
		}
		keyStart := a.pos
		key, plain, ok := a.str()
		if !ok {
			return 0, false
		}
		// Keys are told apart by hash, as digester.object does, so the
		// digest falls back exactly when Digest's does; xxhash, as
		// NewArgsNormalizer hashes the volatile keys for volatileHashed.
		kh := xxhash.Sum64String(key)
		if slices.Contains(keys, kh) {
			return 0, false
		}
		keys = append(keys, kh)
		keyEnd := a.pos
		a.skipSpace()
		if a.pos >= len(a.in) || a.in[a.pos] != ':' {
			return 0, false
		}
		a.pos++
		a.skipSpace()
		memberStart := len(a.out)
		if a.withCanon {
			if len(a.members) > base {
				a.out = append(a.out, ',')
				memberStart++
			}
			if plain {
				a.out = append(a.out, a.in[keyStart:keyEnd]...)
			} else {
				a.out = appendCanonString(a.out, key)
			}
			a.out = append(a.out, ':')
		}
		volatile := a.norm.volatileHashed(key, kh)
		saved := a.words
		v, ok := a.value(depth + 1)
		if !ok {
			return 0, false
		}
		if volatile {
			a.words = saved // a request id is not part of the question
		} else {
			sum += mix(seedMember^kh, v)
			n++
		}
		if a.withCanon {
			if m := len(a.members); m > base && compareKeys(a.members[m-1].key, key) > 0 {
				sorted = false
			}
			a.members = append(a.members, passMember{key: key, start: memberStart, end: len(a.out)})
		}
		a.skipSpace()
		if a.pos >= len(a.in) {
			return 0, false
		}
		switch a.in[a.pos] {
		case ',':
			a.pos++
			continue
		case '}':
			a.pos++
		default:
			return 0, false
		}
		break
	}
	if a.withCanon {
		if !sorted {
			a.sortMembers(open+1, base)
		}
		a.out = append(a.out, '}')
		clear(a.members[base:])
		a.members = a.members[:base]
	}
	return mix(mix(seedObject, sum), n), true
}

// sortMembers rewrites the members of the object whose first member starts
// at body in out, from a.members[base:], in key order.
func (a *ArgsPass) sortMembers(body, base int) {
	ms := a.members[base:]
	a.tmp = append(a.tmp[:0], a.out[body:]...)
	// Keys are distinct (a repeated one ends the pass), so any sort is stable.
	slices.SortFunc(ms, func(x, y passMember) int { return compareKeys(x.key, y.key) })
	a.out = a.out[:body]
	for i, m := range ms {
		if i > 0 {
			a.out = append(a.out, ',')
		}
		a.out = append(a.out, a.tmp[m.start-body:m.end-body]...)
	}
}

// compareKeys is compareUTF16 for valid UTF-8, which keys are once read:
// where they first differ in two ASCII bytes, those are the code units that
// decide, and most keys are ASCII.
func compareKeys(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	switch {
	case i == n:
		return len(a) - len(b)
	case a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf:
		return int(a[i]) - int(b[i])
	}
	return compareUTF16(a, b)
}
