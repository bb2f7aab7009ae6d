package adapters

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// lcConversation is one conversation as LangChain messages: a question,
// a call that fails (the tool raised: status "error"), the same call
// again, its answer, and the reply.
func lcConversation() []map[string]any {
	call := func(id string) map[string]any {
		return map[string]any{"content": "", "type": "ai", "name": "research_agent",
			"tool_calls":        []any{map[string]any{"name": "lookup", "args": map[string]any{"q": "fund return 2023"}, "id": id, "type": "tool_call"}},
			"usage_metadata":    map[string]any{"input_tokens": 120, "output_tokens": 9, "total_tokens": 129},
			"response_metadata": map[string]any{"model_name": "gpt-4o"}}
	}
	return []map[string]any{
		{"content": "What did the fund return in 2023?", "type": "human"},
		call("c1"),
		{"content": "Error: TimeoutError('upstream')", "type": "tool", "tool_call_id": "c1", "name": "lookup", "status": "error"},
		call("c2"),
		{"content": "16.1%", "type": "tool", "tool_call_id": "c2", "name": "lookup", "status": "success"},
		{"content": "It returned 16.1% in 2023.", "type": "ai", "name": "research_agent"},
	}
}

// LangChain's three ways of writing a message (a chat history store's
// messages_to_dict, a LangGraph state's dumped messages, the dumpd
// serialisation of its checkpoints) read as one conversation: the same
// steps, calls, results, errors and tokens.
func TestLangChainMessageShapes(t *testing.T) {
	classes := map[string]string{"human": "HumanMessage", "ai": "AIMessage", "tool": "ToolMessage"}
	shapes := map[string]func(m map[string]any) any{
		"model_dump":       func(m map[string]any) any { return m },
		"messages_to_dict": func(m map[string]any) any { return map[string]any{"type": m["type"], "data": m} },
		"dumpd": func(m map[string]any) any {
			return map[string]any{"lc": 1, "type": "constructor", "id": []string{"langchain", "schema", "messages", classes[m["type"].(string)]}, "kwargs": m}
		},
	}
	var want string
	for name, shape := range shapes {
		var msgs []any
		for _, m := range lcConversation() {
			msgs = append(msgs, shape(m))
		}
		c, run := convertOne(t, OpenAIMessages, mustMarshal(t, map[string]any{"messages": msgs}))
		var got []string
		for _, n := range c.numbers(run) {
			s := c.step(t, run, n)
			line := fmt.Sprintf("%d %s %s %s %q", n, s.State, tool(s), result(s), data(t, s))
			if s.ToolCall != nil {
				line += " " + string(s.ToolCall.Args)
			}
			if s.Usage != nil {
				line += fmt.Sprintf(" %d/%d %s", s.Usage.PromptTokens, s.Usage.CompletionTokens, s.Usage.Model)
			}
			got = append(got, line)
		}
		all := strings.Join(got, "\n")
		if want == "" {
			want = all
		} else if all != want {
			t.Errorf("%s reads as\n%s\nwant (as another shape)\n%s", name, all, want)
		}
	}
	for _, part := range []string{`1 ACT lookup error ERROR "Error: TimeoutError('upstream')" {"q":"fund return 2023"} 120/9 gpt-4o`, `3 ACT lookup ok "16.1%"`, "5 STOP"} {
		if !strings.Contains(want, part) {
			t.Errorf("steps\n%s\nwant a line with %q", want, part)
		}
	}
}

// A tool that raised is a failure by its status, whatever its text says;
// the same text with status "success" is read by the output rules alone.
func TestLangChainToolStatus(t *testing.T) {
	conv := lcConversation()
	conv[2]["content"] = "the upstream service did not answer"
	c, run := convertOne(t, OpenAIMessages, mustMarshal(t, conv))
	if got := result(c.step(t, run, 1)); got != "error ERROR" {
		t.Errorf("status error: %s, want error ERROR", got)
	}
	conv[2]["status"] = "success"
	c, run = convertOne(t, OpenAIMessages, mustMarshal(t, conv))
	if got := result(c.step(t, run, 1)); got != "ok" {
		t.Errorf("status success: %s, want ok", got)
	}
}

// Near misses: objects with a "type" that are not LangChain messages are
// not read as conversations.
func TestLangChainNearMisses(t *testing.T) {
	for _, raw := range []string{
		`[{"type": "human"}, {"type": "ai"}]`,                                                   // no content
		`[{"type": "TextMessage", "source": "user", "content": "hi"}]`,                          // AutoGen's
		`[{"lc": 1, "type": "constructor", "id": ["x", "Widget"], "kwargs": {"content": "a"}}]`, // not a message class
		`{"messages": [{"type": "note", "content": "x"}]}`,                                      // no such type
	} {
		if isMessage(firstOf(t, raw)) {
			t.Errorf("%s: read as a chat message", raw)
		}
	}
}

// firstOf is the first message of a conversation document.
func firstOf(t *testing.T, raw string) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatal(err)
	}
	if obj, ok := v.(map[string]any); ok {
		v = obj["messages"]
	}
	list := v.([]any)
	b, _ := json.Marshal(list[0])
	return b
}
