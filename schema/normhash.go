package schema

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
)

// ArgsDigest is what ingest keeps of a call's args for near-duplicate
// detection: a hash of the normalised args and a signature of their words.
type ArgsDigest struct {
	// Norm is equal for two args exactly when their Normalize forms are equal
	// (up to hash collisions); never 0 for args that parse.
	Norm uint64
	// Words has bit hash(w)%64 set for every word of every string value
	// outside volatile keys (words: runs of letters and digits, lower-cased,
	// at least two long, stop words left out). Two rephrasings of one query
	// share most of their bits; see WordOverlap.
	Words uint64
}

// Digest computes the ArgsDigest of the JSON value raw in one pass without
// building the normalised text: object members are combined with a
// commutative sum, so key order does not matter and no sorting is needed.
// An object with a repeated key is digested through its normalised form,
// where the last member wins as in the canonical form. Words is filled only
// withWords: only calls that came back empty need it, and it costs a third
// of the time.
func (n *ArgsNormalizer) Digest(raw []byte, withWords bool) (ArgsDigest, error) {
	d, _, err := n.DigestScratch(raw, withWords, nil)
	return d, err
}

// DigestScratch is Digest with a scratch buffer for the normalised text of
// string values, returned (maybe grown) for the next call.
func (n *ArgsNormalizer) DigestScratch(raw []byte, withWords bool, scratch []byte) (ArgsDigest, []byte, error) {
	a := ArgsPass{norm: n, text: scratch[:0]}
	d, err := a.digest(raw, withWords, false, nil)
	return d, a.text, err
}

// Seeds keep values of different JSON types apart ("1" vs 1, [] vs {}).
const (
	seedNull uint64 = 0x9e3779b97f4a7c15 + iota
	seedTrue
	seedFalse
	seedNumber
	seedString
	seedArray
	seedObject
	seedMember
)

