package schema

// A loop in which a tool answers almost the same every time (a test log
// with another timing, a listing with one line changed) is found by
// comparing similarity hashes: SimHash (Charikar 2002) of a text's word
// 3-shingles, 64 bits, compared by Hamming distance. It is written here
// because no maintained Go SimHash library exists (github.com/mfonda/simhash
// dates from 2015 and splits words with a regular expression).

import (
	"math"
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/xxh3"
)

// TextSimHash returns the SimHash of text and its number of words.
//
// Words are maximal runs of Unicode letters and digits, ASCII lower-cased
// (other letters are kept as they are), with every run of ASCII digits
// folded to "0", so counters and line numbers do not matter. Each word is
// hashed once with xxh3 (a word over 64 bytes in 64-byte chunks, each
// seeded with the hash of those before); the features are the overlapping
// 3-shingles of words, each hashed by combining its three word hashes in
// order (shingleHash), so word boundaries count ("ab c" is not "a bc") and
// so does word order. A text of one or two words has those words as
// features. Every feature votes +1 for the bits set in its hash and -1 for
// the others, with weight 1; a bit of the result is set where the votes sum
// above 0.
//
// A shingle votes as often as it occurs, so two unrelated texts that share
// a shingle repeated many times (boilerplate, or "0 0 0" from the numbered
// blank lines of a listing) come out closer than the 32 bits of chance.
//
// A text without words gives (0, 0); a text with words never hashes to 0
// (1 is used instead), so 0 can mean "no hash". It allocates nothing.
func TextSimHash(text []byte) (hash uint64, words int) {
	var older, old uint64 // the hashes of the two words before this one
	var acc simHashAccumulator
	for i := 0; i < len(text); {
		if i+8 <= len(text) {
			// Eight ASCII bytes at a time up to the next letter or digit.
			x := load64(text, i)
			found := x&msb | asciiWordBytes(x)
			if found == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(found) >> 3
		}
		c := text[i]
		if c < utf8.RuneSelf {
			if !wordASCII[c] {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRune(text[i:]); !isWordRune(r) {
			i += size
			continue
		}
		var h uint64
		h, i = wordHashAt(text, i)
		if words++; words >= 3 {
			acc.add(shingleHash(older, old, h))
		}
		older, old = old, h
	}
	switch words {
	case 0:
		return 0, 0
	case 1:
		acc.add(old)
	case 2:
		acc.add(older)
		acc.add(old)
	}
	if hash = acc.sum(); hash == 0 {
		hash = 1
	}
	return hash, words
}

// simHashAccumulator counts, for each bit, the features that have it set:
// the sum of +1 and -1 votes is above 0 exactly where more than half do.
// Counts are kept in eight byte lanes per 64-bit word, one feature adding
// eight table entries instead of 64 counters, and moved to the [64]int32
// totals before a lane can overflow.
type simHashAccumulator struct {
	lanes    [8]uint64 // byte k of lanes[j] counts bit 8j+k
	inLanes  int
	total    [64]int32
	features int
}

// spreadBits has bit k of its index in the low bit of byte k.
var spreadBits = func() (t [256]uint64) {
	for b := range 256 {
		for k := range 8 {
			t[b] |= uint64(b>>k&1) << (8 * k)
		}
	}
	return t
}()

func (a *simHashAccumulator) add(h uint64) {
	for j := range a.lanes {
		a.lanes[j] += spreadBits[h>>(8*j)&0xff]
	}
	a.features++
	if a.inLanes++; a.inLanes == 255 {
		a.flush()
	}
}

func (a *simHashAccumulator) flush() {
	for j, lane := range a.lanes {
		for k := range 8 {
			a.total[8*j+k] += int32(lane >> (8 * k) & 0xff)
		}
		a.lanes[j] = 0
	}
	a.inLanes = 0
}

func (a *simHashAccumulator) sum() uint64 {
	a.flush()
	var h uint64
	for bit, n := range a.total {
		if 2*int(n) > a.features { // n votes +1, features-n vote -1
			h |= 1 << bit
		}
	}
	return h
}

// wordASCII marks the ASCII letters and digits.
var wordASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	return t
}()

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return wordASCII[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordChunk is how much of a normalised word is hashed at once; longer
// words are hashed a chunk at a time, each chunk seeded with the hash of
// the ones before (see hashWordChunks).
const wordChunk = 64

// wordHashAt hashes the word starting at i and returns the hash and the
// end of the word. A word of lower-case ASCII letters, most words of prose
// and code, is hashed where it lies; others are normalised into a buffer
// first.
func wordHashAt(t []byte, i int) (uint64, int) {
	j := i
	for ; j+8 <= len(t); j += 8 {
		x := load64(t, j)
		y := x | msb
		lower := (y - lsb*'a') &^ (y - lsb*('z'+1)) &^ x & msb
		if lower != msb {
			j += bits.TrailingZeros64(^lower&msb) >> 3
			break
		}
	}
	for j < len(t) && t[j]-'a' < 26 {
		j++
	}
	if j == len(t) || (t[j] < utf8.RuneSelf && !wordASCII[t[j]]) {
		return hashWordChunks(t[i:j]), j
	}
	// Slow path: upper case, digits or non-ASCII, normalised into buf and
	// hashed in the chunks of hashWordChunks: a chunk is hashed once more
	// than wordChunk bytes are known, so the last one is hashed by finalHash.
	var buf [wordChunk + utf8.UTFMax]byte
	n, seed, seeded := 0, uint64(0), false
	for j = i; j < len(t); {
		c := t[j]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(t[j:])
			if !isWordRune(r) {
				return finalHash(buf[:n], seed, seeded), j
			}
			n += copy(buf[n:], t[j:j+size])
			j += size
		case isDigit(c):
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			buf[n] = '0'
			n++
		case wordASCII[c]:
			buf[n] = asciiLower[c]
			n++
			j++
		default:
			return finalHash(buf[:n], seed, seeded), j
		}
		if n > wordChunk {
			seed, seeded = finalHash(buf[:wordChunk], seed, seeded), true
			n = copy(buf[:], buf[wordChunk:n])
		}
	}
	return finalHash(buf[:n], seed, seeded), j
}

// hashWordChunks hashes a normalised word: xxh3 of the word if it is at
// most wordChunk bytes, else of its last at most wordChunk bytes seeded
// with the chained hash of the full chunks before them.
func hashWordChunks(w []byte) uint64 {
	seed, seeded := uint64(0), false
	for len(w) > wordChunk {
		seed, seeded = finalHash(w[:wordChunk], seed, seeded), true
		w = w[wordChunk:]
	}
	return finalHash(w, seed, seeded)
}

// finalHash is xxh3 of b, seeded with the hash of the chunks before b if
// there were any.
func finalHash(b []byte, seed uint64, seeded bool) uint64 {
	if !seeded {
		return xxh3.Hash(b)
	}
	return xxh3.HashSeed(b, seed)
}

// shingleHash is the feature hash of the shingle of words hashed a, b, c,
// in that order: each is rotated and multiplied by its own odd constant, so
// order counts, and the sum goes through the murmur3 64-bit finaliser, so
// that every bit depends on every input bit. The word hashes are xxh3
// already: a mix is as good as hashing their 24 bytes again, and cheaper.
func shingleHash(a, b, c uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 + bits.RotateLeft64(b, 21)*0xc2b2ae3d27d4eb4f + bits.RotateLeft64(c, 42)*0x165667b19e3779f9
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// SimHashDistance is the number of bits in which a and b differ.
func SimHashDistance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// SimHashSimilar reports whether a and b are hashes of texts (neither is 0)
// that differ in at most maxBits bits.
func SimHashSimilar(a, b uint64, maxBits int) bool {
	return a != 0 && b != 0 && SimHashDistance(a, b) <= maxBits
}

// SimilarityBits is the largest Hamming distance between two SimHashes that
// still estimates a cosine similarity of at least similarity between their
// shingle vectors: floor(64 * acos(similarity) / pi). Charikar: each bit
// differs with probability theta/pi, theta the angle between the vectors.
// For unrelated texts (theta = pi/2) about 32 of 64 bits differ, with a
// standard deviation of 4, so SimilarityBits(0.9) = 9 is more than five
// standard deviations away from chance. A similarity of 1 or more (or NaN)
// gives 0, of -1 or less 64.
func SimilarityBits(similarity float64) int {
	switch {
	case math.IsNaN(similarity) || similarity >= 1:
		return 0
	case similarity <= -1:
		return 64
	}
	return int(math.Floor(64 * math.Acos(similarity) / math.Pi))
}
