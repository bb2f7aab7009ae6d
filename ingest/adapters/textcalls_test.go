package adapters

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// Each way an agent writes its action as text names the tool the action
// names and keeps what it runs; a turn that holds no action is none.
func TestTextCallForms(t *testing.T) {
	for _, c := range []struct {
		content, tool, args string
	}{
		{"Think: count them.\n\nAct: bash\n\n```bash\nls -1 /etc | wc -l\n```", "bash", `{"command":"ls -1 /etc | wc -l"}`},
		{"Think: done.\n\nAct: answer(220)", "answer", `{"action":"answer(220)"}`},
		{"The question asks for the top team.\nAction: Operation\n```sql\nSELECT team FROM t;\n```", "Operation", `{"action":"Operation","code":"SELECT team FROM t;"}`},
		{"THOUGHT: the mug may be on the shelf.\nACTION: go to shelf 1", "go", `{"action":"go to shelf 1"}`},
		{"Thought: I should search first.\n\nAction:\nsearch[red running shoes]", "search", `{"action":"search[red running shoes]"}`},
		{"Thought: find his relations.\nAction: get_relations(Barack Obama)", "get_relations", `{"action":"get_relations(Barack Obama)"}`},
		{"Thought: I need the weather.\nAction: Search\nAction Input: weather in Lisbon today", "Search", `{"input":"weather in Lisbon today"}`},
		{"Thought: Do I need to use a tool? Yes\nAction: Delegate Work to Co-Worker\nAction Input: Researcher|Compile a list of IDEs\nObservation: done", "Delegate Work to Co-Worker", `{"input":"Researcher|Compile a list of IDEs"}`},
		{"```tool_code\nGET http://fhir.local/fhir/Observation?code=A1C&patient=S1\n```\n", "GET", `{"body":"","url":"http://fhir.local/fhir/Observation?code=A1C\u0026patient=S1"}`},
		{"POST http://fhir.local/fhir/ServiceRequest\n{\"status\": \"active\"}", "POST", `{"body":"{\"status\": \"active\"}","url":"http://fhir.local/fhir/ServiceRequest"}`},
		{"```tool_code\nFINISH([-1])\n```", "finish", `{"answer":"FINISH([-1])"}`},
		{"I'll check the file first.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"app.py\"}}\n</tool_call>", "read_file", `{"path": "app.py"}`},
		{"<tool_call>{\"name\": \"search\", \"arguments\": \"{\\\"q\\\": \\\"tls\\\"}\"}</tool_call>", "search", `{"q": "tls"}`},
		{"Let me list it.\n<function=execute_bash>\n<parameter=command>\nls -la /srv\n</parameter>\n</function>", "execute_bash", `{"command":"ls -la /srv"}`},
		{"The team with the most points is Rovers.", "", ""},
		{"You could take some action: call the airline tomorrow.", "", ""},
	} {
		tool, args, ok := textCall(c.content)
		if tool != c.tool || string(args) != c.args || ok != (c.tool != "") {
			t.Errorf("%q: %q %s %v, want %q %s", c.content, tool, args, ok, c.tool, c.args)
		}
	}
}

// AgentBench's records (a line of runs.jsonl): each agent turn that writes
// an action is a call, numbered by its position in the history, answered by
// the environment's next message; an answer ends the run; a run the
// harness ended on a turn it could not run ends on a failed step.
func TestAgentBenchRuns(t *testing.T) {
	const file = "agentbench-runs.ndjson"
	raw := readSample(t, "openai-messages/"+file)
	c := newConverted()
	for i, line := range nonBlankLines(raw) {
		one := convert(t, OpenAIMessages, file, int64(i+1), false, line)
		for _, s := range one.steps {
			c.adder(t)(s)
		}
	}
	if got := fmt.Sprint(c.runs); got != "[agentbench-runs.ndjson:1#index=17 agentbench-runs.ndjson:2#index=18 agentbench-runs.ndjson:3#index=4]" {
		t.Fatalf("runs %s", got)
	}
	loop := "agentbench-runs.ndjson:1#index=17"
	if got := fmt.Sprint(c.numbers(loop)); got != "[1 3 5 7 9 11 13 15]" {
		t.Errorf("steps %s", got)
	}
	s := c.step(t, loop, 3)
	if tool(s) != "bash" || !contains(args(t, s)["command"].(string), "/etc/shadow") || result(s) != "error PERMISSION_DENIED" || data(t, s) != "awk: cannot open /etc/shadow (Permission denied)\n0" {
		t.Errorf("step 3: %s %s %s %q", tool(s), s.ToolCall.Args, result(s), data(t, s))
	}
	if last := c.step(t, loop, 15); last.ToolResult != nil || last.State != schema.StateAct.String() {
		t.Errorf("the action the round limit cut: %s %+v", last.State, last.ToolResult)
	}

	done := "agentbench-runs.ndjson:2#index=18"
	if s := c.step(t, done, 1); tool(s) != "bash" || result(s) != "ok" {
		t.Errorf("a search that found files: %s %s", tool(s), result(s))
	}
	if s := c.step(t, done, 5); s.State != schema.StateStop.String() || tool(s) != "answer" {
		t.Errorf("the answer: %s %s", s.State, tool(s))
	}

	refused := "agentbench-runs.ndjson:3#index=4"
	if s := c.step(t, refused, 1); tool(s) != "Operation" || args(t, s)["code"] != "SELECT team, points FROM season_stats WHERE year = 2019 ORDER BY points DESC LIMIT 1;" || data(t, s) != "[('Rovers', 88)]" {
		t.Errorf("the query: %s %s %q", tool(s), s.ToolCall.Args, data(t, s))
	}
	if s := c.step(t, refused, 3); s.State != schema.StateAct.String() || result(s) != "error FORMAT_ERROR" {
		t.Errorf("the turn the harness refused: %s %s %s", s.State, tool(s), result(s))
	}
}

