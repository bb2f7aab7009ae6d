package adapters

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// The healthy sample: a step is the line that began its item; the
// reasoning before an action is its reason; the shell wrapper is taken
// off; the failed test run fails by its exit code; the last message is
// the answer; the turn's tokens are shared among the calls.
func TestCodexHealthySample(t *testing.T) {
	const file = "healthy-fix.ndjson"
	c := readFileOf(t, Codex, file, readSample(t, "codex/"+file))
	run := file + "#0199a3c1-7e52-7a10-9d4e-5b1f2c8e4a01"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{run}) {
		t.Fatalf("runs %q", c.runs)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[3 5 8 9 12 13 15]" {
		t.Fatalf("steps %s", got)
	}
	grep := c.step(t, run, 3)
	if tool(grep) != "shell" || args(t, grep)["command"] != `grep -rn "formatDate" src --include='*.ts'` || grep.Intent != searchIntent ||
		!strings.HasPrefix(reason(grep), "**Locating the date formatter**") || result(grep) != "ok" {
		t.Errorf("grep: %s %v %q %q %s", tool(grep), args(t, grep), grep.Intent, reason(grep), result(grep))
	}
	patch := c.step(t, run, 8)
	if tool(patch) != "apply_patch" || data(t, patch) != "update src/utils/date.ts\n" || fmt.Sprint(patch.Artifacts) != "[codex-item:item_4]" {
		t.Errorf("patch: %s %q %v", tool(patch), data(t, patch), patch.Artifacts)
	}
	if s := c.step(t, run, 9); result(s) != "error TESTS_FAILED" || !strings.HasPrefix(data(t, s), "FAIL src/utils/date.test.ts") {
		t.Errorf("failing test: %s %q", result(s), data(t, s))
	}
	if s := c.step(t, run, 13); result(s) != "ok" {
		t.Errorf("passing test: %s", result(s))
	}
	if last := c.step(t, run, 15); last.State != schema.StateStop.String() || last.ToolCall != nil || !strings.HasPrefix(reason(last), "formatDate now uses local time") {
		t.Errorf("answer: %s %v %q", last.State, last.ToolCall, reason(last))
	}
	prompt, completion, _, n := usageSum(c, run)
	if prompt != 48210 || completion != 1830 || n != 6 {
		t.Errorf("usage %d+%d on %d steps, want the turn's 48210+1830 on the 6 calls", prompt, completion, n)
	}
}

// The looping sample: the same TypeScript compile error at every build.
func TestCodexLoopSample(t *testing.T) {
	const file = "tsc-error-loop.ndjson"
	c := readFileOf(t, Codex, file, readSample(t, "codex/"+file))
	run := file + "#0199a3c4-11d0-7c33-8a0e-2f6b9d1c7e02"
	builds := 0
	for _, s := range c.steps {
		if tool(s) == "shell" && strings.HasPrefix(fmt.Sprint(args(t, s)["command"]), "npx tsc") {
			builds++
			if result(s) != "error COMPILE_ERROR" || s.RunID != run {
				t.Errorf("step %d: %s", *s.Step, result(s))
			}
		}
	}
	if builds != 6 {
		t.Errorf("%d builds, want 6", builds)
	}
}

