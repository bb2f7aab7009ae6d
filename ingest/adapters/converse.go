package adapters

import (
	"encoding/json"
)

// Amazon Bedrock's Converse API writes a conversation as messages whose
// content blocks are keyed by kind rather than typed: {"text": ...},
// {"toolUse": {"toolUseId", "name", "input"}}, {"toolResult":
// {"toolUseId", "content": [{"text"} | {"json"}], "status"}},
// {"reasoningContent": {"reasoningText": {"text"}}}. Strands Agents keeps
// an agent's messages so. They are Anthropic's blocks under other names:
// anthropic-messages reads them as such.

// cvBlock is one Converse content block: the kinds read.
type cvBlock struct {
	Text    *string `json:"text"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID string `json:"toolUseId"`
		Content   []struct {
			Text *string         `json:"text"`
			JSON json.RawMessage `json:"json"`
		} `json:"content"`
		Status string `json:"status"`
	} `json:"toolResult"`
	Reasoning *struct {
		ReasoningText struct {
			Text string `json:"text"`
		} `json:"reasoningText"`
	} `json:"reasoningContent"`
}

// converseDialect reports whether content is a list of Converse blocks
// that calls a tool or answers one (converseBlocks).
func converseDialect(content json.RawMessage) bool {
	ok, tools := converseBlocks(content)
	return ok && tools
}

// converseAsAnthropic rewrites a message's Converse blocks as Anthropic's
// (text, tool_use, tool_result with is_error, thinking); a message whose
// content is not Converse blocks is returned as it is. Blocks of other
// kinds (images, documents) are left out: they say nothing of a loop.
func converseAsAnthropic(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	if ok, _ := converseBlocks(m["content"]); !ok {
		return raw
	}
	var blocks []cvBlock
	if json.Unmarshal(m["content"], &blocks) != nil {
		return raw
	}
	out := make([]map[string]any, 0, len(blocks))
	for _, b := range blocks {
		switch {
		case b.ToolUse != nil:
			input := b.ToolUse.Input
			if !filled(input) {
				input = json.RawMessage("{}")
			}
			out = append(out, map[string]any{"type": "tool_use", "id": b.ToolUse.ToolUseID, "name": b.ToolUse.Name, "input": input})
		case b.ToolResult != nil:
			var parts []map[string]any
			for _, c := range b.ToolResult.Content {
				switch {
				case c.Text != nil:
					parts = append(parts, map[string]any{"type": "text", "text": *c.Text})
				case filled(c.JSON):
					parts = append(parts, map[string]any{"type": "text", "text": string(c.JSON)})
				}
			}
			out = append(out, map[string]any{"type": "tool_result", "tool_use_id": b.ToolResult.ToolUseID, "content": parts, "is_error": b.ToolResult.Status == "error"})
		case b.Reasoning != nil:
			out = append(out, map[string]any{"type": "thinking", "thinking": b.Reasoning.ReasoningText.Text})
		case b.Text != nil:
			out = append(out, map[string]any{"type": "text", "text": *b.Text})
		}
	}
	content, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	m["content"] = content
	rewritten, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return rewritten
}

// converseBlocks reports whether content is a list of untyped Converse
// blocks (text, toolUse, toolResult, reasoningContent, media, cache
// points), and whether one of them is a toolUse or toolResult.
func converseBlocks(content json.RawMessage) (ok, tools bool) {
	if len(content) == 0 || content[0] != '[' {
		return false, false
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(content, &blocks) != nil || len(blocks) == 0 {
		return false, false
	}
	for _, b := range blocks {
		if _, typed := b["type"]; typed {
			return false, false
		}
		known := false
		for k := range b {
			switch k {
			case "toolUse", "toolResult":
				known, tools = true, true
			case "text", "reasoningContent", "image", "document", "video", "cachePoint", "guardContent":
				known = true
			}
		}
		if !known {
			return false, false
		}
	}
	return true, tools
}
