package adapters

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A Messages API conversation that loops: the same search_flights call,
// answered with the same is_error result, six times. Each call is a step
// numbered by its tool_use block's position (the messages' blocks end to
// end), failed, with the same args and result: the steps an error storm
// is made of.
func TestAnthropicLoopSample(t *testing.T) {
	const file = "flight-search-loop.json"
	c := convert(t, AnthropicMessages, file, 1, true, readSample(t, "anthropic-messages/"+file))
	run := file + "#conv_7Qe2flights"
	if len(c.runs) != 1 || c.runs[0] != run {
		t.Fatalf("runs %q, want %q", c.runs, run)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[2 5 8 11 14 17]" {
		t.Fatalf("steps %s", got)
	}
	first := c.step(t, run, 2)
	for _, n := range c.numbers(run) {
		s := c.step(t, run, n)
		if tool(s) != "search_flights" || string(s.ToolCall.Args) != string(first.ToolCall.Args) || args(t, s)["date"] != "2026-02-30" {
			t.Errorf("step %d: %s %s", n, tool(s), s.ToolCall.Args)
		}
		if result(s) != "error ERROR" || data(t, s) != "Error: invalid date '2026-02-30'" || s.State != schema.StateAct.String() || s.Intent != searchIntent {
			t.Errorf("step %d: %s %q %s intent %q", n, result(s), data(t, s), s.State, s.Intent)
		}
	}
	if reason(first) != "I'll search for morning flights from Oslo to Bergen on that date." {
		t.Errorf("reason %q", reason(first))
	}
}

// JSON Lines of healthy conversations: parallel calls each keep a number
// (their blocks'), matched to their results by tool_use_id, one result a
// list of blocks; a text-only turn the user answers is a message; the last
// turn is STOP; a server tool's call and result sit in the assistant's own
// message; an image in a result is seen as [image]; usage and the
// request's model go to the message's first step.
func TestAnthropicConversationsSample(t *testing.T) {
	const file = "conversations.ndjson"
	lines := sampleLines(t, "anthropic-messages/"+file)
	c := convert(t, AnthropicMessages, file, 1, false, lines[0])
	run := file + ":1#conv_3Kd8weather"
	if got := fmt.Sprint(c.numbers(run)); got != "[2 3 6 8 10]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 2); args(t, s)["city"] != "Oslo" || data(t, s) != "Oslo tomorrow: -2°C, light snow, wind 4 m/s" || reason(s) != "I'll check both cities." {
		t.Errorf("first parallel call: %s %q %q", s.ToolCall.Args, data(t, s), reason(s))
	}
	if s := c.step(t, run, 3); args(t, s)["city"] != "Bergen" || data(t, s) != "Bergen tomorrow: 6°C, rain, wind 9 m/s" || result(s) != "ok" || reason(s) != "" {
		t.Errorf("second parallel call, its result a list of blocks: %s %q %s %q", s.ToolCall.Args, data(t, s), result(s), reason(s))
	}
	msg := c.step(t, run, 6)
	if tool(msg) != MessageTool || data(t, msg) != "Thanks! Will it still rain in Bergen the day after?" || !contains(reason(msg), "Pack a warm coat") {
		t.Errorf("text-only turn answered: %s %q %q", tool(msg), data(t, msg), reason(msg))
	}
	if last := c.step(t, run, 10); last.State != schema.StateStop.String() || last.ToolCall != nil || !contains(reason(last), "dry and cloudy") {
		t.Errorf("last turn: %s %v %q", last.State, last.ToolCall, reason(last))
	}
	if p, _, _, n := usageSum(c, run); n != 0 || p != 0 {
		t.Errorf("a conversation without usage has %d tokens on %d steps", p, n)
	}

	c = convert(t, AnthropicMessages, file, 2, false, lines[1])
	run = file + ":2#conv_9Tr4release"
	if got := fmt.Sprint(c.numbers(run)); got != "[2 5 7]" {
		t.Fatalf("steps %s", got)
	}
	search := c.step(t, run, 2)
	if tool(search) != "web_search" || search.Intent != searchIntent || data(t, search) != "Releases · BurntSushi/ripgrep\nhttps://github.com/BurntSushi/ripgrep/releases" {
		t.Errorf("server tool: %s %q %q", tool(search), search.Intent, data(t, search))
	}
	if u := search.Usage; u == nil || u.PromptTokens != 2210 || u.CompletionTokens != 164 || u.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("usage %+v", u)
	}
	if s := c.step(t, run, 5); tool(s) != "take_screenshot" || data(t, s) != "Screenshot of https://github.com/BurntSushi/ripgrep/releases (1280x800)\n[image]" || s.Usage != nil {
		t.Errorf("result with an image: %s %q %+v", tool(s), data(t, s), s.Usage)
	}
	if s := c.step(t, run, 7); s.State != schema.StateStop.String() || s.Usage == nil || s.Usage.PromptTokens != 3480 {
		t.Errorf("last turn: %s %+v", s.State, s.Usage)
	}
}