// A conversation whose assistant talks to a person keeps its turns: an
// "Action:" written once among plain answers is no protocol, and a
// conversation with tool calls is read by its calls.
func TestTextCallsOnlyForActionProtocols(t *testing.T) {
	conv := func(turns ...string) []byte {
		msgs := []map[string]string{{"role": "user", "content": "Can you help me plan the trip?"}}
		for _, turn := range turns {
			msgs = append(msgs, map[string]string{"role": "assistant", "content": turn}, map[string]string{"role": "user", "content": "ok"})
		}
		raw, _ := json.Marshal(map[string]any{"id": "c1", "messages": msgs})
		return raw
	}
	talk := convert(t, OpenAIMessages, "talk.json", 1, true, conv(
		"Sure. Where to?", "Lisbon is lovely in May.", "Action: book the flights this week, before prices rise.", "Anything else?"))
	for _, s := range talk.steps {
		if s.ToolCall != nil && s.ToolCall.Name != MessageTool {
			t.Errorf("step %d of a chat read as a call of %s", *s.Step, s.ToolCall.Name)
		}
	}
	acts := convert(t, OpenAIMessages, "acts.json", 1, true, conv(
		"Action: search[flights to Lisbon]", "Action: click[TAP 1234]", "The flight is booked."))
	if got := tool(acts.steps[0]) + " " + tool(acts.steps[1]); got != "search click" {
		t.Errorf("an agent acting in text: %s", got)
	}
}

// A record of a sample the agent never ran (AgentBench's error.jsonl,
// beside runs.jsonl) is refused, saying so, not read as a run.
func TestAgentBenchSampleNeverRan(t *testing.T) {
	raw := []byte(`{"index": 53, "error": "AGENT_FAILED", "info": "Failed.", "output": {"index": null, "status": "running", "result": null, "history": null}}`)
	d, err := ParseDoc("error.jsonl", 1, false, raw)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Detect(d)
	if err != nil || f != OpenAIMessages {
		t.Fatalf("Detect: %v %v", f, err)
	}
	err = ConvertDoc(f, d, func(*schema.Step) error { t.Error("a step of a sample that never ran"); return nil })
	if err == nil || !contains(err.Error(), "AgentBench sample that never ran") || !contains(err.Error(), "AGENT_FAILED") {
		t.Errorf("err %v", err)
	}
}

// AgentBench's function-calling tasks keep OpenAI messages in the history,
// with the round's reward ({"reward", "score"}) between them: the calls
// are read as calls, numbered by their place in the history, the rewards
// taking theirs.
func TestAgentBenchFunctionCallingHistory(t *testing.T) {
	h := []any{map[string]any{"role": "user", "content": "Count the files in /etc."}}
	for i := range 3 {
		id := fmt.Sprintf("call_%d", i)
		h = append(h,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash_action", "arguments": `{"script": "ls /etc/shadow.d | wc -l"}`}}}},
			map[string]any{"role": "tool", "content": "ls: cannot access '/etc/shadow.d': No such file or directory\n0", "tool_call_id": id},
			map[string]any{"reward": 0, "score": 0})
	}
	raw, _ := json.Marshal(map[string]any{"index": 3, "output": map[string]any{"index": 3, "status": "task limit reached", "history": h}})
	c := convert(t, OpenAIMessages, "runs.jsonl", 1, false, raw)
	run := "runs.jsonl:1#index=3"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 4 7]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 4); tool(s) != "bash_action" || result(s) != "error NO_SUCH_FILE" {
		t.Errorf("step 4: %s %s", tool(s), result(s))
	}
}

// An open model served without a tool-call parser writes its calls in
// tags (Hermes, Qwen) and gets each result back in a tool message: each
// tagged call is a call, its result the next message without its tags.
func TestTaggedTextCalls(t *testing.T) {
	msgs := []map[string]string{{"role": "system", "content": "You may call tools."}, {"role": "user", "content": "Is the API up?"}}
	for range 4 {
		msgs = append(msgs,
			map[string]string{"role": "assistant", "content": "Let me check the health endpoint.\n<tool_call>\n{\"name\": \"http_get\", \"arguments\": {\"url\": \"https://api.internal/health\"}}\n</tool_call>"},
			map[string]string{"role": "tool", "content": "<tool_response>\nHTTP/1.1 503 Service Unavailable\n</tool_response>"})
	}
	msgs = append(msgs, map[string]string{"role": "assistant", "content": "The API is down."})
	raw, _ := json.Marshal(map[string]any{"id": "h1", "messages": msgs})
	c := convert(t, OpenAIMessages, "hermes.json", 1, true, raw)
	run := "hermes.json#h1"
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 6 8 10]" {
		t.Fatalf("steps %s", got)
	}
	s := c.step(t, run, 4)
	if tool(s) != "http_get" || args(t, s)["url"] != "https://api.internal/health" || result(s) != "error HTTP_503" || data(t, s) != "HTTP/1.1 503 Service Unavailable" {
		t.Errorf("step 4: %s %s %s %q", tool(s), s.ToolCall.Args, result(s), data(t, s))
	}
}
