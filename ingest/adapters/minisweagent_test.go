package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// mini-swe-agent v1: a step is an assistant message, numbered by its
// position in "messages"; its action is the ```bash block, its result the
// next user message's <output>, an error when <returncode> is not 0.
func TestMiniSWEAgentV1Sample(t *testing.T) {
	const name = "sed-retry-loop.traj.json"
	c := convert(t, MiniSWEAgent, name, 1, true, readSample(t, "mini-swe-agent/sed-retry-loop.traj.json"))
	if got := c.numbers(name); len(got) != 8 || got[0] != 2 || got[7] != 16 {
		t.Fatalf("steps %v, want the assistant messages 2, 4, ..., 16", got)
	}
	s := c.step(t, name, 2)
	if tool(s) != "bash" || args(t, s)["command"] != `grep -rn "def format_duration" src/` || s.Intent != searchIntent || result(s) != "ok" {
		t.Errorf("step 2: %s %s intent %q %s", tool(s), s.ToolCall.Args, s.Intent, result(s))
	}
	if data(t, s) != "src/humanize/time.py:88:def format_duration(seconds):\n" {
		t.Errorf("step 2 data %q: want the <output> without the harness's tags", data(t, s))
	}
	if !contains(reason(s), "THOUGHT: Find the function.") {
		t.Errorf("step 2 reason %q", reason(s))
	}
	for n := int64(6); n <= 16; n += 2 {
		if s := c.step(t, name, n); result(s) != "error SCRIPT_SYNTAX_ERROR" || s.State != schema.StateAct.String() {
			t.Errorf("step %d: %s %s, want the failing sed", n, s.State, result(s))
		}
	}
	if _, _, cost, steps := usageSum(c, name); !near(cost, 0.0812) || steps != 8 {
		t.Errorf("cost $%g over %d steps, want $0.0812 over 8", cost, steps)
	}
}

// A v1 turn with two actions is a failed step of its own (the harness's
// format error); echoing the submit line ends the run.
func TestMiniSWEAgentV1HealthySample(t *testing.T) {
	const name = "healthy-fix.traj.json"
	c := convert(t, MiniSWEAgent, name, 1, true, readSample(t, "mini-swe-agent/healthy-fix.traj.json"))
	want := map[int64]struct{ tool, result string }{
		2:  {"bash", "ok"},
		4:  {"format_error", "error FORMAT_ERROR"},
		6:  {"bash", "ok"},
		8:  {"bash", "error KeyError"},
		10: {"bash", "ok"},                 // sed -i prints nothing: not a search, not empty
		12: {"bash", "error TESTS_FAILED"}, // pytest: FAILED ...
		16: {"bash", "ok"},
		18: {"bash", "ok"},
	}
	for n, w := range want {
		if s := c.step(t, name, n); tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s, want %s %s", n, tool(s), result(s), w.tool, w.result)
		}
	}
	if s := c.step(t, name, 18); s.State != schema.StateStop.String() {
		t.Errorf("submit: state %q, want STOP", s.State)
	}
	if s := c.step(t, name, 16); s.State != schema.StateAct.String() {
		t.Errorf("step 16: state %q", s.State)
	}
}

