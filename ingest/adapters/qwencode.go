package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// QwenCode reads the sessions of Qwen Code, a fork of Gemini CLI, which
// keeps each one as JSON Lines, ~/.qwen/projects/<project>/chats/<session
// id>.jsonl: a record a line ({"uuid", "parentUuid", "sessionId",
// "timestamp", "type": "user" | "assistant" | "tool_result" | "system"}),
// the conversation's messages as Gemini Contents ("message": {"role",
// "parts"}), a tool's result on a line of its own with the CLI's
// "toolCallResult" (its status and error type). The file is one run, read
// whole (Format.Transcript); a subagent's records are a run of their own.
var QwenCode = &Format{
	Name:       "qwen-code",
	Title:      "Qwen Code sessions (~/.qwen/projects/*/chats/*.jsonl): records of Gemini contents, a tool's result a line",
	Recognize:  recognizeQwenCode,
	Convert:    convertQwenCode,
	Transcript: isQwenCode,
}

// qwenRecord reports whether obj is a record of a Qwen Code session: a
// "uuid" and a "sessionId", a type of its own, and what only Qwen Code
// writes: a message of Gemini "parts", a "toolCallResult", a
// "systemPayload", or the type "tool_result". (Claude Code's records have
// the same ids, its messages a "content" instead.)
func qwenRecord(obj map[string]json.RawMessage) bool {
	if len(obj["uuid"]) == 0 || len(obj["sessionId"]) == 0 {
		return false
	}
	switch scalar(obj["type"]) {
	case "user", "assistant", "tool_result", "system":
	default:
		return false
	}
	if scalar(obj["type"]) == "tool_result" || obj["toolCallResult"] != nil || obj["systemPayload"] != nil {
		return true
	}
	var m struct {
		Parts   json.RawMessage `json:"parts"`
		Content json.RawMessage `json:"content"`
	}
	return json.Unmarshal(obj["message"], &m) == nil && filled(m.Parts) && !filled(m.Content)
}

// isQwenCode reports whether d is a record of a session, or a session read
// whole (its first line).
func isQwenCode(d *Doc) bool { return d.eventOrFirst(qwenRecord) }

func recognizeQwenCode(d *Doc) error {
	if isQwenCode(d) {
		return nil
	}
	return errors.New(`no Qwen Code record ("uuid" and "sessionId" with a "message" of Gemini "parts", a "toolCallResult" or a "systemPayload")`)
}

