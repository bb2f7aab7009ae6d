package schema

import "unicode/utf8"

// ShortArgsBytes bounds ShortArgs: enough to recognise a call in a report,
// short enough to keep for every repeated call.
const ShortArgsBytes = 80

// AppendShortArgs appends a one-line rendering of the JSON value raw to dst:
// white space outside strings removed, cut at max bytes (on a character
// boundary) with "…" when longer. It does not validate raw, and keeps the
// args as logged (key order, case), because a person compares it with the
// log.
func AppendShortArgs(dst, raw []byte, max int) []byte {
	start := len(dst)
	inString, escaped := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		if c == '\n' || c == '\r' || c == '\t' {
			c = ' ' // a raw control character inside a string stays on one line
		}
		if len(dst)-start >= max {
			return cutShort(dst, start)
		}
		dst = append(dst, c)
	}
	return dst
}

// cutShort ends a rendering, dst[start:], that is longer than allowed: on a
// character boundary, with "…".
func cutShort(dst []byte, start int) []byte {
	cut := len(dst)
	for cut > start && !utf8.RuneStart(dst[cut-1]) {
		cut--
	}
	if cut > start && dst[cut-1] >= utf8.RuneSelf {
		cut-- // drop the incomplete character's lead byte too
	}
	return append(dst[:cut], "…"...)
}
