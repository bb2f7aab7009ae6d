package adapters

import (
	"encoding/json"
	"strings"
)

// OpenAI's Responses API writes a conversation as a list of items, which
// the OpenAI Agents SDK keeps and returns (RunResult.to_input_list(), its
// sessions): messages ({"type": "message", "role": ..., "content": [...]}
// or a bare {"role": ..., "content": ...}), the model's calls
// ({"type": "function_call", "name", "arguments", "call_id"}; a custom
// tool's "custom_tool_call" with its "input"; an MCP server's "mcp_call",
// answered in place), their outputs ({"type": "function_call_output",
// "call_id", "output"}), and the model's "reasoning" summaries.
// openai-messages reads such a list as the chat messages convertChat reads:
// the calls the model made together (consecutive call items) are one
// assistant message, each call numbered by its own item's position.

// respItem is one Responses API item: the fields read.
type respItem struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Output    json.RawMessage `json:"output"`
	Error     json.RawMessage `json:"error"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// respCallTypes are the item types of a call the model made, and
// respOutputTypes those of a call's output.
var (
	respCallTypes   = map[string]bool{"function_call": true, "custom_tool_call": true, "mcp_call": true, "local_shell_call": true}
	respOutputTypes = map[string]bool{"function_call_output": true, "custom_tool_call_output": true, "local_shell_call_output": true}
)

// isResponsesItem reports whether raw is a Responses API call, output or
// reasoning item (messages are read as messages).
func isResponsesItem(raw json.RawMessage) bool {
	var it struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &it) == nil && (respCallTypes[it.Type] || respOutputTypes[it.Type] || it.Type == "reasoning")
}

// responsesMessages turns a list of Responses API items (and plain
// messages among them) into chat messages, each with its item's position.
func responsesMessages(els []json.RawMessage) ([]chatMessage, error) {
	var (
		msgs   []chatMessage
		reason []string // reasoning summaries since the model's last move
	)
	calls := -1 // index in msgs of the assistant message the current run of call items joins
	for i, el := range els {
		var it respItem
		if err := json.Unmarshal(el, &it); err != nil {
			return nil, err
		}
		switch {
		case respCallTypes[it.Type]:
			args := it.Arguments
			if it.Type == "custom_tool_call" || (!filled(args) && filled(it.Input)) {
				args = mustJSON(map[string]string{"input": text(it.Input)})
			}
			id := firstNonEmpty(it.CallID, it.ID)
			tc := chatToolCall{ID: id, Function: chatFunction{Name: firstNonEmpty(it.Name, it.Type), Arguments: args}, pos: i}
			if calls < 0 {
				msgs = append(msgs, chatMessage{Role: "assistant", Content: jsonString(strings.Join(reason, "\n\n")), pos: i})
				calls, reason = len(msgs)-1, nil
			}
			msgs[calls].ToolCalls = append(msgs[calls].ToolCalls, tc)
			if it.Type == "mcp_call" {
				// An MCP call is answered in its own item.
				out := chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(text(it.Output)), pos: i}
				if filled(it.Error) {
					out.Content, out.errType = jsonString(text(it.Error)), "ERROR"
				}
				msgs = append(msgs, out)
				calls = -1
			}
			continue
		case respOutputTypes[it.Type]:
			msgs = append(msgs, chatMessage{Role: "tool", ToolCallID: it.CallID, Content: jsonString(text(it.Output)), pos: i})
		case it.Type == "reasoning":
			for _, s := range it.Summary {
				if strings.TrimSpace(s.Text) != "" {
					reason = append(reason, s.Text)
				}
			}
		default:
			var m chatMessage
			if err := json.Unmarshal(el, &m); err != nil {
				return nil, err
			}
			m.pos = i
			if m.Role == "assistant" && len(reason) > 0 && strings.TrimSpace(text(m.Content)) == "" {
				m.Content = jsonString(strings.Join(reason, "\n\n"))
			}
			if m.Role == "assistant" {
				reason = nil
			}
			msgs = append(msgs, m)
		}
		calls = -1
	}
	return msgs, nil
}
