package adapters

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Cline (the VS Code agent) keeps a task's conversation with the model in
// api_conversation_history.json: Anthropic messages whose assistant turns
// hold tool_use blocks, but whose answers are not tool_result blocks: the
// next user message holds a text block per call, opening with a header,
// "[read_file for 'src/app.ts'] Result:" or "[attempt_completion]
// Result:", and the tool's answer after it ("Command failed with exit
// code 1.\nOutput:\n...", "The tool execution failed with the following
// error:\n<error>...</error>"). A turn without a call is answered with
// "[ERROR] You did not use a tool in your previous response! Please retry
// with a tool use." Messages carry "ts" (milliseconds since the epoch),
// and assistant turns "metrics" ({"tokens": {"prompt", "completion",
// "cached"}}) and "modelInfo" ({"modelId"}). anthropic-messages reads a
// header block as the answer of the call it names among those its
// assistant turn left unanswered (the first so named, else the first).

// pendingCall is a call of the last assistant turn not yet answered.
type pendingCall struct {
	id, name string
}

// clineResult splits a text block that opens with Cline's result header
// into the tool it names and the answer after it.
func clineResult(text string) (tool, body string, ok bool) {
	if !strings.HasPrefix(text, "[") {
		return "", "", false
	}
	m := reClineTool.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	tool, rest := m[1], text[len(m[0]):]
	switch {
	case strings.HasPrefix(rest, "] Result:"):
		body = rest[len("] Result:"):]
	case strings.HasPrefix(rest, " for '"):
		// The argument (a command, a path) may hold new lines: the header
		// ends at the first "'] Result:".
		end := strings.Index(rest, "'] Result:")
		if end < 0 {
			return "", "", false
		}
		body = rest[end+len("'] Result:"):]
	default:
		return "", "", false
	}
	return tool, strings.TrimLeft(body, " \r\n"), true
}

var reClineTool = regexp.MustCompile(`^\[([a-z][a-z0-9_]*)`)

// answer picks the pending call a header naming tool answers and removes
// it: the first pending call of that name (or whose name ends in it, as
// use_subagents is reported as [subagents]), else the first pending one.
func (b *antChat) answer(tool string) (pendingCall, bool) {
	if len(b.pending) == 0 {
		return pendingCall{}, false
	}
	k := 0
	for i, p := range b.pending {
		if p.name == tool || strings.HasSuffix(p.name, "_"+tool) {
			k = i
			break
		}
	}
	p := b.pending[k]
	b.pending = append(b.pending[:k], b.pending[k+1:]...)
	return p, true
}

// answered removes the call a tool_result block answers from the pending.
func (b *antChat) answered(id string) {
	for i, p := range b.pending {
		if p.id == id {
			b.pending = append(b.pending[:i], b.pending[i+1:]...)
			return
		}
	}
}

// clineReply is the reply a header block makes: the answer, its exit code
// when Cline states one ("Command failed with exit code 1.", "Command
// executed successfully (exit code 0).", the command's output after it),
// ERROR when the tool execution failed.
func clineReply(call pendingCall, body string, pos int, ts *schema.Timestamp) chatMessage {
	m := chatMessage{Role: "tool", ToolCallID: call.id, pos: pos, ts: ts}
	if e := reClineExit.FindStringSubmatch(body); e != nil {
		if n, err := strconv.Atoi(e[1] + e[2]); err == nil {
			m.exit = &n
		}
		// The output is what the command printed, after Cline's line
		// saying how it exited: the rules read it as every adapter's.
		if _, out, found := strings.Cut(body, "\nOutput:\n"); found {
			body = out
		} else {
			body = ""
		}
	}
	m.Content = jsonString(body)
	switch {
	case strings.HasPrefix(body, "The tool execution failed with the following error:"):
		m.errType = "ERROR"
	case strings.HasPrefix(body, "The user denied this operation"):
		// The user refused the call (with feedback or without): nothing
		// ran, nothing changed.
		m.errType = "REJECTED"
	}
	return m
}

// clineCompletionAnswer reads what follows attempt_completion's result in
// the same message: the command it ran to show the result, failed
// ("Command failed with exit code N." and its output: the completion is
// no clean end), and the user's <feedback> asking for more (the run went
// on at the user's word: no end at all, the feedback its answer).
func clineCompletionAnswer(reply *chatMessage, after []antBlock) {
	for _, blk := range after {
		if string(blk.Type) != "text" {
			continue
		}
		t := strings.TrimSpace(string(blk.Text))
		if e := reClineExit.FindStringSubmatch(t); e != nil && reply.exit == nil {
			if n, err := strconv.Atoi(e[1] + e[2]); err == nil && n != 0 {
				reply.exit = &n
				_, out, _ := strings.Cut(t, "\nOutput:")
				reply.Content = jsonString(strings.TrimSpace(out))
			}
		}
		if fb, ok := strings.CutPrefix(t, "<feedback>"); ok {
			reply.answeredOn = true
			reply.Content = jsonString(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(fb), "</feedback>")))
		}
	}
}

