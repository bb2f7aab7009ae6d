package adapters

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// LangChain and LangGraph write a conversation's messages in their own
// shapes, which openai-messages reads as chat messages:
//
//   - messages_to_dict (a chat history store, FileChatMessageHistory):
//     {"type": "human" | "ai" | "tool" | "system", "data": {MESSAGE}};
//   - a message object dumped as it is (model_dump(), a LangGraph state's
//     "messages"): {"type": "ai", "content": ..., "tool_calls": ...};
//   - LangChain's serialisation (dumpd, LangGraph's JSON checkpoints):
//     {"lc": 1, "type": "constructor", "id": [..., "AIMessage"],
//     "kwargs": {MESSAGE}}.
//
// A MESSAGE holds "content" (text or a list of parts), an AI message's
// "tool_calls" ([{"name", "args", "id"}]; older ones keep OpenAI's calls
// in "additional_kwargs"), a tool message's "tool_call_id" and "status"
// ("error" when the tool raised), "name" (the agent, in a multi-agent
// graph), "usage_metadata" and "response_metadata".

// lcRoles are LangChain's message types and the chat roles they are.
var lcRoles = map[string]string{
	"human": "user", "ai": "assistant", "tool": "tool", "system": "system", "function": "function",
	"chat": "", "developer": "developer", "AIMessageChunk": "assistant",
}

// lcClassTypes are the message classes of LangChain's serialisation and
// their types.
var lcClassTypes = map[string]string{
	"HumanMessage": "human", "AIMessage": "ai", "AIMessageChunk": "ai", "ToolMessage": "tool",
	"SystemMessage": "system", "FunctionMessage": "function", "ChatMessage": "chat",
	"HumanMessageChunk": "human", "ToolMessageChunk": "tool",
}

// lcEnvelope is a LangChain message in any of its three shapes.
type lcEnvelope struct {
	Type   string          `json:"type"`
	Data   json.RawMessage `json:"data"`
	LC     json.RawMessage `json:"lc"`
	ID     json.RawMessage `json:"id"` // the serialisation's class path, a list
	Kwargs json.RawMessage `json:"kwargs"`
	lcBody
}

// lcBody is a LangChain message's fields, the ones read.
type lcBody struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	Role      string          `json:"role"` // a ChatMessage's own role
	Name      string          `json:"name"`
	ToolCalls []struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
		ID   string          `json:"id"`
	} `json:"tool_calls"`
	AdditionalKwargs struct {
		ToolCalls    []chatToolCall `json:"tool_calls"`
		FunctionCall *chatFunction  `json:"function_call"`
	} `json:"additional_kwargs"`
	ToolCallID    string `json:"tool_call_id"`
	Status        string `json:"status"`
	UsageMetadata *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage_metadata"`
	ResponseMetadata struct {
		ModelName string `json:"model_name"`
		Model     string `json:"model"`
	} `json:"response_metadata"`
}

// lcBodyOf returns the message fields of a LangChain message in any of its
// shapes, and its type; ok is false for anything else.
func lcBodyOf(raw json.RawMessage) (b lcBody, typ string, ok bool) {
	var e lcEnvelope
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &e) != nil {
		return b, "", false
	}
	switch {
	case len(e.LC) > 0 && filled(e.Kwargs):
		var class []string
		if json.Unmarshal(e.ID, &class) != nil || len(class) == 0 {
			return b, "", false
		}
		typ = lcClassTypes[class[len(class)-1]]
		if typ == "" || json.Unmarshal(e.Kwargs, &b) != nil {
			return b, "", false
		}
	case filled(e.Data) && e.Data[0] == '{':
		if json.Unmarshal(e.Data, &b) != nil {
			return b, "", false
		}
		typ = e.Type
	default:
		b, typ = e.lcBody, e.Type
		if len(b.Content) == 0 && len(b.ToolCalls) == 0 {
			return b, "", false // a "type" without a message's content
		}
	}
	if _, known := lcRoles[typ]; !known {
		return b, "", false
	}
	return b, typ, true
}

// isLangChainMessage reports whether raw is a LangChain message.
func isLangChainMessage(raw json.RawMessage) bool {
	_, _, ok := lcBodyOf(raw)
	return ok
}