func mix(a, b uint64) uint64 {
	x := a ^ (b + 0x9e3779b97f4a7c15 + a<<6 + a>>2)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// IsNormalText reports whether AppendNormalizedText would return s as it
// is: ASCII without upper case or control white space, single spaces
// between words and none at the ends. Most values are, and skip the copy.
// Eight bytes are checked at a time (normalWord); isNormalTextBytewise is
// the reference it must agree with.
func IsNormalText[T string | []byte](s T) bool {
	if len(s) == 0 {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	i, space := 0, false // space: the byte before i is ' '
	for ; i+8 <= len(s); i += 8 {
		spaces, ok := normalWord(load64(s, i))
		if !ok || space && spaces&0x80 != 0 {
			return false
		}
		space = spaces>>63 != 0
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\r', c == '\v', c == '\f':
			return false
		case c == ' ' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// normalWord looks at x, eight bytes in little-endian order: ok says that
// they are ASCII without upper case, \t to \r, or two adjacent spaces, and
// spaces has the high bit of each byte that is ' '. With the high bits clear
// no byte borrows from its neighbour, so the masks are exact.
func normalWord(x uint64) (spaces uint64, ok bool) {
	if x&msb != 0 {
		return 0, false
	}
	y := x | msb
	upper := (y - lsb*'A') &^ (y - lsb*('Z'+1)) & msb
	ctrl := (y - lsb*'\t') &^ (y - lsb*('\r'+1)) & msb
	spaces = ^((x ^ lsb*' ' | msb) - lsb) & msb
	return spaces, upper|ctrl == 0 && spaces&(spaces<<8) == 0
}

// load64 reads s[i:i+8] in little-endian order (one load: the compiler
// combines the bytes).
func load64[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// AppendNormalizedText appends normalizeText(s): lower case, trimmed, runs
// of white space collapsed to one space. ASCII text, nearly all of it, is
// written through a table into room made once, and eight bytes at a time
// where they hold no white space but single spaces: this runs on every
// logged reason and every call's args.
func AppendNormalizedText(dst, s []byte) []byte {
	start := len(dst)
	dst = slices.Grow(dst, len(s))
	out := dst[:len(dst)+len(s)] // ASCII never grows: n <= start+i below
	n, space, i := len(dst), false, 0
ascii:
	for i < len(s) {
		end := len(s)
		if i+8 <= len(s) {
			if x := binary.LittleEndian.Uint64(s[i:]); x&msb == 0 {
				spaces, plain := singleSpaces(x)
				// A space first is kept only where the byte-wise loop would keep it.
				if plain && (spaces&0x80 == 0 || (!space && n > start)) {
					if space {
						out[n] = ' '
						n++
					}
					binary.LittleEndian.PutUint64(out[n:], lowerASCII(x))
					n, i = n+8, i+8
					// A space last is pending, as in the byte-wise loop: it is
					// written only if a word follows.
					if space = spaces>>63 != 0; space {
						n--
					}
					continue
				}
			}
			end = i + 8 // these eight go byte by byte
		}
		for ; i < end; i++ {
			c := s[i]
			if c >= utf8.RuneSelf {
				break ascii
			}
			if asciiSpace[c] {
				space = n > start
				continue
			}
			if space {
				out[n] = ' '
				n++
				space = false
			}
			out[n] = asciiLower[c]
			n++
		}
	}
	dst = out[:n]
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if asciiSpace[c] {
				space = len(dst) > start
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			dst = append(dst, asciiLower[c])
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		i += size
		if unicode.IsSpace(r) {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// singleSpaces looks at x, eight ASCII bytes in little-endian order: spaces
// has the high bit of each byte that is ' ', and plain says that these are
// its only bytes up to ' ' (no control character, no other white space) and
// that no two of them are adjacent. Bytes below 0x80 never borrow from
// their neighbours here, so the masks are exact.
func singleSpaces(x uint64) (spaces uint64, plain bool) {
	low := ^((x | msb) - lsb*0x21) & msb // bytes below '!'
	sp := x ^ lsb*' '
	spaces = ^((sp | msb) - lsb) & msb
	return spaces, low == spaces && spaces&(spaces<<8) == 0
}

// lowerASCII is asciiLower applied to each of x's eight ASCII bytes.
func lowerASCII(x uint64) uint64 {
	y := x | msb
	upper := (y - lsb*'A') &^ (y - lsb*('Z'+1)) & msb
	return x | upper>>2
}

// asciiLower and asciiSpace are the ASCII cases of unicode.ToLower and
// unicode.IsSpace.
var asciiLower, asciiSpace = func() (lower [utf8.RuneSelf]byte, space [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		lower[c] = byte(unicode.ToLower(rune(c)))
		space[c] = unicode.IsSpace(rune(c))
	}
	return lower, space
}()

// stopWords are left out of word signatures: they say nothing about what
// is searched for, and short queries would otherwise overlap through them.
var stopWords = map[string]bool{
	"the": true, "of": true, "and": true, "or": true, "in": true, "on": true, "for": true, "to": true,
	"an": true, "is": true, "are": true, "with": true, "by": true, "at": true, "from": true, "what": true,
	"how": true, "which": true, "who": true, "about": true, "vs": true, "as": true, "be": true,
}

// wordBits returns the signature bits of the words of normalised text.
func wordBits(text []byte) uint64 {
	var sig uint64
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 2 {
			w := text[start:end]
			if !stopWords[string(w)] {
				sig |= 1 << (xxhash.Sum64(w) & 63)
			}
		}
		start = -1
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(text[i:])
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
		i += size
	}
	flush(len(text))
	return sig
}

// WordOverlap says whether two word signatures look like the same query
// rephrased: at least half of the smaller one's words are in the other.
// Signatures without words overlap with nothing.
func WordOverlap(a, b uint64) bool {
	na, nb := bits.OnesCount64(a), bits.OnesCount64(b)
	if na == 0 || nb == 0 {
		return false
	}
	return 2*bits.OnesCount64(a&b) >= min(na, nb)
}
