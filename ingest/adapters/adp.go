package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
)

// The Agent Data Protocol's standardized trajectories (ADP: one schema for
// the runs of many agent datasets, SWE-Gym's, Mind2Web's, AgentTuning's
// and others, converted for fine-tuning): {"id", "content": [...],
// "details"}, each item of content told apart by "class_":
// "api_action" ({"function", "kwargs", "description"}: a tool call and
// the thought behind it), "code_action" ({"language", "content",
// "description"}: code the agent ran), "message_action" ({"content",
// "description"}: words to the user), "text_observation" ({"content",
// "source": "user" | "agent" | "environment"}), "web_observation" ({"url",
// "axtree", "html"}) and "image_observation". openai-messages reads such a
// list as the chat messages convertChat reads: an action is an assistant
// turn, the observations from the environment after a call are its
// results in order.

// isADPItem reports whether raw is an item of an ADP trajectory.
func isADPItem(raw json.RawMessage) bool {
	var m struct {
		Class string `json:"class_"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	return strings.HasSuffix(m.Class, "_action") || strings.HasSuffix(m.Class, "_observation")
}

// adpConversation is the content of an ADP trajectory, when obj is one.
func adpConversation(obj map[string]json.RawMessage) (json.RawMessage, bool) {
	raw, ok := obj["content"]
	if !ok {
		return nil, false
	}
	first, ok := firstElement(raw)
	return raw, ok && first != nil && isADPItem(first)
}

// mayHoldADP is a cheap first look at a conversation's bytes.
func mayHoldADP(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"class_"`))
}

// adpItem is an item of an ADP trajectory: the fields read.
type adpItem struct {
	Class       string          `json:"class_"`
	Function    string          `json:"function"`
	Kwargs      json.RawMessage `json:"kwargs"`
	Language    string          `json:"language"`
	Content     json.RawMessage `json:"content"`
	Description string          `json:"description"`
	Source      string          `json:"source"`
	URL         string          `json:"url"`
	AXTree      string          `json:"axtree"`
	HTML        string          `json:"html"`
}

// adpMessages turns the items of an ADP trajectory into chat messages, an
// item a position. ok is false when no item is ADP's.
func adpMessages(els []json.RawMessage) (msgs []chatMessage, ok bool, err error) {
	var pending []string // ids of the calls not yet answered
	return dialectMessages(els, isADPItem, func(el json.RawMessage, _, at int) ([]chatMessage, int, error) {
		var it adpItem
		if err := json.Unmarshal(el, &it); err != nil {
			return nil, 0, err
		}
		call := func(name string, args json.RawMessage) []chatMessage {
			id := "call_" + strconv.Itoa(at)
			pending = append(pending[:0], id)
			return []chatMessage{{Role: "assistant", Content: jsonString(it.Description), pos: at,
				ToolCalls: []chatToolCall{{ID: id, Function: chatFunction{Name: name, Arguments: args}, pos: at}}}}
		}
		switch it.Class {
		case "api_action":
			args := it.Kwargs
			if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			return call(it.Function, args), 1, nil
		case "code_action":
			code := text(it.Content)
			lang := strings.ToLower(it.Language)
			if lang == "bash" || lang == "shell" || lang == "sh" {
				return call("bash", mustJSON(map[string]string{"command": code})), 1, nil
			}
			return call(cmp.Or(lang, "code"), mustJSON(map[string]string{"code": code})), 1, nil
		case "message_action":
			pending = pending[:0]
			words := strings.TrimSpace(strings.Join([]string{it.Description, text(it.Content)}, "\n\n"))
			return []chatMessage{{Role: "assistant", Content: jsonString(words), pos: at}}, 1, nil
		}
		// An observation answers the call made before it, whatever its
		// source (datasets converted from chats mark the environment's
		// answers as the user's); without a call waiting, it is a turn of
		// the user's (or another agent's).
		out := text(it.Content)
		switch it.Class {
		case "web_observation":
			out = strings.TrimSpace(it.URL + "\n" + cmp.Or(it.AXTree, it.HTML))
		case "image_observation":
			out = ""
		}
		if len(pending) == 0 {
			pending = pending[:0]
			return []chatMessage{{Role: "user", Content: jsonString(out), pos: at}}, 1, nil
		}
		m := chatMessage{Role: "tool", Content: jsonString(out), ToolCallID: pending[0], pos: at}
		pending = pending[1:]
		return []chatMessage{m}, 1, nil
	})
}
