package report

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Markdown escaping for text from agent logs (CommonMark and GitHub
// Flavored Markdown). A post-mortem is pasted into an incident document
// that a wiki or GitHub renders: a run id or an args value must not turn
// into a link, an image that loads on view, raw HTML, emphasis, a heading,
// a list, or a cell boundary that shifts a table's columns.

// MarkdownText escapes s, first made safe for a terminal (Sanitize), as
// inline Markdown text: it renders as exactly the sanitized characters,
// in a paragraph, at the start of a line or in a table cell. It escapes
// only where a character would mean something there, so that the
// Markdown stays readable as text: a '.', '-', '(' or ')' in the middle of
// a sentence, '_' inside a word and '*' between spaces are left alone.
//
//   - always: '`' (code), '[' and ']' (links, images), '|' (cells), '~'
//     (GFM strikethrough, one tilde is enough);
//   - '\' before ASCII punctuation or at the end (an escape of its own, or
//     of what the caller writes next);
//   - '*' and '_' unless both neighbours are white space, and '_' inside
//     a word (emphasis cannot open or close there);
//   - '<' before a letter, '/', '!' or '?' (raw HTML, autolinks);
//   - '&' that starts an entity or character reference (&amp; &#60;);
//   - at the start: '#' (heading), '>' (quote), '+', '-', '=' (lists,
//     setext underlines, thematic breaks) and the '.' or ')' after digits
//     (ordered lists);
//   - what GFM turns into links: ':' before "//" (http://...), '.' after
//     "www", '@' before a letter or digit (e-mail autolinks; on GitHub,
//     mentions).
func MarkdownText(s string) string { return markdownEscape(s, true) }

// MarkdownCell is MarkdownText for a GFM table cell, whose content is
// inline only: what means something only at the start of a line (a list
// marker, a heading, a quote) is left as it is there.
func MarkdownCell(s string) string { return markdownEscape(s, false) }

func markdownEscape(s string, line bool) string {
	s = sanitize(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if line && i == 0 && r >= '0' && r <= '9' {
			// "1. " or "1) " at the start of a line is an ordered list.
			j := 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString(s[:j])
			if j < len(s) && (s[j] == '.' || s[j] == ')') {
				b.WriteByte('\\')
				b.WriteByte(s[j])
				j++
			}
			i = j
			continue
		}
		if mdNeedsEscape(s, i, r, line) {
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// mdNeedsEscape reports whether r, at byte i of s, means something in
// Markdown where it is; line says that s starts a line.
func mdNeedsEscape(s string, i int, r rune, line bool) bool {
	prev, next := rune(' '), rune(' ') // a line's ends are as white space
	if i > 0 {
		prev, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if j := i + utf8.RuneLen(r); j < len(s) {
		next, _ = utf8.DecodeRuneInString(s[j:])
	}
	switch r {
	case '`', '[', ']', '|', '~':
		return true
	case '\\':
		return i+1 == len(s) || isASCIIPunct(next)
	case '*':
		return (line && i == 0) || !(unicode.IsSpace(prev) && unicode.IsSpace(next))
	case '_':
		inWord := isWordRune(prev) && isWordRune(next)
		return !inWord && !(unicode.IsSpace(prev) && unicode.IsSpace(next))
	case '<':
		return unicode.IsLetter(next) || next == '/' || next == '!' || next == '?'
	case '&':
		return entityRef.MatchString(s[i:])
	case '#', '>', '+', '-', '=':
		return line && i == 0
	case ':':
		return strings.HasPrefix(s[i+1:], "//")
	case '.':
		return hasSuffixFold(s[:i], "www")
	case '@':
		return unicode.IsLetter(next) || unicode.IsDigit(next)
	}
	return false
}

// entityRef matches an entity or numeric character reference at the start.
var entityRef = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

func isASCIIPunct(r rune) bool {
	return r < utf8.RuneSelf && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// MarkdownCode renders s, made safe for a terminal (Sanitize), as a code
// span: its characters are shown as they are, with no Markdown meaning.
// The fence is one backtick longer than the longest run of backticks in s,
// and s is padded with a space when it begins or ends with a backtick or a
// space (CommonMark strips one space from each side of such content). In a
// table cell (inTable) a '|' is written '\|': GFM splits cells before it
// parses code spans, and undoes that escape inside them.
func MarkdownCode(s string, inTable bool) string {
	s = sanitize(s)
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if first, last := s[0], s[len(s)-1]; first == '`' || last == '`' || first == ' ' || last == ' ' {
		pad = " "
	}
	return fence + pad + s + pad + fence
}
