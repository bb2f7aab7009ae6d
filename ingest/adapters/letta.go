package adapters

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Letta (formerly MemGPT) returns an agent's messages (the messages API,
// client.agents.messages.list, and the response of a send) as typed
// messages told apart by "message_type": "user_message" and
// "assistant_message" ("content"), "reasoning_message" ("reasoning"),
// "tool_call_message" ("tool_call": {"name", "arguments", "tool_call_id"},
// or a "tool_calls" list), "tool_return_message" ("tool_return", "status":
// "success" | "error", "tool_call_id", "stdout", "stderr"; newer servers
// also a "tool_returns" list), "system_message", approvals and others;
// each with its "id" and "date". openai-messages reads such a list as the
// chat messages convertChat reads; before this dialect no reader
// recognised it.

// lettaMessage is a Letta message: the fields read.
type lettaMessage struct {
	Type       string          `json:"message_type"`
	Date       looseString     `json:"date"`
	Content    json.RawMessage `json:"content"`
	Reasoning  string          `json:"reasoning"`
	ToolCall   *lettaToolCall  `json:"tool_call"`
	ToolCalls  []lettaToolCall `json:"tool_calls"`
	ToolReturn json.RawMessage `json:"tool_return"`
	Status     string          `json:"status"`
	CallID     string          `json:"tool_call_id"`
	Stderr     []string        `json:"stderr"`
	Returns    []struct {
		ToolReturn json.RawMessage `json:"tool_return"`
		Status     string          `json:"status"`
		CallID     string          `json:"tool_call_id"`
		Stderr     []string        `json:"stderr"`
	} `json:"tool_returns"`
}

type lettaToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	ID        string          `json:"tool_call_id"`
}

// isLettaMessage reports whether raw is a Letta message: an object with a
// "message_type" of Letta's.
func isLettaMessage(raw json.RawMessage) bool {
	var m struct {
		Type string `json:"message_type"`
	}
	return json.Unmarshal(raw, &m) == nil && strings.HasSuffix(m.Type, "_message")
}

// mayHoldLettaMessages is a cheap first look at a conversation's bytes.
func mayHoldLettaMessages(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"message_type"`))
}

// lettaReturn is a tool's answer: what it returned, and its stderr when
// it failed and printed one.
func lettaReturn(ret json.RawMessage, status string, stderr []string) chatMessage {
	out := text(ret)
	m := chatMessage{Role: "tool"}
	if status == "error" {
		m.errType = "ERROR"
		if s := strings.TrimSpace(strings.Join(stderr, "")); s != "" {
			out = strings.TrimSpace(out + "\n" + s)
		}
	}
	m.Content = jsonString(out)
	return m
}

// lettaMessages turns a list of Letta messages into chat messages, each
// with its position in the list (a message of n calls takes n positions,
// the messages after it moving on by n-1); reasoning is the words of the
// call or reply after it. ok is false when no message is Letta's.
func lettaMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	var reasoning []string
	return dialectMessages(els, isLettaMessage, func(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
		var lm lettaMessage
		if err := json.Unmarshal(el, &lm); err != nil {
			return nil, 0, err
		}
		ts := ccTS(string(lm.Date))
		switch lm.Type {
		case "user_message":
			return []chatMessage{{Role: "user", Content: jsonString(text(lm.Content)), pos: at, ts: ts}}, 1, nil
		case "reasoning_message":
			if strings.TrimSpace(lm.Reasoning) != "" {
				reasoning = append(reasoning, lm.Reasoning)
			}
		case "assistant_message":
			words := strings.Join(append(reasoning, text(lm.Content)), "\n\n")
			reasoning = nil
			return []chatMessage{{Role: "assistant", Content: jsonString(strings.TrimSpace(words)), pos: at, ts: ts}}, 1, nil
		case "tool_call_message":
			calls := lm.ToolCalls
			if len(calls) == 0 && lm.ToolCall != nil {
				calls = []lettaToolCall{*lm.ToolCall}
			}
			m := chatMessage{Role: "assistant", Content: jsonString(strings.Join(reasoning, "\n\n")), pos: at, ts: ts}
			reasoning = nil
			for k, c := range calls {
				m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: c.ID, Function: chatFunction{Name: c.Name, Arguments: c.Arguments}, pos: at + k})
			}
			if len(m.ToolCalls) == 0 {
				return nil, 1, nil
			}
			return []chatMessage{m}, len(m.ToolCalls), nil
		case "tool_return_message":
			if len(lm.Returns) == 0 {
				m := lettaReturn(lm.ToolReturn, lm.Status, lm.Stderr)
				m.ToolCallID, m.pos, m.ts = lm.CallID, at, ts
				return []chatMessage{m}, 1, nil
			}
			var out []chatMessage
			for _, r := range lm.Returns {
				m := lettaReturn(r.ToolReturn, r.Status, r.Stderr)
				m.ToolCallID, m.pos, m.ts = r.CallID, at, ts
				out = append(out, m)
			}
			return out, 1, nil
		}
		// System messages, hidden reasoning, approvals, summaries and
		// pings are no one's step.
		return nil, 1, nil
	})
}
