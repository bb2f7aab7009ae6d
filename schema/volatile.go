package schema

import "math/bits"

// Tool output repeats with details that change by themselves: a test run
// prints its wall time, a compiler its temp build directory, a container
// its id. Two answers that differ only there are the same answer, so they
// are compared after AppendVolatileNormalized. The scan is hand-written
// rather than a set of regular expressions because it runs on every tool
// result at ingest: white space, punctuation and words that cannot start a
// volatile token are skipped eight bytes at a time, and unchanged text is
// copied in runs.

// The placeholders that volatile tokens become. Each begins with '<' and
// ends with '>', which no rule matches at a token's edge, so normalising
// normalised text changes nothing.
const (
	placeholderTimestamp = "<ts>"
	placeholderDuration  = "<dur>"
	placeholderUUID      = "<uuid>"
	placeholderHex       = "<hex>"
	placeholderTemp      = "<tmp>"
)

// AppendVolatileNormalized appends text to dst with the tokens that change
// by themselves from run to run replaced by fixed placeholders:
//
//   - Timestamps with a time of day become <ts>: RFC 3339 / ISO 8601
//     (2026-11-29T10:00:00Z, 2026-11-29 10:00:00.123456+02:00, 2026-11-29
//     10:00, a lower-case t, a comma before the fraction as Python's logging
//     writes it), the same with slashes as Go's log package writes it
//     (2026/11/29 10:00:00), the compact form 20261129T100000Z, and bare
//     clock times h:mm:ss or hh:mm:ss with an optional fraction and zone
//     (Z, +02:00, -0500). Month, day, hour, minute and second must be in
//     range, and the timestamp must not run on into a letter or digit.
//   - Durations become <dur>: a number (12, 0.23) directly or after one
//     space followed by a unit, ns, us, µs, ms, s, sec, secs, second,
//     seconds, m, min, mins, minute, minutes, h, hr, hrs, hour, hours, that
//     is not followed by a letter ("0.23s", "12 ms", "in 3.5 seconds").
//     Compound durations as Go prints them (1m30.5s, 2h3m4s) are one token.
//     "5 items" stays; "12 m" becomes <dur>, so a distance in metres is lost:
//     minutes are far more common in tool output.
//   - UUIDs, 8-4-4-4-12 hex digits in either case, become <uuid>.
//   - Hex numbers become <hex>: 0x or 0X followed by hex digits (addresses
//     such as "at 0x7f3a2b10"), and bare runs of at least 8 hex digits, in
//     either case, with at least one digit and one letter a-f, that are not
//     part of a longer run of letters and digits (git shas, content hashes,
//     container ids). So "abc12345" becomes <hex>, while "deadbeef" (no
//     digit) and "12345678" (no letter) stay: they read as a word and a
//     number.
//   - Temporary paths become <tmp>: an absolute path beginning /tmp/,
//     /var/tmp/, /var/folders/, /private/var/folders/ or /dev/shm/, where
//     the '/' does not continue a name (it does not follow a letter, digit,
//     '.', '_', '-' or '~'), up to the next white space, quote,
//     bracket, ',', ';' or ':' (so "/tmp/x/a.py:12:" keeps its line number).
//     "/tmpfoo" is not a temp path.
//   - Python tempfile names, "tmp" followed by six or more of [a-z0-9_],
//     become <tmp> where they are a whole path component, after '/' or '\'.
//
// Everything else is kept byte for byte. Plain numbers stay: a count of
// failures or a price is information, and "3 failed" and "4 failed" are
// different answers. Bare dates (2026-11-29) stay too: they change once a
// day, not once a run, and in a query or a report they carry meaning.
// Tokens start only where a word starts (after a byte that is not an ASCII
// letter or digit or part of a multi-byte character: '_' and '-' do
// separate), and times and durations not after a '.', so "v1.5s" stays.
//
// text is read as results and args are held, JSON-encoded: a token may
// also start right after an escape of a control character (\n, \t, \r,
// \f, \b), as it opens a line or a field there, and right after a
// \uXXXX escape of ASCII punctuation (Go writes '>' as \u003e), as after
// the character itself, though the escape's last byte comes right before
// it.
//
// It allocates nothing when dst has room for the result, which is at most
// three bytes per replaced token longer than text ("5s" -> "<dur>").
func AppendVolatileNormalized(dst, text []byte) []byte {
	lit := 0 // text[lit:i] is copied unchanged when the next token is found
	for i := nextCandidate(text, 0); i < len(text); i = nextCandidate(text, i) {
		if volatileClass[text[i]] == classSlash {
			if j := i + escapeLen(text, i); j > i && j < len(text) && (text[j] == '/' || isHexDigit(text[j])) {
				// A JSON escape (\n, \t) ends a line or a field, and one
				// of punctuation (\u003e for '>', as Go's encoder writes
				// it) is that punctuation: a token may start right after
				// it, though its last byte looks like the end of a word.
				placeholder, start, end := "", j, -1
				if text[j] == '/' {
					placeholder = placeholderTemp
					start, end = tempPathAt(text, j, false)
				} else if p, e := volatileWordAt(text, j); p != "" {
					placeholder, end = p, e
				}
				if end >= 0 {
					dst = append(dst, text[lit:start]...)
					dst = append(dst, placeholder...)
					lit, i = end, end
					continue
				}
			}
			// After a token (i == lit) the output ends in '>'.
			afterName := i > lit && pathNameByte(text[i-1])
			start, end := tempPathAt(text, i, afterName)
			if end < 0 {
				i++
				continue
			}
			dst = append(dst, text[lit:start]...)
			dst = append(dst, placeholderTemp...)
			lit, i = end, end
			continue
		}
		// A word starting with a digit or a-f; tokens end before a non-word byte.
		placeholder, end := volatileWordAt(text, i)
		if placeholder != "" {
			dst = append(dst, text[lit:i]...)
			dst = append(dst, placeholder...)
			lit = end
		}
		i = end
	}
	return append(dst, text[lit:]...)
}

