package adapters

import (
	"encoding/json"
	"strings"
	"testing"
)

// Magentic-One's log.jsonl is one run, read whole: the web surfer's
// actions are calls answered by its account of the page, the
// orchestrator's turns are steps of their own, and a model call's tokens
// go to the move it led to. A step's number is its line's (0-based).
func TestAutoGenMagenticOneLog(t *testing.T) {
	const rel = "autogen/magentic-one-cookie-loop.ndjson"
	if d := sampleDoc(t, rel, 1); !AutoGen.Transcript(d) {
		t.Fatal("the log's first line does not start a transcript")
	}
	d, err := ParseLines("log.jsonl", 1, readSample(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	conv := newConverted()
	if err := ConvertDoc(AutoGen, d, conv.adder(t)); err != nil {
		t.Fatal(err)
	}
	const run = "log.jsonl"
	click := conv.step(t, run, 19)
	if tool(click) != "click" || args(t, click)["target_id"] != "24" {
		t.Errorf("step 19 is %s %v, want the web surfer's click on 24", tool(click), args(t, click))
	}
	if got := data(t, click); !strings.HasPrefix(got, "I clicked 'Accept all cookies'.") || result(click) != "ok" {
		t.Errorf("step 19's result %s: %.60q, want the surfer's account of the page", result(click), got)
	}
	if u := click.Usage; u == nil || u.PromptTokens != 3100 || u.CompletionTokens != 55 {
		t.Errorf("step 19's usage %+v, want the model call logged before it (3100, 55)", u)
	}
	if click.TS == nil {
		t.Error("step 19 has no time: Magentic-One's local ISO time was not read")
	}
	// The orchestrator handing out the task is a step without a call: the
	// web surfer's action answers it.
	if s := conv.step(t, run, 17); s.ToolCall != nil || !strings.HasPrefix(reason(s), "Accept the cookie banner") {
		t.Errorf("step 17: call %v, reason %.40q", s.ToolCall, reason(s))
	}
	// The ledger is the orchestrator planning, answered by its instruction.
	if s := conv.step(t, run, 16); s.State != "PLAN" {
		t.Errorf("step 16 (the ledger) is %q, want PLAN", s.State)
	}
	for _, n := range conv.numbers(run) {
		switch n {
		case 0, 1, 20: // the user's task, a model call, a reply
			t.Errorf("line %d is a step", n)
		}
	}
	if s := conv.step(t, run, 53); s.State != "STOP" {
		t.Errorf("the last line is %q, want STOP", s.State)
	}
}

// A TaskResult of an assistant whose tool keeps failing: each call is a
// step numbered by its record, its result the execution's, failed when
// is_error; a ThoughtEvent is the next call's reason; models_usage is the
// step's.
func TestAutoGenTaskResult(t *testing.T) {
	conv, run := convertOne(t, AutoGen, readSample(t, "autogen/agentchat-rate-storm.json"))
	want := []int64{1, 4, 6, 8, 10, 12, 14}
	if got := conv.numbers(run); len(got) != len(want) || got[0] != 1 || got[1] != 4 || got[6] != 14 {
		t.Fatalf("steps %v, want %v (a thought and the executions are not steps)", got, want)
	}
	first := conv.step(t, run, 1)
	if tool(first) != "get_exchange_rate" || args(t, first)["quote"] != "JPY" || result(first) != "error ERROR" {
		t.Errorf("step 1: %s %v -> %s", tool(first), args(t, first), result(first))
	}
	if !strings.Contains(data(t, first), "503 Service Unavailable") {
		t.Errorf("step 1's output %q", data(t, first))
	}
	if u := first.Usage; u == nil || u.PromptTokens != 412 || u.CompletionTokens != 21 {
		t.Errorf("step 1's usage %+v", u)
	}
	if got := reason(conv.step(t, run, 4)); got != "The rate service did not answer; I will try again." {
		t.Errorf("step 4's reason %q, want the ThoughtEvent before it", got)
	}
	if s := conv.step(t, run, 14); s.State != "STOP" || s.ToolCall != nil {
		t.Errorf("the final answer: %q %v", s.State, s.ToolCall)
	}

	stripped, run := convertStripped(t, AutoGen, readSample(t, "autogen/agentchat-rate-storm.json"))
	if s := stripped.step(t, run, 1); result(s) != "error ERROR" || data(t, s) != "" {
		t.Errorf("stripped: %s %q, want the is_error kept and the text gone", result(s), data(t, s))
	}
}

// Parallel calls of one ToolCallRequestEvent each keep a number: the
// record counts as many places as it holds calls. Results are matched by
// call_id, whatever their order; code an agent had run is a call of
// execute_code whose exit code says how it went.
func TestAutoGenParallelCallsAndCode(t *testing.T) {
	raw := []byte(`[
	{"source": "user", "type": "TextMessage", "content": "weather in Oslo and Bergen, then plot"},
	{"source": "a", "type": "ToolCallRequestEvent", "content": [
		{"id": "c1", "name": "weather", "arguments": "{\"city\": \"Oslo\"}"},
		{"id": "c2", "name": "weather", "arguments": "{\"city\": \"Bergen\"}"}]},
	{"source": "a", "type": "ToolCallExecutionEvent", "content": [
		{"call_id": "c2", "name": "weather", "content": "Bergen: rain, 9 C", "is_error": false},
		{"call_id": "c1", "name": "weather", "content": "Oslo: sun, 14 C", "is_error": false}]},
	{"source": "a", "type": "CodeGenerationEvent", "content": "plotting", "code_blocks": [{"code": "import plot", "language": "python"}]},
	{"source": "a", "type": "CodeExecutionEvent", "result": {"exit_code": 1, "output": "no module named plot", "code_file": null}},
	{"source": "a", "type": "ToolCallSummaryMessage", "content": "Oslo: sun, 14 C\nBergen: rain, 9 C"},
	{"source": "a", "type": "ModelClientStreamingChunkEvent", "content": "Os"},
	{"source": "a", "type": "TextMessage", "content": "Oslo is sunny, Bergen rainy; the plot failed."}
]`)
	conv, run := convertOne(t, AutoGen, raw)
	if got := conv.numbers(run); len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 4 || got[3] != 8 {
		t.Fatalf("steps %v, want [1 2 4 8]: two calls, the code, the answer", got)
	}
	if got := data(t, conv.step(t, run, 1)); got != "Oslo: sun, 14 C" {
		t.Errorf("the Oslo call got %q", got)
	}
	if got := data(t, conv.step(t, run, 2)); got != "Bergen: rain, 9 C" {
		t.Errorf("the Bergen call got %q", got)
	}
	code := conv.step(t, run, 4)
	if tool(code) != CodeTool || result(code) != "error EXIT_CODE" || !strings.Contains(string(code.ToolCall.Args), "import plot") {
		t.Errorf("the code: %s %s -> %s", tool(code), code.ToolCall.Args, result(code))
	}
}

// A team's stream written a message a line is one run: the executor's
// answer is read by AutoGen's rules, speaker selections are nobody's move,
// and the TaskResult the stream ends with (the whole run again) adds
// nothing.
func TestAutoGenTeamStream(t *testing.T) {
	const rel = "autogen/agentchat-team-stream.ndjson"
	d, err := ParseLines("stream.jsonl", 1, readSample(t, rel))
	if err != nil || !AutoGen.Transcript(sampleDoc(t, rel, 1)) {
		t.Fatalf("%v, or not a transcript", err)
	}
	conv := newConverted()
	if err := ConvertDoc(AutoGen, d, conv.adder(t)); err != nil {
		t.Fatal(err)
	}
	const run = "stream.jsonl"
	if got := conv.numbers(run); len(got) != 7 || got[0] != 1 || got[2] != 4 || got[6] != 8 {
		t.Errorf("steps %v, want 1 2 4 5 6 7 8", got)
	}
	if s := conv.step(t, run, 1); result(s) != "error EXIT_CODE" || args(t, s)["from"] != "coder" {
		t.Errorf("the coder's first script: %v -> %s", args(t, s), result(s))
	}
	if s := conv.step(t, run, 6); result(s) != "ok" {
		t.Errorf("the script run again: %s", result(s))
	}
	if len(d.Skipped) != 0 {
		t.Errorf("records skipped: %+v", d.Skipped)
	}
}

// A record of a run that cannot be read is left out and reported, the
// rest of the run read; other documents are refused with why.
func TestAutoGenMalformedAndRefused(t *testing.T) {
	d, err := ParseLines("log.jsonl", 1, []byte(`{"timestamp": "2024-11-20T14:00:00", "source": "UserProxy", "message": "go", "type": "OrchestrationEvent"}
{"timestamp": "2024-11-20T14:00:01", "source": "WebSurfer", "type": "WebSurferEvent", "action": "click", "arguments": {"target_id": "3"}}
"not an event"
{"timestamp": "2024-11-20T14:00:03", "source": "WebSurfer", "message": "I clicked 'Next'.", "type": "OrchestrationEvent"}
`))
	if err != nil {
		t.Fatal(err)
	}
	conv := newConverted()
	if err := ConvertDoc(AutoGen, d, conv.adder(t)); err != nil {
		t.Fatal(err)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Line != 3 {
		t.Errorf("skipped %+v, want line 3", d.Skipped)
	}
	if s := conv.step(t, "log.jsonl", 1); tool(s) != "click" || data(t, s) != "I clicked 'Next'." {
		t.Errorf("the click: %s -> %q", tool(s), data(t, s))
	}

	for _, doc := range []string{
		`{"source": "agent", "message": "Running command", "timestamp": "2024-01-01T00:00:00", "action": "run"}`, // an OpenHands event
		`{"messages": [{"role": "user", "content": "hi"}]}`,                                                      // an OpenAI conversation
		`{"source": "coder", "type": "Note", "content": "x"}`,                                                    // not an AgentChat type
	} {
		d, err := ParseDoc("x.json", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := AutoGen.Recognize(d); err == nil || !strings.Contains(err.Error(), "AgentChat") {
			t.Errorf("%s: recognised, or refused without saying what was looked for: %v", doc, err)
		}
	}
}

func FuzzAutoGen(f *testing.F) {
	fuzzFormat(f, AutoGen,
		[]byte(`[{"source": "a", "type": "ToolCallRequestEvent", "content": [{"id": 1, "name": null}, {}]}, {"source": "a", "type": "ToolCallExecutionEvent", "content": {}}]`),
		[]byte(`{"messages": [{"source": "a", "type": "CodeExecutionEvent", "result": {"exit_code": "x"}}], "stop_reason": 3}`),
		[]byte(`[{"timestamp": 1, "type": "LLMCallEvent", "prompt_tokens": -3, "completion_tokens": 1e300}, {"timestamp": "x", "type": "WebSurferEvent", "source": "s", "arguments": "[1"}]`),
		[]byte("a (to b):\n\n***** Response from calling tool \"x *****\n***** Suggested tool Call (): f *****\nArguments: \n\n"+strings.Repeat("-", 80)+"\nb (to a):\n\n***** Suggested function call: g *****\nArguments: \n"),
		[]byte("---------- TextMessage (user) ----------\ngo\n---------- ToolCallRequestEvent (a) ----------\n[FunctionCall(id='1', arguments='\\x', name=None)]\n[Prompt tokens: 9999999999999999999, Completion tokens: 1]\n---------- ToolCallExecutionEvent (a) ----------\n[FunctionExecutionResult(content='\\u12', call_id=3)]\n---------- user ----------\n"),
	)
}

// AgentChat messages saved with json.dumps(..., default=str) write
// created_at as Python prints a datetime, a space for the T: the steps
// keep their times.
func TestAutoGenPythonDateTime(t *testing.T) {
	raw := mustMarshal(t, []any{
		map[string]any{"source": "user", "content": "Yo", "type": "TextMessage", "created_at": "2025-08-10 13:52:18.357010+00:00"},
		map[string]any{"source": "assistant", "content": "Hey!", "type": "TextMessage", "created_at": "2025-08-10 13:52:20.702356+00:00",
			"models_usage": map[string]any{"prompt_tokens": 59, "completion_tokens": 11}},
	})
	c, run := convertOne(t, AutoGen, raw)
	nums := c.numbers(run)
	if len(nums) == 0 {
		t.Fatal("no step")
	}
	if s := c.step(t, run, nums[len(nums)-1]); s.TS == nil || s.TS.UnixMilli != 1754833940702 {
		t.Errorf("ts %v, want 2025-08-10T13:52:20.702Z", s.TS)
	}
}

// A team's saved state (team.save_state() dumped, a TeamState) keeps the
// team's messages in its group chat manager's "message_thread": it is the
// same run as the TaskResult of those messages, step for step.
func TestAutoGenTeamState(t *testing.T) {
	raw := readSample(t, "autogen/agentchat-rate-storm.json")
	var task struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(raw, &task); err != nil {
		t.Fatal(err)
	}
	state := []byte(`{"type": "TeamState", "version": "1.0.0", "agent_states": {
  "collect_output_messages/5f1c": {},
  "assistant/5f1c": {"type": "ChatAgentContainerState", "version": "1.0.0", "agent_state": {"type": "AssistantAgentState", "version": "1.0.0", "llm_context": {"messages": [{"content": "What is the rate?", "source": "user", "type": "UserMessage"}]}}, "message_buffer": []},
  "SelectorGroupChatManager/5f1c": {"type": "SelectorManagerState", "version": "1.0.0", "message_thread": ` + string(task.Messages) + `, "current_turn": 3, "previous_speaker": "assistant"}}}`)
	want, wrun := convertOne(t, AutoGen, raw)
	got, grun := convertOne(t, AutoGen, state)
	if g, w := got.numbers(grun), want.numbers(wrun); len(g) != len(w) || len(g) == 0 {
		t.Fatalf("steps %v, want the TaskResult's %v", g, w)
	}
	for _, n := range want.numbers(wrun) {
		g, w := got.step(t, grun, n), want.step(t, wrun, n)
		if tool(g) != tool(w) || result(g) != result(w) || data(t, g) != data(t, w) || g.State != w.State {
			t.Errorf("step %d: %s %s %q, want %s %s %q", n, tool(g), result(g), g.State, tool(w), result(w), w.State)
		}
	}
}
