package adapters

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AgentChat's Console transcript: what autogen_agentchat.ui.Console prints
// while a team or an agent runs, the form most AgentChat runs are kept in
// (a notebook's cell output, `python team.py > run.log`). Each message
// opens with a header line, `---------- TextMessage (user) ----------`
// (releases before 0.4.5 print the source alone, `---------- user
// ----------`), and its text follows: a tool call request is the list's
// Python repr, `[FunctionCall(id='call_1', arguments='{"city": "Oslo"}',
// name='get_weather')]`, its results likewise,
// `[FunctionExecutionResult(content='...', name='get_weather',
// call_id='call_1', is_error=False)]`. With output_stats, a message with
// token counts ends `[Prompt tokens: 10, Completion tokens: 5]` and the
// run ends with a `---------- Summary ----------` block. The transcript is
// read as the AgentChat records it prints, a record per header: a step's
// number is its header's place among the transcript's messages (0-based).

// reConsoleHeader is a Console header: ten dashes, the message's type and
// its source in parentheses (or the source alone), ten dashes.
var reConsoleHeader = regexp.MustCompile(`(?m)^-{10} (?:([A-Z]\w*) \((.*)\)|([^()\n]*?)) -{10}[ \t]*\r?$`)

// reConsoleStats is output_stats' line of a message's tokens.
var reConsoleStats = regexp.MustCompile(`\n?\[Prompt tokens: (\d+), Completion tokens: (\d+)\]\s*$`)

// consoleHead reports whether head opens as a Console transcript: its first
// header (past what the run printed before it: warnings, logging) names an
// AgentChat message type, or the user's task in the older form.
func consoleHead(head []byte) bool {
	loc := reConsoleHeader.FindSubmatchIndex(head)
	if loc == nil {
		return false
	}
	if loc[2] >= 0 {
		return agChatTypes[string(head[loc[2]:loc[3]])]
	}
	return strings.TrimSpace(string(head[loc[6]:loc[7]])) == "user"
}

// consoleRecords parses a Console transcript into the AgentChat records
// its messages print, as model_dump writes them.
func consoleRecords(raw []byte) []json.RawMessage {
	heads := reConsoleHeader.FindAllSubmatchIndex(raw, -1)
	var recs []json.RawMessage
	for k, h := range heads {
		end := len(raw)
		if k+1 < len(heads) {
			end = heads[k+1][0]
		}
		body := strings.TrimRight(string(raw[h[1]:end]), " \t\r\n")
		body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
		typ, src := "", ""
		if h[2] >= 0 {
			typ, src = string(raw[h[2]:h[3]]), string(raw[h[4]:h[5]])
		} else {
			src = strings.TrimSpace(string(raw[h[6]:h[7]]))
			if src == "Summary" {
				continue // output_stats' summary of the run
			}
		}
		rec := map[string]any{"source": src}
		if m := reConsoleStats.FindStringSubmatchIndex(body); m != nil {
			p, _ := strconv.Atoi(body[m[2]:m[3]])
			c, _ := strconv.Atoi(body[m[4]:m[5]])
			rec["models_usage"] = map[string]int{"prompt_tokens": p, "completion_tokens": c}
			body = body[:m[0]]
		}
		calls, callsOK := pyCallList(body, "FunctionCall")
		results, resultsOK := pyCallList(body, "FunctionExecutionResult")
		switch {
		case (typ == "" || typ == "ToolCallRequestEvent") && callsOK:
			typ = "ToolCallRequestEvent"
			rec["content"] = calls
		case (typ == "" || typ == "ToolCallExecutionEvent") && resultsOK:
			typ = "ToolCallExecutionEvent"
			rec["content"] = results
		case typ == "CodeGenerationEvent":
			var blocks []map[string]string
			for _, b := range reFencedBlock.FindAllStringSubmatch(body, -1) {
				blocks = append(blocks, map[string]string{"language": b[1], "code": b[2]})
			}
			rec["content"], rec["code_blocks"] = body, blocks
		case typ == "CodeExecutionEvent":
			rec["result"] = map[string]any{"output": body}
		case typ == "" || typ == "ModelClientStreamingChunkEvent" || typ == "ToolCallRequestEvent" || typ == "ToolCallExecutionEvent":
			// A tool event whose list does not parse (cut by a
			// notebook's output limit) is kept as its agent's words.
			// The older form names no type; a message streamed as it
			// was written prints the chunks' header and no other.
			typ = "TextMessage"
			rec["content"] = body
		default:
			rec["content"] = body
		}
		rec["type"] = typ
		b, _ := json.Marshal(rec)
		recs = append(recs, b)
	}
	return recs
}

// reFencedBlock is a fenced code block of a model's text: its language and
// code.
var reFencedBlock = regexp.MustCompile("(?s)```([\\w+-]*)[ \\t]*\\n(.*?)\\n?```")

// pyCallList reads the Python repr of a list of one class's instances,
// `[Name(key='value', key=True), ...]`, as objects of their keyword
// arguments: strings, numbers, True, False and None. ok is false when s
// does not open with such a list.
func pyCallList(s, name string) (out []map[string]any, ok bool) {
	p := &pyReader{s: strings.TrimSpace(s)}
	if !p.eat("[") {
		return nil, false
	}
	for {
		p.space()
		if p.eat("]") {
			// What follows the list is another stream's lines printed
			// between the message and the next (a notebook joins a
			// cell's stdout and stderr: a library's warnings).
			return out, len(out) > 0
		}
		if len(out) > 0 && !p.eat(",") {
			return nil, false
		}
		p.space()
		if !p.eat(name + "(") {
			return nil, false
		}
		obj := map[string]any{}
		for {
			p.space()
			if p.eat(")") {
				break
			}
			if len(obj) > 0 && !p.eat(",") {
				return nil, false
			}
			p.space()
			key := p.ident()
			if key == "" || !p.eat("=") {
				return nil, false
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			obj[key] = v
		}
		out = append(out, obj)
	}
}

// pyReader reads Python literals from s, from i on.
type pyReader struct {
	s string
	i int
}

func (p *pyReader) eat(t string) bool {
	if strings.HasPrefix(p.s[p.i:], t) {
		p.i += len(t)
		return true
	}
	return false
}

func (p *pyReader) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyReader) ident() string {
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

// value reads a string, a number, True, False or None.
func (p *pyReader) value() (any, bool) {
	p.space()
	switch {
	case p.eat("True"):
		return true, true
	case p.eat("False"):
		return false, true
	case p.eat("None"):
		return nil, true
	case p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"'):
		return p.str()
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[j]) >= 0 {
		j++
	}
	f, err := strconv.ParseFloat(p.s[p.i:j], 64)
	if err != nil {
		return nil, false
	}
	p.i = j
	return f, true
}

// str reads a Python string literal as repr writes one: quoted by ' or ",
// with backslash escapes.
func (p *pyReader) str() (string, bool) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), true
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", false
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", false
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				b.WriteByte(e) // \\, \', \"
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

// isConsoleTranscript reports whether a text document is a Console
// transcript rather than AG2's runtime log.
func isConsoleTranscript(raw []byte) bool {
	return !ag2Head(raw) && consoleHead(raw)
}