// escapeLen is the length of the JSON escape that the backslash at i
// begins, if a token may start after it, else 0: an escape of a control
// character (\n, \t, \r, \f, \b), or \uXXXX of an ASCII character
// that is not a letter or digit (Go's encoder writes '<', '>' and '&' as
// \u003c, \u003e and \u0026; others write control characters so). The
// backslash must not itself be escaped (an even number of backslashes
// runs up to it).
func escapeLen(t []byte, i int) int {
	if t[i] != '\\' || i+1 >= len(t) {
		return 0
	}
	n := 0
	switch t[i+1] {
	case 'n', 't', 'r', 'f', 'b':
		n = 2
	case 'u':
		if x, ok := hex4At(t, i+2); ok && x < 0x80 && !isWordByte(byte(x)) {
			n = 6
		}
	}
	if n == 0 {
		return 0
	}
	k := i
	for k > 0 && t[k-1] == '\\' {
		k--
	}
	if (i-k)%2 != 0 {
		return 0
	}
	return n
}

// hex4At decodes the four hex digits at t[i:], if there are four.
func hex4At(t []byte, i int) (uint32, bool) {
	if i+4 > len(t) {
		return 0, false
	}
	return hex4(t[i : i+4])
}

// Byte classes of the scan. Word bytes are ASCII letters and digits and
// every byte of a multi-byte character: a token never starts or ends next
// to one, so "id9f1c2e7a4b" and "ÄBCDEF12345" are left alone.
const (
	classPlain = iota
	classWord
	classSlash // '/' or '\': a temp path or a tempfile name may follow
)

var volatileClass = func() (class [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 0x80, '0' <= c && c <= '9', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			class[c] = classWord
		case c == '/' || c == '\\':
			class[c] = classSlash
		}
	}
	return class
}()

func isWordByte(c byte) bool { return volatileClass[c] == classWord }

func isDigit(c byte) bool { return c-'0' < 10 }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c|0x20)-'a' < 6
}

// isLetterByte is a byte that may belong to a letter: an ASCII letter or
// any byte of a multi-byte character.
func isLetterByte(c byte) bool { return c >= 0x80 || (c|0x20)-'a' < 26 }

