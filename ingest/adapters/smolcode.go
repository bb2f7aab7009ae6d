package adapters

import (
	"regexp"
	"strconv"
	"strings"
)

// A smolagents CodeAgent acts by writing Python, one call of
// python_interpreter a step, and calls its tools from that code: a step
// whose code only searches, `results = web_search(query="...")` and a
// print of what came back, is a search however it is wrapped. Read as
// python_interpreter with the code as its args, a dozen rephrasings of one
// query are a dozen different scripts; read as the search tool asked the
// query, they are what they are (RA601, RA602).

// reSmolSearchCall is one line of code calling a search tool (its name
// holds "search": web_search, wikipedia_search, ...) with a string literal
// as its first argument, positional or by keyword, maybe assigned or
// printed: `r = web_search(query="x")`, `print(web_search("x"))`.
var reSmolSearchCall = regexp.MustCompile(`^(?:[A-Za-z_]\w*\s*=\s*)?(print\(\s*)?([A-Za-z_]\w*search\w*)\(\s*(?:[A-Za-z_]\w*\s*=\s*)?("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*(?:,[^()]*)?\)\s*(\))?$`)

// reSmolPrint is a line that prints a name: `print(results)`.
var reSmolPrint = regexp.MustCompile(`^print\(\s*[A-Za-z_]\w*\s*\)$`)

// smolCodeSearch reads the code of a python_interpreter call as the one
// search it makes: the tool and the query, ok false when the code does
// anything else (two searches, a loop, a computation, another tool).
// Comments and blank lines are left out.
func smolCodeSearch(code string) (tool, query string, ok bool) {
	for line := range strings.Lines(code) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if reSmolPrint.MatchString(line) {
			continue
		}
		m := reSmolSearchCall.FindStringSubmatch(line)
		if m == nil || tool != "" || (m[1] != "") != (m[4] != "") {
			return "", "", false
		}
		q, err := pyString(m[3])
		if err != nil {
			return "", "", false
		}
		tool, query = m[2], q
	}
	return tool, query, tool != ""
}

// pyString decodes a Python string literal of one line, in single or
// double quotes, with the escapes Go's strconv knows.
func pyString(lit string) (string, error) {
	if strings.HasPrefix(lit, "'") {
		inner := lit[1 : len(lit)-1]
		inner = strings.ReplaceAll(inner, `\'`, `'`)
		inner = strings.ReplaceAll(inner, `"`, `\"`)
		lit = `"` + inner + `"`
	}
	return strconv.Unquote(lit)
}
