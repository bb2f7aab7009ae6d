package adapters

import (
	"regexp"
	"strings"
)

// A Python program the agent runs from the command line (a here-document,
// or `python -c`) prints for sure when one of its top-level statements
// prints text before anything could end it: Python writes a traceback
// when it fails, so a blank output from it means the program did not run
// as written. This file reads such programs.

// pythonPrintsForSure reports whether the command segment seg runs a
// Python program that prints for sure: seg runs python (python3,
// python3.11, ...), its output not redirected, on a here-document whose
// lines are doc (the lines after the command line), or on the text of its
// -c option.
func pythonPrintsForSure(seg, doc string) bool {
	p := segmentProgram(seg)
	if p != "python" && !strings.HasPrefix(p, "python3") && !strings.HasPrefix(p, "python2") {
		return false
	}
	if reStdoutRedirect.MatchString(reStderrRedirect.ReplaceAllString(unquoted(seg), "")) {
		return false // into a file (a > in the quoted program is the program's)
	}
	if m := reHereDoc.FindStringSubmatch(seg); m != nil && rePythonStdin.MatchString(seg) {
		end := m[1]
		var lines []string
		for _, line := range strings.Split(doc, "\n") {
			if strings.TrimSpace(line) == end {
				return programPrints(lines)
			}
			lines = append(lines, line)
		}
		return false // the document is not closed
	}
	if m := rePythonDashC.FindStringSubmatchIndex(seg); m != nil {
		program, _ := shellWord(seg[m[1]-1:])
		return programPrints(strings.Split(program, "\n"))
	}
	return false
}

// rePythonDashC is python given its program as the text of -c, quoted.
var rePythonDashC = regexp.MustCompile(`^\s*(?:\w+=\S*\s+)*(?:\S*/)?python[0-9.]*\s+(?:-\w+\s+)*-c\s+['"]`)

// reStderrRedirect is what sends only the error stream elsewhere
// (2>&1, 2>/dev/null); reStdoutRedirect any other redirect of output.
var (
	reStderrRedirect = regexp.MustCompile(`2>&1|2>\s*\S+`)
	reStdoutRedirect = regexp.MustCompile(`>`)
)

// programPrints reports whether a Python program's top-level statements
// (lines at the left margin, outside a string or brackets left open)
// print literal text before any of them could stop it: a print of a
// string with a letter or digit in it, not to a file, before an exit,
// a raise, or an if, loop, try or with block that might hold one. A
// function or class defined on the way runs nothing that could stop it.
func programPrints(lines []string) bool {
	depth := 0        // brackets left open by the lines before
	var triple string // the quotes of a string left open by the lines before
	continued := false
	for _, line := range lines {
		top := depth == 0 && triple == "" && !continued && line != "" && line[0] != ' ' && line[0] != '\t'
		if top {
			for _, stmt := range pyStatements(line) {
				switch {
				case rePyLiteralPrint.MatchString(stmt) && !strings.Contains(stmt, "file="):
					return true
				case rePyMayStop.MatchString(stmt):
					return false
				}
			}
		}
		depth, triple = pyLineState(line, depth, triple)
		continued = triple == "" && strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
	}
	return false
}

// rePyLiteralPrint is a statement that prints a literal with a letter or
// digit in it: print('done'), print(f"found {n}"), print("x:", x).
var rePyLiteralPrint = regexp.MustCompile(`^print\(\s*[rRfFuU]?(?:"[^"]*[A-Za-z0-9][^"]*"|'[^']*[A-Za-z0-9][^']*')`)

// rePyMayStop opens a top-level statement after which a print may not
// run: an exit, a raise, or a block that may hold one (if, for, while,
// try, with, match).
var rePyMayStop = regexp.MustCompile(`^(?:sys\.exit|exit\(|quit\(|os\._exit|raise\b|if\b|elif\b|else\b|for\b|while\b|try\b|with\b|async\s+(?:for|with)\b|match\b)`)

// pyLineState carries the brackets and the triple-quoted string a line
// of Python leaves open to the next line. Single-quoted strings and
// comments are skipped; it is a reading for top-level statements, not a
// parser.
func pyLineState(line string, depth int, triple string) (int, string) {
	for i := 0; i < len(line); i++ {
		if triple != "" {
			if strings.HasPrefix(line[i:], triple) {
				i += len(triple) - 1
				triple = ""
			} else if line[i] == '\\' {
				i++
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return depth, triple
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			if q := line[i : i+1]; strings.HasPrefix(line[i:], q+q+q) {
				triple = q + q + q
				i += 2
				continue
			}
			i = pyStringEnd(line, i)
		}
	}
	return depth, triple
}

// pyStringEnd is the index of the quote that closes the one-line string
// literal opened at line[i], escapes skipped; len(line) when the line
// ends first.
func pyStringEnd(line string, i int) int {
	q := line[i]
	for i++; i < len(line) && line[i] != q; i++ {
		if line[i] == '\\' {
			i++
		}
	}
	return min(i, len(line))
}

// pyStatements cuts a line of Python at the semicolons between its
// statements (`import x; print('ok')`, as `python -c` programs are
// written), outside strings and brackets; each without the blank space
// before it.
func pyStatements(line string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '#':
			return append(out, strings.TrimLeft(line[start:i], " \t"))
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			i = pyStringEnd(line, i)
		case ';':
			if depth == 0 {
				out = append(out, strings.TrimLeft(line[start:i], " \t"))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimLeft(line[start:], " \t"))
}
