package adapters

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// One conversation per file: the run is file#id; a step is an assistant
// message, numbered by its position in "messages"; a text reply to the user
// is a call of "message" whose result is the user's answer; the last
// assistant message is STOP.
func TestOpenAIConversationSample(t *testing.T) {
	const file = "support-conversation.json"
	c := convert(t, OpenAIMessages, file, 1, true, readSample(t, "openai-messages/support-conversation.json"))
	run := file + "#conv_2f81c0"
	if len(c.runs) != 1 || c.runs[0] != run {
		t.Fatalf("runs %q, want %q", c.runs, run)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 6 8 10]" {
		t.Errorf("steps %s", got)
	}
	s := c.step(t, run, 2)
	if tool(s) != "find_user_id_by_email" || args(t, s)["email"] != "noah.kim@example.com" || result(s) != "ok" || data(t, s) != "noah_kim_4417" {
		t.Errorf("step 2: %s %s %s %q", tool(s), s.ToolCall.Args, result(s), data(t, s))
	}
	msg := c.step(t, run, 8)
	if tool(msg) != MessageTool || msg.State != schema.StateAct.String() || data(t, msg) != "No, that's the one. When will I get the money?" {
		t.Errorf("message: %s %s %q", msg.State, tool(msg), data(t, msg))
	}
	if !contains(args(t, msg)["text"].(string), "I found order #W8830214") || !contains(reason(msg), "I found order") {
		t.Errorf("message args %s reason %q", msg.ToolCall.Args, reason(msg))
	}
	last := c.step(t, run, 10)
	if last.State != schema.StateStop.String() || tool(last) != MessageTool || data(t, last) != "No, thanks! ###STOP###" {
		t.Errorf("last: %s %s %q", last.State, tool(last), data(t, last))
	}
}

// A conversation of named agents (a group chat, an orchestrator and its
// workers): each agent's turn is a message call from that agent, answered
// by the next agent's turn; the last turn is the answer.
func TestOpenAINamedAgentsSample(t *testing.T) {
	const file = "group-chat.json"
	c := convert(t, OpenAIMessages, file, 1, true, readSample(t, "openai-messages/"+file))
	run := file + "#groupchat-fib-01"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 4 5 6 7 8 9]" {
		t.Fatalf("steps %s", got)
	}
	critic := c.step(t, run, 3)
	if tool(critic) != MessageTool || args(t, critic)["from"] != "critic" || !strings.HasPrefix(data(t, critic), "```python\ndef fib(n):\n    if n < 0:") {
		t.Errorf("critic's turn: %s %v %q", tool(critic), args(t, critic), data(t, critic))
	}
	if plan := c.step(t, run, 1); plan.State != schema.StatePlan.String() || args(t, plan)["from"] != "planner" {
		t.Errorf("the planner's turn: %s %v", plan.State, args(t, plan))
	}
	if critic.State != schema.StateAct.String() {
		t.Errorf("the critic's turn: %s", critic.State)
	}
	if last := c.step(t, run, 9); last.State != schema.StateStop.String() || last.ToolCall != nil {
		t.Errorf("last: %s %v", last.State, last.ToolCall)
	}
	// Multi-agent logs that write the speaker as the role: each is an agent
	// by that name; "human" is the user.
	c, run = convertOne(t, OpenAIMessages, []byte(`{"history": [{"role": "human", "content": "How tall is it?"},
		{"role": "Orchestrator (-> WebSurfer)", "content": "Search for its height."},
		{"role": "WebSurfer", "content": "I searched: 330 m."},
		{"role": "Orchestrator (final answer)", "content": "330 m"}]}`))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3]" {
		t.Fatalf("steps of a log with agents as roles: %s", got)
	}
	if s := c.step(t, run, 1); tool(s) != MessageTool || args(t, s)["from"] != "Orchestrator (-> WebSurfer)" || data(t, s) != "I searched: 330 m." || s.State != schema.StatePlan.String() {
		t.Errorf("orchestrator's turn: %s %v %q", tool(s), args(t, s), data(t, s))
	}
	if s := c.step(t, run, 3); s.State != schema.StateStop.String() {
		t.Errorf("final answer: %s", s.State)
	}
	// One unnamed assistant writing twice is one agent thinking aloud: no
	// turn answered.
	c, run = convertOne(t, OpenAIMessages, []byte(`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Let me think."}, {"role": "assistant", "content": "Hello."}]}`))
	if s := c.step(t, run, 1); s.ToolCall != nil {
		t.Errorf("an unnamed assistant's first message became %s %v", tool(s), s.ToolCall)
	}
}