// mini-swe-agent v2 (mini-swe-agent-1.1): bash tool calls answered by tool
// messages; a FormatError user message is a failed step numbered by its own
// position (the rejected response is not stored); the exit message is not
// a step.
func TestMiniSWEAgentV2Sample(t *testing.T) {
	const name = "format-error-storm.traj.json"
	c := convert(t, MiniSWEAgent, name, 1, true, readSample(t, "mini-swe-agent/format-error-storm.traj.json"))
	want := []int64{2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20}
	got := c.numbers(name)
	if len(got) != len(want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("steps %v, want %v", got, want)
		}
	}
	for _, n := range []int64{6, 12, 15, 20} {
		s := c.step(t, name, n)
		if tool(s) != "format_error" || result(s) != "error FORMAT_ERROR" || !contains(data(t, s), "No tool calls found") {
			t.Errorf("step %d: %s %s %q", n, tool(s), result(s), data(t, s))
		}
	}
	if s := c.step(t, name, 13); tool(s) != "bash" || args(t, s)["command"] != "sed -n '41,60p' /testbed/src/client/session.py" || result(s) != "ok" {
		t.Errorf("step 13: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}
	for _, s := range c.steps {
		if s.State == schema.StateStop.String() {
			t.Errorf("step %d is STOP in a run that hit its limits", *s.Step)
		}
	}
}

func TestMiniSWEAgentV2HealthySample(t *testing.T) {
	const name = "healthy-tool-calls.traj.json"
	c := convert(t, MiniSWEAgent, name, 1, true, readSample(t, "mini-swe-agent/healthy-tool-calls.traj.json"))
	want := map[int64]struct{ tool, result string }{
		2:  {"bash", "ok"},
		8:  {"format_error", "error FORMAT_ERROR"},
		9:  {"bash", "ok"},
		11: {"bash", "error NameError"},
		17: {"bash", "ok"},
	}
	for n, w := range want {
		if s := c.step(t, name, n); tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s, want %s %s", n, tool(s), result(s), w.tool, w.result)
		}
	}
	if s := c.step(t, name, 17); s.State != schema.StateStop.String() {
		t.Errorf("submit: state %q, want STOP", s.State)
	}
	if s := c.step(t, name, 2); s.Intent != searchIntent || reason(s) != "Let me find where Retry-After is parsed." {
		t.Errorf("grep: intent %q reason %q", s.Intent, reason(s))
	}
}

