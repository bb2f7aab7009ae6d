package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Letta's typed messages: a tool_call_message is a call, answered by the
// tool_return_message with its id, a status of error a failure whose
// stderr is kept with the return; reasoning is the words of the call
// after it; the assistant message is the answer.
func TestLettaMessages(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/letta-memory-replace-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[2 5 8 11 14 17]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, run, 2)
	if tool(s) != "core_memory_replace" || result(s) != "error ERROR" || !strings.HasPrefix(reason(s), "The user is Sarah.") || s.TS == nil {
		t.Errorf("call: %s %s %q %v", tool(s), result(s), reason(s), s.TS)
	}
	if a := args(t, s); a["old_content"] != "First name: Chad" {
		t.Errorf("args %v", a)
	}
	if s := c.step(t, run, 17); s.State != "STOP" || !strings.HasPrefix(reason(s), "I cannot update the memory block.") {
		t.Errorf("answer %q %q", s.State, reason(s))
	}
	raw := mustMarshal(t, []any{
		map[string]any{"message_type": "tool_call_message", "tool_calls": []any{map[string]any{"name": "web_search", "arguments": `{"q":"a"}`, "tool_call_id": "x"}, map[string]any{"name": "web_search", "arguments": `{"q":"b"}`, "tool_call_id": "y"}}},
		map[string]any{"message_type": "tool_return_message", "tool_returns": []any{map[string]any{"tool_call_id": "y", "status": "success", "tool_return": "b found"}, map[string]any{"tool_call_id": "x", "status": "error", "tool_return": "quota exceeded"}}},
	})
	c, run = convertOne(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{0: "web_search error ERROR", 1: "web_search ok"})
}
