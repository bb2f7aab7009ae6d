package adapters

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Pydantic AI keeps a run's messages (result.all_messages(), saved with
// ModelMessagesTypeAdapter or all_messages_json()) as a list of model
// requests, {"kind": "request", "parts": [...]}, and model responses,
// {"kind": "response", "parts": [...], "usage", "model_name",
// "timestamp"}. Each part says what it is in "part_kind": a request holds
// "system-prompt", "user-prompt", "tool-return" (tool_name, content,
// tool_call_id) and "retry-prompt" (a call whose arguments failed
// validation, or whose tool raised ModelRetry: its content is the
// validation errors or the tool's words); a response holds "text",
// "thinking", "tool-call" (tool_name, args: a JSON string or an object,
// tool_call_id) and a provider's own tools, "builtin-tool-call" answered
// in the same response by "builtin-tool-return". openai-messages reads
// such a list as the chat messages convertChat reads.

// pydMessage is a ModelRequest or a ModelResponse: the fields read.
type pydMessage struct {
	Kind  string    `json:"kind"`
	Parts []pydPart `json:"parts"`
	// Usage is RequestUsage (input_tokens, output_tokens) since 1.0, and
	// Usage (request_tokens, response_tokens) before.
	Usage *struct {
		InputTokens    int64 `json:"input_tokens"`
		OutputTokens   int64 `json:"output_tokens"`
		RequestTokens  int64 `json:"request_tokens"`
		ResponseTokens int64 `json:"response_tokens"`
	} `json:"usage"`
	ModelName string `json:"model_name"`
	Timestamp string `json:"timestamp"`
}

// pydPart is one part of a message: the fields read.
type pydPart struct {
	PartKind   string          `json:"part_kind"`
	Content    json.RawMessage `json:"content"`
	ToolName   string          `json:"tool_name"`
	Args       json.RawMessage `json:"args"`
	ToolCallID string          `json:"tool_call_id"`
	Timestamp  string          `json:"timestamp"`
}

// mayHoldPydanticAIParts is a cheap first look at a conversation's bytes.
func mayHoldPydanticAIParts(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"part_kind"`))
}

// isPydanticAIMessage reports whether raw is a ModelRequest or a
// ModelResponse: an object whose "kind" is "request" or "response" and
// whose "parts" is a list.
func isPydanticAIMessage(raw json.RawMessage) bool {
	if !mayHoldPydanticAIParts(raw) {
		return false
	}
	var m struct {
		Kind  string          `json:"kind"`
		Parts json.RawMessage `json:"parts"`
	}
	return json.Unmarshal(raw, &m) == nil && (m.Kind == "request" || m.Kind == "response") &&
		len(m.Parts) > 0 && m.Parts[0] == '['
}

// pydanticAIMessages turns Pydantic AI's messages into chat messages, each
// with its position in the list; a response of n tool calls takes n
// positions from its own, so that each call keeps a number (the messages
// after it move on by n-1). ok is false when no element is a Pydantic AI
// message.
func pydanticAIMessages(els []json.RawMessage) ([]chatMessage, bool, error) {
	return dialectMessages(els, isPydanticAIMessage, func(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
		var pm pydMessage
		if err := json.Unmarshal(el, &pm); err != nil {
			return nil, 0, err
		}
		if pm.Kind == "response" {
			m, replies := pydResponse(&pm, at)
			return append([]chatMessage{m}, replies...), len(m.ToolCalls), nil
		}
		return pydRequest(&pm, at), 1, nil
	})
}

// pydResponse is a model response as an assistant message, with the
// answers of the provider's own tools that the response holds.
func pydResponse(pm *pydMessage, at int) (chatMessage, []chatMessage) {
	ts := ccTS(pm.Timestamp)
	m := chatMessage{Role: "assistant", pos: at, ts: ts}
	var thoughts, words []string
	var replies []chatMessage
	for _, p := range pm.Parts {
		switch p.PartKind {
		case "tool-call", "builtin-tool-call":
			m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: p.ToolCallID,
				Function: chatFunction{Name: p.ToolName, Arguments: p.Args}, pos: at + len(m.ToolCalls)})
		case "builtin-tool-return":
			replies = append(replies, chatMessage{Role: "tool", ToolCallID: p.ToolCallID, Name: p.ToolName,
				Content: jsonString(pydText(p.Content)), pos: at, ts: ts})
		case "thinking":
			if s := text(p.Content); strings.TrimSpace(s) != "" {
				thoughts = append(thoughts, s)
			}
		case "text":
			if s := text(p.Content); strings.TrimSpace(s) != "" {
				words = append(words, s)
			}
		}
	}
	m.Content = jsonString(strings.Join(append(thoughts, words...), "\n\n"))
	if u := pm.Usage; u != nil {
		in, out := max(u.InputTokens, u.RequestTokens), max(u.OutputTokens, u.ResponseTokens)
		if in > 0 || out > 0 || pm.ModelName != "" {
			m.usage = &schema.Usage{PromptTokens: in, CompletionTokens: out, Model: pm.ModelName}
		}
	}
	return m, replies
}

// pydRequest is a model request as the messages it sends: the system
// prompt, the user's words, and the answers to the calls of the response
// before it. A retry prompt naming a call answers it with a failure: its
// validation errors (a list) are a SCHEMA_ERROR, the words of a tool that
// raised ModelRetry an ERROR. A retry prompt that names no tool asks the
// model to redo its text answer (its tool_call_id is made up): it is read
// as the user's words.
func pydRequest(pm *pydMessage, at int) []chatMessage {
	var msgs []chatMessage
	var user []string
	for _, p := range pm.Parts {
		ts := ccTS(p.Timestamp)
		switch p.PartKind {
		case "system-prompt":
			msgs = append(msgs, chatMessage{Role: "system", Content: jsonString(text(p.Content)), pos: at, ts: ts})
		case "user-prompt":
			user = append(user, text(p.Content))
		case "tool-return":
			msgs = append(msgs, chatMessage{Role: "tool", ToolCallID: p.ToolCallID, Name: p.ToolName,
				Content: jsonString(pydText(p.Content)), pos: at, ts: ts})
		case "retry-prompt":
			if p.ToolName == "" {
				user = append(user, text(p.Content))
				continue
			}
			r := chatMessage{Role: "tool", ToolCallID: p.ToolCallID, Name: p.ToolName,
				Content: jsonString(pydText(p.Content)), pos: at, ts: ts, errType: "ERROR"}
			if len(p.Content) > 0 && p.Content[0] == '[' {
				r.errType = schema.ErrSchemaError
			}
			msgs = append(msgs, r)
		}
	}
	if len(user) > 0 {
		msgs = append(msgs, chatMessage{Role: "user", Content: jsonString(strings.Join(user, "\n\n")), pos: at, ts: ccTS(pm.Timestamp)})
	}
	return msgs
}

// pydText is what a tool's answer or a retry prompt says: a string as it
// is, anything else (a returned object, a list of validation errors) as
// compact JSON.
func pydText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		return text(raw)
	}
	if string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
