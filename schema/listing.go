package schema

import "bytes"

// A long directory listing (`ls -l`, `ls -la`, `ls -lh`) says which names a
// directory holds; every line of it also carries a mode, a link count, an
// owner, a group, a size and a date, and those columns read much the same in
// any listing (`drwxr-xr-x  2 root root 4096 Nov 14 21:05`). Hashed whole,
// two listings of different directories share most of their words and read
// as one answer. So a line in the long-listing shape is hashed as the name
// it lists, and the `total N` line above the entries is dropped: two long
// listings are the same answer when they list the same names.

// minListingLines is how many lines in the long-listing shape a text needs
// before they are read as a listing: one line is one file's details (`ls -l
// f.py` after an edit shows its new size), and is hashed as it is.
const minListingLines = 3

// dropListingColumns rewrites, in place, the JSON-escaped text dst[start:]
// (lines apart by the escape \n) when at least minListingLines of its lines
// are in the long-listing shape (listedName): each such line becomes the
// name it lists, and a `total N` line becomes blank. Other lines are kept.
// It returns dst shortened.
func dropListingColumns(dst []byte, start int) []byte {
	text := dst[start:]
	listed := 0
	for at := 0; at <= len(text) && listed < minListingLines; {
		end := nextEscapedNewline(text, at)
		if _, ok := listedName(text[at:end]); ok {
			listed++
		}
		at = end + 2
	}
	if listed < minListingLines {
		return dst
	}
	w := start
	for at := 0; at <= len(text); {
		end := nextEscapedNewline(text, at)
		line := text[at:end]
		if name, ok := listedName(line); ok {
			line = line[name:]
		} else if listingTotal(line) {
			line = line[:0]
		}
		w += copy(dst[w:], line)
		if end < len(text) {
			w += copy(dst[w:], `\n`)
		}
		at = end + 2
	}
	return dst[:w]
}

// listedName reports whether line is in the long-listing shape, and where
// the name it lists starts: blanks, at most two numbers (the inode of -i,
// the blocks of -s, 4.0K with -h), a file mode (drwxr-xr-x, -rw-r--r--@,
// lrwxrwxrwx), a link count (or tar tv's owner/group), then, within the next six fields (links, owner, group, size,
// or a device's major and minor numbers), a date: month and day or day and
// month (Nov 14, 14 Nov), then a time or a year (21:05, 2023), or an ISO
// date and time (2024-11-14 21:05, with --time-style=full-iso its seconds
// and zone, already read as a timestamp by AppendVolatileNormalized). The
// name is the rest of the line, a symbolic link's `-> target` with it.
func listedName(line []byte) (int, bool) {
	var fields [12][2]int // start and end of the first fields
	n := 0
	for i := 0; i < len(line) && n < len(fields); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		fields[n] = [2]int{i, j}
		n++
		i = j
	}
	field := func(k int) []byte { return line[fields[k][0]:fields[k][1]] }
	mode := 0
	for mode < n && mode < 2 && len(field(mode)) > 0 && isDigit(field(mode)[0]) {
		mode++
	}
	if mode+1 >= n || !fileMode(field(mode)) {
		return 0, false
	}
	if f := field(mode + 1); !allDigits(f) && !bytes.Contains(f, []byte("/")) {
		return 0, false // neither a link count nor tar's owner/group
	}
	for k := mode + 2; k < n && k <= mode+7; k++ {
		end := 0 // the last field of the date
		switch f := field(k); {
		case string(f) == placeholderTimestamp:
			end = k // an ISO date and time, read as one timestamp
		case isoDate(f) && k+1 < n && clockTime(field(k+1)):
			end = k + 1
		case monthName(f) && k+2 < n && dayOfMonth(field(k+1)) && timeOrYear(field(k+2)):
			end = k + 2
		case dayOfMonth(f) && k+2 < n && monthName(field(k+1)) && timeOrYear(field(k+2)):
			end = k + 2
		default:
			continue
		}
		if end+1 < n && timeZone(field(end+1)) {
			end++
		}
		if end+1 >= n {
			return 0, false // a date and no name
		}
		return fields[end+1][0], true
	}
	return 0, false
}

// fileMode reports whether f is a file mode as ls -l prints it: a type
// letter and three rwx triplets (setuid, setgid and sticky bits shown in
// place of x), optionally followed by '+', '@' or '.' (an ACL, extended
// attributes, an SELinux context).
func fileMode(f []byte) bool {
	if len(f) == 11 && (f[10] == '+' || f[10] == '@' || f[10] == '.') {
		f = f[:10]
	}
	if len(f) != 10 || !isByteOf(f[0], "-dlcbpsDn") {
		return false
	}
	for t := 1; t < 10; t += 3 {
		x := "xsS-"
		if t == 7 {
			x = "xtT-"
		}
		if !isByteOf(f[t], "r-") || !isByteOf(f[t+1], "w-") || !isByteOf(f[t+2], x) {
			return false
		}
	}
	return true
}

func isByteOf(c byte, set string) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

// monthName reports whether f is an English month's three-letter name.
func monthName(f []byte) bool {
	if len(f) != 3 {
		return false
	}
	m := string([]byte{asciiLower[f[0]], asciiLower[f[1]], asciiLower[f[2]]})
	switch m {
	case "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec":
		return true
	}
	return false
}

func dayOfMonth(f []byte) bool {
	return (len(f) == 1 || len(f) == 2) && allDigits(f)
}

// timeOrYear reports whether f is hh:mm (a recent file) or a four-digit
// year (an older one).
func timeOrYear(f []byte) bool {
	return clockTime(f) || (len(f) == 4 && allDigits(f))
}

// clockTime reports whether f is h:mm or hh:mm, optionally with seconds
// and a fraction.
func clockTime(f []byte) bool {
	i := 0
	for i < len(f) && isDigit(f[i]) {
		i++
	}
	if i == 0 || i > 2 || i+3 > len(f) || f[i] != ':' || !allDigits(f[i+1:i+3]) {
		return false
	}
	rest := f[i+3:]
	return len(rest) == 0 || (rest[0] == ':' && len(rest) >= 3 && allDigits(rest[1:3]) &&
		(len(rest) == 3 || (rest[3] == '.' && allDigits(rest[4:]))))
}

// isoDate reports whether f is yyyy-mm-dd.
func isoDate(f []byte) bool {
	return len(f) == 10 && f[4] == '-' && f[7] == '-' &&
		allDigits(f[:4]) && allDigits(f[5:7]) && allDigits(f[8:])
}

// timeZone reports whether f is a numeric zone, +0000 or -0500.
func timeZone(f []byte) bool {
	return len(f) == 5 && (f[0] == '+' || f[0] == '-') && allDigits(f[1:])
}

// listingTotal reports whether line is the `total N` line that opens a
// long listing (N a count of blocks, or a size such as 1.2M with -h).
func listingTotal(line []byte) bool {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if len(line) >= 2 && line[len(line)-2] == '\\' && line[len(line)-1] == 'r' {
		line = line[:len(line)-2] // a CRLF line end
	}
	if len(line)-i < 7 || string(line[i:i+6]) != "total " {
		return false
	}
	n := line[i+6:]
	d := 0
	for d < len(n) && (isDigit(n[d]) || n[d] == '.') {
		d++
	}
	if d == 0 || !isDigit(n[0]) {
		return false
	}
	return d == len(n) || (d+1 == len(n) && isByteOf(n[d], "KMGTPkB"))
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return len(b) > 0
}
