package adapters

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The Vercel AI SDK (TypeScript) keeps a conversation as messages whose
// content is a list of typed parts: an assistant's {"type": "tool-call",
// "toolCallId", "toolName", "args" (v4) or "input" (v5)}, answered in a
// "tool" message by {"type": "tool-result", "toolCallId", "toolName",
// "result" (v4, with "isError") or "output" (v5: {"type": "text" | "json" |
// "error-text" | "error-json", "value"})}; "text" and "reasoning" parts
// hold the words. openai-messages reads them as the chat messages
// convertChat reads.

// aiPart is one part of an AI SDK message: the fields read.
type aiPart struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
	Input      json.RawMessage `json:"input"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
	Output     *struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"output"`
}

// mayHoldAISDKParts is a cheap first look at a conversation's bytes.
func mayHoldAISDKParts(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"tool-call"`)) || bytes.Contains(raw, []byte(`"tool-result"`))
}

// aiSDKMessages turns a conversation holding AI SDK parts into chat
// messages, each with its position in the list; an assistant message of n
// tool calls takes n positions from its own, so that each call keeps a
// number (the messages after it move on by n-1). ok is false when no
// message holds a tool-call or tool-result part.
func aiSDKMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	return partMessages(els, aiSDKMessage)
}

// aiSDKMessage appends to msgs what one message of AI SDK parts says.
func aiSDKMessage(msgs []chatMessage, m chatMessage, _ json.RawMessage, parts []aiPart) ([]chatMessage, int, bool) {
	at := m.pos
	var words []string
	var calls []chatToolCall
	var results []chatMessage
	for _, p := range parts {
		switch p.Type {
		case "tool-call":
			args := p.Args
			if !filled(args) {
				args = p.Input
			}
			calls = append(calls, chatToolCall{ID: p.ToolCallID, Function: chatFunction{Name: p.ToolName, Arguments: args}, pos: at + len(calls)})
		case "tool-result":
			r := chatMessage{Role: "tool", ToolCallID: p.ToolCallID, Name: p.ToolName, pos: at}
			out, failed := text(p.Result), p.IsError
			if p.Output != nil {
				out = text(p.Output.Value)
				failed = failed || strings.HasPrefix(p.Output.Type, "error")
			}
			r.Content = jsonString(out)
			if failed {
				r.errType = "ERROR"
			}
			results = append(results, r)
		case "text", "reasoning":
			if strings.TrimSpace(p.Text) != "" {
				words = append(words, p.Text)
			}
		}
	}
	switch {
	case len(results) > 0:
		return append(msgs, results...), 0, true
	case len(calls) > 0:
		m.Content, m.ToolCalls = jsonString(strings.Join(words, "\n\n")), calls
		return append(msgs, m), len(calls) - 1, true
	default:
		return append(msgs, m), 0, false
	}
}

// partMessages walks a conversation whose messages may hold their content
// as a list of typed parts, P being one framework's part type. A message
// whose content is not such a list passes through as it is; convert turns
// any other into chat messages appended to msgs, and says how many
// positions beyond its own the message takes (one per further tool call)
// and whether it held the framework's parts. ok is true when any did.
func partMessages[P any](els []json.RawMessage, convert func(msgs []chatMessage, m chatMessage, el json.RawMessage, parts []P) ([]chatMessage, int, bool)) (msgs []chatMessage, ok bool, err error) {
	pos := 0
	for _, el := range els {
		var m chatMessage
		if err := json.Unmarshal(el, &m); err != nil {
			return nil, false, err
		}
		m.pos = pos
		pos++
		var parts []P
		if len(m.Content) == 0 || m.Content[0] != '[' || json.Unmarshal(m.Content, &parts) != nil {
			msgs = append(msgs, m)
			continue
		}
		var extra int
		var held bool
		msgs, extra, held = convert(msgs, m, el, parts)
		pos += extra
		ok = ok || held
	}
	return msgs, ok, nil
}
