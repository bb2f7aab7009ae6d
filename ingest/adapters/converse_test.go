package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Bedrock Converse's untyped blocks read as the Anthropic blocks they
// stand for: the same steps, calls, results and errors.
func TestConverseReadsAsAnthropic(t *testing.T) {
	converse := mustMarshal(t, []map[string]any{
		{"role": "user", "content": []any{map[string]any{"text": "Book a table."}}},
		{"role": "assistant", "content": []any{
			map[string]any{"reasoningContent": map[string]any{"reasoningText": map[string]any{"text": "check first"}}},
			map[string]any{"toolUse": map[string]any{"toolUseId": "t1", "name": "check", "input": map[string]any{"party": 2}}}}},
		{"role": "user", "content": []any{map[string]any{"toolResult": map[string]any{"toolUseId": "t1", "status": "error",
			"content": []any{map[string]any{"text": "booking service unavailable"}}}}}},
		{"role": "assistant", "content": []any{map[string]any{"toolUse": map[string]any{"toolUseId": "t2", "name": "check", "input": map[string]any{"party": 2}}}}},
		{"role": "user", "content": []any{map[string]any{"toolResult": map[string]any{"toolUseId": "t2", "status": "success",
			"content": []any{map[string]any{"json": map[string]any{"available": true}}}}}}},
		{"role": "assistant", "content": []any{map[string]any{"text": "Booked."}}},
	})
	anthropic := mustMarshal(t, []map[string]any{
		{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Book a table."}}},
		{"role": "assistant", "content": []any{
			map[string]any{"type": "thinking", "thinking": "check first"},
			map[string]any{"type": "tool_use", "id": "t1", "name": "check", "input": map[string]any{"party": 2}}}},
		{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "is_error": true,
			"content": []any{map[string]any{"type": "text", "text": "booking service unavailable"}}}}},
		{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t2", "name": "check", "input": map[string]any{"party": 2}}}},
		{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t2", "is_error": false,
			"content": []any{map[string]any{"type": "text", "text": `{"available":true}`}}}}},
		{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Booked."}}},
	})
	describe := func(raw []byte) string {
		c, run := convertOne(t, AnthropicMessages, raw)
		var out []string
		for _, n := range c.numbers(run) {
			s := c.step(t, run, n)
			out = append(out, fmt.Sprintf("%d %s %s %s %q %q", n, s.State, tool(s), result(s), data(t, s), reason(s)))
		}
		return strings.Join(out, "\n")
	}
	got, want := describe(converse), describe(anthropic)
	if got != want {
		t.Errorf("Converse reads as\n%s\nwant, as Anthropic's blocks\n%s", got, want)
	}
	if !strings.Contains(got, `check error ERROR "booking service unavailable" "check first"`) {
		t.Errorf("steps\n%s\nwant the failed check with its reasoning", got)
	}
}

// Converse blocks are not OpenAI's: openai-messages refuses them, naming
// the adapter that reads them.
func TestConverseRefusedByOpenAI(t *testing.T) {
	d := sampleDoc(t, "anthropic-messages/bedrock-converse-loop.json", 0)
	if err := OpenAIMessages.Recognize(d); err == nil || !strings.Contains(err.Error(), "anthropic-messages") {
		t.Errorf("openai-messages: %v, want a refusal naming anthropic-messages", err)
	}
}
