package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// LLaMA-Factory's ShareGPT trajectories: a function_call turn is a call,
// the observation after it its result, each numbered by its position in
// "conversations"; the same empty search made again is two calls alike.
func TestShareGPTFunctionCalls(t *testing.T) {
	raw := []byte(`{"id": "ft-7", "conversations": [
		{"from": "human", "value": "Find the refund policy page."},
		{"from": "function_call", "value": "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"refund policy\"}}"},
		{"from": "observation", "value": "[]"},
		{"from": "function_call", "value": "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"refund policy\"}}"},
		{"from": "observation", "value": "[]"},
		{"from": "function_call", "value": "[{\"name\": \"open_page\", \"arguments\": {\"url\": \"/help\"}}, {\"name\": \"open_page\", \"arguments\": {\"url\": \"/terms\"}}]"},
		{"from": "observation", "value": "Help centre"},
		{"from": "observation", "value": "Terms: refunds within 30 days"},
		{"from": "gpt", "value": "Refunds are accepted within 30 days."}
	], "tools": "[]"}`)
	c, run := convertOne(t, OpenAIMessages, raw)
	if run != "t.json#ft-7" {
		t.Errorf("run %q, want the file and the conversation's id", run)
	}
	for _, n := range []int64{1, 3} {
		s := c.step(t, run, n)
		if tool(s) != "search_docs" || args(t, s)["query"] != "refund policy" || string(s.ToolResult.Data) != `"[]"` {
			t.Errorf("step %d: %s %s -> %s", n, tool(s), s.ToolCall.Args, s.ToolResult.Data)
		}
	}
	if s := c.step(t, run, 6); tool(s) != "open_page" || args(t, s)["url"] != "/terms" || string(s.ToolResult.Data) != `"Terms: refunds within 30 days"` {
		t.Errorf("step 6, the second call made together: %s %s -> %s", tool(s), s.ToolCall.Args, s.ToolResult.Data)
	}
	if s := c.step(t, run, 9); s.State != schema.StateStop.String() {
		t.Errorf("the last answer is %q, want STOP", s.State)
	}
}

// ETO's and AgentInstruct's ShareGPT trajectories write the action as text:
// each "Action:" turn is a call, the human turn after it the result.
func TestShareGPTTextActions(t *testing.T) {
	raw := []byte(`[{"id": "alfworld_3", "conversations": [
		{"from": "human", "value": "Interact with a household to solve a task. Your task is to: put a mug in the shelf."},
		{"from": "gpt", "value": "Thought: I should look for a mug.\nAction: go to countertop 1"},
		{"from": "human", "value": "Observation: On the countertop 1, you see a knife 1."},
		{"from": "gpt", "value": "Thought: No mug here.\nAction: go to countertop 1"},
		{"from": "human", "value": "Observation: Nothing happens."}
	]}]`)
	c, run := convertOne(t, OpenAIMessages, raw)
	if run != "t.json[0]#alfworld_3" {
		t.Errorf("run %q", run)
	}
	for _, n := range []int64{1, 3} {
		if s := c.step(t, run, n); s.ToolCall == nil {
			t.Errorf("step %d: no call, want the written action", n)
		}
	}
	if a, b := c.step(t, run, 1), c.step(t, run, 3); string(a.ToolCall.Args) != string(b.ToolCall.Args) || tool(a) != tool(b) {
		t.Errorf("the same action written twice read as %s %s and %s %s", tool(a), a.ToolCall.Args, tool(b), b.ToolCall.Args)
	}
}
