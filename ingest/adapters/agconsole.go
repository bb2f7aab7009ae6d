package adapters

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// AgentChat's Console transcript: what autogen_agentchat.ui.Console prints
// while a team or an agent runs, the form most AgentChat runs are kept in
// (a notebook's cell output, `python team.py > run.log`). Each message
// opens with a header line, `---------- TextMessage (user) ----------`
// (earlier releases print the source alone, `---------- user
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

// isConsoleTranscript reports whether a text document is a Console
// transcript rather than AG2's runtime log.
func isConsoleTranscript(raw []byte) bool {
	return !ag2Head(raw) && consoleHead(raw)
}
