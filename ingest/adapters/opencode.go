package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// OpenCode (the terminal coding agent) keeps a session's messages as
// {"info": {...}, "parts": [...]}: `opencode export` writes {"info":
// SESSION, "messages": [...]}, and its server answers a session's messages
// as a bare list of them. A message's info holds its "role", "time"
// ({"created"}, milliseconds), and for the assistant "modelID", "cost",
// "tokens" ({"input", "output", "reasoning", "cache": {"read",
// "write"}}) and an "error" when the model call failed. Its parts are
// typed: "text", "reasoning", "tool" ({"callID", "tool", "state":
// {"status": "completed" | "error" | "pending" | "running", "input",
// "output", "error", "metadata", "time": {"start"}}}: a call and its
// result in one part), "step-start", "step-finish", "file", "patch", ...
// openai-messages reads them as the chat messages convertChat reads.

// ocMessage is one message: the fields read.
type ocMessage struct {
	Info struct {
		Role string `json:"role"`
		Time struct {
			Created float64 `json:"created"`
		} `json:"time"`
		ModelID string    `json:"modelID"`
		Cost    float64   `json:"cost"`
		Tokens  *ocTokens `json:"tokens"`
		Error   *ocError  `json:"error"`
	} `json:"info"`
	Parts []ocPart `json:"parts"`
}

// ocError is the error OpenCode records of a model call that failed (an
// export's message info, a stream's error event): its name and message.
type ocError struct {
	Name string `json:"name"`
	Data struct {
		Message string `json:"message"`
	} `json:"data"`
}

func (e *ocError) text() string { return strings.TrimSpace(e.Name + ": " + e.Data.Message) }

type ocPart struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	CallID string `json:"callID"`
	Tool   string `json:"tool"`
	State  *struct {
		Status   string          `json:"status"`
		Input    json.RawMessage `json:"input"`
		Output   string          `json:"output"`
		Error    string          `json:"error"`
		Metadata *struct {
			Exit *int `json:"exit"`
		} `json:"metadata"`
		Time struct {
			Start float64 `json:"start"`
		} `json:"time"`
	} `json:"state"`
}