// What the samples do not show: MCP results and errors, a declined
// command, a patch that did not apply, a plan, a web search, an item
// started and never completed (the run was killed mid-call), the stream's
// own errors, and a second thread in one file.
func TestCodexItems(t *testing.T) {
	lines := []string{
		`{"type":"thread.started","thread_id":"t1"}`, // 0
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"docs","tool":"search_docs","arguments":{"q":"retry"},"result":{"content":[{"type":"text","text":"retry.md: backoff"}]},"error":null,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"docs","tool":"search_docs","arguments":{"q":"x"},"result":null,"error":{"message":"tool call timed out after 120s"},"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"declined"}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"file_change","changes":[{"path":"a.ts","kind":"update"}],"status":"failed"}}`, // 5
		`{"type":"item.completed","item":{"id":"item_4","type":"todo_list","items":[{"text":"read","completed":true},{"text":"fix","completed":false}]}}`,
		`{"type":"item.completed","item":{"id":"item_5","type":"web_search","query":"tsc TS2307"}}`,
		`{"type":"error","message":"stream error: exceeded retry limit, last status: 429 Too Many Requests"}`,
		`{"type":"item.started","item":{"id":"item_6","type":"command_execution","command":"bash -lc 'npm test'","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
		`{"type":"turn.failed","error":{"message":"Rate limit reached for gpt-5"}}`, // 10
		`{"type":"thread.started","thread_id":"t2"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"done"}}`,
	}
	c := readFileOf(t, Codex, "c.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	r1, r2 := "c.jsonl#t1", "c.jsonl#t2"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{r1, r2}) {
		t.Fatalf("runs %q", c.runs)
	}
	for n, want := range map[int64]struct{ tool, result string }{
		2:  {"search_docs", "ok"},
		3:  {"search_docs", "error TIMEOUT"},
		4:  {"shell", "error REJECTED"},
		5:  {"apply_patch", "error EDIT_REJECTED"},
		7:  {"web_search", "none"},
		8:  {"model", "error RATE_LIMIT"},
		9:  {"shell", "none"},
		10: {"model", "error RATE_LIMIT"},
	} {
		if s := c.step(t, r1, n); tool(s) != want.tool || result(s) != want.result {
			t.Errorf("step %d: %s %s, want %v", n, tool(s), result(s), want)
		}
	}
	if s := c.step(t, r1, 2); data(t, s) != "retry.md: backoff" || s.Intent != searchIntent {
		t.Errorf("mcp result %q intent %q", data(t, s), s.Intent)
	}
	if s := c.step(t, r1, 5); len(s.Artifacts) != 0 {
		t.Errorf("a patch that did not apply made %v", s.Artifacts)
	}
	if s := c.step(t, r1, 6); s.State != schema.StatePlan.String() || s.ToolCall != nil || reason(s) != "[x] read\n[ ] fix" {
		t.Errorf("plan: %s %v %q", s.State, s.ToolCall, reason(s))
	}
	if s := c.step(t, r1, 9); args(t, s)["command"] != "npm test" {
		t.Errorf("unfinished command: %v", args(t, s))
	}
	if s := c.step(t, r2, 12); s.State != schema.StateStop.String() {
		t.Errorf("second thread's answer: %s", s.State)
	}
}

// Two patches of one file look alike in the stream, which does not carry
// their content: each is its own call and new work, so a long run of
// edits is never read as one edit repeated.
func TestCodexPatchesAreNeverTheSameCall(t *testing.T) {
	lines := []string{`{"type":"thread.started","thread_id":"t"}`}
	for k := range 6 {
		lines = append(lines, fmt.Sprintf(`{"type":"item.completed","item":{"id":"item_%d","type":"file_change","changes":[{"path":"src/a.ts","kind":"update"}],"status":"completed"}}`, k))
	}
	c := readFileOf(t, Codex, "p.jsonl", []byte(strings.Join(lines, "\n")))
	seen := map[string]bool{}
	for _, s := range c.steps {
		a := string(s.ToolCall.Args)
		if seen[a] || len(s.Artifacts) != 1 {
			t.Errorf("step %d: args %s artifacts %v", *s.Step, a, s.Artifacts)
		}
		seen[a] = true
	}
}

func TestUnwrapShell(t *testing.T) {
	for in, want := range map[string]string{
		`/bin/bash -lc "grep -rn \"x\" src | head -n 5"`: `grep -rn "x" src | head -n 5`,
		`bash -lc 'echo '\''hi'\'''`:                     `echo 'hi'`,
		`/usr/bin/zsh -c "echo \$HOME"`:                  `echo $HOME`,
		`npm test`:                                       `npm test`,
		`/bin/bash script.sh`:                            `/bin/bash script.sh`,
		`bash -lc "unterminated`:                         `bash -lc "unterminated`,
	} {
		if got := unwrapShell(in); got != want {
			t.Errorf("unwrapShell(%q) = %q, want %q", in, got, want)
		}
	}
}