// pathNameByte is a byte that may precede '/' inside a path or a word, so
// that "/home/u/tmp/x" and "dir/tmp/x" are not temp paths.
func pathNameByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '_' || c == '-' || c == '~'
}

// wordEnd is the end of the run of word bytes that starts at i.
func wordEnd(t []byte, i int) int {
	for ; i+8 <= len(t); i += 8 {
		if x := load64(t, i); x&msb == 0 {
			if other := ^asciiWordBytes(x) & msb; other != 0 {
				return i + bits.TrailingZeros64(other)>>3
			}
		} else {
			break // multi-byte characters go byte by byte
		}
	}
	for i < len(t) && isWordByte(t[i]) {
		i++
	}
	return i
}

// nextCandidate is the index of the first byte at or after i where a
// token may start, or len(t): a '/' or '\', or the start of a word (a word
// byte after a non-word byte) that is a digit or a hex letter. Eight bytes
// are looked at a time, so spaces, punctuation and words starting with
// other letters, most of any text, cost a few operations per eight bytes.
func nextCandidate(t []byte, i int) int {
	var before uint64 // 0x80 if the byte before i is a word byte
	if i > 0 && isWordByte(t[i-1]) {
		before = 0x80
	}
	for ; i+8 <= len(t); i += 8 {
		x := load64(t, i)
		high := x & msb // bytes of multi-byte characters: word bytes
		word := high | asciiWordBytes(x)
		starts := word &^ (word<<8 | before)
		if found := (starts&asciiHexDigits(x) | asciiSlashes(x)) &^ high; found != 0 {
			return i + bits.TrailingZeros64(found)>>3
		}
		before = word >> 56
	}
	for ; i < len(t); i++ {
		c := t[i]
		if volatileClass[c] == classSlash || (before == 0 && isHexDigit(c)) {
			return i
		}
		before = 0
		if isWordByte(c) {
			before = 0x80
		}
	}
	return i
}

// asciiWordBytes has the high bit of each of x's eight bytes (little-endian)
// that is an ASCII letter or digit. It is exact for bytes below 0x80, and
// others, which callers mask off, do not disturb their neighbours: every
// subtraction is from a byte with its high bit set, so none borrows.
func asciiWordBytes(x uint64) uint64 {
	y := x | msb
	digits := (y - lsb*'0') &^ (y - lsb*('9'+1))
	z := y | lsb*0x20 // upper case to lower case
	letters := (z - lsb*'a') &^ (z - lsb*('z'+1))
	return (digits | letters) & msb
}

// asciiHexDigits has the high bit of each of x's bytes that is a hex digit
// in either case (exact for bytes below 0x80, as asciiWordBytes).
func asciiHexDigits(x uint64) uint64 {
	y := x | msb
	digits := (y - lsb*'0') &^ (y - lsb*('9'+1))
	z := y | lsb*0x20
	letters := (z - lsb*'a') &^ (z - lsb*('f'+1))
	return (digits | letters) & msb
}

// asciiSlashes has the high bit of each of x's bytes that is '/' or '\'
// (exact for bytes below 0x80, as asciiWordBytes).
func asciiSlashes(x uint64) uint64 {
	slash := ^((x ^ lsb*'/' | msb) - lsb)
	backslash := ^((x ^ lsb*'\\' | msb) - lsb)
	return (slash | backslash) & msb
}

// boundaryAt reports whether a token may end at i: the text ends there or
// a non-word byte follows.
func boundaryAt(t []byte, i int) bool { return i >= len(t) || !isWordByte(t[i]) }

// volatileWordAt looks at the word starting at i (the byte before it, if
// any, is not a word byte) and returns the placeholder and end of the token
// found there, or "" and the end of the word. The byte after the leading
// digits picks the rules worth trying: most words are none of these.
func volatileWordAt(t []byte, i int) (string, int) {
	c := t[i]
	if !isDigit(c) {
		return hexWordAt(t, i)
	}
	j := i + 1
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j == len(t) {
		return "", j
	}
	number := i == 0 || t[i-1] != '.'
	switch d := t[j]; {
	case d|0x20 == 'x' && j == i+1 && c == '0':
		if end := hexRunEnd(t, j+1); end > j+1 && boundaryAt(t, end) {
			return placeholderHex, end
		}
	case d == ':' || d == '-' || d == '/' || d|0x20 == 't':
		if end := timestampEnd(t, i); number && end > 0 {
			return placeholderTimestamp, end
		}
	case d == '.' || d == ' ' || d >= 0x80 || unitFirst(d):
		if end := durationEnd(t, i); number && end > 0 {
			return placeholderDuration, end
		}
	case !isWordByte(d):
		return "", j // a plain number
	}
	return hexWordAt(t, i)
}

