package adapters

import (
	"fmt"
	"testing"
)

// A .NET chat history (real: Semantic Kernel's own test data, with its
// byte order mark): a FunctionCallContent is a call named Plugin-Function,
// answered by the FunctionResultContent with its id, the result's text
// copy read once; the metadata's usage is the call's.
func TestSemanticKernelDotNetHistory(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/sk-dotnet-chat-history.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, run, 1)
	if tool(s) != "HelperFunctions-Get_Weather_For_City" || result(s) != "ok" || data(t, s) != "61 and rainy" {
		t.Errorf("call: %s %s %q", tool(s), result(s), data(t, s))
	}
	if s.Usage == nil || s.Usage.PromptTokens != 196 || s.Usage.CompletionTokens != 23 || s.Usage.Model != "gpt-4" {
		t.Errorf("usage %+v", s.Usage)
	}
	if s := c.step(t, run, 3); s.State != "STOP" {
		t.Errorf("answer %q", s.State)
	}
}

// A Python history (ChatHistory.serialize()): the kernel's own words for a
// function that raised are a failure; for a call it could not make (no
// such function, malformed arguments), an invalid call.
func TestSemanticKernelPythonHistory(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/sk-python-history-storm.json"))
	c.calls(t, run, map[int64]string{2: "Inventory-check_stock error ERROR", 10: "Inventory-check_stock error ERROR"})
	call := func(id, name string) map[string]any {
		return map[string]any{"content_type": "message", "role": "assistant", "items": []any{map[string]any{"content_type": "function_call", "id": id, "name": name, "arguments": "{}"}}}
	}
	res := func(id, out string) map[string]any {
		return map[string]any{"content_type": "message", "role": "tool", "items": []any{map[string]any{"content_type": "function_result", "id": id, "result": out}}}
	}
	raw := mustMarshal(t, map[string]any{"messages": []any{
		map[string]any{"content_type": "message", "role": "user", "items": []any{map[string]any{"content_type": "text", "text": "go"}}},
		call("a", "Nope-run"), res("a", "The tool call with name `Nope-run` is not part of the provided tools, please try again with a supplied tool call name and make sure to validate the name."),
		call("b", "Math-add"), res("b", "The tool call arguments are malformed. Arguments must be in JSON format. Please try again."),
		call("c", "Math-add"), res("c", "3"),
	}})
	c, run = convertOne(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{1: "Nope-run error INVALID_CALL", 3: "Math-add error INVALID_CALL", 5: "Math-add ok"})
}
