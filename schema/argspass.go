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
// canonical form. It is the one reader of args: Canonicalize, Digest and
// Normalize run it too, and the fuzz tests hold it to separate reference
// walkers, byte for byte and error for error.
//
// An ArgsPass keeps buffers between calls; one goroutine uses it.
type ArgsPass struct {
	norm *ArgsNormalizer

	in        []byte
	pos       int
	withWords bool
	withCanon bool
	normalize bool // the form written is Normalize's: volatile members dropped, strings normalised
	spaced    bool // white space was skipped: the short rendering is not a cut of the input
	command   bool // the string being read is a shell command line (trimEchoSuffix)
	empty     bool // the input is only white space
	repeated  bool // an object repeats a key (by hash): the digest is the normalised form's
	words     uint64
	err       error        // why the input is not args, worded as Canonicalize words it
	out       []byte       // the canonical (or normalised) form
	text      []byte       // the normalised text of a string value
	normText  []byte       // the normalised form of args that repeat a key
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

var errEmptyArgs = errors.New("args: empty")

// Derive derives the forms of raw, appending the short rendering to short
// and, withCanon, the canonical form to canon. Words is computed only
// withWords, as in Digest.
func (a *ArgsPass) Derive(raw []byte, withWords, withCanon bool, short, canon []byte) ArgsForms {
	var f ArgsForms
	f.Digest, f.DigestErr = a.digest(raw, withWords, withCanon, canon)
	if withCanon {
		f.Canon, f.CanonErr = a.out, a.err
	}
	spaced := a.spaced
	a.out = nil
	if f.DigestErr != nil || spaced {
		f.Short = AppendShortArgs(short, raw, ShortArgsBytes)
	} else {
		f.Short = appendShortCompact(short, raw, ShortArgsBytes)
	}
	return f
}

// digest reads raw, withCanon writing its canonical form after canon (left
// in a.out, or canon itself with a.err), and returns its digest. Args that
// repeat a key are digested through their normalised form, which keeps the
// last member, as Normalize does.
func (a *ArgsPass) digest(raw []byte, withWords, withCanon bool, canon []byte) (ArgsDigest, error) {
	h, ok := a.run(raw, withWords, withCanon, false, canon)
	if !ok {
		if withCanon {
			a.out = canon
		}
		if a.empty {
			return ArgsDigest{}, errEmptyArgs
		}
		return ArgsDigest{}, a.err
	}
	if a.repeated {
		out, err, spaced := a.out, a.err, a.spaced
		a.run(raw, false, true, true, a.normText[:0]) // raw is read already: this cannot fail
		a.normText = a.out
		h, _ = a.run(a.normText, withWords, false, false, nil)
		a.out, a.err, a.spaced = out, err, spaced
	}
	return ArgsDigest{Norm: h | 1, Words: a.words}, nil
}

// run reads raw once: its digest hash is returned and its words left in
// a.words, its canonical or normalised form (withCanon) in a.out, after
// out; false means raw is not args, and a.err says why.
func (a *ArgsPass) run(raw []byte, withWords, withCanon, normalize bool, out []byte) (uint64, bool) {
	a.in, a.pos, a.spaced, a.empty, a.repeated, a.words, a.err = raw, 0, false, false, false, 0, nil
	a.withWords, a.withCanon, a.normalize, a.out = withWords, withCanon, normalize, out
	h, ok := a.top()
	// Keys of a failed parse may still point into raw.
	clear(a.members)
	a.in, a.members = nil, a.members[:0]
	return h, ok
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
		a.empty = true
		return 0, a.fail("unexpected end")
	}
	h, ok := a.value(0)
	if !ok {
		return 0, false
	}
	a.skipSpace()
	if a.pos != len(a.in) {
		return 0, a.fail("unexpected data after the value")
	}
	return h, true
}

// fail records why the input is not args, at a.pos, and returns false.
func (a *ArgsPass) fail(format string, args ...any) bool {
	p := canonParser{in: a.in, pos: a.pos}
	a.err = p.errorf(format, args...)
	return false
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

// value reads the value at a.pos and returns its digest hash; false means
// the input is not JSON args.
func (a *ArgsPass) value(depth int) (uint64, bool) {
	if depth > maxCanonDepth {
		return 0, a.fail("nested deeper than %d", maxCanonDepth)
	}
	if a.pos >= len(a.in) {
		return 0, a.fail("unexpected end")
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
	default:
		return 0, a.fail("unexpected character %q", c)
	}
}

func (a *ArgsPass) literal(lit string) bool {
	if len(a.in)-a.pos < len(lit) || string(a.in[a.pos:a.pos+len(lit)]) != lit {
		return a.fail("invalid literal")
	}
	a.pos += len(lit)
	if a.withCanon {
		a.out = append(a.out, lit...)
	}
	return true
}

// str reads the string at a.pos. Most strings have no escapes and are valid
// UTF-8 (plain): they are returned as a view of the input, and their
// canonical form is their input bytes. Others are decoded by canonParser.str.
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
		a.err = err
		return "", false, false
	}
	a.pos = p.pos
	return s, false, true
}