// lcChatMessage turns a LangChain message into the chat message
// convertChat reads; ok is false when raw is not one.
func lcChatMessage(raw json.RawMessage) (chatMessage, bool) {
	b, typ, ok := lcBodyOf(raw)
	if !ok {
		return chatMessage{}, false
	}
	role := lcRoles[typ]
	if typ == "chat" {
		role = b.Role
	}
	m := chatMessage{Role: role, Content: b.Content, Name: b.Name, ToolCallID: b.ToolCallID}
	for _, c := range b.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: c.ID, Function: chatFunction{Name: c.Name, Arguments: c.Args}})
	}
	if len(m.ToolCalls) == 0 {
		m.ToolCalls, m.FunctionCall = b.AdditionalKwargs.ToolCalls, b.AdditionalKwargs.FunctionCall
	}
	if role == "tool" && strings.EqualFold(b.Status, "error") {
		// The tool raised: LangGraph's ToolNode answers with the error's
		// text and this status.
		m.errType = "ERROR"
	}
	if u := b.UsageMetadata; u != nil && (u.InputTokens > 0 || u.OutputTokens > 0) {
		m.usage = &schema.Usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens,
			Model: firstNonEmpty(b.ResponseMetadata.ModelName, b.ResponseMetadata.Model)}
	}
	return m, true
}

// decodeMessages decodes a conversation's messages: those of one of
// chatDialects (OpenCode, Google ADK, Pydantic AI, Gemini, Goose, Letta,
// Semantic Kernel, Haystack, the Vercel AI SDK, the Agent Data Protocol,
// ShareGPT), else OpenAI's {"role": ...} messages, LangChain's (which may be
// mixed with them) or the Responses API's items (responses.go). positioned
// says every message carries its position in the list (a dialect's list,
// where the calls made together take a position each, or a Responses list).
func decodeMessages(raw json.RawMessage) (msgs []chatMessage, positioned bool, err error) {
	var els []json.RawMessage // the list's elements, split once when a dialect may hold it
	for _, d := range chatDialects {
		if !d.mayHold(raw) {
			continue
		}
		if els == nil && json.Unmarshal(raw, &els) != nil {
			break
		}
		msgs, ok, err := d.read(els)
		if d.strict && (ok || err != nil) || !d.strict && ok && err == nil {
			return msgs, true, err
		}
	}
	// Most conversations are OpenAI's alone: one pass decodes them.
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, false, err
	}
	for i := range msgs {
		msgs[i].fromKwargs()
	}
	if !slices.ContainsFunc(msgs, func(m chatMessage) bool { return m.Role == "" }) {
		return msgs, false, nil
	}
	if err := json.Unmarshal(raw, &els); err != nil {
		return nil, false, err
	}
	if slices.ContainsFunc(els, isResponsesItem) {
		msgs, err := responsesMessages(els)
		return msgs, true, err
	}
	msgs = msgs[:0]
	for _, el := range els {
		var m chatMessage
		if err := json.Unmarshal(el, &m); err != nil {
			return nil, false, err
		}
		if m.Role == "" {
			if lc, ok := lcChatMessage(el); ok {
				m = lc
			}
		}
		msgs = append(msgs, m)
	}
	return msgs, false, nil
}

// hasRole reports whether raw is an object with a string "role".
func hasRole(raw json.RawMessage) bool {
	var m struct {
		Role *string `json:"role"`
	}
	return json.Unmarshal(raw, &m) == nil && m.Role != nil
}

// chatDialect is a dialect a conversation's messages may be written in: a
// cheap look at the list's bytes, and the reading of its elements (ok
// false when no element is of the dialect). A strict dialect's error fails
// the conversation; another's leaves the list to the dialects after it.
type chatDialect struct {
	mayHold func([]byte) bool
	read    func([]json.RawMessage) ([]chatMessage, bool, error)
	strict  bool
}

// chatDialects are tried in this order, before OpenAI's own messages:
// OpenCode's and Pydantic AI's messages hold "parts" and no "content", as
// Gemini's do, and come before it.
var chatDialects = []chatDialect{
	{mayHoldOpenCodeMessages, openCodeMessages, true},
	{mayHoldADKEvents, adkMessages, true},
	{mayHoldPydanticAIParts, pydanticAIMessages, true},
	{func(raw []byte) bool { return bytes.Contains(raw, []byte(`"parts"`)) }, geminiDialect, true},
	{mayHoldGooseParts, gooseMessages, false},
	{mayHoldLettaMessages, lettaMessages, false},
	{mayHoldSKItems, skMessages, false},
	{mayHoldHaystackMessages, haystackMessages, false},
	{mayHoldAISDKParts, aiSDKMessages, false},
	{mayHoldADP, adpMessages, false},
	{mayHoldShareGPT, shareGPTMessages, false},
}

// geminiDialect reads Gemini's contents, when the list is one.
func geminiDialect(els []json.RawMessage) ([]chatMessage, bool, error) {
	if !isGeminiContents(els) {
		return nil, false, nil
	}
	msgs, err := geminiMessages(els)
	return msgs, true, err
}
