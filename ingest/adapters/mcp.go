package adapters

import (
	"encoding/json"
	"strconv"
	"strings"
)

// An MCP tool's answer often reaches a log whole: the CallToolResult as
// JSON (`{"content": [{"type": "text", "text": "..."}], "isError": false}`)
// or as the Python SDK prints one (`meta=None content=[TextContent(type=
// 'text', text='...', annotations=None)] isError=False`), and a proxy tool
// that runs other tools for the agent (a router's execute-tool) wraps the
// inner tool's result in its own. The output rules read lines; inside such
// a wrapper the lines are escaped into one string, and a traceback or an
// `Error:` line is not at the start of any line. So the rules read the
// text the tool gave, unwrapped, and a result that says isError at any
// level is a failure.

// maxMCPUnwrap bounds how many wrappers are taken off: a proxy of a proxy
// is the most seen.
const maxMCPUnwrap = 3

// mcpUnwrap returns the text of the MCP tool result in text (its text
// blocks, one per line) and whether any wrapper said isError; ok is false
// when text is not an MCP result, and text is then read as it is.
func mcpUnwrap(text string) (inner string, isError, ok bool) {
	inner = text
	for range maxMCPUnwrap {
		t, failed, found := mcpResultText(inner)
		if !found {
			break
		}
		inner, isError, ok = t, isError || failed, true
	}
	return inner, isError, ok
}

// mcpResultText reads one MCP result, JSON or the Python SDK's repr.
func mcpResultText(text string) (string, bool, bool) {
	t := strings.TrimSpace(text)
	if !strings.Contains(t, "isError") {
		return "", false, false
	}
	if strings.HasPrefix(t, "{") {
		return mcpJSONText(t)
	}
	return mcpReprText(t)
}

// mcpJSONText reads a CallToolResult as JSON: an object with a content list
// of blocks and an isError member.
func mcpJSONText(t string) (string, bool, bool) {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError *bool `json:"isError"`
	}
	if json.Unmarshal([]byte(t), &r) != nil || r.Content == nil || r.IsError == nil {
		return "", false, false
	}
	var texts []string
	for _, b := range r.Content {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), *r.IsError, true
}

// mcpReprText reads a CallToolResult as Python prints it: `content=[`
// TextContent(type='text', text=LITERAL, ...), ...`]` and a trailing
// `isError=True` or `isError=False`.
func mcpReprText(t string) (string, bool, bool) {
	start := strings.Index(t, "content=[")
	if start < 0 || (start > 0 && t[start-1] != ' ') {
		return "", false, false
	}
	var failed bool
	switch {
	case strings.HasSuffix(t, "isError=True"):
		failed = true
	case strings.HasSuffix(t, "isError=False"):
	default:
		return "", false, false
	}
	rest := t[start+len("content=["):]
	var texts []string
	for {
		i := strings.Index(rest, "TextContent(type='text', text=")
		if i < 0 {
			break
		}
		rest = rest[i+len("TextContent(type='text', text="):]
		s, n, ok := pyStringLiteral(rest)
		if !ok {
			return "", false, false
		}
		texts = append(texts, s)
		rest = rest[n:]
	}
	if texts == nil {
		return "", false, false
	}
	return strings.Join(texts, "\n"), failed, true
}

// pyStringLiteral decodes the Python string literal (as repr writes one:
// single or double quotes, backslash escapes) at the start of s: its value
// and the bytes it took.
func pyStringLiteral(s string) (string, int, bool) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", 0, false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", 0, false
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			width := 2 // \xNN
			switch e {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			if i+width >= len(s) {
				return "", 0, false
			}
			r, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
			if err != nil {
				return "", 0, false
			}
			b.WriteRune(rune(r))
			i += width
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", 0, false
}