// stringValue reads a string value: its canonical form as it is (its
// normalised text when normalising), its digest hash and words from its
// normalised text.
func (a *ArgsPass) stringValue() (uint64, bool) {
	start := a.pos
	s, plain, ok := a.str()
	if !ok {
		return 0, false
	}
	if a.withCanon && !a.normalize {
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
	if a.command {
		norm = trimEchoSuffix(norm)
	}
	if a.normalize {
		a.out = appendCanonString(a.out, unsafe.String(unsafe.SliceData(norm), len(norm)))
	}
	if a.withWords {
		a.words |= wordBits(norm)
	}
	return mix(seedString, xxh3.Hash(norm)), true
}

// number reads a number. An integer of at most
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
	if digits == 0 {
		a.pos = pos
		return 0, a.fail("invalid number")
	}
	if in[intStart] == '0' && digits > 1 {
		a.pos = pos
		return 0, a.fail("leading zero in number")
	}
	integer := digits <= 15
	if pos < len(in) && in[pos] == '.' {
		pos++
		integer = false
		after := pos
		if pos = skipDigits(in, pos); pos == after {
			a.pos = pos
			return 0, a.fail("invalid number")
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
			a.pos = pos
			return 0, a.fail("invalid number")
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
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, a.fail("invalid number")
		}
		if math.IsInf(f, 0) {
			return 0, a.fail("number out of range")
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
			return 0, a.fail("unterminated array")
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
			return 0, a.fail("want ',' or ']' in an array")
		}
	}
}

// object reads an object: its digest hash is a commutative
// sum; its members are written to the canonical form as they come and
// reordered afterwards in the objects (nearly half) whose keys are not in
// order already. Of a repeated key the last member is kept, as JSON.parse
// does, and the digest is taken from the normalised form (Derive).
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
	base, sorted, repeated := len(a.members), true, false
	var sum, n uint64
	for {
		a.skipSpace()
		if a.pos >= len(a.in) || a.in[a.pos] != '"' {
			return 0, a.fail("want an object key")
		}
		keyStart := a.pos
		key, plain, ok := a.str()
		if !ok {
			return 0, false
		}
		// Keys are told apart by hash, so that the digest of an object
		// needs no set of strings; xxhash, as NewArgsNormalizer hashes
		// the volatile keys for volatileHashed.
		kh := xxhash.Sum64String(key)
		if slices.Contains(keys, kh) {
			repeated, a.repeated = true, true
		} else {
			keys = append(keys, kh)
		}
		keyEnd := a.pos
		a.skipSpace()
		if a.pos >= len(a.in) || a.in[a.pos] != ':' {
			return 0, a.fail("want ':' after an object key")
		}
		a.pos++
		a.skipSpace()
		comma, memberStart := len(a.out), len(a.out)
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
		a.command = depth == 0 && (kh == commandKeyHash || kh == cmdKeyHash)
		v, ok := a.value(depth + 1)
		a.command = false
		if !ok {
			return 0, false
		}
		if volatile {
			a.words = saved // a request id is not part of the question
		} else {
			sum += mix(seedMember^kh, v)
			n++
		}
		switch {
		case volatile && a.normalize:
			a.out = a.out[:comma]
		case a.withCanon:
			if m := len(a.members); m > base && compareKeys(a.members[m-1].key, key) > 0 {
				sorted = false
			}
			a.members = append(a.members, passMember{key: key, start: memberStart, end: len(a.out)})
		}
		a.skipSpace()
		if a.pos >= len(a.in) {
			return 0, a.fail("unterminated object")
		}
		switch a.in[a.pos] {
		case ',':
			a.pos++
			continue
		case '}':
			a.pos++
		default:
			return 0, a.fail("want ',' or '}' in an object")
		}
		break
	}
	if a.withCanon {
		if !sorted || repeated {
			a.sortMembers(open+1, base, repeated)
		}
		a.out = append(a.out, '}')
		clear(a.members[base:])
		a.members = a.members[:base]
	}
	return mix(mix(seedObject, sum), n), true
}

// sortMembers rewrites the members of the object whose first member starts
// at body in out, from a.members[base:], in key order; of a key repeated
// (maybe) only the last member is kept.
func (a *ArgsPass) sortMembers(body, base int, repeated bool) {
	ms := a.members[base:]
	a.tmp = append(a.tmp[:0], a.out[body:]...)
	byKey := func(x, y passMember) int { return compareKeys(x.key, y.key) }
	if repeated {
		slices.SortStableFunc(ms, byKey)
	} else {
		slices.SortFunc(ms, byKey) // distinct keys: any sort is stable
	}
	a.out = a.out[:body]
	first := true
	for i, m := range ms {
		if repeated && i+1 < len(ms) && ms[i+1].key == m.key {
			continue
		}
		if !first {
			a.out = append(a.out, ',')
		}
		first = false
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
