package adapters

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Microsoft's Semantic Kernel keeps a conversation as a ChatHistory. In
// Python, ChatHistory.serialize() (store_chat_history_to_file) writes
// {"messages": [...]}, each message {"role", "items": [...], "ai_model_id",
// "metadata"} and each item told by its "content_type": "text",
// "function_call" ({"id", "name": "Plugin-Function", "function_name",
// "plugin_name", "arguments"}), "function_result" ({"id", "result"}). In
// .NET, serialising a ChatHistory writes a list of messages {"Role":
// {"Label"}, "Items": [...], "ModelId", "Metadata"}, each item told by its
// "$type": "TextContent", "FunctionCallContent" ({"Id", "PluginName",
// "FunctionName", "Arguments"}), "FunctionResultContent" ({"CallId",
// "Result"}). openai-messages reads either as the chat messages
// convertChat reads; before this dialect it found no call in them.

// skMessage is a message of either spelling: the fields read (Go matches
// "Role" to "role", "Items" to "items" and so on without regard to case).
type skMessage struct {
	Role      json.RawMessage   `json:"role"`
	Items     []json.RawMessage `json:"items"`
	AIModelID string            `json:"ai_model_id"`
	ModelID   string            `json:"ModelId"`
	Metadata  *struct {
		Usage *struct {
			Prompt        looseCount `json:"prompt_tokens"`
			Completion    looseCount `json:"completion_tokens"`
			PromptNet     looseCount `json:"PromptTokens"`
			CompletionNet looseCount `json:"CompletionTokens"`
			InputNet      looseCount `json:"InputTokenCount"`
			OutputNet     looseCount `json:"OutputTokenCount"`
		} `json:"usage"`
	} `json:"metadata"`
}

// skItem is an item of a message, in either spelling.
type skItem struct {
	ContentType     string          `json:"content_type"`
	NetType         string          `json:"$type"`
	Text            string          `json:"text"`
	ID              string          `json:"id"`
	CallID          string          `json:"CallId"`
	Name            string          `json:"name"`
	FunctionName    string          `json:"function_name"`
	PluginName      string          `json:"plugin_name"`
	NetFunctionName string          `json:"FunctionName"`
	NetPluginName   string          `json:"PluginName"`
	Arguments       json.RawMessage `json:"arguments"`
	Result          json.RawMessage `json:"result"`
}

func (it *skItem) kind() string {
	switch firstNonEmpty(it.ContentType, it.NetType) {
	case "text", "TextContent":
		return "text"
	case "function_call", "FunctionCallContent":
		return "call"
	case "function_result", "FunctionResultContent":
		return "result"
	case "reasoning", "ReasoningContent":
		return "reasoning"
	}
	return ""
}

// name is a call's or result's tool: "Plugin-Function", as the model
// was given it.
func (it *skItem) name() string {
	if it.Name != "" {
		return it.Name
	}
	fn, plugin := firstNonEmpty(it.FunctionName, it.NetFunctionName), firstNonEmpty(it.PluginName, it.NetPluginName)
	if plugin != "" && fn != "" {
		return plugin + "-" + fn
	}
	return fn
}

// skRole is a message's role: a string (Python) or {"Label": ...} (.NET).
func skRole(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '{' {
		var r struct {
			Label string `json:"label"`
		}
		json.Unmarshal(raw, &r)
		return r.Label
	}
	return scalar(raw)
}

// isSKNetMessage reports whether raw is a message as .NET writes it: a
// "Role" object and an "Items" list.
func isSKNetMessage(raw json.RawMessage) bool {
	var m struct {
		Role  json.RawMessage `json:"Role"`
		Items json.RawMessage `json:"Items"`
	}
	return json.Unmarshal(raw, &m) == nil && len(m.Role) > 0 && m.Role[0] == '{' && len(m.Items) > 0 && m.Items[0] == '['
}

// mayHoldSKItems is a cheap first look at a conversation's bytes.
func mayHoldSKItems(raw []byte) bool {
	return (bytes.Contains(raw, []byte(`"content_type"`)) && bytes.Contains(raw, []byte(`"items"`))) ||
		bytes.Contains(raw, []byte(`"FunctionCallContent"`)) || bytes.Contains(raw, []byte(`"FunctionResultContent"`)) ||
		(bytes.Contains(raw, []byte(`"$type"`)) && bytes.Contains(raw, []byte(`"Items"`)))
}

