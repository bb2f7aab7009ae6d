package adapters

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Google's Gemini API writes a conversation as a list of Contents, each
// {"role": "user" | "model", "parts": [...]}, which the Google GenAI SDKs
// return as a chat's history and Gemini CLI saves as a chat checkpoint: a
// part holds "text", the model's "functionCall" ({"name", "args", "id"})
// or the answer to one, "functionResponse" ({"name", "response", "id"}),
// sent back in a user (or "function", "tool") content. Python dumps write
// the same in snake case (function_call, function_response); a part
// marked "thought" is the model's reasoning. openai-messages reads such a
// list as the chat messages convertChat reads.

// gemPart is one part of a Content: the fields read, in both spellings.
type gemPart struct {
	Text              string   `json:"text"`
	Thought           bool     `json:"thought"`
	FunctionCall      *gemCall `json:"functionCall"`
	FunctionCallSnake *gemCall `json:"function_call"`
	FunctionResp      *gemResp `json:"functionResponse"`
	FunctionRespSnake *gemResp `json:"function_response"`
}

type gemCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type gemResp struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// gemContent is a Content: its role and parts.
type gemContent struct {
	Role  string    `json:"role"`
	Parts []gemPart `json:"parts"`
}

// isGeminiContents reports whether els hold Gemini Contents: a message
// with "parts" and no "content".
func isGeminiContents(els []json.RawMessage) bool {
	for _, el := range els {
		var c struct {
			Parts   json.RawMessage `json:"parts"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(el, &c) == nil && filled(c.Parts) && c.Parts[0] == '[' && !filled(c.Content) {
			return true
		}
	}
	return false
}

// geminiMessages turns Gemini Contents into chat messages, each with its
// position in the list; a content of n function calls takes n positions
// from its own, so that each call keeps a number (the contents after it
// move on by n-1). A function response whose object has an "error" is a
// failed call.
func geminiMessages(els []json.RawMessage) ([]chatMessage, error) {
	var msgs []chatMessage
	pos := 0
	for i, el := range els {
		at := pos
		pos++
		var c gemContent
		if err := json.Unmarshal(el, &c); err != nil {
			return nil, err
		}
		if len(c.Parts) == 0 {
			// Not a Content: a message of another shape among them.
			var m chatMessage
			if err := json.Unmarshal(el, &m); err != nil {
				return nil, err
			}
			m.pos = at
			msgs = append(msgs, m)
			continue
		}
		added, n := gemContentMessages(&c, i, at, "")
		msgs = append(msgs, added...)
		pos += n - 1
	}
	return msgs, nil
}

// gemContentMessages turns one Content, element i of its list at position
// at, into chat messages: the answers it sends back, or the model's turn
// (named name, when an agent of several spoke it) with its calls, or the
// user's words. n is how many positions it takes: one, or one a call.
func gemContentMessages(c *gemContent, i, at int, name string) (msgs []chatMessage, n int) {
	var words, thoughts []string
	var calls []chatToolCall
	var replies []chatMessage
	for k, p := range c.Parts {
		call, resp := p.FunctionCall, p.FunctionResp
		if call == nil {
			call = p.FunctionCallSnake
		}
		if resp == nil {
			resp = p.FunctionRespSnake
		}
		switch {
		case call != nil:
			id := firstNonEmpty(call.ID, "gemini-"+strconv.Itoa(i)+"-"+strconv.Itoa(k))
			calls = append(calls, chatToolCall{ID: id, Function: chatFunction{Name: call.Name, Arguments: call.Args}, pos: at + len(calls)})
		case resp != nil:
			m := chatMessage{Role: "tool", ToolCallID: resp.ID, Name: resp.Name, Content: jsonString(gemResponseText(resp.Response)), pos: at}
			if gemFailed(resp.Response) {
				m.errType = "ERROR"
			}
			replies = append(replies, m)
		case p.Thought:
			thoughts = append(thoughts, p.Text)
		case strings.TrimSpace(p.Text) != "":
			words = append(words, p.Text)
		}
	}
	switch {
	case len(replies) > 0:
		return replies, 1
	case c.Role == "model" || c.Role == "assistant":
		m := chatMessage{Role: "assistant", Name: name, Content: jsonString(strings.Join(append(thoughts, words...), "\n\n")), ToolCalls: calls, pos: at}
		return []chatMessage{m}, max(1, len(calls))
	}
	return []chatMessage{{Role: "user", Content: jsonString(strings.Join(words, "\n\n")), pos: at}}, 1
}

// gemResponseText is what a function response says: its "output",
// "result" or "content" when it has one of them alone, else its JSON.
func gemResponseText(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && len(obj) == 1 {
		for _, k := range []string{"output", "result", "content", "error"} {
			if v, ok := obj[k]; ok {
				return text(v)
			}
		}
	}
	return text(raw)
}

// gemFailed reports whether a function response reports an error: an
// "error" member that is not empty, or a "status" of "error" (the
// convention of Google ADK's tools: {"status": "error", "error_message":
// ...}).
func gemFailed(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return false
	}
	if e, ok := obj["error"]; ok && filled(e) && string(e) != `""` && string(e) != "false" {
		return true
	}
	return strings.EqualFold(scalar(obj["status"]), "error")
}
