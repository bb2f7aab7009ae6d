package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// sanitize makes a string from an agent's log safe to print in one table
// cell on a terminal. Run ids, keys and messages are attacker-controlled: a
// log line can carry ESC [ ... sequences that recolour, move the cursor,
// rewrite the window title or hide text, or a carriage return that overwrites
// what was printed before. So every C0 control, DEL and C1 control becomes
// visible (\n, \r, \t, \x1b, \u009b), as do bytes that are not UTF-8 (a raw
// 0x9b is CSI on 8-bit terminals), bidirectional controls that reorder the
// display, and line/paragraph separators that would break the cell.
//
// Backslashes are left alone, so ordinary ids stay copyable; the escaped form
// is for display only, and the json formats carry the exact strings.
func sanitize(s string) string {
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isC1(r) || isBidiControl(r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlainASCII is sanitize's fast path: printable ASCII needs no escaping,
// and nearly every real run id is printable ASCII.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isC1 reports the C1 control characters, U+0080 to U+009F.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidiControl reports the Unicode bidirectional formatting characters.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

const ellipsis = "..." // ASCII: "…" has an ambiguous width on CJK terminals

// truncate cuts s to at most max runes (max > len(ellipsis)), marking the cut
// with an ellipsis. It is used on sanitized text, which it cannot make unsafe.
func truncate(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	kept := 0
	for i := range s {
		if kept == max-len(ellipsis) {
			return s[:i] + ellipsis
		}
		kept++
	}
	return s
}
