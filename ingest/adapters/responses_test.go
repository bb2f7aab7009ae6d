package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// A Responses API item list (an Agents SDK run's to_input_list()): two
// calls made together are answered by their outputs, matched by call_id,
// each numbered by its own item; a reasoning summary is the next call's
// reason; the final message ends the run.
func TestResponsesItemsParallelCalls(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/responses-items.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 5 7]" {
		t.Fatalf("steps %s, want the calls' items 1, 2, 5 and the answer 7", got)
	}
	for n, want := range map[int64]string{1: `"order_id": "8812"`, 2: `"status": "delivered"`, 5: `"status": "succeeded"`} {
		if s := c.step(t, run, n); result(s) != "ok" || !strings.Contains(data(t, s), want) {
			t.Errorf("step %d: %s %q, want its own output (%s)", n, result(s), data(t, s), want)
		}
	}
	if s := c.step(t, run, 7); s.State != "STOP" {
		t.Errorf("step 7: %s, want STOP", s.State)
	}

	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/responses-items-storm.json"))
	s := c.step(t, run, 5)
	if tool(s) != "refund_charge" || reason(s) != "The refund failed; try again." && reason(s) != "Refund the duplicate charge ch_2." {
		t.Errorf("step 5: %s %q, want the refund with the reasoning before it", tool(s), reason(s))
	}
	if result(s) != "error ERROR" {
		t.Errorf("step 5: %s, want the Agents SDK's tool failure read as an error", result(s))
	}
}

// MCP calls are answered in their own item (an error field is a failure);
// a custom tool's input is its args.
func TestResponsesItemsMCPAndCustom(t *testing.T) {
	raw := mustMarshal(t, []map[string]any{
		{"role": "user", "content": "List the repo's open issues, then format them."},
		{"type": "mcp_call", "id": "mcp_1", "name": "list_issues", "server_label": "github", "arguments": `{"state":"open"}`, "output": nil, "error": "rate limited"},
		{"type": "mcp_call", "id": "mcp_2", "name": "list_issues", "server_label": "github", "arguments": `{"state":"open"}`, "output": `[{"number": 7}]`},
		{"type": "custom_tool_call", "call_id": "ct_1", "name": "format_md", "input": "# Issues\n- 7"},
		{"type": "custom_tool_call_output", "call_id": "ct_1", "output": "formatted"},
		{"type": "message", "role": "assistant", "content": []map[string]any{{"type": "output_text", "text": "Issue 7 is open."}}},
	})
	c, run := convertOne(t, OpenAIMessages, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 5]" {
		t.Fatalf("steps %s, want [1 2 3 5]", got)
	}
	if s := c.step(t, run, 1); result(s) != "error ERROR" || data(t, s) != "rate limited" {
		t.Errorf("mcp call with an error: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 2); result(s) != "ok" || data(t, s) != `[{"number": 7}]` {
		t.Errorf("mcp call answered: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 3); tool(s) != "format_md" || args(t, s)["input"] != "# Issues\n- 7" || data(t, s) != "formatted" {
		t.Errorf("custom tool: %s %v %q", tool(s), args(t, s), data(t, s))
	}
}