var reClineExit = regexp.MustCompile(`^Command (?:failed with exit code (-?\d+)|executed successfully \(exit code (0)\))`)

// clineMeta is what Cline adds to a message: its time, and an assistant
// turn's token counts and model.
type clineMeta struct {
	TS      json.RawMessage `json:"ts"`
	Metrics *struct {
		Tokens *struct {
			Prompt     looseCount `json:"prompt"`
			Completion looseCount `json:"completion"`
			Cached     looseCount `json:"cached"`
		} `json:"tokens"`
	} `json:"metrics"`
	ModelInfo *struct {
		ModelID looseString `json:"modelId"`
	} `json:"modelInfo"`
}

// timestamp is the message's "ts" in milliseconds since the epoch; nil
// when it has none or it is not a number of a plausible size.
func (c *clineMeta) timestamp() *schema.Timestamp {
	f, err := strconv.ParseFloat(string(c.TS), 64)
	if err != nil {
		return nil
	}
	return epochTS(f)
}

// usage is an assistant turn's tokens (the cached ones in the prompt) and
// model; nil when Cline logged none.
func (c *clineMeta) usage() *schema.Usage {
	if c.Metrics == nil || c.Metrics.Tokens == nil {
		return nil
	}
	t := c.Metrics.Tokens
	u := &schema.Usage{PromptTokens: int64(t.Prompt) + int64(t.Cached), CompletionTokens: int64(t.Completion)}
	if c.ModelInfo != nil {
		u.Model = string(c.ModelInfo.ModelID)
	}
	return u
}

// clineNoToolRule reads Cline's answer to a turn without a call.
var clineNoToolRule = OutputRule{
	Name: "cline-no-tool", ErrorType: schema.ErrFormatError, ViewsToo: true, Harness: true,
	Doc: "Cline answered a turn without a tool call: the reply begins `[ERROR] You did not use a tool in your previous response!`",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "[ERROR] You did not use a tool in your previous response!")
	},
}

// clineUIMessage reports whether obj is a record of Cline's
// ui_messages.json, what the extension showed ({"ts", "type": "say" |
// "ask", "say": ..., "text"}): the same task's calls are in its
// api_conversation_history.json, read as the run.
func clineUIMessage(obj map[string]json.RawMessage) bool {
	t := scalar(obj["type"])
	_, say := obj["say"]
	_, ask := obj["ask"]
	_, ts := obj["ts"]
	return ts && (t == "say" && say || t == "ask" && ask)
}

// Before native tool calls, Cline (and the editors forked from it) had the
// model write its one call of a turn in the text, as XML: a line
// "<read_file>", a tag per parameter ("<path>src/app.ts</path>", a value
// may span lines), and "</read_file>". The answer comes back as for a
// tool_use block, a text block opening with the result header.

// clineTools are the tools whose XML call is read from a turn's text: a
// call of any other tag is the model's words.
var clineTools = map[string]bool{
	"execute_command": true, "read_file": true, "write_to_file": true, "replace_in_file": true,
	"apply_diff": true, "insert_content": true, "search_and_replace": true, "search_files": true,
	"list_files": true, "list_code_definition_names": true, "codebase_search": true,
	"browser_action": true, "use_mcp_tool": true, "access_mcp_resource": true,
	"ask_followup_question": true, "attempt_completion": true, "plan_mode_respond": true,
	"new_task": true, "switch_mode": true, "fetch_instructions": true, "web_fetch": true,
	"load_mcp_documentation": true, "condense": true, "new_rule": true, "report_bug": true,
}

var (
	reClineOpen  = regexp.MustCompile(`(?m)^[ \t]*<([a-z_]+)>[ \t]*$`)
	reClineParam = regexp.MustCompile(`(?s)<([a-z_]+)>\n?(.*?)\n?</([a-z_]+)>`)
)

// clineXMLCall finds the call a turn's text writes as Cline's XML: the
// tool, its parameters as a JSON object, and the words before it; ok is
// false when the text writes none (no line opening a known tool's tag, or
// no closing tag after it).
func clineXMLCall(text string) (tool string, args json.RawMessage, words string, ok bool) {
	for _, m := range reClineOpen.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if !clineTools[name] {
			continue
		}
		body := text[m[1]:]
		end := strings.Index(body, "</"+name+">")
		if end < 0 {
			continue
		}
		params := map[string]string{}
		for _, p := range reClineParam.FindAllStringSubmatch(body[:end], -1) {
			if p[1] == p[3] {
				params[p[1]] = p[2]
			}
		}
		raw, err := json.Marshal(params)
		if err != nil {
			return "", nil, "", false
		}
		return name, raw, strings.TrimSpace(text[:m[0]]), true
	}
	return "", nil, "", false
}
