package adapters

import (
	"fmt"
	"testing"
)

// Haystack's content items: a tool_call item is a call, answered by the
// tool_call_result whose origin is that call; the meta's usage is the
// call's; five rephrased searches that find nothing are read as such.
func TestHaystackMessages(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/haystack-search-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 6 8 10 12]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, run, 2)
	if tool(s) != "search_docs" || result(s) != "ok empty" || data(t, s) != "No documents found." || reason(s) != "Let me search the documentation." {
		t.Errorf("step 2: %s %s %q %q", tool(s), result(s), data(t, s), reason(s))
	}
	if s.Usage == nil || s.Usage.PromptTokens != 812 || s.Usage.CompletionTokens != 38 || s.Usage.Model != "gpt-4o-mini-2024-07-18" {
		t.Errorf("usage %+v", s.Usage)
	}
	if got := fmt.Sprint(args(t, s)); got != "map[query:partial refund bank transfer invoice top_k:5]" {
		t.Errorf("args %s", got)
	}
	if s := c.step(t, run, 12); s.State != "STOP" {
		t.Errorf("answer %q", s.State)
	}
}

// Before 2.9 Haystack wrote "_role" and "_content"; a call without an id
// is answered by the result whose origin is the same call, in whatever
// order the results come; a failed result is an error.
func TestHaystackLegacyAndCallsWithoutIDs(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/haystack-legacy-messages.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 5]" {
		t.Fatalf("steps %s", got)
	}
	if got := data(t, c.step(t, run, 2)); got != `{"amount": 57.71, "currency": "USD"}` {
		t.Errorf("second call's result %q", got)
	}
	a := map[string]any{"tool_name": "lookup", "arguments": map[string]any{"q": "a"}, "id": nil}
	b := map[string]any{"tool_name": "lookup", "arguments": map[string]any{"q": "b"}, "id": nil}
	raw := mustMarshal(t, map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"text": "go"}}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"tool_call": a}, map[string]any{"tool_call": b}}},
		map[string]any{"role": "tool", "content": []any{map[string]any{"tool_call_result": map[string]any{"result": "index unavailable", "origin": b, "error": true}}}},
		map[string]any{"role": "tool", "content": []any{map[string]any{"tool_call_result": map[string]any{"result": "found a", "origin": a, "error": false}}}},
	}})
	c, run = convertOne(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{1: "lookup ok", 2: "lookup error ERROR"})
	if got := data(t, c.step(t, run, 1)); got != "found a" {
		t.Errorf("first call's result %q: paired by its origin, not by order", got)
	}
}
