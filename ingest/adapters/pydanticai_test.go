package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Pydantic AI's messages: a response's tool-call parts are the calls, the
// next request's tool-return and retry-prompt parts their answers (a
// retry prompt of validation errors a SCHEMA_ERROR), text and thinking
// parts the words, usage and model_name the tokens and model.
func TestPydanticAIMessages(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/pydantic-ai-messages.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7]" {
		t.Fatalf("steps %s, want [1 3 5 7]: a step per response", got)
	}
	c.calls(t, run, map[int64]string{1: "today ok", 3: "create_event error SCHEMA_ERROR", 5: "create_event ok", 7: " none"})
	if s := c.step(t, run, 1); !strings.Contains(reason(s), "exact date of next Friday") || s.Usage == nil ||
		s.Usage.PromptTokens != 412 || s.Usage.CompletionTokens != 38 || s.Usage.Model != "gpt-4.1-2025-04-14" || s.TS == nil {
		t.Errorf("step 1: reason %q usage %+v ts %v, want the thinking, RequestUsage's tokens, the model and the time", reason(s), s.Usage, s.TS)
	}
	if s := c.step(t, run, 3); !strings.Contains(data(t, s), "valid datetime") || args(t, s)["start"] != "Friday 15:00" {
		t.Errorf("step 3: %q %v, want the validation error for the arguments given as a JSON string", data(t, s), args(t, s))
	}
	if s := c.step(t, run, 5); !strings.Contains(data(t, s), `"event_id":"ev_3391"`) {
		t.Errorf("step 5: %q, want the object the tool returned", data(t, s))
	}
	if s := c.step(t, run, 7); s.State != "STOP" || !strings.HasPrefix(reason(s), "Booked:") {
		t.Errorf("step 7: %s %q, want the answer as STOP", s.State, reason(s))
	}

	// Before 1.0: Usage's request_tokens and response_tokens, args an object.
	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/pydantic-ai-retry-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7 9]" {
		t.Fatalf("steps %s, want [1 3 5 7 9]", got)
	}
	s := c.step(t, run, 9)
	if tool(s)+" "+result(s) != "move_event error SCHEMA_ERROR" || args(t, s)["start"] != "next Tuesday 9am" || s.Usage == nil || s.Usage.PromptTokens != 740 {
		t.Errorf("step 9: %s %s %v %+v, want the rejected move with Usage's request_tokens", tool(s), result(s), args(t, s), s.Usage)
	}
}

// Calls made together keep a number each; a tool that raised ModelRetry
// (a retry prompt of words) failed with ERROR; a provider's own tool is
// answered in its response; a retry prompt that names no tool asks for a
// new text answer and is the user's turn, not a result.
func TestPydanticAIParallelCallsAndRetries(t *testing.T) {
	raw := mustMarshal(t, []map[string]any{
		{"kind": "request", "parts": []any{map[string]any{"part_kind": "user-prompt", "content": "Stock of A-1 and B-2?"}}},
		{"kind": "response", "parts": []any{
			map[string]any{"part_kind": "tool-call", "tool_name": "stock", "args": map[string]any{"sku": "A-1"}, "tool_call_id": "a"},
			map[string]any{"part_kind": "tool-call", "tool_name": "stock", "args": map[string]any{"sku": "B-2"}, "tool_call_id": "b"}}},
		{"kind": "request", "parts": []any{
			map[string]any{"part_kind": "retry-prompt", "tool_name": "stock", "content": "Warehouse API unavailable, try again", "tool_call_id": "b"},
			map[string]any{"part_kind": "tool-return", "tool_name": "stock", "content": 14, "tool_call_id": "a"}}},
		{"kind": "response", "parts": []any{
			map[string]any{"part_kind": "builtin-tool-call", "tool_name": "web_search", "args": map[string]any{"query": "B-2 supplier"}, "tool_call_id": "ws"},
			map[string]any{"part_kind": "builtin-tool-return", "tool_name": "web_search", "content": "Acme Parts", "tool_call_id": "ws"},
			map[string]any{"part_kind": "text", "content": "A-1: 14 in stock."}}},
		{"kind": "request", "parts": []any{map[string]any{"part_kind": "retry-prompt", "content": "Answer with a number", "tool_call_id": "pyd_ai_x"}}},
		{"kind": "response", "parts": []any{map[string]any{"part_kind": "text", "content": "14"}}},
	})
	c, run := convertOne(t, OpenAIMessages, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 4 6]" {
		t.Fatalf("steps %s, want [1 2 4 6]", got)
	}
	if s := c.step(t, run, 1); result(s) != "ok" || data(t, s) != "14" {
		t.Errorf("A-1: %s %q, want its own answer", result(s), data(t, s))
	}
	if s := c.step(t, run, 2); result(s) != "error ERROR" || !strings.Contains(data(t, s), "unavailable") {
		t.Errorf("B-2: %s %q, want the tool's ModelRetry as an error", result(s), data(t, s))
	}
	if s := c.step(t, run, 4); tool(s) != "web_search" || data(t, s) != "Acme Parts" {
		t.Errorf("step 4: %s %q, want the provider's search with its answer", tool(s), data(t, s))
	}
}
