package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// tau2-bench's results: each of the "simulations" is a run, named by its
// id; calls are written flat ({"id", "name", "arguments"}), a tool message
// answers the call its "id" names and failed when "error" is true; usage,
// cost and timestamp are the step's.
func TestTau2Results(t *testing.T) {
	c := convert(t, OpenAIMessages, "tau2.json", 1, true, readSample(t, "openai-messages/tau2-results.json"))
	if got := fmt.Sprint(c.runs); got != "[tau2.json[0]#3f0c1d2e-0a41-4c55-9b1e-6d2f7a9c1e01 tau2.json[1]#8b7e4a90-6c2d-4f1e-a3b5-0d9e8f7c6b02]" {
		t.Fatalf("runs %s, want one per simulation, named by its id", got)
	}
	run := c.runs[1]
	if s := c.step(t, run, 6); tool(s)+" "+result(s) != "update_reservation_baggages error ERROR" || args(t, s)["payment_id"] != "credit_card_9080" {
		t.Errorf("step 6: %s %s %v, want the flat call with its arguments, failed", tool(s), result(s), args(t, s))
	}
	if s := c.step(t, run, 2); s.Usage == nil || s.Usage.PromptTokens != 5200 || s.Usage.CostUSD != 0.01 || s.TS == nil {
		t.Errorf("step 2: usage %+v ts %v, want the message's usage, cost and time", s.Usage, s.TS)
	}

	// A tool message whose text says nothing of a failure failed when its
	// "error" is true; the simulated user's own tool is the user's side.
	raw := mustMarshal(t, map[string]any{"simulations": []any{map[string]any{"id": "s1", "messages": []any{
		map[string]any{"role": "user", "content": "My phone has no signal."},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "a", "name": "reset_line", "arguments": map[string]any{"line": "L1"}, "requestor": "assistant"}}},
		map[string]any{"role": "tool", "id": "a", "content": "line L1 is suspended", "requestor": "assistant", "error": true},
		map[string]any{"role": "assistant", "content": "Please toggle airplane mode and tell me what you see."},
		map[string]any{"role": "user", "content": nil, "tool_calls": []any{map[string]any{"id": "u", "name": "toggle_airplane_mode", "arguments": map[string]any{}, "requestor": "user"}}},
		map[string]any{"role": "tool", "id": "u", "content": "Airplane mode: OFF", "requestor": "user", "error": false},
		map[string]any{"role": "user", "content": "Done, still no signal."},
		map[string]any{"role": "assistant", "content": "I will transfer you."},
	}}}})
	c, run = convertOne(t, OpenAIMessages, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 7]" {
		t.Fatalf("steps %s, want [1 3 7]: the user's tool is no step of the agent", got)
	}
	if s := c.step(t, run, 1); result(s) != "error ERROR" {
		t.Errorf("step 1: %s, want the error flag read", result(s))
	}
	if s := c.step(t, run, 3); !strings.Contains(data(t, s), "Airplane mode: OFF") || s.Intent != "user" {
		t.Errorf("step 3: %q intent %q, want the user's side (its tool's output) as the answer, a turn to the user", data(t, s), s.Intent)
	}
}

// A turn the user answers is marked as addressed to the user; a turn
// between named agents is not (schema.IntentUser).
func TestTurnsToTheUserAreMarked(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/orchestrator-loop.json"))
	for _, s := range c.steps {
		if s.RunID == run && s.Intent == "user" {
			t.Errorf("step %d: a turn between named agents marked as to the user", *s.Step)
		}
	}
	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/support-conversation.json"))
	marked := 0
	for _, s := range c.steps {
		if s.RunID == run && s.Intent == "user" {
			marked++
			if tool(s) != "message" {
				t.Errorf("step %d: %s marked as a turn to the user", *s.Step, tool(s))
			}
		}
	}
	if marked == 0 {
		t.Error("no turn of the support conversation marked as to the user")
	}
}
