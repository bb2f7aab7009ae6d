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

// The benchmark scripts' messages (write_memory_to_messages() under
// "intermediate_steps"): a step per model turn at its message's position,
// a turn whose code could not be parsed a failed step, parallel calls
// numbered by their turn's messages, the run's token totals (a Python
// repr) spread over its calls.
func TestSmolMessages(t *testing.T) {
	lines := sampleLines(t, "smolagents/benchmark-messages.ndjson")
	c := convert(t, SmolAgents, "b.jsonl", 1, false, lines[0])
	run := c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 6 8 10]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{2: "format_error error ERROR", 8: "format_error error ERROR", 10: "python_interpreter ok"})
	if d := data(t, c.step(t, run, 4)); !strings.HasPrefix(d, "Error in code parsing:") || strings.Contains(d, "retry") {
		t.Errorf("error text %q, want smolagents' error without its retry advice", d)
	}
	var prompt int64
	for _, n := range c.numbers(run) {
		if u := c.step(t, run, n).Usage; u != nil {
			prompt += u.PromptTokens
		}
	}
	if prompt != 18230 {
		t.Errorf("prompt tokens %d, want the run's 18230 spread", prompt)
	}
	c = convert(t, SmolAgents, "b.jsonl", 2, false, lines[1])
	run = c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[2 3 4 5]" {
		t.Fatalf("steps %s, want the three parallel searches at 2-4 (their turn, call and response messages), the answer at 5", got)
	}
	c.calls(t, run, map[int64]string{2: "web_search ok", 3: "web_search none", 5: "final_answer ok"})
	if s := c.step(t, run, 5); s.State != "STOP" {
		t.Errorf("final answer %s, want STOP", s.State)
	}
	// Five calls in one turn: numbered past their three messages, the
	// turn after them moved on by two.
	var calls []string
	for k := range 5 {
		calls = append(calls, fmt.Sprintf("{'id': 'c%d', 'type': 'function', 'function': {'name': 'web_search', 'arguments': {'query': 'q%d'}}}", k, k))
	}
	m := func(role, text string) map[string]any {
		return map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": text}}}
	}
	raw := mustMarshal(t, map[string]any{"intermediate_steps": []any{m("system", "s"), m("user", "New task:\nq"), m("assistant", "searching"),
		m("tool-call", "Calling tools:\n["+strings.Join(calls, ", ")+"]"), m("tool-response", "Observation:\nfound"),
		m("assistant", "done"), m("tool-call", "Calling tools:\n[{'id': 'f', 'type': 'function', 'function': {'name': 'final_answer', 'arguments': {'answer': 'x'}}}]")}})
	c, run = convertOne(t, SmolAgents, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[2 3 4 5 6 7]" {
		t.Errorf("steps %s", got)
	}
}

// A CodeAgent searching the web from its code: each step whose code only
// calls web_search is that search, asked the query; the final answer,
// code of another kind, stays python_interpreter and is STOP.
func TestSmolAgentsCodeAgentSearches(t *testing.T) {
	c, run := convertOne(t, SmolAgents, readSample(t, "smolagents/code-agent-search-loop.json"))
	s := c.step(t, run, 2)
	if tool(s) != "web_search" || args(t, s)["query"] != "Mercedes Sosa discography studio albums" || result(s) != "ok" || !strings.Contains(data(t, s), "## Search Results") {
		t.Errorf("step 2: %s %v %s", tool(s), args(t, s), result(s))
	}
	if s := c.step(t, run, 7); tool(s) != "python_interpreter" || s.State != "STOP" {
		t.Errorf("step 7: %s %s, want the final answer's code, STOP", tool(s), s.State)
	}
}

// A CodeAgent's code that only searches (an assignment or a print of one
// call of a search tool with a string) is read as that search; code that
// does anything else stays python_interpreter with its code.
func TestSmolCodeSearch(t *testing.T) {
	for _, c := range []struct {
		code, tool, query string
	}{
		{"results = web_search(query=\"Tree of Life roots symbolism\")\nprint(results)", "web_search", "Tree of Life roots symbolism"},
		{"print(web_search('Mercedes Sosa albums 2000 2009'))", "web_search", "Mercedes Sosa albums 2000 2009"},
		{"# look it up\nr = wikipedia_search(\"Mercedes Sosa discography\", lang=\"en\")\n\nprint(r)\n", "wikipedia_search", "Mercedes Sosa discography"},
		{"print(web_search(query=\"it's \\\"quoted\\\"\"))", "web_search", `it's "quoted"`},
		{"for q in ['a b', 'c d']:\n    print(web_search(q))", "", ""},
		{"a = web_search('x y')\nb = web_search('z w')\nprint(a, b)", "", ""},
		{"page = visit_webpage('https://example.org')\nprint(page)", "", ""},
		{"r = web_search(query)\nprint(r)", "", ""},
		{"import math\nprint(math.sqrt(2))", "", ""},
		{"print(web_search('x y')", "", ""},
	} {
		tool, query, ok := smolCodeSearch(c.code)
		if ok != (c.tool != "") || tool != c.tool || query != c.query {
			t.Errorf("%q: %q %q %v, want %q %q", c.code, tool, query, ok, c.tool, c.query)
		}
	}
}