// A line that is not an event of the stream is left out of the run and
// rejected at its line; the rest of the run is read.
func TestCodexMalformedLine(t *testing.T) {
	raw := "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"item.completed\",\"item\":7}\n{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":\"agent_message\",\"text\":\"ok\"}}\n"
	d, err := ParseLines("m.jsonl", 1, []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(Codex, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Line != 2 || d.Skipped[0].Reason != `"item": not a JSON object` {
		t.Errorf("skipped %+v", d.Skipped)
	}
	if got := fmt.Sprint(c.numbers("m.jsonl#t")); got != "[2]" {
		t.Errorf("steps %s", got)
	}
	for _, doc := range []string{`{"type":"error","message":"x"}`, `{"type":"turn.started","extra":1}`, `{"type":"item.completed","item":{"type":"reasoning"}}`} {
		d, _ := ParseDoc("x", 1, false, []byte(doc))
		if err := Codex.Recognize(d); err == nil {
			t.Errorf("%s taken for a Codex event", doc)
		}
	}
}

// The stream does not log the polls of a running command (write_stdin),
// only the agent's reasoning between them. A command that finished by
// itself was waited on: its turns are no steps. One given up on (no exit
// code, or the agent moved on first) got nothing from its polls: each turn
// is a poll, a step.
func TestCodexWaitsOnACommand(t *testing.T) {
	start := func(id, cmd string) string {
		return `{"type":"item.started","item":{"id":"` + id + `","type":"command_execution","command":"` + cmd + `","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	}
	done := func(id, cmd, out, exit string) string {
		return `{"type":"item.completed","item":{"id":"` + id + `","type":"command_execution","command":"` + cmd + `","aggregated_output":"` + out + `","exit_code":` + exit + `,"status":"completed"}}`
	}
	turn := func(k int) string {
		return fmt.Sprintf(`{"type":"item.completed","item":{"id":"r%d","type":"reasoning","text":"**Waiting for test output**"}}`, k)
	}
	lines := []string{`{"type":"thread.started","thread_id":"t"}`, start("build", "yarn build")} // 1
	for k := range 3 {
		lines = append(lines, turn(k)) // 2-4
	}
	lines = append(lines, done("build", "yarn build", "Done in 98.2s.", "0"), start("test", "yarn test")) // 5, 6
	for k := range 5 {
		lines = append(lines, turn(10+k)) // 7-11
	}
	lines = append(lines, `{"type":"item.completed","item":{"id":"m","type":"agent_message","text":"Tests hang; stopping."}}`, done("test", "yarn test", "", "null")) // 12, 13
	c := readFileOf(t, Codex, "w.jsonl", []byte(strings.Join(lines, "\n")))
	run := "w.jsonl#t"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 6 7 8 9 10 11 12]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 1); result(s) != "ok" || data(t, s) != "Done in 98.2s." {
		t.Errorf("the build waited on: %s %q", result(s), data(t, s))
	}
	for n := int64(7); n <= 11; n++ {
		if s := c.step(t, run, n); tool(s) != "write_stdin" || args(t, s)["command"] != "yarn test" || result(s) != "ok" || reason(s) != "**Waiting for test output**" {
			t.Errorf("poll %d: %s %v %s %q", n, tool(s), args(t, s), result(s), reason(s))
		}
	}
	if s := c.step(t, run, 12); s.State != schema.StateStop.String() {
		t.Errorf("answer: %s", s.State)
	}
}

// A Codex session file (rollout): a step is the line of its call, with
// the record's time; the patch a custom tool call sends is its args; a
// patch that did not apply is EDIT_REJECTED; the environment Codex puts in
// the user's place is no turn; the model and the session's last token
// totals give the usage.
func TestCodexRolloutSample(t *testing.T) {
	const file = "rollout-patch-loop.ndjson"
	c := readFileOf(t, Codex, file, readSample(t, "codex/"+file))
	run := file + "#0199b2e4-5c1a-7d02-8f3e-6a2b9c4d1e77"
	if got := fmt.Sprint(c.numbers(run)); got != "[5 9 13 17 21 25 28]" {
		t.Fatalf("steps %s", got)
	}
	grep := c.step(t, run, 5)
	if tool(grep) != "shell" || args(t, grep)["command"] != `grep -n "applyDiscount" src/cart.ts` || grep.Intent != searchIntent ||
		result(grep) != "ok" || !strings.HasPrefix(data(t, grep), "41:export function applyDiscount") || reason(grep) != "**Finding applyDiscount**" {
		t.Errorf("grep: %s %v %q %s %q %q", tool(grep), args(t, grep), grep.Intent, result(grep), data(t, grep), reason(grep))
	}
	if grep.TS == nil || grep.TS.UnixMilli == 0 {
		t.Errorf("no time on the step")
	}
	for n := int64(9); n <= 25; n += 4 {
		p := c.step(t, run, n)
		if tool(p) != "apply_patch" || !strings.HasPrefix(fmt.Sprint(args(t, p)["patch"]), "*** Begin Patch") || result(p) != "error EDIT_REJECTED" ||
			!strings.HasPrefix(data(t, p), "Failed to find expected lines") {
			t.Errorf("patch %d: %s %s %q", n, tool(p), result(p), data(t, p))
		}
	}
	if last := c.step(t, run, 28); last.State != schema.StateStop.String() || last.ToolCall != nil {
		t.Errorf("answer: %s %v", last.State, last.ToolCall)
	}
	prompt, completion, _, n := usageSum(c, run)
	if prompt != 9120+4100*5 || completion != 212+180*5 || n != 6 {
		t.Errorf("usage %d+%d on %d steps", prompt, completion, n)
	}
	if u := grep.Usage; u == nil || u.Model != "gpt-5-codex" {
		t.Errorf("usage %+v, want the turn's model", u)
	}
}

// What the rollout sample does not show: the older shell function with an
// argv, its output as {"output", "metadata": {"exit_code"}}, update_plan,
// a poll of a running command, a user turn answering the assistant, a web
// search, a malformed record.
func TestCodexRolloutShapes(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-01-02T10:00:00Z","type":"session_meta","payload":{"id":"s1"}}`, // 0
		`{"timestamp":"2026-01-02T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"npm test\"],\"timeout_ms\":120000}","call_id":"c1"}}`,
		`{"timestamp":"2026-01-02T10:00:09Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"1 failing\\n\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":8.0}}"}}`,
		`{"timestamp":"2026-01-02T10:00:10Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"fix the test\",\"status\":\"in_progress\"}]}","call_id":"c2"}}`,
		`{"timestamp":"2026-01-02T10:00:11Z","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"session_id\":3,\"chars\":\"\"}","call_id":"c3"}}`,
		`{"timestamp":"2026-01-02T10:00:12Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c3","output":"Wall time: 5.0 seconds\nOutput:\n"}}`, // 5
		`{"timestamp":"2026-01-02T10:00:13Z","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"mocha timeout"}}}`,
		`{"timestamp":"2026-01-02T10:00:14Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Should I raise the timeout?"}]}}`,
		`{"timestamp":"2026-01-02T10:00:30Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"yes"}]}}`,
		`{"timestamp":"2026-01-02T10:00:31Z","type":"response_item","payload":7}`,
		`{"timestamp":"2026-01-02T10:00:32Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}`, // 10
	}
	d, c := readRollout(t, lines)
	run := "r.jsonl#s1"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 4 6 7 10]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 1); tool(s) != "shell" || args(t, s)["command"] != "npm test" || result(s) != "error EXIT_CODE" || data(t, s) != "1 failing\n" {
		t.Errorf("shell: %s %v %s %q", tool(s), args(t, s), result(s), data(t, s))
	}
	if s := c.step(t, run, 3); s.State != schema.StatePlan.String() || s.ToolCall != nil || reason(s) != "[in_progress] fix the test" {
		t.Errorf("plan: %s %v %q", s.State, s.ToolCall, reason(s))
	}
	if s := c.step(t, run, 4); tool(s) != "write_stdin" || result(s) != "ok" || data(t, s) != "" {
		t.Errorf("poll: %s %s %q, want no output (the header's wall time taken off)", tool(s), result(s), data(t, s))
	}
	if s := c.step(t, run, 6); tool(s) != "web_search" || s.Intent != searchIntent || args(t, s)["query"] != "mocha timeout" {
		t.Errorf("web search: %s %q %v", tool(s), s.Intent, args(t, s))
	}
	if s := c.step(t, run, 7); tool(s) != MessageTool || data(t, s) != "yes" {
		t.Errorf("question answered: %s %q", tool(s), data(t, s))
	}
	if s := c.step(t, run, 10); s.State != schema.StateStop.String() {
		t.Errorf("answer: %s", s.State)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Line != 10 || d.Skipped[0].Reason != `"payload": not a JSON object` {
		t.Errorf("skipped %+v", d.Skipped)
	}
}

// Codex's guardian_assessment events (its review of an action before it
// runs) log the command as one string, where a local_shell_call logs its
// words: the events are not read, and no record is refused for the shape
// (jazzyalex/agent-sessions keeps one among its fixtures; written here
// from the format). A local_shell_call whose command is one string is that
// command.
func TestCodexRolloutCommandAsString(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-01-02T10:00:00Z","type":"session_meta","payload":{"id":"s1"}}`,
		`{"timestamp":"2026-01-02T10:00:01Z","type":"event_msg","payload":{"type":"guardian_assessment","id":"g1","status":"approved","action":{"type":"command","source":"shell","command":"npm test","cwd":"/w"}}}`,
		`{"timestamp":"2026-01-02T10:00:02Z","type":"response_item","payload":{"type":"local_shell_call","call_id":"c1","status":"completed","action":{"type":"exec","command":"npm test"}}}`,
		`{"timestamp":"2026-01-02T10:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}`,
	}
	d, c := readRollout(t, lines)
	if len(d.Skipped) != 0 {
		t.Errorf("skipped %+v, want every record read", d.Skipped)
	}
	run := "r.jsonl#s1"
	if got := fmt.Sprint(c.numbers(run)); got != "[2]" {
		t.Fatalf("steps %s", got)
	}
	if s := c.step(t, run, 2); tool(s) != "shell" || args(t, s)["command"] != "npm test" {
		t.Errorf("shell: %s %v", tool(s), args(t, s))
	}
}

