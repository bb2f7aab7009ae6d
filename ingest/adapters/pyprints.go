package adapters

import (
	"regexp"
	"slices"
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
// print text before any of them could stop it: a print of a string with
// a letter or digit in it, or of what always shows as some text (the
// repr, len, type or ascii of a value), not to a file, before an exit or
// a raise. A block (if, loop, try, with, match) that holds an exit or a
// raise might stop the program; one that does not runs on, and prints for
// sure when every way through it prints for sure: an if with an else
// whose every branch does, a try whose body and every except clause do
// (an error none catches writes a traceback), a with whose body does. A
// function or class defined on the way runs nothing that could stop it.
func programPrints(lines []string) bool {
	tops := pyTopLines(lines)
	for n := 0; n < len(tops); n++ {
	stmts:
		for _, stmt := range pyStatements(lines[tops[n]]) {
			switch {
			case rePyTextPrint.MatchString(stmt) && !strings.Contains(stmt, "file="):
				return true
			case rePyStop.MatchString(stmt):
				return false
			case rePyBlock.MatchString(stmt):
				// The block goes on through its clauses (elif, else,
				// except, finally, case) at the left margin.
				last := n
				for last+1 < len(tops) && rePyClause.MatchString(lines[tops[last+1]]) {
					last++
				}
				end := len(lines)
				if last+1 < len(tops) {
					end = tops[last+1]
				}
				if slices.ContainsFunc(lines[tops[n]:end], pyMayStop) {
					return false
				}
				if pyBlockPrints(lines, tops[n:last+1], end) {
					return true
				}
				n = last
				break stmts // what follows on the line is the block's
			}
		}
	}
	return false
}

// pyTopLines are the indices of the lines of a Python program that open a
// top-level statement: at the left margin, outside a string or brackets
// left open by the lines before, not after a line continued with a
// backslash, and not a comment.
func pyTopLines(lines []string) []int {
	var tops []int
	depth := 0        // brackets left open by the lines before
	var triple string // the quotes of a string left open by the lines before
	continued := false
	for i, line := range lines {
		if depth == 0 && triple == "" && !continued && line != "" && !strings.ContainsRune(" \t#", rune(line[0])) {
			tops = append(tops, i)
		}
		depth, triple = pyLineState(line, depth, triple)
		continued = triple == "" && strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
	}
	return tops
}

// pyBlockPrints reports whether a top-level block whose clauses open at
// the lines heads (the block ending before the line end) prints for sure
// on every way through it: an if with an else, a try whose except
// clauses all print (its else and finally clauses are not needed), or a
// with. A clause's body is the indented lines under its head; a body on
// the head's own line is not read.
func pyBlockPrints(lines []string, heads []int, end int) bool {
	body := func(k int) []string {
		stop := end
		if k+1 < len(heads) {
			stop = heads[k+1]
		}
		if !strings.HasSuffix(pyCode(lines[heads[k]]), ":") {
			return nil
		}
		return pyDedent(lines[heads[k]+1 : stop])
	}
	clause := func(k int) string { return firstWord(strings.TrimLeft(lines[heads[k]], " \t")) }
	switch strings.TrimSuffix(clause(0), ":") {
	case "if":
		if strings.TrimSuffix(clause(len(heads)-1), ":") != "else" {
			return false // no else: the if may be skipped
		}
		for k := range heads {
			if !programPrints(body(k)) {
				return false
			}
		}
		return true
	case "try":
		for k := range heads {
			c := strings.TrimSuffix(clause(k), ":")
			if (c == "try" || c == "except") && !programPrints(body(k)) {
				return false
			}
		}
		return true
	case "with":
		return len(heads) == 1 && programPrints(body(0))
	}
	return false
}

// pyCode is a line of Python without its comment and the blank space at
// its end.
func pyCode(line string) string {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '#':
			return strings.TrimRight(line[:i], " \t\r")
		case '"', '\'':
			i = pyStringEnd(line, i)
		}
	}
	return strings.TrimRight(line, " \t\r")
}

// pyDedent removes the indentation of a block's body (that of its first
// line with code) from each of its lines; a line indented less ends the
// body read.
func pyDedent(lines []string) []string {
	indent := ""
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			indent = l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			break
		}
	}
	if indent == "" {
		return nil
	}
	var out []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, indent):
			out = append(out, l[len(indent):])
		case strings.TrimSpace(l) == "":
			out = append(out, "")
		default:
			return out
		}
	}
	return out
}

// pyMayStop reports whether a line of Python may stop the program
// without a traceback, or with one where it may be caught and hidden:
// an exit or a raise anywhere in it.
func pyMayStop(line string) bool {
	return rePyStopAnywhere.MatchString(line)
}

// rePyTextPrint is a statement that prints some text: a literal with a
// letter or digit in it (print('done'), print(f"found {n}"), print("x:",
// x)), or the repr, len, type or ascii of a value, which always show as
// some text.
var rePyTextPrint = regexp.MustCompile(`^print\(\s*(?:[rRfFuU]?(?:"[^"]*[A-Za-z0-9][^"]*"|'[^']*[A-Za-z0-9][^']*')|(?:repr|len|type|ascii)\()`)

// rePyStop opens a top-level statement that stops the program: an exit
// or a raise.
var rePyStop = regexp.MustCompile(`^(?:sys\.exit|exit\(|quit\(|os\._exit|raise\b)`)

// rePyStopAnywhere is an exit or a raise anywhere in a line.
var rePyStopAnywhere = regexp.MustCompile(`\b(?:sys\.exit|exit\(|quit\(|os\._exit|raise\b|SystemExit)`)

// rePyBlock opens a top-level block that may skip what it holds: an if,
// a loop, a try, a with, a match.
var rePyBlock = regexp.MustCompile(`^(?:if\b|for\b|while\b|try\b|with\b|async\s+(?:for|with)\b|match\b)`)

// rePyClause opens a clause that continues a block: elif, else, except,
// finally, case.
var rePyClause = regexp.MustCompile(`^(?:elif\b|else\b|except\b|finally\b|case\b)`)

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
