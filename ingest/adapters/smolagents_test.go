package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// A CodeAgent's memory steps: each ActionStep's code is a call of
// python_interpreter, failing with the step's error (its type the error
// type), the model's thought its reason, its tokens its usage; the task
// and the final answer are no steps; the step that answers is STOP.
func TestSmolAgentsCodeAgent(t *testing.T) {
	c, run := convertOne(t, SmolAgents, readSample(t, "smolagents/code-agent-error-loop.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 4 5 6 7]" {
		t.Fatalf("steps %s, want the seven action steps at their positions", got)
	}
	s := c.step(t, run, 1)
	if tool(s) != "python_interpreter" || result(s) != "error AgentExecutionError" || !strings.Contains(data(t, s), "FileNotFoundError") {
		t.Errorf("step 1: %s %s %q", tool(s), result(s), data(t, s))
	}
	if !strings.HasPrefix(reason(s), "Thought: I will load") || s.Usage == nil || s.Usage.PromptTokens != 2450 || s.TS == nil {
		t.Errorf("step 1: reason %q usage %+v ts %v", reason(s), s.Usage, s.TS)
	}
	if s := c.step(t, run, 7); s.State != "STOP" || result(s) != "ok" {
		t.Errorf("step 7: %s %s, want the final answer as STOP", s.State, result(s))
	}
}

// A benchmark's run: the steps under intermediate_steps, tool calls with
// object arguments, the final_answer call STOP; two calls in one step take
// two numbers; a step that made no call and failed is a format error.
func TestSmolAgentsToolCallingAgent(t *testing.T) {
	c, run := convertOne(t, SmolAgents, readSample(t, "smolagents/tool-calling-agent.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3]" {
		t.Fatalf("steps %s, want [1 2 3]", got)
	}
	if s := c.step(t, run, 1); tool(s) != "web_search" || s.Intent != searchIntent || !strings.Contains(data(t, s), "Snøhetta") {
		t.Errorf("step 1: %s intent %q %q", tool(s), s.Intent, data(t, s))
	}
	if s := c.step(t, run, 3); s.State != "STOP" || tool(s) != "final_answer" {
		t.Errorf("step 3: %s %s, want final_answer as STOP", s.State, tool(s))
	}

	raw := []byte(`{"id": "run-9", "steps": [{"task": "t"},
		{"step_number": 1, "model_output": "calling two", "observations": "a: 1\nb: 2", "tool_calls": [
			{"id": "x", "type": "function", "function": {"name": "lookup", "arguments": {"k": "a"}}},
			{"id": "y", "type": "function", "function": {"name": "lookup", "arguments": {"k": "b"}}}]},
		{"step_number": 2, "model_output": "garbled", "tool_calls": [], "error": {"type": "AgentParsingError", "message": "Could not parse the model's output"}},
		{"plan": "look both up again"}]}`)
	c, run = convertOne(t, SmolAgents, raw)
	if !strings.HasSuffix(run, "#run-9") || fmt.Sprint(c.numbers(run)) != "[1 2 3 4]" {
		t.Fatalf("run %q steps %v, want #run-9 with [1 2 3 4]", run, c.numbers(run))
	}
	if s := c.step(t, run, 1); data(t, s) != "a: 1\nb: 2" {
		t.Errorf("first call of the step: %q, want the step's observations", data(t, s))
	}
	if s := c.step(t, run, 2); tool(s) != "lookup" || data(t, s) != "" {
		t.Errorf("second call: %s %q, want a call without output of its own", tool(s), data(t, s))
	}
	if s := c.step(t, run, 3); tool(s) != "format_error" || result(s) != "error AgentParsingError" {
		t.Errorf("step without a call: %s %s, want a format error", tool(s), result(s))
	}
	if s := c.step(t, run, 4); s.State != "PLAN" || reason(s) != "look both up again" {
		t.Errorf("plan: %s %q", s.State, reason(s))
	}
}