// mayHoldOpenCodeMessages is a cheap first look at a list's bytes.
func mayHoldOpenCodeMessages(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"info"`)) && bytes.Contains(raw, []byte(`"parts"`))
}

// isOpenCodeMessage reports whether raw is one of OpenCode's messages: an
// object whose "info" has a string "role" and whose "parts" is a list.
func isOpenCodeMessage(raw json.RawMessage) bool {
	if !mayHoldOpenCodeMessages(raw) {
		return false
	}
	var m struct {
		Info struct {
			Role *string `json:"role"`
		} `json:"info"`
		Parts json.RawMessage `json:"parts"`
	}
	return json.Unmarshal(raw, &m) == nil && m.Info.Role != nil && len(m.Parts) > 0 && m.Parts[0] == '['
}

// openCodeMessages turns OpenCode's messages into chat messages, each with
// its position in the list; an assistant message of n tool parts takes n
// positions from its own (the messages after it move on by n-1). ok is
// false when no element is one of OpenCode's messages.
func openCodeMessages(els []json.RawMessage) ([]chatMessage, bool, error) {
	return dialectMessages(els, isOpenCodeMessage, openCodeMessage)
}

// openCodeMessage turns one message, at position at, into chat messages,
// and says how many positions it takes.
func openCodeMessage(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
	var om ocMessage
	if err := json.Unmarshal(el, &om); err != nil {
		return nil, 0, err
	}
	ts := epochTS(om.Info.Time.Created)
	var words, thoughts []string
	var calls []chatToolCall
	var replies []chatMessage
	for _, p := range om.Parts {
		switch p.Type {
		case "text":
			if strings.TrimSpace(p.Text) != "" {
				words = append(words, p.Text)
			}
		case "reasoning":
			if strings.TrimSpace(p.Text) != "" {
				thoughts = append(thoughts, p.Text)
			}
		case "tool":
			if p.State == nil {
				continue
			}
			call, reply := p.call(p.CallID, at+len(calls), at, cmp.Or(epochTS(p.State.Time.Start), ts))
			calls = append(calls, call)
			if reply != nil {
				replies = append(replies, *reply)
			}
		}
	}
	if om.Info.Role != "assistant" {
		return []chatMessage{{Role: firstNonEmpty(om.Info.Role, "user"), Content: jsonString(strings.Join(words, "\n\n")), pos: at, ts: ts}}, 1, nil
	}
	m := chatMessage{Role: "assistant", Content: jsonString(strings.Join(append(thoughts, words...), "\n\n")), ToolCalls: calls, pos: at, ts: ts, usage: om.usage()}
	if e := om.Info.Error; e != nil && len(calls) == 0 {
		// The model call failed (OpenCode's APIError, a provider's
		// overload): a failed call of "model", so failures in a row
		// read as such.
		msg := e.text()
		m.ToolCalls = []chatToolCall{{ID: "opencode-error", Function: chatFunction{Name: "model", Arguments: json.RawMessage("{}")}, pos: at, ts: ts}}
		replies = []chatMessage{{Role: "tool", ToolCallID: "opencode-error", Content: jsonString(msg), pos: at, ts: ts, errType: errTypeOf(&Span{ErrorText: msg})}}
	}
	return append([]chatMessage{m}, replies...), len(m.ToolCalls), nil
}

// ocTokens are a model turn's tokens as OpenCode counts them.
type ocTokens struct {
	Input     looseCount `json:"input"`
	Output    looseCount `json:"output"`
	Reasoning looseCount `json:"reasoning"`
	Cache     struct {
		Read  looseCount `json:"read"`
		Write looseCount `json:"write"`
	} `json:"cache"`
}

// usage is the tokens as a step's usage: the cached input counted in the
// prompt, reasoning in the completion.
func (t *ocTokens) usage() *schema.Usage {
	return &schema.Usage{PromptTokens: int64(t.Input) + int64(t.Cache.Read) + int64(t.Cache.Write),
		CompletionTokens: int64(t.Output) + int64(t.Reasoning),
		CacheReadTokens:  int64(t.Cache.Read), CacheWriteTokens: int64(t.Cache.Write)}
}

// call is a tool part as a call, numbered pos, and its answer, numbered
// replyPos (nil while the call runs): its output and exit code, or its
// error. OpenCode's "invalid" tool, which it runs for a tool it does not
// have, is a refused call of the tool the model named.
func (p *ocPart) call(id string, pos, replyPos int, ts *schema.Timestamp) (chatToolCall, *chatMessage) {
	args := p.State.Input
	if !filled(args) {
		args = json.RawMessage("{}")
	}
	if name, why, ok := ocInvalidCall(p.Tool, args); ok {
		return chatToolCall{ID: id, Function: chatFunction{Name: name, Arguments: json.RawMessage("{}")}, pos: pos, ts: ts},
			&chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(why), pos: replyPos, ts: ts, errType: schema.ErrInvalidCall}
	}
	c := chatToolCall{ID: id, Function: chatFunction{Name: firstNonEmpty(p.Tool, "tool"), Arguments: args}, pos: pos, ts: ts}
	switch p.State.Status {
	case "completed":
		r := &chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(p.State.Output), pos: replyPos, ts: ts}
		if md := p.State.Metadata; md != nil {
			r.exit = md.Exit
		}
		return c, r
	case "error":
		return c, &chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(p.State.Error), pos: replyPos, ts: ts, errType: ocErrorType(p.Tool, args)}
	}
	return c, nil
}

// ocErrorType is the error type of a call OpenCode reports failed: an
// edit that failed did not land (its old text not found, the file not
// read first); any other call's failure is ERROR.
func ocErrorType(tool string, args json.RawMessage) string {
	if callChange(tool, args) == schema.IntentEdit {
		return schema.ErrEditRejected
	}
	return "ERROR"
}

// ocInvalidCall reads OpenCode's stand-in for a call of a tool it does not
// have: its "invalid" tool, called with {"tool": NAME, "error": WHY}.
func ocInvalidCall(tool string, args json.RawMessage) (name, why string, ok bool) {
	if tool != "invalid" {
		return "", "", false
	}
	var a struct {
		Tool  string `json:"tool"`
		Error string `json:"error"`
	}
	if json.Unmarshal(args, &a) != nil || a.Tool == "" {
		return "", "", false
	}
	return a.Tool, firstNonEmpty(a.Error, "unavailable tool "+a.Tool), true
}

// usage is an assistant message's tokens (cached input counted in the
// prompt, reasoning in the completion), model and cost.
func (om *ocMessage) usage() *schema.Usage {
	t := om.Info.Tokens
	if t == nil && om.Info.ModelID == "" && om.Info.Cost == 0 {
		return nil
	}
	u := &schema.Usage{}
	if t != nil {
		u = t.usage()
	}
	u.Model, u.CostUSD = om.Info.ModelID, max(om.Info.Cost, 0)
	return u
}