// tau-bench's results: a JSON array of {task_id, trial, traj}, one run per
// element named file[i]#task_id=N,trial=M; a call of the think tool is a
// PLAN step; a search's "[]" is empty.
func TestOpenAITauBenchSample(t *testing.T) {
	const file = "tau-bench-results.json"
	c := convert(t, OpenAIMessages, file, 1, true, readSample(t, "openai-messages/tau-bench-results.json"))
	loop, ok := file+"[0]#task_id=7,trial=0", file+"[1]#task_id=7,trial=1"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{loop, ok}) {
		t.Fatalf("runs %q", c.runs)
	}
	for n := int64(2); n <= 10; n += 2 {
		s := c.step(t, loop, n)
		if tool(s) != MessageTool || result(s) != "ok" || !contains(data(t, s), "I don't have my user ID handy") {
			t.Errorf("loop step %d: %s %s %q", n, tool(s), result(s), data(t, s))
		}
	}
	if s := c.step(t, loop, 12); s.State != schema.StateStop.String() || !contains(data(t, s), "###STOP###") {
		t.Errorf("loop's last: %s %q", s.State, data(t, s))
	}
	// The think tool obtains nothing and changes nothing: its call is the
	// agent planning, its thought (here a Python repr) the step's reason.
	if think := c.step(t, ok, 8); think.ToolCall != nil || think.State != schema.StatePlan.String() || !contains(reason(think), "Thinking of the next action") {
		t.Errorf("think: %s %v %q, want a PLAN step without a call, its thought the reason", think.State, think.ToolCall, reason(think))
	}
	if s := c.step(t, ok, 10); result(s) != "ok empty" || s.Intent != searchIntent {
		t.Errorf("empty search: %s intent %q", result(s), s.Intent)
	}
	if s := c.step(t, ok, 14); result(s) != "ok" || s.Intent != searchIntent {
		t.Errorf("search with flights: %s", result(s))
	}
}

// JSON Lines of {"messages": [...]}: a run per line, named file:line#id.
func TestOpenAIJSONLinesSample(t *testing.T) {
	const file = "conversations.ndjson"
	lines := sampleLines(t, "openai-messages/conversations.ndjson")
	c := convert(t, OpenAIMessages, file, 1, false, lines[0])
	run := file + ":1#sess-0193"
	for n := int64(4); n <= 12; n += 2 {
		s := c.step(t, run, n)
		if tool(s) != "get_order_details" || result(s) != "error ERROR" || data(t, s) != "Error: order not found" {
			t.Errorf("step %d: %s %s %q", n, tool(s), result(s), data(t, s))
		}
	}
	if s := c.step(t, run, 14); s.State != schema.StateStop.String() || s.ToolCall != nil {
		t.Errorf("last message without a user answer: %s %v", s.State, s.ToolCall)
	}
	c = convert(t, OpenAIMessages, file, 2, false, lines[1])
	run = file + ":2#sess-0194"
	for n, page := range map[int64]float64{4: 1, 6: 2, 8: 3, 10: 4} {
		if s := c.step(t, run, n); args(t, s)["page"] != page || result(s) != "ok" {
			t.Errorf("step %d: %s %s", n, s.ToolCall.Args, result(s))
		}
	}
}

