package redact

import (
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/schema"
)

// base32 in lower case: placeholders are words (letters and digits only), so
// they split into words exactly where the original did.
const alphabet = "abcdefghijklmnopqrstuvwxyz234567"

// wordLen is the length of a word placeholder: 35 bits, short enough to read
// and long enough that two words of one run collide with odds of about one
// in ten billion a pair.
const wordLen = 7

// secretHashLen is the length of the hash part of a secret placeholder.
const secretHashLen = 8

// maxTries bounds the search for a placeholder on a given signature bit; a
// candidate qualifies with odds of about 1 in 80, so this is never reached
// in practice (then the last candidate is used, on another bit).
const maxTries = 1 << 14

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// candidate writes the i-th candidate of seed into dst (n characters).
func candidate(dst []byte, seed uint64, i, n int) {
	x := splitmix64(seed + uint64(i)*0xd1b54a32d192ed03)
	for j := range n {
		if j == 12 { // 5 bits a character: a fresh 64 bits after 12
			x = splitmix64(x)
		}
		dst[j] = alphabet[x&31]
		x >>= 5
	}
}

// shapeOK: at least two letters, so every capitalisation pattern can be
// written (see applyCase), and a digit, so a placeholder is never a
// dictionary word that stays verbatim nor a number that does.
func shapeOK(p []byte) bool {
	letters, digits := 0, 0
	for _, c := range p {
		if c >= '2' && c <= '7' {
			digits++
		} else {
			letters++
		}
	}
	return letters >= 2 && digits >= 1
}

// wordPlaceholder is the lower-case placeholder of the lower-cased word lw:
// the first keyed candidate that has the shape above and lands on lw's bit
// of the word signature (schema's wordBits: xxhash of the lower-cased word,
// modulo 64), so word overlap between queries is unchanged.
func (r *Redactor) wordPlaceholder(lw string) []byte {
	seed := r.seed(domainWord, lw)
	bit := xxhash.Sum64String(lw) & 63
	p := make([]byte, wordLen)
	for i := range maxTries {
		candidate(p, seed, i, wordLen)
		if shapeOK(p) && xxhash.Sum64(p)&63 == bit {
			break
		}
	}
	return p
}

// secretHash is the lower-case hash part of a secret's placeholder, keyed
// on the lower-cased secret (case is restored by applyCase).
func (r *Redactor) secretHash(lower string) []byte {
	seed := r.seed(domainSecret, lower)
	p := make([]byte, secretHashLen)
	for i := range maxTries {
		candidate(p, seed, i, secretHashLen)
		if shapeOK(p) {
			break
		}
	}
	return p
}

// applyCase gives the lower-case placeholder p the capitalisation pattern
// of orig: none, ALL, Title, or mixed. Lower-casing the result always gives
// p back (normalised equality survives), and the four patterns give four
// different results (exact equality survives). A mixed pattern cannot be
// copied letter by letter onto a placeholder of another length; it becomes
// a keyed pattern of orig's exact spelling that starts with a lower-case
// letter and ends with an upper-case one, so it is none of the other three.
// Two mixed spellings of one word collide with odds of 2^-(letters-2).
func (r *Redactor) applyCase(p []byte, orig string) []byte {
	hasUpper, hasLower, title := false, false, true
	first := true
	for _, c := range orig {
		if !unicode.IsLetter(c) {
			continue
		}
		up, low := unicode.IsUpper(c), unicode.IsLower(c)
		hasUpper = hasUpper || up
		hasLower = hasLower || low
		if first {
			title = up
			first = false
		} else if up {
			title = false
		}
	}
	switch {
	case !hasUpper:
		return p
	case !hasLower:
		for i, c := range p {
			if c >= 'a' && c <= 'z' {
				p[i] = c - 'a' + 'A'
			}
		}
		return p
	case title:
		for i, c := range p {
			if c >= 'a' && c <= 'z' {
				p[i] = c - 'a' + 'A'
				break
			}
		}
		return p
	}
	bits := r.seed(domainCase, orig)
	firstL, lastL := -1, -1
	for i, c := range p {
		if c >= 'a' && c <= 'z' {
			if firstL < 0 {
				firstL = i
			}
			lastL = i
			if bits&1 == 1 {
				p[i] = c - 'a' + 'A'
			}
			bits >>= 1
		}
	}
	if firstL >= 0 && lastL > firstL {
		p[firstL] = p[firstL] | 0x20 // lower
		p[lastL] = p[lastL] &^ 0x20  // upper
	}
	return p
}

// keepWord reports whether a word stays verbatim: one byte (the word
// signature ignores it, and one character says nothing), up to four ASCII
// digits (page numbers, "top 10", years) or a stop word.
func keepWord(w string) bool {
	if len(w) <= 1 {
		return true
	}
	if len(w) <= 4 {
		digits := true
		for i := 0; i < len(w); i++ {
			digits = digits && w[i] >= '0' && w[i] <= '9'
		}
		if digits {
			return true
		}
	}
	if len(w) > maxStopWordLen {
		return false
	}
	return stopWords[lowerASCIIWord(w)]
}

// lowerASCIIWord lower-cases a short ASCII word; others are returned as
// they are (they are never stop words).
func lowerASCIIWord(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return w
		}
		if w[i] >= 'A' && w[i] <= 'Z' {
			b := []byte(w)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return w
}

// stopWords stay verbatim. They must include every stop word of the
// word signature (schema/normhash.go), or a redacted query would gain a
// signature bit its original did not have; the test
// TestStopWordsCoverTheSignatureStopWords checks that through schema's
// exported digest. The others are common function words: not secrets, and
// keeping them keeps redacted text readable as a sentence shape.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// schema/normhash.go's stopWords.
		"the", "of", "and", "or", "in", "on", "for", "to", "an", "is", "are", "with", "by", "at", "from", "what",
		"how", "which", "who", "about", "vs", "as", "be",
		// Common English function words.
		"a", "i", "it", "its", "this", "that", "these", "those", "not", "no", "yes", "do", "does", "did", "was",
		"were", "has", "have", "had", "will", "can", "could", "should", "would", "may", "if", "then", "else",
		"but", "so", "me", "my", "we", "our", "you", "your", "they", "them", "their", "he", "she", "his", "her",
		"there", "here", "when", "where", "why", "all", "any", "some", "more", "most", "than", "into", "after",
		"before", "again", "next", "up", "out", "over", "only", "also", "same", "other", "each", "per", "via",
		"true", "false", "null", "none",
	} {
		m[w] = true
	}
	// The words that make a sentence a request ("please provide", "I'll
	// need"): RA205 reads what a turn asks for by them (schema.TalkAsks).
	for _, w := range schema.AskWords() {
		m[w] = true
	}
	return m
}()

// maxStopWordLen is the length of the longest stop word: longer words are
// never looked up.
var maxStopWordLen = func() int {
	n := 0
	for w := range stopWords {
		n = max(n, len(w))
	}
	return n
}()
