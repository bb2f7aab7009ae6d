package adapters

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Goose (Block's agent) writes a message's content as typed parts: the
// words ({"type": "text", "text"}), the model's thinking ({"type":
// "thinking", "thinking"}), a call ({"type": "toolRequest", "id",
// "toolCall": {"status": "success", "value": {"name", "arguments"}}},
// "status": "error" with an "error" when the model's call could not be
// parsed) and its answer in the next user message ({"type":
// "toolResponse", "id", "toolResult": {"status": "success", "value":
// [content]} or {"status": "error", "error"}}). Its sessions, its API and
// its exports keep messages so ({"role", "created", "content"});
// openai-messages reads them as the chat messages convertChat reads. Tool
// names are the extension's and the tool's, joined by "__"
// (developer__shell).

// goosePart is one part of a Goose message: the fields read.
type goosePart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	ID       string `json:"id"`
	ToolCall *struct {
		Status string `json:"status"`
		Value  *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"value"`
		Error string `json:"error"`
	} `json:"toolCall"`
	ToolResult *struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
		Error  string          `json:"error"`
	} `json:"toolResult"`
}

// mayHoldGooseParts is a cheap first look at a conversation's bytes.
func mayHoldGooseParts(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"toolRequest"`)) || bytes.Contains(raw, []byte(`"toolResponse"`))
}

// gooseMessages turns a conversation holding Goose's parts into chat
// messages, each with its position in the list; an assistant message of n
// tool requests takes n positions from its own (the messages after it move
// on by n-1). ok is false when no message holds a toolRequest or
// toolResponse part.
func gooseMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	return partMessages(els, gooseMessage)
}

// gooseMessage appends to msgs what one message of Goose's parts says.
func gooseMessage(msgs []chatMessage, m chatMessage, el json.RawMessage, parts []goosePart) ([]chatMessage, int, bool) {
	at := m.pos
	var created struct {
		Created float64 `json:"created"`
	}
	json.Unmarshal(el, &created)
	m.ts = epochTS(created.Created)
	held := false
	var words, thoughts []string
	var calls []chatToolCall
	var results []chatMessage
	for _, p := range parts {
		switch p.Type {
		case "toolRequest":
			held = true
			name, args := "invalid_tool_call", json.RawMessage("{}")
			if tc := p.ToolCall; tc != nil && tc.Value != nil {
				name = firstNonEmpty(tc.Value.Name, "tool")
				if filled(tc.Value.Arguments) {
					args = tc.Value.Arguments
				}
			}
			// A call that could not be parsed keeps its place, named
			// so; Goose answers it with an error response.
			calls = append(calls, chatToolCall{ID: p.ID, Function: chatFunction{Name: name, Arguments: args}, pos: at + len(calls), ts: m.ts})
		case "toolResponse":
			held = true
			r := chatMessage{Role: "tool", ToolCallID: p.ID, pos: at, ts: m.ts}
			if tr := p.ToolResult; tr != nil {
				if tr.Status == "error" {
					r.Content, r.errType = jsonString(tr.Error), "ERROR"
				} else {
					r.Content = jsonString(text(tr.Value))
				}
			}
			results = append(results, r)
		case "thinking":
			if strings.TrimSpace(p.Thinking) != "" {
				thoughts = append(thoughts, p.Thinking)
			}
		case "text":
			if strings.TrimSpace(p.Text) != "" {
				words = append(words, p.Text)
			}
		}
	}
	switch {
	case m.Role == "assistant":
		m.Content, m.ToolCalls = jsonString(strings.Join(append(thoughts, words...), "\n\n")), calls
		return append(append(msgs, m), results...), max(len(calls)-1, 0), held
	case len(results) > 0:
		msgs = append(msgs, results...)
		if len(words) > 0 {
			msgs = append(msgs, chatMessage{Role: m.Role, Content: jsonString(strings.Join(words, "\n\n")), pos: at, ts: m.ts})
		}
		return msgs, 0, held
	default:
		m.Content = jsonString(strings.Join(words, "\n\n"))
		return append(msgs, m), 0, held
	}
}