// Parallel calls: the first is numbered by the assistant message, the
// others by their replies' positions, matched by tool_call_id; the older
// function_call shape; a reply's name names the tool that really ran; an
// unanswered call has no result.
func TestOpenAICallShapes(t *testing.T) {
	doc := `{"id": "c1", "messages": [
		{"role": "user", "content": "weather in Oslo and Bergen"},
		{"role": "assistant", "content": "Checking both.", "tool_calls": [
			{"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}},
			{"id": "b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Bergen\"}"}}]},
		{"role": "tool", "tool_call_id": "b", "content": "rain, 9C"},
		{"role": "tool", "tool_call_id": "a", "content": "sun, 12C"},
		{"role": "assistant", "content": null, "function_call": {"name": "lookup_forecast", "arguments": "{\"city\": "}},
		{"role": "function", "name": "lookup_forecast", "content": "[]"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "think", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c", "name": "list_products", "content": "[{\"id\": 1}]"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "d", "type": "function", "function": {"name": "book", "arguments": ""}}]}
	]}`
	c, run := convertOne(t, OpenAIMessages, []byte(doc))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 4 6 8]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 1); args(t, s)["city"] != "Oslo" || data(t, s) != "sun, 12C" || reason(s) != "Checking both." {
		t.Errorf("first call: %s %q %q", s.ToolCall.Args, data(t, s), reason(s))
	}
	if s := c.step(t, run, 2); args(t, s)["city"] != "Bergen" || data(t, s) != "rain, 9C" {
		t.Errorf("second call, numbered by its reply: %s %q", s.ToolCall.Args, data(t, s))
	}
	if s := c.step(t, run, 4); tool(s) != "lookup_forecast" || args(t, s)["raw"] != `{"city": ` || result(s) != "ok empty" {
		t.Errorf("function_call with broken args: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}
	if s := c.step(t, run, 6); tool(s) != "list_products" {
		t.Errorf("reply's name: %s", tool(s))
	}
	if s := c.step(t, run, 8); s.ToolResult != nil || string(s.ToolCall.Args) != "{}" || s.State != schema.StateAct.String() {
		t.Errorf("unanswered call: %s %v %s", s.ToolCall.Args, s.ToolResult, s.State)
	}
}

func TestOpenAIRecognize(t *testing.T) {
	for _, c := range []struct{ doc, why string }{
		{`{"messages": []}`, `no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`},
		{`{"traj": [{"content": "x"}]}`, `no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`},
		{`[]`, "an empty list"},
		{`[1, 2]`, "a list whose first element is neither a message nor an object"},
		{`[{"task_id": 1}]`, `a list whose first element has no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := OpenAIMessages.Recognize(d); err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
	for _, doc := range []string{
		`[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]`,
		`{"conversation": [{"role": "user", "content": "hi"}]}`,
		`{"history": [{"role": "user", "content": "hi"}]}`,
	} {
		d, _ := ParseDoc("x", 1, true, []byte(doc))
		if err := OpenAIMessages.Recognize(d); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
}

// A trace's tool span named think is the agent planning too: a PLAN step
// with its thought, between the calls it does not break.
func TestThinkToolSpanIsAPlanStep(t *testing.T) {
	out := "fare rules: no change"
	spans := []Span{
		{Run: "r", SpanID: "1", Start: 1, Kind: SpanTool, Tool: "get_fare", Args: json.RawMessage(`{"id":1}`), Output: &out},
		{Run: "r", SpanID: "2", Start: 2, Kind: SpanTool, Tool: "think", Args: json.RawMessage(`{"thought":"the fare cannot change"}`), Output: new(string)},
		{Run: "r", SpanID: "3", Start: 3, Kind: SpanTool, Tool: "get_fare", Args: json.RawMessage(`{"id":1}`), Output: &out},
	}
	var steps []*schema.Step
	if err := AssembleRun(spans, false, func(s *schema.Step) error { steps = append(steps, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3", len(steps))
	}
	if th := steps[1]; th.ToolCall != nil || th.ToolResult != nil || th.State != schema.StatePlan.String() || reason(th) != "the fare cannot change" {
		t.Errorf("think span: %s call %v result %v reason %q, want a PLAN step with the thought", th.State, th.ToolCall, th.ToolResult, reason(th))
	}
	if tool(steps[0]) != "get_fare" || tool(steps[2]) != "get_fare" {
		t.Errorf("the calls around it: %s, %s", tool(steps[0]), tool(steps[2]))
	}
}

// AG2's dumps (as the MAST traces keep them) hold the chat under
// "trajectory": a conversation, not a SWE-agent trajectory.
func TestOpenAITrajectoryKey(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, []byte(`{"instance_id": "ag2-1", "trajectory": [
		{"role": "user", "name": "mathproxyagent", "content": "What is 2+2?"},
		{"role": "assistant", "name": "assistant", "content": "print(2+2)"},
		{"role": "user", "name": "mathproxyagent", "content": "4"},
		{"role": "assistant", "name": "assistant", "content": "The answer is 4."}]}`))
	if !strings.HasSuffix(run, "#ag2-1") || fmt.Sprint(c.numbers(run)) != "[1 3]" {
		t.Fatalf("run %q steps %v", run, c.numbers(run))
	}
	if s := c.step(t, run, 1); tool(s) != MessageTool || data(t, s) != "4" {
		t.Errorf("first turn: %s %q", tool(s), data(t, s))
	}
}

// In an AutoGen (AG2) group chat the code executor is an agent of its own:
// its answer `exitcode: 1 (execution failed)` makes the turn it answers a
// failed call, `exitcode: 0 (execution succeeded)` an ordinary answer; an
// agent quoting the words later in prose is not read.
func TestAutoGenExecutorAnswers(t *testing.T) {
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Compute the mean delay per airline."},
		{"role": "assistant", "name": "DataAnalysis_Expert", "content": "```python\nimport pandas as pd\nprint(pd.read_csv('delays.csv').mean())\n```"},
		{"role": "assistant", "name": "Computer_terminal", "content": "exitcode: 1 (execution failed)\nCode output: FileNotFoundError: delays.csv"},
		{"role": "assistant", "name": "DataAnalysis_Expert", "content": "```python\nprint(42)\n```"},
		{"role": "assistant", "name": "Computer_terminal", "content": "exitcode: 0 (execution succeeded)\nCode output: 42"},
		{"role": "assistant", "name": "Verification_Expert", "content": "The run above said exitcode: 1 (execution failed) first; now it works."},
		{"role": "assistant", "name": "DataAnalysis_Expert", "content": "TERMINATE"},
	}})
	conv, run := convertOne(t, OpenAIMessages, raw)
	for step, want := range map[int64]string{1: "error EXIT_CODE", 3: "ok", 5: "ok"} {
		if got := result(conv.step(t, run, step)); got != want {
			t.Errorf("step %d: %s, want %s", step, got, want)
		}
	}
	// Stripped of output, the answer's text is not read.
	c, run := convertStripped(t, OpenAIMessages, raw)
	if got := result(c.step(t, run, 1)); got != "ok" {
		t.Errorf("stripped: %s, want ok", got)
	}
}

// AutoGen 0.2 and AG2 log a message's role from the logger's side: a group
// chat's manager has every agent's turn as "user", and a chat kept by the
// user proxy that started it has the proxy's turns as "assistant". The
// names say who spoke: the agents' turns are the steps, the proxy's
// answers (the code it ran) their results.
func TestAutoGenLoggedRoles(t *testing.T) {
	manager := mustMarshal(t, []map[string]any{
		{"role": "user", "name": "User_proxy", "content": "Plot NVDA year to date."},
		{"role": "user", "name": "Engineer", "content": "```python\nimport yfinance\n```"},
		{"role": "user", "name": "User_proxy", "content": "exitcode: 1 (execution failed)\nCode output: ModuleNotFoundError: No module named 'yfinance'"},
		{"role": "user", "name": "Critic", "content": "Install yfinance first."},
		{"role": "user", "name": "Engineer", "content": "```sh\npip install yfinance\n```"},
		{"role": "user", "name": "User_proxy", "content": "exitcode: 0 (execution succeeded)\nCode output: Successfully installed yfinance"},
	})
	c, run := convertOne(t, OpenAIMessages, manager)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 4]" {
		t.Fatalf("manager's log: steps %s, want the agents' turns [1 3 4]", got)
	}
	for step, want := range map[int64]string{1: "error EXIT_CODE", 3: "ok", 4: "ok"} {
		if got := result(c.step(t, run, step)); got != want {
			t.Errorf("manager's log, step %d: %s, want %s", step, got, want)
		}
	}
	if s := c.step(t, run, 1); !strings.Contains(string(s.ToolCall.Args), `"from":"Engineer"`) {
		t.Errorf("step 1 args %s, want the speaker named", s.ToolCall.Args)
	}

	proxySide := mustMarshal(t, map[string]any{"id": "chat-1", "messages": []map[string]any{
		{"role": "assistant", "name": "user_proxy", "content": "What is 2+2? Run code to check."},
		{"role": "user", "name": "assistant", "content": "```python\nprint(2+2)\n```"},
		{"role": "assistant", "name": "user_proxy", "content": "exitcode: 0 (execution succeeded)\nCode output: 4"},
		{"role": "user", "name": "assistant", "content": "The answer is 4. TERMINATE"},
	}})
	c, run = convertOne(t, OpenAIMessages, proxySide)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3]" {
		t.Fatalf("proxy's side: steps %s, want the assistant agent's turns [1 3]", got)
	}
	if s := c.step(t, run, 1); data(t, s) != "exitcode: 0 (execution succeeded)\nCode output: 4" {
		t.Errorf("proxy's side, step 1 result %q, want the proxy's answer", data(t, s))
	}

	// A task without a name is the user's; the named speakers after it are
	// the agents.
	unnamedTask := mustMarshal(t, []map[string]any{
		{"role": "user", "content": "Plot NVDA."},
		{"role": "user", "name": "Engineer", "content": "```python\nimport yfinance\n```"},
		{"role": "user", "name": "Critic", "content": "Looks fine."},
	})
	c, run = convertOne(t, OpenAIMessages, unnamedTask)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2]" {
		t.Errorf("unnamed task: steps %s, want the agents' turns [1 2]", got)
	}

	// Roles are the log's own when a model speaks unnamed (people named in
	// a chat with one assistant), or when one name is all there is.
	people := mustMarshal(t, []map[string]any{
		{"role": "user", "name": "alice", "content": "Book a room for Friday."},
		{"role": "user", "name": "bob", "content": "Make it two rooms."},
		{"role": "assistant", "content": "Two rooms are booked for Friday."},
	})
	c, run = convertOne(t, OpenAIMessages, people)
	if got := fmt.Sprint(c.numbers(run)); got != "[2]" {
		t.Errorf("people and an unnamed assistant: steps %s, want the assistant's turn [2]", got)
	}
	oneName := mustMarshal(t, []map[string]any{
		{"role": "user", "name": "alice", "content": "Plot NVDA."},
		{"role": "user", "name": "alice", "content": "And TSLA."},
	})
	if c := convert(t, OpenAIMessages, "t.json", 1, true, oneName); len(c.steps) != 0 {
		t.Errorf("one name: %d steps, want the user's turns read as no agent's", len(c.steps))
	}
}

// A conversation whose agent turns hold nothing the adapter reads (blocks
// of an unknown dialect) is refused, saying so, rather than read as a chat
// of empty turns: its calls would be lost without a word.
func TestUnknownDialectRefused(t *testing.T) {
	raw := []byte(`[{"role": "user", "content": "hi"},
		{"role": "assistant", "content": [{"widgetCall": {"name": "x"}}]},
		{"role": "user", "content": [{"widgetResult": {"ok": true}}]},
		{"role": "assistant", "content": [{"widgetCall": {"name": "x"}}]}]`)
	d, err := ParseDoc("t.json", 1, true, raw)
	if err != nil {
		t.Fatal(err)
	}
	err = ConvertDoc(OpenAIMessages, d, func(*schema.Step) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "hold no text and no tool call") {
		t.Errorf("convert: %v, want a refusal naming empty agent turns", err)
	}
}

// LlamaIndex's ChatMessage keeps the calls in additional_kwargs and the
// words in text blocks: read as the OpenAI messages they stand for.
func TestLlamaIndexChatMessages(t *testing.T) {
	llama := mustMarshal(t, []map[string]any{
		{"role": "user", "additional_kwargs": map[string]any{}, "blocks": []any{map[string]any{"block_type": "text", "text": "Weather in Oslo?"}}},
		{"role": "assistant", "additional_kwargs": map[string]any{"tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": "get_weather", "arguments": `{"city": "Oslo"}`}}}}, "blocks": []any{}},
		{"role": "tool", "additional_kwargs": map[string]any{"tool_call_id": "c1", "name": "get_weather"}, "blocks": []any{map[string]any{"block_type": "text", "text": "4C, rain"}}},
		{"role": "assistant", "additional_kwargs": map[string]any{}, "blocks": []any{map[string]any{"block_type": "text", "text": "It is 4C and raining."}}},
	})
	c, run := convertOne(t, OpenAIMessages, llama)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3]" {
		t.Fatalf("steps %s, want [1 3]", got)
	}
	if s := c.step(t, run, 1); tool(s) != "get_weather" || data(t, s) != "4C, rain" {
		t.Errorf("step 1: %s %q, want the call from additional_kwargs answered by the tool's text block", tool(s), data(t, s))
	}
	if s := c.step(t, run, 3); s.State != "STOP" || reason(s) != "It is 4C and raining." {
		t.Errorf("step 3: %s %q, want the answer's text block", s.State, reason(s))
	}
}

// A conversation written a message a line (a chat log appended to as it
// goes) is one run, read whole, its steps numbered by their lines; a
// conversation a line is not a transcript.
func TestOpenAIMessagePerLine(t *testing.T) {
	lines := []string{`{"role": "user", "content": "Weather in Oslo?"}`}
	for i := 0; i < 3; i++ {
		lines = append(lines,
			fmt.Sprintf(`{"role": "assistant", "content": null, "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]}`, i),
			fmt.Sprintf(`{"role": "tool", "tool_call_id": "c%d", "content": "Error: 503"}`, i))
	}
	lines = append(lines, `not json`, `{"role": "assistant", "content": "The service is down."}`)
	first, err := ParseDoc("chat.jsonl", 1, false, []byte(lines[0]))
	if err != nil || !OpenAIMessages.Transcript(first) || OpenAIMessages.Recognize(first) != nil {
		t.Fatalf("first line: %v, want it to start a transcript openai-messages recognises", err)
	}
	d, err := ParseLines("chat.jsonl", 1, []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(OpenAIMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	// The answer is on line 9, after the line that is not JSON: step 8, so
	// that a step's number finds its line in the file.
	if fmt.Sprint(c.runs) != "[chat.jsonl]" || fmt.Sprint(c.numbers("chat.jsonl")) != "[1 3 5 8]" {
		t.Errorf("runs %v steps %v, want one run of the lines' three calls and the answer, numbered by line: [1 3 5 8]", c.runs, c.numbers("chat.jsonl"))
	}
	if s := c.step(t, "chat.jsonl", 1); result(s) != "error ERROR" {
		t.Errorf("step 1: %s", result(s))
	}
	if len(d.BadLines) != 1 || d.BadLines[0].Line != 8 {
		t.Errorf("bad lines %+v, want line 8", d.BadLines)
	}
	conv, _ := ParseDoc("c.jsonl", 1, false, []byte(`{"messages": [{"role": "user", "content": "hi"}]}`))
	if OpenAIMessages.Transcript(conv) {
		t.Error("a conversation per line is taken for a transcript")
	}
}

// AgentDojo's runs: a call written {"function": "<name>", "args": {...}},
// a tool message carrying its call as "tool_call" and its failure as an
// "error" message; content blocks {"type": "text", "content"}.
func TestOpenAIAgentDojoCalls(t *testing.T) {
	raw := mustMarshal(t, map[string]any{"user_task_id": "user_task_3", "messages": []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "content": "Book the cheapest hotel."}}},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"function": "get_hotels", "args": map[string]any{"city": "Paris"}, "id": "c1", "placeholder_args": nil},
			map[string]any{"function": "reserve_hotel", "args": map[string]any{"hotel": "Le Marais"}, "id": "c2", "placeholder_args": nil}}},
		map[string]any{"role": "tool", "content": []any{map[string]any{"type": "text", "content": "Le Marais: 180 EUR"}}, "tool_call_id": "c1",
			"tool_call": map[string]any{"function": "get_hotels", "args": map[string]any{"city": "Paris"}, "id": "c1"}, "error": nil},
		map[string]any{"role": "tool", "content": []any{map[string]any{"type": "text", "content": ""}}, "tool_call_id": "c2",
			"tool_call": map[string]any{"function": "reserve_hotel", "args": map[string]any{"hotel": "Le Marais"}, "id": "c2"}, "error": "ValueError: no rooms left"},
	}})
	c, run := convertOne(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{1: "get_hotels ok", 3: "reserve_hotel error ERROR"})
	if a := args(t, c.step(t, run, 1)); a["city"] != "Paris" {
		t.Errorf("args %v", a)
	}
	if d := data(t, c.step(t, run, 3)); d != "ValueError: no rooms left" {
		t.Errorf("failed call's output %q, want the error's message", d)
	}
}

