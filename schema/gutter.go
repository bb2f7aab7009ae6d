package schema

import "bytes"

// A listing of a file's lines says the same whether its tool numbered the
// lines or not: `nl -ba f | sed -n 704,716p`, `cat -n f`, an editor's view
// with numbers, and `sed -n 704,716p f` show one text. Similarity is
// judged on what the lines say, so a gutter of line numbers that opens
// nearly every line is dropped before hashing.

// minGutterLines is how many lines a text needs before a column of
// numbers opening them is taken for a gutter: two numbered lines are as
// likely a table.
const minGutterLines = 3

// dropLineGutter removes, from the JSON-escaped text dst[start:] (lines
// apart by the escape \n), the line numbers that open its lines, when all
// but at most one in ten of its non-blank lines open with one: blanks,
// then digits, then a tab (the escape \t), blanks, ':' or '|'. It works in
// place and returns dst shortened.
func dropLineGutter(dst []byte, start int) []byte {
	text := dst[start:]
	// Most texts are not listings: once the unnumbered lines are more than
	// a tenth of all lines (counted high, by every \n escape), no gutter
	// can qualify and the rest of the text need not be walked.
	mostLines := bytes.Count(text, []byte(`\n`)) + 1
	lines, numbered := 0, 0
	for at := 0; at <= len(text); {
		end := nextEscapedNewline(text, at)
		if line := text[at:end]; !blankLine(line) {
			lines++
			if gutterEnd(line) > 0 {
				numbered++
			} else if 10*(lines-numbered) > mostLines {
				return dst
			}
		}
		at = end + 2
	}
	if lines < minGutterLines || 10*numbered < 9*lines {
		return dst
	}
	w := start
	for at := 0; at <= len(text); {
		end := nextEscapedNewline(text, at)
		line := text[at:end]
		line = line[gutterEnd(line):]
		w += copy(dst[w:], line)
		if end < len(text) {
			w += copy(dst[w:], `\n`)
		}
		at = end + 2
	}
	return dst[:w]
}

// nextEscapedNewline is the index of the next \n escape in text at or
// after at, or len(text).
func nextEscapedNewline(text []byte, at int) int {
	for i := at; i+1 < len(text); i++ {
		if text[i] == '\\' {
			if text[i+1] == 'n' {
				return i
			}
			i++ // another escape: its letter is not a backslash
		}
	}
	return len(text)
}

func blankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' {
			return false
		}
	}
	return true
}

// gutterEnd is the length of the line number that opens line, with the
// blanks around it and the separator after it, or 0 when it opens with
// none.
func gutterEnd(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	d := i
	for i < len(line) && isDigit(line[i]) {
		i++
	}
	if i == d || i-d > 7 {
		return 0
	}
	switch {
	case i+1 < len(line) && line[i] == '\\' && line[i+1] == 't':
		i += 2
	case i < len(line) && (line[i] == ':' || line[i] == '|'):
		i++
	case i < len(line) && line[i] == ' ':
	case i == len(line):
		return i // a numbered blank line
	default:
		return 0
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}