// skFailure names a failure Semantic Kernel itself writes as a function's
// result, in place of one the function returned: the function raised, or
// the model's call named no function of the kernel or gave arguments that
// do not parse or do not match it; "" for any other result.
func skFailure(result string) string {
	switch {
	case strings.HasPrefix(result, "An error occurred while invoking the function "),
		strings.HasPrefix(result, "Error: Exception while invoking function."):
		return "ERROR"
	case strings.HasPrefix(result, "The tool call with name `") && strings.Contains(result, "is not part of the provided tools"),
		strings.HasPrefix(result, "The tool call arguments are malformed."),
		strings.HasPrefix(result, "Missing required argument(s):"),
		strings.HasPrefix(result, "Error: Function call processing failed."),
		strings.HasPrefix(result, "Error: Function call request for a function that wasn't defined."),
		strings.HasPrefix(result, "Error: Requested function could not be found."):
		return schema.ErrInvalidCall
	}
	return ""
}

// skMessages turns a Semantic Kernel chat history into chat messages,
// each with its position in the list; an assistant message of n calls
// takes n positions from its own (the messages after it move on by n-1).
// A .NET tool message repeats the result as text beside it: the result is
// read once. ok is false when no message holds Semantic Kernel's items.
func skMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	return dialectMessages(els, isSKMessage, func(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
		var sm skMessage
		if err := json.Unmarshal(el, &sm); err != nil {
			return nil, 0, err
		}
		role := skRole(sm.Role)
		items := make([]skItem, 0, len(sm.Items))
		for _, raw := range sm.Items {
			var it skItem
			if json.Unmarshal(raw, &it) == nil && it.kind() != "" {
				items = append(items, it)
			}
		}
		hasResult := false
		for i := range items {
			hasResult = hasResult || items[i].kind() == "result"
		}
		var out []chatMessage
		var words []string
		var calls []chatToolCall
		for i := range items {
			it := &items[i]
			switch it.kind() {
			case "text", "reasoning":
				if !hasResult && strings.TrimSpace(it.Text) != "" {
					words = append(words, it.Text)
				}
			case "call":
				args := it.Arguments
				if !filled(args) {
					args = json.RawMessage("{}")
				}
				calls = append(calls, chatToolCall{ID: it.ID, Function: chatFunction{Name: it.name(), Arguments: args}, pos: at + len(calls)})
			case "result":
				res := text(it.Result)
				out = append(out, chatMessage{Role: "tool", ToolCallID: firstNonEmpty(it.CallID, it.ID), Name: it.name(), Content: jsonString(res), pos: at, errType: skFailure(res)})
			}
		}
		if hasResult && len(calls) == 0 {
			return out, 1, nil
		}
		return append(out, chatMessage{Role: role, Content: jsonString(strings.Join(words, "\n\n")), ToolCalls: calls, pos: at, usage: sm.usage()}), len(calls), nil
	})
}

// isSKMessage reports whether raw is a Semantic Kernel message: one with
// a list of items (Python's "items", .NET's "Items").
func isSKMessage(raw json.RawMessage) bool {
	var m struct {
		Items json.RawMessage `json:"items"`
	}
	return json.Unmarshal(raw, &m) == nil && len(m.Items) > 0 && m.Items[0] == '['
}

// usage is the tokens and model a message's metadata gives, if any.
func (sm *skMessage) usage() *schema.Usage {
	model := firstNonEmpty(sm.AIModelID, sm.ModelID)
	if (sm.Metadata == nil || sm.Metadata.Usage == nil) && model == "" {
		return nil
	}
	u := &schema.Usage{Model: model}
	if sm.Metadata != nil && sm.Metadata.Usage != nil {
		x := sm.Metadata.Usage
		u.PromptTokens = int64(max(x.Prompt, x.PromptNet, x.InputNet))
		u.CompletionTokens = int64(max(x.Completion, x.CompletionNet, x.OutputNet))
	}
	return u
}