// A Claude Code session read whole: the run is file#sessionId, a step's
// number the line's index (a record per block), its ts the record's;
// words and calls of one response (one message id over several records)
// are one turn, its usage counted once with the cached input; a subagent
// kept in the file (isSidechain, no agentId) is a run of its own; Bash's
// "Exit code 1" with is_error is EXIT_CODE; a Task's result is a list of
// blocks; the last turn is STOP.
func TestClaudeCodeSessionSample(t *testing.T) {
	const file = "claude-code-session.ndjson"
	d, err := ParseLines(file, 1, readSample(t, "anthropic-messages/"+file))
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Detect(d); err != nil || f != AnthropicMessages {
		t.Fatalf("Detect: %v %v", f, err)
	}
	c := newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	main, side := file+"#4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44", file+"#4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44#sidechain-1"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{main, side}) {
		t.Fatalf("runs %q", c.runs)
	}
	if got := fmt.Sprint(c.numbers(main)); got != "[3 5 8 16 18 21 23 25 27]" {
		t.Errorf("session steps %s", got)
	}
	if got := fmt.Sprint(c.numbers(side)); got != "[10 12 14]" {
		t.Errorf("sidechain steps %s", got)
	}
	grep := c.step(t, main, 3)
	if tool(grep) != "Grep" || grep.Intent != searchIntent || reason(grep) != "I'll find where invoice totals are computed." || data(t, grep) != "src/invoice/totals.py:9:def total(items):" {
		t.Errorf("grep: %s %q %q %q", tool(grep), grep.Intent, reason(grep), data(t, grep))
	}
	if grep.TS == nil || grep.TS.UnixMilli != 1756908135020 {
		t.Errorf("ts %+v, want the tool_use record's", grep.TS)
	}
	// Cached input is input, and also passed on apart, for the cache prices.
	if u := grep.Usage; u == nil || u.PromptTokens != 4+2140+13672 || u.CacheWriteTokens != 2140 || u.CacheReadTokens != 13672 ||
		u.CompletionTokens != 118 || u.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("usage %+v", u)
	}
	if task := c.step(t, main, 8); tool(task) != "Task" || !strings.HasPrefix(data(t, task), "Two places round money") || result(task) != "ok" {
		t.Errorf("task: %s %s %q", tool(task), result(task), data(t, task))
	}
	if bash := c.step(t, main, 18); tool(bash) != "Bash" || result(bash) != "error TESTS_FAILED" || !strings.HasPrefix(data(t, bash), "Exit code 1\n") {
		t.Errorf("failed tests: %s %s %q", tool(bash), result(bash), data(t, bash))
	}
	if s := c.step(t, main, 25); result(s) != "ok" {
		t.Errorf("passing tests: %s", result(s))
	}
	if last := c.step(t, main, 27); last.State != schema.StateStop.String() || last.ToolCall != nil {
		t.Errorf("last: %s %v", last.State, last.ToolCall)
	}
	if s := c.step(t, side, 14); s.State != schema.StateStop.String() || !strings.HasPrefix(reason(s), "Two places round money") {
		t.Errorf("subagent's answer: %s %q", s.State, reason(s))
	}
	prompt, completion, _, n := usageSum(c, main)
	if n != 9 || prompt == 0 || completion == 0 {
		t.Errorf("session usage %d+%d on %d steps", prompt, completion, n)
	}
}

// The looping transcript: the same Edit, refused by Claude Code with the
// same <tool_use_error>, six times.
func TestClaudeCodeEditLoopSample(t *testing.T) {
	const file = "claude-code-edit-loop.ndjson"
	d, err := ParseLines(file, 1, readSample(t, "anthropic-messages/"+file))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	run := file + "#9b2e7a41-3c8d-4f0e-a6b5-2d1c9e8f7a30"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 4 7 10 13 16 19]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 1); tool(s) != "Read" || result(s) != "ok" {
		t.Errorf("read: %s %s", tool(s), result(s))
	}
	first := c.step(t, run, 4)
	for n := int64(4); n <= 19; n += 3 {
		s := c.step(t, run, n)
		if tool(s) != "Edit" || string(s.ToolCall.Args) != string(first.ToolCall.Args) || result(s) != "error EDIT_REJECTED" || data(t, s) != data(t, first) {
			t.Errorf("step %d: %s %s %q", n, tool(s), result(s), data(t, s))
		}
	}
}