// hexWordAt is volatileWordAt for a word that is not a time: a hash, a
// UUID, or neither.
func hexWordAt(t []byte, i int) (string, int) {
	// A hash or a UUID starts with eight hex digits.
	if i+8 > len(t) {
		return "", wordEnd(t, i)
	}
	if x := load64(t, i); x&msb != 0 || asciiHexDigits(x) != msb {
		return "", wordEnd(t, i)
	}
	end, digits, letters := i, false, false
	for ; end < len(t); end++ {
		d := t[end]
		if isDigit(d) {
			digits = true
		} else if (d|0x20)-'a' < 6 {
			letters = true
		} else {
			break
		}
	}
	if !boundaryAt(t, end) {
		return "", wordEnd(t, end)
	}
	if end-i == 8 {
		if u := uuidEnd(t, end); u > 0 {
			return placeholderUUID, u
		}
	}
	if digits && letters {
		return placeholderHex, end
	}
	return "", end
}

// hexRunEnd is the end of the run of hex digits at i.
func hexRunEnd(t []byte, i int) int {
	for i < len(t) && isHexDigit(t[i]) {
		i++
	}
	return i
}

// uuidEnd is the end of a UUID whose first eight hex digits end at i, or -1.
func uuidEnd(t []byte, i int) int {
	for _, n := range [...]int{4, 4, 4, 12} {
		if i >= len(t) || t[i] != '-' {
			return -1
		}
		i++
		for range n {
			if i >= len(t) || !isHexDigit(t[i]) {
				return -1
			}
			i++
		}
	}
	if !boundaryAt(t, i) {
		return -1
	}
	return i
}

