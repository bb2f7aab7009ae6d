package report

import (
	"strings"
	"unicode/utf8"
)

// Markdown escaping for text from agent logs (CommonMark and GitHub
// Flavored Markdown). A post-mortem is pasted into an incident document
// that a wiki or GitHub renders: a run id or an args value must not turn
// into a link, an image that loads on view, raw HTML, emphasis, a heading,
// a list, or a cell boundary that shifts a table's columns.

// mdPunct are the characters MarkdownText backslash-escapes wherever they
// are: the ones CommonMark and GFM give a meaning inline (emphasis, code,
// links and images, raw HTML and entities, tables, strikethrough), plus ':'
// and '@', whose escape keeps GFM's extended autolinks (http://..., x@y.z)
// from turning text into a link.
const mdPunct = "\\`*_[]<>|#!()~&:@{}"

// MarkdownText escapes s, first made safe for a terminal (Sanitize), as
// inline Markdown text: it renders as exactly the sanitized characters. It
// is safe in a table cell and at the start of a line.
func MarkdownText(s string) string {
	s = sanitize(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	atStart := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < utf8.RuneSelf && strings.IndexByte(mdPunct, byte(r)) >= 0:
			b.WriteByte('\\')
		case atStart && (r == '+' || r == '-' || r == '=' || r == '.'):
			// A list marker, a thematic break or a setext underline at
			// the start of a line (a cell is not one, but this text may be).
			b.WriteByte('\\')
		case r == '.' && hasSuffixFold(s[:i], "www"):
			// GFM autolinks www.example.com without a scheme.
			b.WriteByte('\\')
		}
		if r >= '0' && r <= '9' && atStart {
			// "1. " or "1) " at the start of a line is an ordered list.
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString(s[i:j])
			if j < len(s) && s[j] == '.' {
				b.WriteString(`\.`) // ')' is escaped wherever it is
				j++
			}
			i = j
			atStart = false
			continue
		}
		b.WriteString(s[i : i+size])
		atStart = false
		i += size
	}
	return b.String()
}

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