// qwenLine is one record: the fields read.
type qwenLine struct {
	Type          looseString `json:"type"`
	SessionID     looseString `json:"sessionId"`
	Timestamp     looseString `json:"timestamp"`
	IsSidechain   looseBool   `json:"isSidechain"`
	AgentID       looseString `json:"agentId"`
	Model         looseString `json:"model"`
	Message       *gemContent `json:"message"`
	UsageMetadata *struct {
		Prompt   looseCount `json:"promptTokenCount"`
		Output   looseCount `json:"candidatesTokenCount"`
		Thoughts looseCount `json:"thoughtsTokenCount"`
		Cached   looseCount `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	ToolCallResult *struct {
		CallID    looseString     `json:"callId"`
		Status    looseString     `json:"status"`
		ErrorType looseString     `json:"errorType"`
		Error     json.RawMessage `json:"error"`
	} `json:"toolCallResult"`
}

// qwenThread is one run of a session: the session's own records, or a
// subagent's.
type qwenThread struct {
	key  string
	msgs []chatMessage
	// calls maps a call id to its call: a later call of a turn takes the
	// number of the line that answers it.
	calls map[string]*chatToolCall
}

// convertQwenCode reads a session: a step is the 0-based line of its
// record, the first call of a turn on the line of the model's message, the
// others on the lines of their results (each result has a line of its
// own); a later call of a turn left unanswered has no number and is left
// out, as in openai-messages.
func convertQwenCode(d *Doc, emit func(*schema.Step) error) error {
	els := d.arr
	if d.IsObject() {
		els = []json.RawMessage{d.Raw}
	}
	var (
		threads []*qwenThread
		byKey   = map[string]*qwenThread{}
		session string
	)
	for i, el := range els {
		var rec qwenLine
		if err := decodeObject(el, &rec); err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		session = firstNonEmpty(session, string(rec.SessionID))
		if rec.Message == nil || (rec.Type != "user" && rec.Type != "assistant" && rec.Type != "tool_result") {
			continue // the CLI's own records: compression, titles, telemetry
		}
		key := ""
		if rec.IsSidechain || rec.AgentID != "" {
			key = "agent-" + firstNonEmpty(string(rec.AgentID), "sidechain")
		}
		th := byKey[key]
		if th == nil {
			th = &qwenThread{key: key, calls: map[string]*chatToolCall{}}
			byKey[key] = th
			threads = append(threads, th)
		}
		th.add(&rec, i, ccTS(string(rec.Timestamp)))
	}
	for _, th := range threads {
		id := session
		if th.key != "" {
			id = joinID(session, th.key)
		}
		// A later call of a turn never answered has no number of its own.
		for k := range th.msgs {
			m := &th.msgs[k]
			kept := m.ToolCalls[:0]
			for _, c := range m.ToolCalls {
				if c.pos >= 0 {
					kept = append(kept, c)
				}
			}
			m.ToolCalls = kept
		}
		r := d.newRun(runName(d, 0, false, id))
		convertChat(r, th.msgs, gcliStyle)
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// add converts one record at line i.
func (th *qwenThread) add(rec *qwenLine, i int, ts *schema.Timestamp) {
	c := rec.Message
	switch rec.Type {
	case "tool_result":
		for _, p := range c.Parts {
			resp := p.FunctionResp
			if resp == nil {
				resp = p.FunctionRespSnake
			}
			if resp == nil {
				continue
			}
			m := chatMessage{Role: "tool", ToolCallID: resp.ID, Name: resp.Name, pos: i, ts: ts,
				Content: jsonString(gemResponseText(resp.Response))}
			if gemFailed(resp.Response) {
				m.errType = "ERROR"
			}
			if r := rec.ToolCallResult; r != nil {
				switch {
				case r.Status == "cancelled":
					m.errType = "REJECTED"
				case r.Status == "error" || filled(r.Error):
					m.errType = gcliErrorType(string(r.ErrorType))
				}
			}
			if call := th.calls[resp.ID]; call != nil && call.pos < 0 {
				call.pos = i // a later call of its turn: numbered by its answer's line
			}
			th.msgs = append(th.msgs, m)
		}
	case "assistant":
		var words, thoughts []string
		am := chatMessage{Role: "assistant", pos: i, ts: ts}
		for k, p := range c.Parts {
			call := p.FunctionCall
			if call == nil {
				call = p.FunctionCallSnake
			}
			switch {
			case call != nil:
				id := firstNonEmpty(call.ID, fmt.Sprintf("qwen-%d-%d", i, k))
				args := call.Args
				if !filled(args) {
					args = json.RawMessage("{}")
				}
				pos := i
				if len(am.ToolCalls) > 0 {
					pos = -1 // numbered by its answer's line, if it has one
				}
				am.ToolCalls = append(am.ToolCalls, chatToolCall{ID: id, Function: chatFunction{Name: call.Name, Arguments: args}, pos: pos, ts: ts})
			case p.Thought:
				thoughts = append(thoughts, p.Text)
			case p.Text != "":
				words = append(words, p.Text)
			}
		}
		am.Content = jsonString(strings.TrimSpace(strings.Join(append(thoughts, words...), "\n\n")))
		if u := rec.UsageMetadata; u != nil {
			am.usage = &schema.Usage{
				PromptTokens:     int64(u.Prompt),
				CompletionTokens: int64(u.Output + u.Thoughts),
				CacheReadTokens:  min(int64(u.Cached), int64(u.Prompt)),
				Model:            string(rec.Model),
			}
		}
		th.msgs = append(th.msgs, am)
		last := &th.msgs[len(th.msgs)-1]
		for k := range last.ToolCalls {
			th.calls[last.ToolCalls[k].ID] = &last.ToolCalls[k]
		}
	case "user":
		if gcliAnswersOnly(mustJSON(c.Parts)) {
			return
		}
		var words []string
		for _, p := range c.Parts {
			if p.Text != "" {
				words = append(words, p.Text)
			}
		}
		th.msgs = append(th.msgs, chatMessage{Role: "user", Content: jsonString(strings.Join(words, "\n\n")), pos: i, ts: ts})
	}
}
