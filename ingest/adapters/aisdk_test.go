package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// The Vercel AI SDK's typed parts: tool-call parts are the calls (v4's
// "args", v5's "input"), tool-result parts their answers by toolCallId
// (v4's "result" with "isError", v5's "output" whose type says "error-..."),
// text parts the words.
func TestAISDKParts(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/ai-sdk-messages.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7 9]" {
		t.Fatalf("steps %s, want [1 3 5 7 9]", got)
	}
	c.calls(t, run, map[int64]string{1: "deploy error ERROR", 3: "build_logs error ERROR", 5: "set_env ok", 7: "deploy ok"})

	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/ai-sdk-deploy-loop.json"))
	s := c.step(t, run, 2)
	if tool(s) != "deploy" || result(s) != "error ERROR" || !strings.HasPrefix(data(t, s), "Deployment failed") || reason(s) != "Deploying to staging." {
		t.Errorf("step 2: %s %s %q %q, want v5's failed deploy with its words", tool(s), result(s), data(t, s), reason(s))
	}
	if got := fmt.Sprint(args(t, s)); got != "map[app:web env:staging]" {
		t.Errorf("step 2 args %s, want v5's input", got)
	}
}

// Two calls in one assistant message keep a number each, the messages
// after them moving on by one; a v5 output that is no error is a result.
func TestAISDKParallelCalls(t *testing.T) {
	raw := mustMarshal(t, []map[string]any{
		{"role": "user", "content": "Weather in Oslo and Bergen?"},
		{"role": "assistant", "content": []any{
			map[string]any{"type": "tool-call", "toolCallId": "a", "toolName": "weather", "input": map[string]any{"city": "Oslo"}},
			map[string]any{"type": "tool-call", "toolCallId": "b", "toolName": "weather", "input": map[string]any{"city": "Bergen"}}}},
		{"role": "tool", "content": []any{
			map[string]any{"type": "tool-result", "toolCallId": "b", "toolName": "weather", "output": map[string]any{"type": "json", "value": map[string]any{"c": 7}}},
			map[string]any{"type": "tool-result", "toolCallId": "a", "toolName": "weather", "output": map[string]any{"type": "text", "value": "4C"}}}},
		{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Bergen is warmer."}}},
	})
	c, run := convertOne(t, OpenAIMessages, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 4]" {
		t.Fatalf("steps %s, want [1 2 4]", got)
	}
	if s := c.step(t, run, 1); data(t, s) != "4C" || result(s) != "ok" {
		t.Errorf("Oslo: %s %q, want its own answer", result(s), data(t, s))
	}
	if s := c.step(t, run, 2); data(t, s) != `{"c":7}` {
		t.Errorf("Bergen: %q, want its own answer", data(t, s))
	}
}