// LlamaIndex's persisted chat store: a conversation per key, named by
// it; older versions wrote the whole store as a JSON string, read as the
// JSON inside.
func TestOpenAILlamaIndexChatStore(t *testing.T) {
	store := map[string]any{"class_name": "SimpleChatStore", "store": map[string]any{
		"user1": []any{
			map[string]any{"role": "user", "content": "What is the rate?", "additional_kwargs": map[string]any{}},
			map[string]any{"role": "assistant", "content": nil, "additional_kwargs": map[string]any{"tool_calls": []any{
				map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "vector_tool", "arguments": `{"input":"rate"}`}}}}},
			map[string]any{"role": "tool", "content": "7,30%", "additional_kwargs": map[string]any{"name": "vector_tool", "tool_call_id": "c1"}},
			map[string]any{"role": "assistant", "content": "It is 7.30%."},
		},
		"user0": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "assistant", "content": "Hello."}},
	}}
	plain := mustMarshal(t, store)
	c := convert(t, OpenAIMessages, "chat_store.json", 1, true, plain)
	if got := fmt.Sprint(c.runs); got != "[chat_store.json[0]#user0 chat_store.json[1]#user1]" {
		t.Fatalf("runs %s, want one per key", got)
	}
	c.calls(t, "chat_store.json[1]#user1", map[int64]string{1: "vector_tool ok"})
	encoded := mustMarshal(t, string(plain))
	c = convert(t, OpenAIMessages, "chat_store.json", 1, true, encoded)
	if got := fmt.Sprint(c.runs); got != "[chat_store.json[0]#user0 chat_store.json[1]#user1]" {
		t.Errorf("the store written as a JSON string: runs %s", got)
	}
}

// A conversation that counts its tokens once, at its top (a Letta send
// response's "usage"), has them spread over its calls, so that the run's
// total is the one logged; a message's own usage is kept when there is one.
func TestConversationUsageSpread(t *testing.T) {
	raw := []byte(`{"messages": [
		{"role": "user", "content": "find it"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"x\"}"}}]},
		{"role": "tool", "tool_call_id": "a", "content": "found"},
		{"role": "assistant", "content": "It is x."}
	], "usage": {"prompt_tokens": 300, "completion_tokens": 41, "total_tokens": 341, "step_count": 2}}`)
	c, run := convertOne(t, OpenAIMessages, raw)
	var prompt, completion int64
	for _, n := range c.numbers(run) {
		if u := c.step(t, run, n).Usage; u != nil {
			prompt += u.PromptTokens
			completion += u.CompletionTokens
		}
	}
	if prompt != 300 || completion != 41 {
		t.Errorf("tokens %d + %d, want the conversation's 300 + 41", prompt, completion)
	}
}
