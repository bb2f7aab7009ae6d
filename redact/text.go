package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/runawayhq/runaway/schema"
)

// Text redacts free text (a goal, a reason, a string inside args): secrets
// become "secret-<kind>-<hash>", then every word (a run of letters and
// digits, as the word signature splits them) that is not kept verbatim
// (keepWord) becomes its placeholder in the word's capitalisation pattern.
// White space, punctuation and symbols are kept as they are, and so is
// ChatDev's conclusion mark (schema.ConclusionMark), which RA208 reads as
// the framework's syntax, no word of the turn.
func (r *Redactor) Text(s string) string {
	if strings.Contains(s, schema.ConclusionMark) {
		parts := strings.Split(s, schema.ConclusionMark)
		for i, p := range parts {
			parts[i] = r.text(p)
		}
		return strings.Join(parts, schema.ConclusionMark)
	}
	return r.text(s)
}

// text is Text of s without the conclusion mark.
func (r *Redactor) text(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	prev := 0
	for _, sp := range secretSpans(s) {
		r.writeWords(&b, s[prev:sp.start])
		b.WriteString(r.secretPlaceholder(sp.kind, s[sp.start:sp.end]))
		prev = sp.end
	}
	r.writeWords(&b, s[prev:])
	return b.String()
}

// words writes s with each word replaced.
func (r *Redactor) writeWords(b *strings.Builder, s string) {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		r.word(b, s[start:end])
		start = -1
	}
	for i := 0; i < len(s); {
		c, size := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		if isWordRune(c) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
			if c == utf8.RuneError && size == 1 {
				// Invalid UTF-8: JSON would turn it into U+FFFD anyway.
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[i : i+size])
			}
		}
		i += size
	}
	flush(len(s))
}

func isWordRune(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return unicode.IsLetter(c) || unicode.IsDigit(c)
}

func (r *Redactor) word(b *strings.Builder, w string) {
	if keepWord(w) {
		b.WriteString(w)
		return
	}
	if p, ok := r.words.Load(w); ok {
		b.WriteString(p.(string))
		return
	}
	p := string(r.applyCase(r.wordPlaceholder(lowerWord(w)), w))
	if r.cached.Add(1) <= maxCachedWords {
		r.words.Store(w, p)
	}
	b.WriteString(p)
}

// lowerWord lower-cases rune by rune with unicode.ToLower, as
// schema.AppendNormalizedText does (strings.ToLower has special cases that
// it does not).
func lowerWord(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return lowerASCIIWord(w)
	}
	var b strings.Builder
	b.Grow(len(w))
	for _, c := range w {
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}