// Codex's own answers in a rollout: a patch run through the shell that
// did not verify is an edit that did not land; a call of a tool Codex
// does not have is an invalid call; a command left running in the
// background has no result until it is polled.
func TestCodexRolloutCodexAnswers(t *testing.T) {
	call := func(id, cmd string) string {
		args, _ := json.Marshal(map[string]string{"cmd": cmd})
		return `{"timestamp":"2026-01-02T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":` + strconv.Quote(string(args)) + `,"call_id":"` + id + `"}}`
	}
	output := func(id, out string) string {
		return `{"timestamp":"2026-01-02T10:00:02Z","type":"response_item","payload":{"type":"function_call_output","call_id":"` + id + `","output":` + strconv.Quote(out) + `}}`
	}
	lines := []string{
		`{"timestamp":"2026-01-02T10:00:00Z","type":"session_meta","payload":{"id":"s9"}}`,
		call("c1", "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: calc.py\n@@\n-    return a - b  # absent\n+    return a - b\n*** End Patch\nPATCH"),
		output("c1", "apply_patch verification failed: Failed to find expected lines in /w/calc.py:\n    return a - b  # absent"),
		`{"timestamp":"2026-01-02T10:00:03Z","type":"response_item","payload":{"type":"function_call","name":"no_such_tool","arguments":"{\"x\":1}","call_id":"c2"}}`,
		output("c2", "unsupported call: no_such_tool"),
		call("c3", "sleep 20; echo slow-done"),
		output("c3", "Chunk ID: ff2d9d\nWall time: 10.0015 seconds\nProcess running with session ID 22695\nOriginal token count: 0\nOutput:\n"),
	}
	c := readFileOf(t, Codex, "r.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	run := "r.jsonl#s9"
	c.calls(t, run, map[int64]string{1: "shell error " + schema.ErrEditRejected, 3: "no_such_tool error " + schema.ErrInvalidCall, 5: "shell none"})
	if s := c.step(t, run, 1); s.Intent != schema.IntentEdit {
		t.Errorf("apply_patch through the shell: intent %q, want edit", s.Intent)
	}
}

// Warnings Codex sends as error items (settings it ignores, a model it
// has no metadata for) are no steps; a real error still is.
func TestCodexWarningsAreNoSteps(t *testing.T) {
	lines := []string{
		`{"type":"thread.started","thread_id":"t1"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Codex is ignoring 1 unrecognized configuration setting. Run codex doctor."}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"error","message":"Model metadata for ` + "`gpt-oss-20b`" + ` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"ls","aggregated_output":"a.py\n","exit_code":0,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"error","message":"stream disconnected before completion"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}`,
	}
	c := readFileOf(t, Codex, "e.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	run := c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[4 5]" {
		t.Errorf("steps %s, want the command and the real error only", got)
	}
}

// A session stuck against a limit: Codex writes each request that failed,
// once its own retries ran out, as an event_msg "error" (with its kind,
// codex_error_info, since Codex logs more than it used to). Each is a
// failed call of the model at its own line: RATE_LIMIT for a usage limit
// or a 429, TIMEOUT for a 504, else as the message says. A stream_error
// (a notice of Codex's own retry; Codex does not write them to a rollout)
// and a failed rollback of the thread are no steps. Written from the
// format (codex-rs/protocol's ErrorEvent), and the shape
// jazzyalex/agent-sessions (MIT) writes in its codex_053_rate_limit
// fixture, {"error": {"kind", "message"}}.
func TestCodexRolloutErrors(t *testing.T) {
	ev := func(payload string) string {
		return `{"timestamp":"2026-01-02T10:00:05Z","type":"event_msg","payload":` + payload + `}`
	}
	usage := ev(`{"type":"error","message":"You've hit your usage limit. Try again in 4 minutes.","codex_error_info":"usage_limit_exceeded"}`)
	lines := []string{
		`{"timestamp":"2026-01-02T10:00:00Z","type":"session_meta","payload":{"id":"s7"}}`, // 0
		ev(`{"type":"user_message","message":"fix the test"}`),
		ev(`{"type":"stream_error","message":"Reconnecting... 1/5"}`),
		usage,
		ev(`{"type":"user_message","message":"continue"}`),
		usage, // 5
		ev(`{"type":"user_message","message":"continue"}`),
		usage,
		ev(`{"type":"error","message":"exceeded retry limit, last status: 504 Gateway Timeout","codex_error_info":{"response_too_many_failed_attempts":{"http_status_code":504}}}`),
		ev(`{"type":"error","message":"Selected model is at capacity.","codex_error_info":"server_overloaded"}`),
		ev(`{"type":"error","message":"rollback failed","codex_error_info":"thread_rollback_failed"}`), // 10
		ev(`{"type":"error","error":{"kind":"rate_limit","message":"Rate limit exceeded","resetAt":"2026-01-02T13:05:12Z"}}`),
		`{"timestamp":"2026-01-02T10:00:06Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"}}`,
		`{"timestamp":"2026-01-02T10:00:07Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"a.py"}}`,
		ev(`{"type":"token_count","info":{"total_token_usage":{"input_tokens":900,"output_tokens":30}}}`),
	}
	c := readFileOf(t, Codex, "r.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	run := "r.jsonl#s7"
	if got := fmt.Sprint(c.numbers(run)); got != "[3 5 7 8 9 11 12]" {
		t.Fatalf("steps %s, want each error at its line, no retry notice or rollback", got)
	}
	c.calls(t, run, map[int64]string{
		3: "model error " + schema.ErrRateLimit, 5: "model error " + schema.ErrRateLimit, 7: "model error " + schema.ErrRateLimit,
		8: "model error " + schema.ErrTimeout, 9: "model error ERROR", 11: "model error " + schema.ErrRateLimit,
	})
	if s := c.step(t, run, 3); data(t, s) != "You've hit your usage limit. Try again in 4 minutes." || s.TS == nil {
		t.Errorf("usage limit: %q at %v", data(t, s), s.TS)
	}
	if s := c.step(t, run, 11); data(t, s) != "Rate limit exceeded" {
		t.Errorf("error object: %q", data(t, s))
	}
	// A failed request is not in Codex's token counts: the command has them all.
	if s := c.step(t, run, 3); s.Usage != nil {
		t.Errorf("failed request: usage %+v, want none", s.Usage)
	}
	if s := c.step(t, run, 12); s.Usage == nil || s.Usage.PromptTokens != 900 || s.Usage.CompletionTokens != 30 {
		t.Errorf("command: usage %+v, want the session's 900 and 30", s.Usage)
	}
}

// readRollout reads a session file of Codex written a record a line, as
// r.jsonl, and returns it (its skipped records) with the steps it gave.
func readRollout(t *testing.T, lines []string) (*Doc, *converted) {
	t.Helper()
	d, err := ParseLines("r.jsonl", 1, []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(Codex, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	return d, c
}