// Shapes the samples do not show: is_error on a result with nothing to
// read is ERROR, error text in a non-error result goes by the rules; an
// unanswered call keeps its number, without a result; an assistant turn
// of thinking alone gives its thinking as the reason; a server tool's
// error_code and a code execution's return code; a request's top-level
// fields.
func TestAnthropicShapes(t *testing.T) {
	doc := `{"conversation_id": "c-77", "model": "claude-opus-4-1", "system": "Be brief.", "messages": [
		{"role": "user", "content": "check"},
		{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "probe", "input": {"host": "db"}}, {"type": "tool_use", "id": "b", "name": "probe", "input": {"host": "cache"}}, {"type": "tool_use", "id": "c", "name": "probe", "input": {"host": "queue"}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": "Error: connection refused"}, {"type": "tool_result", "tool_use_id": "a", "is_error": true}]},
		{"role": "assistant", "content": [{"type": "thinking", "thinking": "The queue never answered.", "signature": "x"}]},
		{"role": "user", "content": [{"type": "text", "text": "go on"}]},
		{"role": "assistant", "content": [
			{"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"query": "db down"}},
			{"type": "web_search_tool_result", "tool_use_id": "s1", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}},
			{"type": "server_tool_use", "id": "s2", "name": "code_execution", "input": {"code": "import x"}},
			{"type": "code_execution_tool_result", "tool_use_id": "s2", "content": {"type": "code_execution_result", "stdout": "", "stderr": "ModuleNotFoundError: No module named 'x'", "return_code": 1}},
			{"type": "tool_use", "id": "t", "name": "probe", "input": {}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "up"}]}
	]}`
	c, run := convertOne(t, AnthropicMessages, []byte(doc))
	if run != "t.json#c-77" {
		t.Errorf("run %q", run)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 6 8 10 12]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 1); result(s) != "error ERROR" || data(t, s) != "" {
		t.Errorf("is_error without content: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 2); result(s) != "error ERROR" || data(t, s) != "Error: connection refused" {
		t.Errorf("error text: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 3); s.ToolResult != nil || args(t, s)["host"] != "queue" {
		t.Errorf("unanswered parallel call: %v %s", s.ToolResult, s.ToolCall.Args)
	}
	if s := c.step(t, run, 6); s.ToolCall == nil || tool(s) != MessageTool || reason(s) != "The queue never answered." || data(t, s) != "go on" {
		t.Errorf("thinking alone: %s %q %q", tool(s), reason(s), data(t, s))
	}
	if s := c.step(t, run, 8); result(s) != "error MAX_USES_EXCEEDED" {
		t.Errorf("server tool error: %s", result(s))
	}
	if s := c.step(t, run, 10); result(s) != "error EXIT_CODE" || data(t, s) != "ModuleNotFoundError: No module named 'x'" {
		t.Errorf("code execution: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 12); tool(s) != "probe" || string(s.ToolCall.Args) != "{}" || result(s) != "ok" {
		t.Errorf("last call: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}

	// A bare list of messages; a user message of text and a result.
	doc = `[{"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "ls", "input": {"path": "/"}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": [{"type": "text", "text": "bin"}, {"type": "text", "text": "etc"}]}, {"type": "text", "text": "and now?"}]},
		{"role": "assistant", "content": "done"}]`
	c, run = convertOne(t, AnthropicMessages, []byte(doc))
	if got := fmt.Sprint(c.numbers(run)); run != "t.json" || got != "[0 3]" {
		t.Fatalf("run %q steps %s", run, got)
	}
	if s := c.step(t, run, 0); data(t, s) != "bin\netc" {
		t.Errorf("list content %q", data(t, s))
	}
	if s := c.step(t, run, 3); s.State != schema.StateStop.String() || reason(s) != "done" {
		t.Errorf("string content: %s %q", s.State, reason(s))
	}

	// Content nested deeper than results nest is kept as its JSON, not
	// decoded level by level (a hostile file would cost time squared).
	nested := strings.Repeat(`[{"type": "x", "content": `, 8) + `"deep"` + strings.Repeat(`}]`, 8)
	doc = `[{"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "f", "input": {}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": ` + nested + `}]}]`
	c, run = convertOne(t, AnthropicMessages, []byte(doc))
	if got := data(t, c.step(t, run, 0)); !strings.HasPrefix(got, `[{"type": "x", "content": `) || !strings.Contains(got, `"deep"`) {
		t.Errorf("deep content %q", got)
	}
}

// Claude Code's records: a response split over records (one message id)
// is one turn whose usage counts once, its largest; Claude Code's own
// user messages (isMeta) are nobody's turn; a model call that failed
// (isApiErrorMessage) is a failed call of "model"; a subagent's file
// (isSidechain with agentId) is named after the session and the agent;
// the headless mode's stream-json (session_id, parent_tool_use_id); a
// file read again shows nothing new (seen).
func TestClaudeCodeRecords(t *testing.T) {
	rec := func(typ, extra string) string {
		return `{"type": "` + typ + `", "sessionId": "s-1", "uuid": "u", "timestamp": "2025-09-01T10:00:00.000Z"` + extra + `}`
	}
	file := strings.Join([]string{
		rec("user", `, "message": {"role": "user", "content": "read it twice"}`),
		rec("assistant", `, "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Reading."}], "usage": {"input_tokens": 3, "cache_read_input_tokens": 100, "output_tokens": 1}}`),
		rec("assistant", `, "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "tool_use", "id": "r1", "name": "Read", "input": {"file_path": "/a.txt"}}], "usage": {"input_tokens": 3, "cache_read_input_tokens": 100, "output_tokens": 40}}`),
		rec("user", `, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "r1", "content": "     1→one\n     2→two\n     3→three\n     4→four\n     5→five\n     6→six"}]}`),
		rec("user", `, "isMeta": true, "message": {"role": "user", "content": "Caveat: the messages below were generated by the user while running local commands."}`),
		rec("assistant", `, "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "r2", "name": "Read", "input": {"file_path": "/a.txt", "offset": 2}}]}`),
		rec("user", `, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "r2", "content": "     2→two\n     3→three\n     4→four\n     5→five\n     6→six"}]}`),
		rec("assistant", `, "isApiErrorMessage": true, "message": {"id": "m3", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "API Error: 429 rate limit exceeded"}], "usage": {"input_tokens": 0, "output_tokens": 0}}`),
		rec("summary", `, "summary": "x", "leafUuid": "u"`),
	}, "\n")
	d, err := ParseLines("s.jsonl", 1, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	run := "s.jsonl#s-1"
	if got := fmt.Sprint(c.numbers(run)); len(c.runs) != 1 || got != "[2 5 7]" {
		t.Fatalf("runs %q steps %s", c.runs, got)
	}
	read := c.step(t, run, 2)
	if reason(read) != "Reading." || read.Usage == nil || read.Usage.PromptTokens != 103 || read.Usage.CompletionTokens != 40 {
		t.Errorf("split response: %q %+v", reason(read), read.Usage)
	}
	again := c.step(t, run, 5)
	if again.ToolResult == nil || again.ToolResult.Seen == nil || !*again.ToolResult.Seen {
		t.Errorf("a file read again: %+v", again.ToolResult)
	}
	if s := c.step(t, run, 7); tool(s) != "model" || result(s) != "error RATE_LIMIT" || s.Usage != nil {
		t.Errorf("API error: %s %s %+v", tool(s), result(s), s.Usage)
	}

	// A subagent's own file; the headless mode's events.
	file = strings.Join([]string{
		`{"type": "user", "isSidechain": true, "agentId": "a748733", "sessionId": "s-2", "parentUuid": null, "message": {"role": "user", "content": "look"}}`,
		`{"type": "assistant", "isSidechain": true, "agentId": "a748733", "sessionId": "s-2", "parentUuid": "x", "message": {"role": "assistant", "content": [{"type": "text", "text": "nothing"}]}}`,
	}, "\n")
	d, _ = ParseLines("agent-a748733.jsonl", 1, []byte(file))
	c = newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil || fmt.Sprint(c.runs) != "[agent-a748733.jsonl#s-2#agent-a748733]" {
		t.Errorf("subagent file: runs %q %v", c.runs, err)
	}
	file = strings.Join([]string{
		`{"type": "system", "subtype": "init", "session_id": "h-1", "model": "claude-sonnet-4-5", "tools": ["Bash"]}`,
		`{"type": "assistant", "session_id": "h-1", "parent_tool_use_id": null, "message": {"id": "m", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Task", "input": {"prompt": "look"}}]}}`,
		`{"type": "assistant", "session_id": "h-1", "parent_tool_use_id": "t1", "message": {"id": "n", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "grep -rn foo ."}}]}}`,
		`{"type": "user", "session_id": "h-1", "parent_tool_use_id": "t1", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": ""}]}}`,
		`{"type": "user", "session_id": "h-1", "parent_tool_use_id": null, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "none"}]}}`,
		`{"type": "result", "subtype": "success", "session_id": "h-1", "total_cost_usd": 0.01}`,
	}, "\n")
	d, _ = ParseLines("h.jsonl", 1, []byte(file))
	if f, err := Detect(d); f != AnthropicMessages {
		t.Fatalf("stream-json: %v %v", f, err)
	}
	c = newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil || fmt.Sprint(c.runs) != "[h.jsonl#h-1 h.jsonl#h-1#task-t1]" {
		t.Fatalf("stream-json: runs %q %v", c.runs, err)
	}
	if s := c.step(t, "h.jsonl#h-1#task-t1", 2); result(s) != "ok empty" || s.Intent != searchIntent {
		t.Errorf("subagent's empty grep: %s %q", result(s), s.Intent)
	}
}

// Anthropic's and OpenAI's conversations are both lists of {"role": ...}
// messages: the first message whose fields or blocks only one of them
// writes decides, and each format refuses the other's, saying why.
func TestAnthropicAndOpenAISplitConversations(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want *Format
	}{
		{`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]}]}`, AnthropicMessages},
		{`{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x"}]}]}`, AnthropicMessages},
		{`[{"role": "user", "content": [{"type": "text", "text": "hi"}]}, {"role": "assistant", "content": [{"type": "text", "text": "hello"}]}]`, AnthropicMessages},
		{`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "hello"}]}]}`, AnthropicMessages},
		{`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`, OpenAIMessages},
		{`{"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}, {"role": "assistant", "content": null, "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]}]}`, OpenAIMessages},
		{`{"messages": [{"role": "user", "content": [{"type": "text", "text": "what is this"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]}`, OpenAIMessages},
		{`{"messages": [{"role": "tool", "tool_call_id": "a", "content": [{"type": "text", "text": "x"}]}]}`, OpenAIMessages},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if f, err := Detect(d); f != c.want {
			t.Errorf("%s: %v (%v), want %s", c.doc, f, err, c.want.Name)
		}
		other := map[*Format]*Format{AnthropicMessages: OpenAIMessages, OpenAIMessages: AnthropicMessages}[c.want]
		if err := other.Recognize(d); err == nil {
			t.Errorf("%s: %s takes it too", c.doc, other.Name)
		}
	}
	d, _ := ParseDoc("x", 1, true, readSample(t, "anthropic-messages/flight-search-loop.json"))
	if err := OpenAIMessages.Recognize(d); err == nil || err.Error() != "a conversation of Anthropic content blocks, read by anthropic-messages" {
		t.Errorf("openai-messages on a Claude conversation: %v", err)
	}
	d, _ = ParseDoc("x", 1, true, readSample(t, "openai-messages/support-conversation.json"))
	if err := AnthropicMessages.Recognize(d); err == nil || err.Error() != "a conversation without Anthropic content blocks (tool_use, tool_result, a list of typed blocks), read by openai-messages" {
		t.Errorf("anthropic-messages on an OpenAI conversation: %v", err)
	}
	d, _ = ParseDoc("x", 1, true, readSample(t, "swe-agent/healthy-fix.traj"))
	if err := AnthropicMessages.Recognize(d); err == nil || err.Error() != "a document of the swe-agent format, not a conversation" {
		t.Errorf("anthropic-messages on a SWE-agent trajectory: %v", err)
	}
}

// The tracing formats' records are not Claude Code events nor
// conversations, and Claude Code's events are none of theirs: every line
// of every trace sample is refused by anthropic-messages, and every
// anthropic-messages sample line by the tracing formats.
func TestAnthropicAndTracesRefuseEachOther(t *testing.T) {
	traces := []string{"otlp/genai-timeout-loop.ndjson", "otlp/openinference-empty-retrievals.ndjson", "otlp/openllmetry-healthy.json",
		"langfuse/loop.ndjson", "langfuse/healthy.json", "langsmith/loop.ndjson", "langsmith/healthy.ndjson",
		"openai-agents/loop.ndjson", "openai-agents/healthy.ndjson"}
	for _, rel := range traces {
		raw := readSample(t, "../traces/"+rel)
		docs := [][]byte{raw}
		if strings.HasSuffix(rel, ".ndjson") {
			docs = nonBlankLines(raw)
		}
		for i, doc := range docs {
			d, err := ParseDoc(rel, int64(i+1), len(docs) == 1, doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := AnthropicMessages.Recognize(d); err == nil {
				t.Errorf("anthropic-messages takes %s:%d", rel, i+1)
			}
		}
	}
	for _, rel := range []string{"claude-code-session.ndjson", "claude-code-edit-loop.ndjson", "conversations.ndjson"} {
		for i, line := range sampleLines(t, "anthropic-messages/"+rel) {
			d, err := ParseDoc(rel, int64(i+1), false, line)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range Registry {
				if f != AnthropicMessages && f.Recognize(d) == nil {
					t.Errorf("%s takes %s:%d", f.Name, rel, i+1)
				}
			}
			if AnthropicMessages.Recognize(d) != nil {
				t.Errorf("anthropic-messages refuses %s:%d", rel, i+1)
			}
		}
	}
}

// A Claude Code session is read whole (Transcript) whatever its first
// line; a Messages API conversation per line is not; what cannot be read
// is refused with a reason that names the line.
func TestAnthropicTranscriptAndMalformed(t *testing.T) {
	for _, rel := range []string{"claude-code-session.ndjson", "claude-code-edit-loop.ndjson"} {
		d := sampleDoc(t, "anthropic-messages/"+rel, 1)
		if !AnthropicMessages.Transcript(d) {
			t.Errorf("%s: its first line does not start a transcript", rel)
		}
	}
	if d := sampleDoc(t, "anthropic-messages/conversations.ndjson", 1); AnthropicMessages.Transcript(d) {
		t.Error("a conversation per line is taken for a transcript")
	}
	for _, f := range Registry {
		if f != AnthropicMessages && f != Codex && f != GeminiCLI && f != Cursor && f != CopilotCLI && f != OpenCode && f != QwenCode && f != AutoGen && f != OpenAIMessages && f != ATIF && f.Transcript != nil {
			t.Errorf("%s reads transcripts", f.Name)
		}
	}

	d, err := ParseLines("s.jsonl", 4, []byte("\n{\"type\": \"user\", \"sessionId\": \"s\"}\n\n{\"type\": \"assistant\", \"sessionId\"\n"))
	if err != nil || len(d.Elements()) != 1 || len(d.BadLines) != 1 || d.BadLines[0].Line != 7 || !strings.HasPrefix(d.BadLines[0].Reason, "malformed JSON") {
		t.Errorf("broken line: %v %+v", err, d)
	}
	if _, err := ParseLines("s.jsonl", 1, []byte(" \n\n")); err == nil || err.Error() != "empty document" {
		t.Errorf("blank file: %v", err)
	}
	for _, c := range []struct{ doc, why string }{
		{`{"type": "user", "sessionId": "s", "message": {"role": "user", "content": 7}}`, `line 1: "content" is neither a string nor a list of blocks`},
		{"{\"type\": \"user\", \"sessionId\": \"s\"}\n[1]", "line 2: not a JSON object"},
		{`{"type": "user", "sessionId": "s", "message": "hi"}`, `line 1: "message": not a JSON object`},
		{`{"type": "user", "sessionId": "s", "message": {"role": "user", "content": [{"type": "text", "text": "a"}, 3]}}`, `line 1: block 1: not a JSON object`},
	} {
		// A transcript's record of an unexpected shape is left out of the
		// run, to be rejected at its line (ingest), not the whole session.
		d, err := ParseLines("s.jsonl", 1, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := AnthropicMessages.Convert(d, func(*schema.Step) error { return nil }); err != nil {
			t.Errorf("%s: %v, want the record skipped", c.doc, err)
		}
		line, why, _ := strings.Cut(c.why, ": ")
		if len(d.Skipped) != 1 || "line "+strconv.FormatInt(d.Skipped[0].Line, 10) != line || d.Skipped[0].Reason != why {
			t.Errorf("%s: skipped %+v, want %q", c.doc, d.Skipped, c.why)
		}
	}
	for _, c := range []struct{ doc, why string }{
		{`{"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}]}, {"role": "assistant", "content": {"type": "text"}}]}`, `message 1: "content" is neither a string nor a list of blocks`},
		{`[{"role": "user", "content": [{"type": "text", "text": "a"}]}, "b"]`, `message 1: not a JSON object`},
		{`[{"role": "user", "content": [{"type": "text", "text": "a"}]}, {"role": "assistant", "content": "x", "usage": 5, "id": 7}]`, ``},
	} {
		d, _ := ParseDoc("x", 1, true, []byte(c.doc))
		err := AnthropicMessages.Convert(d, func(*schema.Step) error { return nil })
		if (c.why == "" && err != nil) || (c.why != "" && (err == nil || err.Error() != c.why)) {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
	for _, c := range []struct{ doc, why string }{
		{`{"messages": []}`, `neither a Claude Code event ("type" with "sessionId", "parentUuid", ...) nor a conversation: no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`},
		{`[]`, `neither a Claude Code event ("type" with "sessionId", "parentUuid", ...) nor a conversation: an empty list`},
		{`{"type": "user", "message": {"role": "user", "content": "hi"}}`, `neither a Claude Code event ("type" with "sessionId", "parentUuid", ...) nor a conversation: no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`},
	} {
		d, _ := ParseDoc("x", 1, true, []byte(c.doc))
		if err := AnthropicMessages.Recognize(d); err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
}

// Claude Code 2.1 opens many sessions with a record of its bookkeeping
// (last-prompt, mode, ai-title, and types it adds later): the session is
// still a transcript, read as without it, the calls numbered by their
// lines.
func TestClaudeCodeBookkeepingFirst(t *testing.T) {
	const file = "claude-code-session.ndjson"
	raw := readSample(t, "anthropic-messages/"+file)
	sid := "4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44"
	for _, first := range []string{
		`{"type":"last-prompt","lastPrompt":"fix the totals","leafUuid":"x","sessionId":"` + sid + `"}`,
		`{"type":"mode","mode":"plan","sessionId":"` + sid + `"}`,
		`{"type":"ai-title","aiTitle":"Invoice totals","sessionId":"` + sid + `"}`,
		`{"type":"worktree-state","path":"/w","sessionId":"` + sid + `"}`,
	} {
		c := readFileOf(t, AnthropicMessages, file, append([]byte(first+"\n"), raw...))
		main := file + "#" + sid
		if got := fmt.Sprint(c.numbers(main)); got != "[4 6 9 17 19 22 24 26 28]" {
			t.Errorf("%s: session steps %s, want the sample's moved on by the line", first, got)
		}
	}
	// A hyphenated type without Claude Code's session id is no transcript.
	d, _ := ParseDoc("x.jsonl", 1, false, []byte(`{"type":"last-seen","user":"a"}`))
	if isClaudeCode(d) {
		t.Error("a record without sessionId taken for Claude Code's")
	}
}

// A session may open with one of Claude Code's system records, whose
// "type" and "content" (null, or a notice's text) are those of a LangChain
// system message: Claude Code's own keys say whose it is, so the file is
// found a Claude Code transcript, not a conversation written a message a
// line that holds no step. (jazzyalex/agent-sessions keeps such a session
// among its fixtures; these records are written from the format.)
func TestClaudeCodeSystemRecordFirst(t *testing.T) {
	const file = "claude-code-session.ndjson"
	raw := readSample(t, "anthropic-messages/"+file)
	sid := "4f1c2b9e-7d3a-4c55-9e21-0b6a1d2f3c44"
	for _, first := range []string{
		`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"` + sid + `","version":"2.1.80","type":"system","subtype":"session_start","isMeta":true,"uuid":"s0","timestamp":"2026-01-05T10:00:00Z","level":"info","content":null}`,
		`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"` + sid + `","version":"2.1.80","type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"uuid":"s0","timestamp":"2026-01-05T10:00:00Z","level":"info"}`,
	} {
		d, err := ParseDoc(file, 1, false, []byte(first))
		if err != nil {
			t.Fatal(err)
		}
		if f, err := Detect(d); err != nil || f != AnthropicMessages {
			t.Errorf("%s: detected %v (%v), want anthropic-messages", first, f, err)
		}
		if !isClaudeCode(d) {
			t.Errorf("%s: not taken for a transcript's first line", first)
		}
		c := readFileOf(t, AnthropicMessages, file, append([]byte(first+"\n"), raw...))
		if got := fmt.Sprint(c.numbers(file + "#" + sid)); got != "[4 6 9 17 19 22 24 26 28]" {
			t.Errorf("%s: session steps %s, want the sample's moved on by the line", first, got)
		}
	}
}

// Calls Claude Code cancelled because a sibling in their batch failed did
// not run: they keep their steps without a result, so the batch is one
// failure, not one per call.
func TestClaudeCodeSiblingCancelled(t *testing.T) {
	rec := func(typ string, content any) string {
		return string(mustMarshal(t, map[string]any{"type": typ, "sessionId": "s", "uuid": "u", "parentUuid": nil,
			"message": map[string]any{"role": typ, "content": content}}))
	}
	use := func(id, path string) any {
		return []any{map[string]any{"type": "tool_use", "id": id, "name": "Read", "input": map[string]any{"file_path": path}}}
	}
	res := func(id, text string) any {
		return []any{map[string]any{"type": "tool_result", "tool_use_id": id, "is_error": true, "content": text}}
	}
	lines := []string{
		rec("user", "Look at the views."),
		rec("assistant", use("a", "/w/missing.ex")), rec("user", res("a", "<tool_use_error>File does not exist.</tool_use_error>")),
		rec("assistant", use("b", "/w/b.ex")), rec("user", res("b", "<tool_use_error>Sibling tool call errored</tool_use_error>")),
		rec("assistant", use("c", "/w/c.ex")), rec("user", res("c", "<tool_use_error>Sibling tool call errored</tool_use_error>")),
	}
	c := readFileOf(t, AnthropicMessages, "s.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	c.calls(t, c.runs[0], map[int64]string{1: "Read error NO_SUCH_FILE", 3: "Read none", 5: "Read none"})
}

// Headless runs appended to one file (claude -p ... >> log.jsonl): each
// invocation's session is a run of its own, named by its id, ending in
// its own answer.
func TestClaudeCodeHeadlessSessionsInOneFile(t *testing.T) {
	session := func(id, cmd, answer string) []string {
		return []string{
			`{"type":"system","subtype":"init","session_id":"` + id + `","tools":["Bash"],"model":"claude-sonnet-4-5"}`,
			`{"type":"assistant","session_id":"` + id + `","message":{"role":"assistant","content":[{"type":"tool_use","id":"t-` + id + `","name":"Bash","input":{"command":"` + cmd + `"}}]}}`,
			`{"type":"user","session_id":"` + id + `","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t-` + id + `","content":"ok"}]}}`,
			`{"type":"assistant","session_id":"` + id + `","message":{"role":"assistant","content":[{"type":"text","text":"` + answer + `"}]}}`,
			`{"type":"result","subtype":"success","session_id":"` + id + `","num_turns":2}`,
		}
	}
	lines := append(session("aaa", "make", "Built."), session("bbb", "make test", "Tested.")...)
	c := readFileOf(t, AnthropicMessages, "log.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	if got := fmt.Sprint(c.runs); got != "[log.jsonl#aaa log.jsonl#bbb]" {
		t.Fatalf("runs %s, want a run per session", got)
	}
	if got := fmt.Sprint(c.numbers("log.jsonl#bbb")); got != "[6 8]" {
		t.Errorf("second session's steps %s, want its lines", got)
	}
	if s := c.step(t, "log.jsonl#aaa", 3); s.State != "STOP" {
		t.Errorf("first session's answer: %s, want STOP", s.State)
	}
}

// Qwen Code's headless stream is Claude Code's stream-json, each text of
// a turn an assistant message of its own before the turn's call, its shell
// answering in labelled lines: a turn is one step, its words the call's
// reason, the exit code read from its line.
func TestQwenHeadlessStream(t *testing.T) {
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"q1","tools":["run_shell_command"],"model":"qwen3-coder","qwen_code_version":"0.24.4"}`,
		`{"type":"assistant","session_id":"q1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"I'll run it."}]}}`,
		`{"type":"assistant","session_id":"q1","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"run_shell_command","input":{"command":"echo partial; exit 3"}}]}}`,
		`{"type":"user","session_id":"q1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","is_error":true,"content":"Command: echo partial; exit 3\nDirectory: (root)\nOutput: partial\nError: (none)\nExit Code: 3\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7"}]}}`,
		`{"type":"assistant","session_id":"q1","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"It failed."}]}}`,
		`{"type":"result","subtype":"success","session_id":"q1"}`,
	}
	c := readFileOf(t, AnthropicMessages, "q.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	run := "q.jsonl#q1"
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4]" {
		t.Fatalf("steps %s, want the call and the answer", got)
	}
	s := c.step(t, run, 2)
	if result(s) != "error EXIT_CODE" || data(t, s) != "partial" || reason(s) != "I'll run it." {
		t.Errorf("call: %s %q %q", result(s), data(t, s), reason(s))
	}
}

// Claude Code's nudge after a turn that showed nothing (a thinking-only
// turn), written in the user's place with isSynthetic, is no one's turn:
// not the answer of the turn before it.
func TestClaudeCodeSyntheticNudge(t *testing.T) {
	rec := func(typ, extra string) string {
		return `{"type": "` + typ + `", "sessionId": "s-3", "uuid": "u", "timestamp": "2026-09-01T10:00:00.000Z"` + extra + `}`
	}
	file := strings.Join([]string{
		rec("user", `, "message": {"role": "user", "content": "fix the build"}`),
		rec("assistant", `, "message": {"id": "m1", "role": "assistant", "content": [{"type": "thinking", "thinking": "Let me look."}, {"type": "text", "text": ""}]}`),
		rec("user", `, "isSynthetic": true, "message": {"role": "user", "content": [{"type": "text", "text": "[Your previous response had no visible output. Please continue and produce a user-visible response.]"}]}`),
		rec("assistant", `, "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "make"}}]}`),
		rec("user", `, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1", "content": "ok"}]}`),
	}, "\n")
	d, err := ParseLines("n.jsonl", 1, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.steps {
		if strings.Contains(data(t, s), "no visible output") {
			t.Errorf("step %d (%s) is answered by Claude Code's nudge: %q", *s.Step, tool(s), data(t, s))
		}
	}
	if got := tool(c.steps[len(c.steps)-1]); got != "Bash" {
		t.Errorf("last step %s, want the Bash call", got)
	}
}

// Claude Code's usage splits the cache writes by how long they are kept:
// those of the hour (priced higher) are read apart, within the writes.
func TestClaudeCodeHourCacheWrites(t *testing.T) {
	file := `{"type": "user", "sessionId": "s-4", "uuid": "u1", "timestamp": "2026-09-01T10:00:00.000Z", "message": {"role": "user", "content": "hi"}}
{"type": "assistant", "sessionId": "s-4", "uuid": "u2", "timestamp": "2026-09-01T10:00:01.000Z", "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-6", "content": [{"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": "ls"}}], "usage": {"input_tokens": 10, "cache_creation_input_tokens": 5000, "cache_read_input_tokens": 20000, "cache_creation": {"ephemeral_5m_input_tokens": 1000, "ephemeral_1h_input_tokens": 4000}, "output_tokens": 30}}}
{"type": "user", "sessionId": "s-4", "uuid": "u3", "timestamp": "2026-09-01T10:00:02.000Z", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1", "content": "a.txt"}]}}`
	d, err := ParseLines("h.jsonl", 1, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(AnthropicMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	u := c.steps[0].Usage
	if u == nil || u.PromptTokens != 25010 || u.CacheWriteTokens != 5000 || u.CacheWrite1hTokens != 4000 || u.CacheReadTokens != 20000 {
		t.Errorf("usage %+v, want 25010 prompt tokens, 5000 written of which 4000 for an hour, 20000 read", u)
	}
}