// digitsAt returns the value of the n digits at t[i:] and whether there
// are n digits there.
func digitsAt(t []byte, i, n int) (int, bool) {
	if i+n > len(t) {
		return 0, false
	}
	v := 0
	for _, c := range t[i : i+n] {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// timestampEnd is the end of a timestamp with a time of day starting at i,
// or -1: a date and a time, the compact form, or a bare clock time.
func timestampEnd(t []byte, i int) int {
	n := i
	for n < len(t) && n-i < 9 && isDigit(t[n]) {
		n++
	}
	switch n - i {
	case 1, 2:
		_, seconds := clockAt(t, i)
		return timeTailEnd(t, seconds)
	case 4:
		at := dateTimeAt(t, i)
		if at < 0 {
			return -1
		}
		minutes, seconds := clockAt(t, at)
		if end := timeTailEnd(t, seconds); end > 0 {
			return end
		}
		return timeTailEnd(t, minutes)
	case 8:
		return timeTailEnd(t, compactAt(t, i))
	}
	return -1
}

// timeTailEnd is the end of a timestamp whose time ends at end (or -1), with
// its fraction and zone if any: the longest of the three that a non-word
// byte follows. Backing off to a shorter one where a longer one runs into a
// word keeps normalisation idempotent: the word may be a token, and once it
// is a placeholder the shorter timestamp is all there is.
func timeTailEnd(t []byte, end int) int {
	if end < 0 {
		return -1
	}
	fraction := fractionEnd(t, end)
	zone := zoneEnd(t, fraction)
	switch {
	case boundaryAt(t, zone):
		return zone
	case boundaryAt(t, fraction):
		return fraction
	case boundaryAt(t, end):
		return end
	}
	return -1
}

// dateTimeAt is the index of the time in "yyyy-mm-dd hh:mm..." (or with
// '/', or with 'T' or 't' before the time) starting at i, or -1.
func dateTimeAt(t []byte, i int) int {
	if i+11 >= len(t) || (t[i+4] != '-' && t[i+4] != '/') || t[i+7] != t[i+4] {
		return -1
	}
	month, ok1 := digitsAt(t, i+5, 2)
	day, ok2 := digitsAt(t, i+8, 2)
	if !ok1 || !ok2 || month < 1 || month > 12 || day < 1 || day > 31 {
		return -1
	}
	switch t[i+10] {
	case 'T', 't', ' ':
		return i + 11
	}
	return -1
}

// compactAt is the end of "yyyymmddThhmmss" starting at i, or -1.
func compactAt(t []byte, i int) int {
	month, ok1 := digitsAt(t, i+4, 2)
	day, ok2 := digitsAt(t, i+6, 2)
	if !ok1 || !ok2 || month < 1 || month > 12 || day < 1 || day > 31 ||
		i+8 >= len(t) || (t[i+8] != 'T' && t[i+8] != 't') {
		return -1
	}
	h, ok1 := digitsAt(t, i+9, 2)
	m, ok2 := digitsAt(t, i+11, 2)
	s, ok3 := digitsAt(t, i+13, 2)
	if !ok1 || !ok2 || !ok3 || h > 24 || m > 59 || s > 60 {
		return -1
	}
	return i + 15
}

// clockAt reads "h:mm:ss" or "hh:mm:ss" at i and returns the ends of the
// minutes and of the seconds, -1 for what is not there. A bare clock time
// needs the seconds: "10:30" alone is as likely a ratio or a score.
func clockAt(t []byte, i int) (minutes, seconds int) {
	j := i
	for j < len(t) && j-i < 3 && isDigit(t[j]) {
		j++
	}
	h, ok := digitsAt(t, i, j-i)
	if !ok || j == i || j-i > 2 || h > 24 || j >= len(t) || t[j] != ':' {
		return -1, -1
	}
	if m, ok := digitsAt(t, j+1, 2); !ok || m > 59 {
		return -1, -1
	}
	minutes = j + 3
	if minutes < len(t) && t[minutes] == ':' {
		if s, ok := digitsAt(t, minutes+1, 2); ok && s <= 60 {
			return minutes, minutes + 3
		}
	}
	return minutes, -1
}

// fractionEnd is the end of an optional fraction of a second at i: '.' or
// ',' and digits.
func fractionEnd(t []byte, i int) int {
	if i+1 < len(t) && (t[i] == '.' || t[i] == ',') && isDigit(t[i+1]) {
		i += 2
		for i < len(t) && isDigit(t[i]) {
			i++
		}
	}
	return i
}

// zoneEnd is the end of an optional zone at i: Z, z, ±hh:mm or ±hhmm.
func zoneEnd(t []byte, i int) int {
	if i >= len(t) {
		return i
	}
	switch t[i] {
	case 'Z', 'z':
		return i + 1
	case '+', '-':
		if _, ok := digitsAt(t, i+1, 2); !ok {
			return i
		}
		j := i + 3
		if j < len(t) && t[j] == ':' {
			j++
		}
		if _, ok := digitsAt(t, j, 2); ok {
			return j + 2
		}
	}
	return i
}

// durationEnd is the end of a duration starting at i, or -1: a number, an
// optional space and a unit, then more number-unit pairs without spaces
// (1m30.5s). A duration followed directly by a letter or digit that does
// not continue it is not one.
func durationEnd(t []byte, i int) int {
	k := numberEnd(t, i)
	u := unitEnd(t, k)
	if u < 0 && k < len(t) && t[k] == ' ' {
		u = unitEnd(t, k+1)
	}
	for u >= 0 {
		if boundaryAt(t, u) {
			return u
		}
		if !isDigit(t[u]) {
			return -1
		}
		u = unitEnd(t, numberEnd(t, u))
	}
	return -1
}

// numberEnd is the end of the number at i (digits, then maybe '.' and
// digits); t[i] is a digit.
func numberEnd(t []byte, i int) int {
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i+1 < len(t) && t[i] == '.' && isDigit(t[i+1]) {
		i += 2
		for i < len(t) && isDigit(t[i]) {
			i++
		}
	}
	return i
}

// unitFirst reports whether a time unit may start with c (µ and μ aside).
func unitFirst(c byte) bool {
	return c == 'm' || c == 's' || c == 'u' || c == 'n' || c == 'h'
}

// unitEnd is the end of the time unit at i, or -1: the unit must be the
// whole run of letters there, so "5 items" and "3 steps" have none.
func unitEnd(t []byte, i int) int {
	if i >= len(t) || (t[i] < 0x80 && !unitFirst(t[i])) {
		return -1
	}
	j := i
	if j+1 < len(t) && ((t[j] == 0xC2 && t[j+1] == 0xB5) || (t[j] == 0xCE && t[j+1] == 0xBC)) {
		j += 2 // µ (micro sign) or μ (Greek mu), as in µs
		if j < len(t) && t[j] == 's' && (j+1 == len(t) || !isLetterByte(t[j+1])) {
			return j + 1
		}
		return -1
	}
	for j < len(t) && j-i <= 7 && (t[j]|0x20)-'a' < 26 {
		j++
	}
	if j == i || (j < len(t) && isLetterByte(t[j])) {
		return -1
	}
	switch string(t[i:j]) {
	case "ns", "us", "ms", "s", "sec", "secs", "second", "seconds",
		"m", "min", "mins", "minute", "minutes", "h", "hr", "hrs", "hour", "hours":
		return j
	}
	return -1
}

// tempDirs are the directories whose entries are temporary, by the byte
// after the leading '/'.
var tempDirs = [...]string{"/tmp/", "/var/tmp/", "/var/folders/", "/private/var/folders/", "/dev/shm/"}

// tempPathAt looks at the '/' or '\' at i and returns the span of a temp
// path starting there or of a tempfile name following it, or -1, -1.
// afterName says that the byte before i continues a name, as in
// "/home/u/tmp/x", where no temp path starts.
func tempPathAt(t []byte, i int, afterName bool) (start, end int) {
	if t[i] == '/' && !afterName && i+1 < len(t) {
		switch t[i+1] {
		case 't', 'v', 'p', 'd':
			for _, dir := range tempDirs {
				if len(t)-i >= len(dir) && string(t[i:i+len(dir)]) == dir {
					return i, tempPathEnd(t, i+len(dir))
				}
			}
		}
	}
	// Python's tempfile: "tmp" and random [a-z0-9_], a whole component. Not
	// before '<': a token after a '_' in a longer word (tmpab_c1d2e3f4A) is
	// a placeholder once normalised, and must not make the word a name then.
	j := i + 1
	if len(t)-j < 9 || string(t[j:j+3]) != "tmp" {
		return -1, -1
	}
	k := j + 3
	for k < len(t) && (isDigit(t[k]) || t[k]-'a' < 26 || t[k] == '_') {
		k++
	}
	if k-j < 9 || !boundaryAt(t, k) || (k < len(t) && t[k] == '<') {
		return -1, -1
	}
	return j, k
}

// tempPathEnd is the end of a path continuing at i: the next white space,
// control byte, quote, bracket, ',', ';', ':' or backslash (in text still
// JSON-escaped, "\n" ends the line the path is on).
func tempPathEnd(t []byte, i int) int {
	for ; i < len(t); i++ {
		switch c := t[i]; c {
		case '"', '\'', '`', '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', ':', '\\':
			return i
		default:
			if c <= ' ' || c == 0x7f {
				return i
			}
		}
	}
	return i
}

// AppendDigitsFolded appends text to dst with every maximal run of ASCII
// digits replaced by a single '0'. It is for similarity only, where a
// counter or a line number must not make two outputs differ; equality
// keeps numbers (see AppendVolatileNormalized).
func AppendDigitsFolded(dst, text []byte) []byte {
	lit := 0
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) {
			continue
		}
		j := i + 1
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j-i > 1 || text[i] != '0' {
			dst = append(dst, text[lit:i]...)
			dst = append(dst, '0')
			lit = j
		}
		i = j // text[j] is not a digit
	}
	return append(dst, text[lit:]...)
}
