package adapters

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// AG2's (AutoGen 0.2's) console transcript: what its agents print as they
// talk, the form most AG2 runs are kept in (a notebook's cell output, a
// console redirected to a file, a README's example). Each message is
// printed by the agent that receives it:
//
//	user_proxy (to assistant):
//
//	Plot the stock prices of NVDA and TSLA.
//
//	--------------------------------------------------------------------------------
//
// a model's tool call as `***** Suggested tool call (call_1): get_weather
// *****`, `Arguments:` and the arguments, a line of stars; a tool's answer
// as `***** Response from calling tool (call_1) *****`, the output, a line
// of stars (`function` and `Suggested function call: NAME` for the older
// function calls); code run by a user proxy as its reply, `exitcode: 1
// (execution failed)` and `Code output: ...`. Between messages the agents
// print what they do (`>>>>>>>> USING AUTO REPLY...`, `>>>>>>>> EXECUTING
// CODE BLOCK 0 (inferred language is python)...`) and a group chat's
// manager the next speaker (`Next speaker: Engineer`); in a notebook the
// names are coloured with ANSI codes. The transcript is read as the
// received messages of AG2's runtime log (ag2log.go): a step's number is
// its message's place among the transcript's messages (0-based).

// reAG2Header is the line that opens a printed message: the sender, "(to",
// the recipient, "):".
var reAG2Header = regexp.MustCompile(`(?m)^([^\s(][^\n(]*?) \(to ([^\n()]+)\):[ \t]*\r?$`)

// ag2Separator is the line of 80 dashes that ends a printed message.
var ag2Separator = strings.Repeat("-", 80)

// ag2ConsoleHead reports whether head opens as AG2's console transcript:
// a message header, and the separator after it.
func ag2ConsoleHead(head []byte) bool {
	t := stripANSI(string(head))
	loc := reAG2Header.FindStringIndex(t)
	return loc != nil && strings.Contains(t[loc[1]:], ag2Separator)
}

var (
	// Some releases write "Suggested tool Call", and the
	// answer's id in quotes.
	reAG2ToolCall = regexp.MustCompile(`(?m)^\*{5} Suggested tool [Cc]all \(([^)\n]*)\): (\S+) \*{5}\r?\nArguments: ?\r?\n`)
	reAG2FuncCall = regexp.MustCompile(`(?m)^\*{5} Suggested function [Cc]all: (\S+) \*{5}\r?\nArguments: ?\r?\n`)
	reAG2Response = regexp.MustCompile(`(?m)^\*{5} Response from calling (tool|function) (?:\(([^)\n]*)\)|"([^"\n]*)") \*{5}\r?\n`)
	reAG2Stars    = regexp.MustCompile(`(?m)^\*{10,}\r?$`)
)

// ag2ConsoleReceived parses a transcript into the messages received, as
// the runtime log records them: the sender, and the message as AG2 sends
// it (ag2Message).
func ag2ConsoleReceived(raw []byte) []ag2Received {
	t := stripANSI(string(raw))
	heads := reAG2Header.FindAllStringSubmatchIndex(t, -1)
	var out []ag2Received
	for k, h := range heads {
		end := len(t)
		if k+1 < len(heads) {
			end = heads[k+1][0]
		}
		body := t[h[1]:end]
		if i := strings.Index(body, ag2Separator); i >= 0 {
			body = body[:i] // what follows is the agents' console lines
		}
		body = strings.Trim(body, "\r\n")
		msg := ag2ConsoleMessage(body)
		b, _ := json.Marshal(msg)
		out = append(out, ag2Received{Sender: strings.TrimSpace(t[h[2]:h[3]]), Message: b})
	}
	return out
}

// ag2ResponseID is the id (or the function's name) a response's header
// gives, in parentheses or in quotes.
func ag2ResponseID(body string, m []int) string {
	if m[4] >= 0 {
		return body[m[4]:m[5]]
	}
	return body[m[6]:m[7]]
}

// ag2ConsoleMessage reads a printed message's body: its text, the calls it
// suggests, or the tools' answers it carries.
func ag2ConsoleMessage(body string) map[string]any {
	if rs := reAG2Response.FindAllStringSubmatchIndex(body, -1); rs != nil && strings.TrimSpace(body[:rs[0][0]]) == "" {
		var responses []map[string]any
		for k, r := range rs {
			end := len(body)
			if k+1 < len(rs) {
				end = rs[k+1][0]
			}
			out := body[r[1]:end]
			if s := reAG2Stars.FindAllStringIndex(out, -1); s != nil {
				out = out[:s[len(s)-1][0]]
			}
			responses = append(responses, map[string]any{"tool_call_id": ag2ResponseID(body, r), "content": strings.TrimRight(out, "\r\n")})
		}
		if body[rs[0][2]:rs[0][3]] == "function" {
			return map[string]any{"role": "function", "name": ag2ResponseID(body, rs[0]), "content": responses[0]["content"]}
		}
		return map[string]any{"role": "tool", "tool_responses": responses}
	}
	msg := map[string]any{}
	calls := reAG2ToolCall.FindAllStringSubmatchIndex(body, -1)
	fn := reAG2FuncCall.FindStringSubmatchIndex(body)
	text := body
	switch {
	case calls != nil:
		text = body[:calls[0][0]]
		var tcs []map[string]any
		for k, c := range calls {
			end := len(body)
			if k+1 < len(calls) {
				end = calls[k+1][0]
			}
			args := body[c[1]:end]
			if s := reAG2Stars.FindStringIndex(args); s != nil {
				args = args[:s[0]]
			}
			tcs = append(tcs, map[string]any{"id": body[c[2]:c[3]], "type": "function",
				"function": map[string]any{"name": body[c[4]:c[5]], "arguments": strings.TrimSpace(args)}})
		}
		msg["tool_calls"] = tcs
	case fn != nil:
		text = body[:fn[0]]
		args := body[fn[1]:]
		if s := reAG2Stars.FindStringIndex(args); s != nil {
			args = args[:s[0]]
		}
		msg["function_call"] = map[string]any{"name": body[fn[2]:fn[3]], "arguments": strings.TrimSpace(args)}
	}
	msg["content"] = strings.TrimSpace(text)
	return msg
}

// convertAG2Console emits the run of an AG2 console transcript: its
// messages read as a runtime log's received messages are, the first
// sender the task giver.
func convertAG2Console(d *Doc, emit func(*schema.Step) error) error {
	recv := ag2ConsoleReceived(d.Raw)
	if len(recv) == 0 {
		return errors.New("no message")
	}
	var msgs []chatMessage
	shift := 0
	none := func() *schema.Usage { return nil }
	for i, ev := range recv {
		more, n := ag2Messages(ev, i+shift, nil, recv[0].Sender, none)
		msgs = append(msgs, more...)
		shift += n
	}
	r := d.newRun(runName(d, 0, false, ""))
	convertChat(r, ag2AnswersAfterCalls(msgs), autoGenStyle)
	return r.emit(emit)
}
