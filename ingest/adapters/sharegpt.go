package adapters

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// ShareGPT's messages, the shape most agent fine-tuning sets keep their
// trajectories in (ETO, AgentInstruct's older dumps, LLaMA-Factory's
// "sharegpt" format): {"from": "human" | "gpt" | "system" |
// "function_call" | "observation", "value": ...} under "conversations".
// LLaMA-Factory writes a tool call as a "function_call" turn whose value is
// the JSON of the call ({"name", "arguments"}, or a list of them for calls
// made together), answered by the next "observation" turn. openai-messages
// reads such a list as the chat messages convertChat reads; agents that
// write their actions as text ("Action: ...") are read as any such
// conversation is.

// shareGPTRoles maps a ShareGPT speaker to a chat role.
var shareGPTRoles = map[string]string{
	"human": "user", "user": "user",
	"gpt": "assistant", "assistant": "assistant", "chatgpt": "assistant", "model": "assistant",
	"system":        "system",
	"function_call": "function_call",
	"observation":   "tool", "tool": "tool", "function": "tool",
}

// isShareGPTMessage reports whether raw is a ShareGPT message: an object
// with a "from" ShareGPT names and a "value".
func isShareGPTMessage(raw json.RawMessage) bool {
	var m struct {
		From  *string          `json:"from"`
		Value *json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil || m.From == nil || m.Value == nil {
		return false
	}
	_, ok := shareGPTRoles[*m.From]
	return ok
}

// mayHoldShareGPT is a cheap first look at a conversation's bytes.
func mayHoldShareGPT(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"from"`)) && bytes.Contains(raw, []byte(`"value"`))
}

// shareGPTMessages turns a list of ShareGPT messages into chat messages,
// each with its position in the list (a turn of n calls made together
// takes n positions, as a dialect's parallel calls do); an observation
// answers the calls of the last function_call turn in order. ok is false
// when no message is ShareGPT's.
func shareGPTMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	var pending []string // ids of the calls not yet answered
	return dialectMessages(els, isShareGPTMessage, func(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
		var m struct {
			From  string          `json:"from"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(el, &m); err != nil {
			return nil, 0, err
		}
		words := text(m.Value)
		switch role := shareGPTRoles[m.From]; role {
		case "function_call":
			calls := shareGPTCalls(words)
			if len(calls) == 0 {
				// A call that does not parse is the agent's words.
				return []chatMessage{{Role: "assistant", Content: jsonString(words), pos: at}}, 1, nil
			}
			msg := chatMessage{Role: "assistant", Content: jsonString(""), pos: at}
			pending = pending[:0]
			for k, c := range calls {
				id := "call_" + strconv.Itoa(at+k)
				pending = append(pending, id)
				msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: id, Function: chatFunction{Name: c.Name, Arguments: c.Arguments}, pos: at + k})
			}
			return []chatMessage{msg}, len(calls), nil
		case "tool":
			msg := chatMessage{Role: "tool", Content: jsonString(words), pos: at}
			if len(pending) > 0 {
				msg.ToolCallID, pending = pending[0], pending[1:]
			}
			return []chatMessage{msg}, 1, nil
		default:
			return []chatMessage{{Role: role, Content: jsonString(words), pos: at}}, 1, nil
		}
	})
}

// shareGPTCall is a call as LLaMA-Factory writes it.
type shareGPTCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// shareGPTCalls reads a function_call turn's value: one call or a list of
// them; none when it is not such JSON.
func shareGPTCalls(value string) []shareGPTCall {
	value = strings.TrimSpace(value)
	var calls []shareGPTCall
	if strings.HasPrefix(value, "[") {
		if json.Unmarshal([]byte(value), &calls) != nil {
			return nil
		}
	} else {
		var c shareGPTCall
		if json.Unmarshal([]byte(value), &c) != nil {
			return nil
		}
		calls = []shareGPTCall{c}
	}
	for _, c := range calls {
		if c.Name == "" {
			return nil
		}
	}
	return calls
}