// miniV1 is a mini-swe-agent v1 conversation of one turn and its reply.
func miniV1(t testing.TB, content, reply string) []byte {
	return mustMarshal(t, map[string]any{
		"trajectory_format": "mini-swe-agent-1",
		"info":              map[string]any{"mini_version": "1.17.3"},
		"messages": []map[string]string{
			{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
			{"role": "assistant", "content": content}, {"role": "user", "content": reply},
		},
	})
}

// The harness ran the command and answered with <output_head> and
// <output_tail>; a reply without <returncode> or <output> (a timeout) is
// kept whole. The CaM variant's action is the turn's text.
func TestMiniSWEAgentObservations(t *testing.T) {
	c, run := convertOne(t, MiniSWEAgent, miniV1(t, "THOUGHT: x\n\n```bash\nseq 100000\n```",
		"<returncode>0</returncode>\n<warning>too long</warning><output_head>\n1\n2\n</output_head>\n<elided_chars>588888 characters elided</elided_chars>\n<output_tail>\n99999\n100000\n</output_tail>"))
	if s := c.step(t, run, 2); data(t, s) != "1\n2\n\n99999\n100000\n" || result(s) != "ok" {
		t.Errorf("head and tail: %q %s", data(t, s), result(s))
	}
	c, run = convertOne(t, MiniSWEAgent, miniV1(t, "THOUGHT: x\n\n```bash\nsleep 999\n```",
		"The last command <command>sleep 999</command> timed out and has been killed.\nPlease try another command and make sure to avoid those requiring interactive input."))
	if s := c.step(t, run, 2); result(s) != "error TIMEOUT" {
		t.Errorf("timeout: %s", result(s))
	}
	c, run = convertOne(t, MiniSWEAgent, miniV1(t, "# Thoughts: find the option parser\n@bug_localization\ndef grep_opts():\n    return exec_bash_cmd(\"grep -n opt x.py\")\n",
		"<returncode>0</returncode>\n<output>\nbash execution output:\n 12:opt = 1\n\n</output>"))
	if s := c.step(t, run, 2); tool(s) != "bash" || !contains(args(t, s)["command"].(string), "def grep_opts():") || contains(args(t, s)["command"].(string), "# Thoughts") {
		t.Errorf("CaM action: %s", s.ToolCall.Args)
	}
	// A function that calls the fork's editing tool edits; one that only
	// prints code does not.
	for _, c2 := range []struct{ fn, intent string }{
		{"@patch_generation\ndef fix():\n    return code_replace(\"x.py\", \"a = 1\", \"a = 2\")\n", "edit"},
		{"@bug_localization\ndef show():\n    return print_code_context(\"x.py\", (1, 20))\n", ""},
	} {
		c, run = convertOne(t, MiniSWEAgent, miniV1(t, c2.fn, "<returncode>0</returncode>\n<output>\nok\n</output>"))
		if s := c.step(t, run, 2); s.Intent != c2.intent {
			t.Errorf("%q: intent %q, want %q", c2.fn, s.Intent, c2.intent)
		}
	}
}

// A submit the harness answered with a failure did not end the run: the
// command broke before its echo of the submit line ran.
func TestMiniSWEAgentFailedSubmitIsNoFinish(t *testing.T) {
	c, run := convertOne(t, MiniSWEAgent, miniV1(t, "THOUGHT: patch, then submit\n\n```bash\npython - <<'PY'\nprint('pattern not found')\nPY\n&& echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A\n```",
		"<returncode>2</returncode>\n<output>\npattern not found\nbash: -c: line 4: syntax error near unexpected token `&&'\n</output>"))
	if s := c.step(t, run, 2); s.State != schema.StateAct.String() || result(s) != "error EDIT_REJECTED" {
		t.Errorf("failed submit: %s %s, want ACT and the edit's failure", s.State, result(s))
	}
}

func TestMiniSWEAgentRecognize(t *testing.T) {
	for _, c := range []struct{ doc, why string }{
		{`{"trajectory": [], "info": {}}`, `no "messages" list`},
		{`{"messages": [{"role": "user", "content": "x"}]}`, `no "trajectory_format": "mini-swe-agent-..." nor "info.mini_version"`},
		{`[{"role": "user", "content": "x"}]`, "not a JSON object"},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := MiniSWEAgent.Recognize(d); err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
	d, _ := ParseDoc("x", 1, true, []byte(`{"messages": [], "info": {"mini_version": "1.0"}}`))
	if err := MiniSWEAgent.Recognize(d); err != nil {
		t.Errorf("info.mini_version: %v", err)
	}
}

// The research fork's stage-decorated actions: the helper reports each
// insertion of the same method as done while it writes it dedented, and
// the agent writes it again four times; each write the next one repeats
// did not hold. The run ends on `submit()`, answered with the diff: the
// STOP step, not a format error. In the healthy sample the second write is the
// corrected text, and both stand.
func TestMiniSWEAgentHelperSamples(t *testing.T) {
	const loop = "helper-rewrite-loop.traj.json"
	c := convert(t, MiniSWEAgent, loop, 1, true, readSample(t, "mini-swe-agent/"+loop))
	if got := c.numbers(loop); len(got) != 13 || got[12] != 26 {
		t.Fatalf("steps %v, want the assistant messages 2, 4, ..., 26", got)
	}
	for n, w := range map[int64]string{4: "error " + schema.ErrEditRejected, 8: "error " + schema.ErrEditRejected, 12: "error " + schema.ErrEditRejected, 16: "error " + schema.ErrEditRejected, 20: "ok", 6: "ok"} {
		if got := result(c.step(t, loop, n)); got != w {
			t.Errorf("%s step %d: %s, want %s", loop, n, got, w)
		}
	}
	if s := c.step(t, loop, 26); s.State != schema.StateStop.String() || s.ToolCall != nil {
		t.Errorf("submit(): state %q call %v, want STOP without a call", s.State, s.ToolCall)
	}
	const fixed = "helper-indent-fixed.traj.json"
	c = convert(t, MiniSWEAgent, fixed, 1, true, readSample(t, "mini-swe-agent/"+fixed))
	for _, n := range []int64{4, 8} {
		if got := result(c.step(t, fixed, n)); got != "ok" {
			t.Errorf("%s step %d: %s, want ok", fixed, n, got)
		}
	}
	if s := c.step(t, fixed, 14); s.State != schema.StateStop.String() {
		t.Errorf("%s submit(): state %q, want STOP", fixed, s.State)
	}
}

// mini-swe-agent 1.1 and later keep each message's time and each model
// turn's response usage and cost in "extra": the steps carry them, and
// the run's total is not spread over them again.
func TestMiniSWEAgentExtra(t *testing.T) {
	raw := mustMarshal(t, map[string]any{
		"trajectory_format": "mini-swe-agent-1.1",
		"info":              map[string]any{"model_stats": map[string]any{"instance_cost": 9.99}},
		"messages": []any{
			map[string]any{"role": "system", "content": "You are a helpful assistant."},
			map[string]any{"role": "user", "content": "Fix the bug."},
			map[string]any{"role": "assistant", "content": "Look first.\n\n```bash\nls\n```",
				"extra": map[string]any{"timestamp": 1773615741.825, "cost": 0.0005,
					"response": map[string]any{"model": "gpt-5-mini-2025-08-07", "usage": map[string]any{"prompt_tokens": 1901, "completion_tokens": 25,
						"prompt_tokens_details": map[string]any{"cached_tokens": 1024}}}}},
			map[string]any{"role": "user", "content": "<returncode>0</returncode>\n<output>\nsetup.py\n</output>",
				"extra": map[string]any{"timestamp": 1773615742.222, "returncode": 0}},
		},
	})
	c, run := convertOne(t, MiniSWEAgent, raw)
	s := c.step(t, run, 2)
	if s.TS == nil || s.TS.UnixMilli != 1773615741825 {
		t.Errorf("ts %v, want extra.timestamp", s.TS)
	}
	if u := s.Usage; u == nil || u.PromptTokens != 1901 || u.CompletionTokens != 25 || u.CacheReadTokens != 1024 || u.CostUSD != 0.0005 || u.Model != "gpt-5-mini-2025-08-07" {
		t.Errorf("usage %+v, want the turn's response usage and cost", s.Usage)
	}
}

// A harness whose action_observation_template is `Observation: {{output}}`
// shows the agent the environment's whole result as Python prints a dict:
// the output is the dict's string, unescaped, and the exit code its
// returncode. A submit echoed after a command that was not found, or
// after the tests' output, handed nothing in (mini-swe-agent submits only
// when the output begins with the line, and answers a submit it took with
// the work handed in, not an output); the one it took ends the run.
func TestMiniSWEAgentDictObservation(t *testing.T) {
	const name = "dict-template.traj.json"
	turn := func(cmd string) map[string]any {
		return map[string]any{"role": "assistant", "content": "THOUGHT: Write the Dockerfile.\n\n```bash\n" + cmd + "\n```"}
	}
	reply := func(s string) map[string]any { return map[string]any{"role": "user", "content": s} }
	doc := mustMarshal(t, map[string]any{
		"trajectory_format": "mini-swe-agent-1",
		"info": map[string]any{"mini_version": "1.9.1", "exit_status": "LimitsExceeded",
			"config": map[string]any{"agent": map[string]any{"action_observation_template": "Observation: {{output}}"}}},
		"messages": []map[string]any{
			{"role": "system", "content": "You are a DevOps engineer."},
			{"role": "user", "content": "Create a Dockerfile, then echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT."},
			turn(`echo -e "FROM node:18\nWORKDIR /app" > Dockerfile\ndocker build . && echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`),
			reply(`Observation: {'output': 'bash: line 2: docker: command not found\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n', 'returncode': 0}`),
			turn("cat Dockerfile"),
			reply(`Observation: {'output': "FROM node:18\nWORKDIR /app\nRUN echo 'it\\'s'\n", 'returncode': 0}`),
			turn("node -e 'process.exit(3)'"),
			reply(`Observation: {'output': '', 'returncode': 3}`),
			turn("npm test && echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"),
			reply(`Observation: {'output': '12 passing\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n', 'returncode': 0}`),
			turn("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff"),
			reply("diff --git a/Dockerfile b/Dockerfile\nnew file mode 100644\n"),
		},
	})
	c := convert(t, MiniSWEAgent, name, 1, true, doc)
	s := c.step(t, name, 2)
	if result(s) != "error COMMAND_NOT_FOUND" || s.State == schema.StateStop.String() {
		t.Errorf("step 2: %s %s, want the command not found, no STOP", s.State, result(s))
	}
	if data(t, s) != "bash: line 2: docker: command not found\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n" {
		t.Errorf("step 2 data %q, want the dict's output unescaped", data(t, s))
	}
	if s := c.step(t, name, 4); result(s) != "ok" || data(t, s) != "FROM node:18\nWORKDIR /app\nRUN echo 'it\\'s'\n" {
		t.Errorf("step 4: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, name, 6); result(s) != "error EXIT_CODE" {
		t.Errorf("step 6: %s, want the returncode 3", result(s))
	}
	if s := c.step(t, name, 8); s.State != schema.StateAct.String() || result(s) != "ok" {
		t.Errorf("step 8: %s %s, want a call that went through but handed nothing in (its output began with the tests')", s.State, result(s))
	}
	if s := c.step(t, name, 10); s.State != schema.StateStop.String() {
		t.Errorf("step 10: %s, want the submit the harness took (its answer is the work handed in), STOP", s.State)
	}
}

// A v1 turn refused for holding two actions that are one, the same bash
// block written twice, is a refusal that carries that block: it is like
// only the refusals of a like action. Two different blocks, and a block
// left without its closing fence, carry none (all such refusals alike).
func TestMiniSWEAgentRefusedTurnOfOneAction(t *testing.T) {
	const view = "nl -ba sphinx/builders/linkcheck.py | sed -n '480,560p'"
	refusal := "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."
	turn := func(s string) map[string]any { return map[string]any{"role": "assistant", "content": s} }
	reply := func(s string) map[string]any { return map[string]any{"role": "user", "content": s} }
	raw := mustMarshal(t, map[string]any{
		"trajectory_format": "mini-swe-agent-1",
		"info":              map[string]any{"mini_version": "1.9.1"},
		"messages": []any{
			map[string]any{"role": "system", "content": "You are a helpful assistant."},
			reply("Fix the bug."),
			turn("THOUGHT: View the collector.\n\n```bash\n" + view + "\n```\n\nTHOUGHT: Open those lines.\n\n```bash\n" + view + "\n```"),
			reply(refusal),
			turn("THOUGHT: View the collector.\n\n```bash\n" + view + "\n```"),
			reply("<returncode>0</returncode>\n<output>\n   480\t            try:\n</output>"),
			turn("THOUGHT: Two things.\n\n```bash\nls\n```\n\n```bash\npwd\n```"),
			reply(refusal),
			turn("THOUGHT: Patch it.\n\n```bash\npython3 - <<'PY'\nprint('patched')\nPY\n"),
			reply("Please always provide EXACTLY ONE action in triple backticks, found 0 actions."),
		},
	})
	c, run := convertOne(t, MiniSWEAgent, raw)
	s := c.step(t, run, 2)
	if tool(s) != "format_error" || args(t, s)["meant"] != view || s.Intent != "" || result(s) != "error FORMAT_ERROR" {
		t.Errorf("step 2: %s %s intent %q %s, want the refusal of the view it wrote twice", tool(s), s.ToolCall.Args, s.Intent, result(s))
	}
	if s := c.step(t, run, 4); tool(s) != "bash" || args(t, s)["command"] != view || result(s) != "ok" {
		t.Errorf("step 4: %s %s %s, want the same view, run", tool(s), s.ToolCall.Args, result(s))
	}
	for _, n := range []int64{6, 8} {
		if s := c.step(t, run, n); tool(s) != "format_error" || args(t, s)["meant"] != nil || result(s) != "error FORMAT_ERROR" {
			t.Errorf("step %d: %s %s %s, want a refusal that carries no action", n, tool(s), s.ToolCall.Args, result(s))
		}
	}
}

// miniV2Call is a mini-swe-agent v2 conversation of one bash tool call and
// the harness's reply to it.
func miniV2Call(t testing.TB, command, reply string) []byte {
	return mustMarshal(t, map[string]any{
		"trajectory_format": "mini-swe-agent-1.1",
		"info":              map[string]any{"mini_version": "2.2.4"},
		"messages": []map[string]any{
			{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
			{"role": "assistant", "content": "", "tool_calls": []map[string]any{{"id": "c1", "type": "function",
				"function": map[string]any{"name": "bash", "arguments": mustMarshal(t, map[string]string{"command": command})}}}},
			{"role": "tool", "tool_call_id": "c1", "content": reply},
		},
	})
}

// The harness's account of a command it stopped, written before the
// output, is its own record: the call timed out (or raised), with the
// output logged or stripped; the output it kept is still the result's
// text when logged.
func TestMiniSWEAgentHarnessStoppedCommand(t *testing.T) {
	for _, c := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"timeout template", miniV1(t, "THOUGHT: run the tests\n\n```bash\npytest -q\n```",
			"The last command <command>pytest -q</command> timed out and has been killed.\nThe output of the command was:\n<output>\n....F.. [ 10%]\n</output>\nPlease try another command and make sure to avoid those requiring interactive input."), "error TIMEOUT"},
		{"research fork's timeout, fence indented", miniV1(t, "@bug_reproduction\ndef run_tests():\n    ```bash\n    cd /testbed && pytest -q\n    ```",
			"The last action timed out and has been killed.\nThe output of the action was:\n<output>\n\n</output>\nPlease try another command and make sure to avoid those requiring interactive input."), "error TIMEOUT"},
		{"environment's timeout exception", miniV2Call(t, "sleep 99",
			"<exception>An error occurred while executing the command: Command '['docker', 'exec', 'bash', '-lc', 'sleep 99']' timed out after 60 seconds</exception>\n<returncode>-1</returncode>\n<output>\n</output>"), "error TIMEOUT"},
		{"environment's other exception", miniV2Call(t, "ls",
			"<exception>An error occurred while executing the command: [Errno 12] Cannot allocate memory</exception>\n<returncode>-1</returncode>\n<output>\n</output>"), "error ERROR"},
		{"refused call", miniV2Call(t, "ls", "No tool calls found in the response. Every response MUST include at least one tool call."), "error FORMAT_ERROR"},
	} {
		conv, run := convertOne(t, MiniSWEAgent, c.raw)
		s := conv.step(t, run, 2)
		if tool(s) != "bash" || result(s) != c.want {
			t.Errorf("%s: %s %s, want bash %s", c.name, tool(s), result(s), c.want)
		}
		if c.name == "timeout template" && !contains(data(t, s), "....F.. [ 10%]") {
			t.Errorf("%s: the output kept is lost: %q", c.name, data(t, s))
		}
		conv, run = convertStripped(t, MiniSWEAgent, c.raw)
		if s := conv.step(t, run, 2); tool(s) != "bash" || result(s) != c.want || data(t, s) != "" {
			t.Errorf("%s, stripped: %s %s %q, want bash %s without its text", c.name, tool(s), result(s), data(t, s), c.want)
		}
	}
}
