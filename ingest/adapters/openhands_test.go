package adapters

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// The evaluation harness's output.jsonl: one run per line, named
// file:line#instance_id; a step is an agent action, numbered by its
// position in "history"; observations are the results of the actions they
// name in "cause"; think is PLAN, finish is STOP; timestamps are kept.
func TestOpenHandsOutputJSONLSample(t *testing.T) {
	const file = "fixtures/trajectories/openhands/output.ndjson"
	lines := sampleLines(t, "openhands/output.ndjson")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	loop := convert(t, OpenHands, file, 1, false, lines[0])
	run := file + ":1#acme__widgets-101"
	if len(loop.runs) != 1 || loop.runs[0] != run {
		t.Fatalf("runs %q, want %q", loop.runs, run)
	}
	if got := fmt.Sprint(loop.numbers(run)); got != "[5 7 9 11 13 15 17]" {
		t.Errorf("steps %s, want the agent's actions at their history positions", got)
	}
	if s := loop.step(t, run, 5); tool(s) != "run" || s.Intent != searchIntent || result(s) != "ok" || s.TS == nil {
		t.Errorf("step 5: %s intent %q %s ts %v", tool(s), s.Intent, result(s), s.TS)
	}
	if s := loop.step(t, run, 5); fmt.Sprint(args(t, s)) != `map[command:grep -rn "def render_card" /workspace/acme__widgets__2.1/widgets is_input:false]` {
		t.Errorf("run args %v: want the command without thought, blocking, cwd and the like", args(t, s))
	}
	if s := loop.step(t, run, 7); tool(s) != "read" || result(s) != "ok" {
		t.Errorf("step 7: %s %s", tool(s), result(s))
	}
	for n := int64(9); n <= 17; n += 2 {
		if s := loop.step(t, run, n); tool(s) != "edit" || result(s) != "error EDIT_REJECTED" {
			t.Errorf("step %d: %s %s", n, tool(s), result(s))
		}
	}
	if _, _, cost, steps := usageSum(loop, run); !near(cost, 0.61) || steps != 7 {
		t.Errorf("cost $%g over %d steps, want metrics.accumulated_cost over the 7 calls", cost, steps)
	}
	ok := convert(t, OpenHands, file, 2, false, lines[1])
	run = file + ":2#acme__widgets-117"
	want := map[int64]struct{ state, tool, result string }{
		5:  {"ACT", "run", "ok"},
		7:  {"ACT", "read", "ok"},
		9:  {"PLAN", "", "none"},
		11: {"ACT", "edit", "ok"},
		13: {"ACT", "run", "error TESTS_FAILED"},
		15: {"ACT", "edit", "ok"},
		17: {"ACT", "run", "ok"},
		19: {"STOP", "", "none"},
	}
	if len(ok.numbers(run)) != len(want) {
		t.Errorf("steps %v", ok.numbers(run))
	}
	for n, w := range want {
		if s := ok.step(t, run, n); s.State != w.state || tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s %s, want %v", n, s.State, tool(s), result(s), w)
		}
	}
	if s := ok.step(t, run, 9); !contains(reason(s), "Integer division drops the remainder") {
		t.Errorf("think reason %q", reason(s))
	}
	if s := ok.step(t, run, 19); !contains(reason(s), "keeps the last partial page") {
		t.Errorf("finish reason %q", reason(s))
	}
	if a, b := ok.step(t, run, 5).TS, ok.step(t, run, 7).TS; a == nil || b == nil || b.UnixMilli <= a.UnixMilli {
		t.Errorf("timestamps %v %v", a, b)
	}
}

// OpenDevin's [action, observation] pairs: a step is a pair, numbered by
// the pair's position; the exit code is in extras.
func TestOpenHandsPairsSample(t *testing.T) {
	const file = "opendevin-pairs.ndjson"
	lines := sampleLines(t, "openhands/opendevin-pairs.ndjson")
	loop := convert(t, OpenHands, file, 1, false, lines[0])
	run := file + ":1#moment-lite__moment-lite-58"
	if got := fmt.Sprint(loop.numbers(run)); got != "[1 2 3 4 5 6 7]" {
		t.Errorf("steps %s, want the pairs 1..7 (pair 0 is the user's task)", got)
	}
	for n := int64(2); n <= 7; n++ {
		s := loop.step(t, run, n)
		if result(s) != "error COMMAND_NOT_FOUND" || !contains(data(t, s), "ENVIRONMENT REMINDER") {
			t.Errorf("step %d: %s", n, result(s))
		}
	}
	ok := convert(t, OpenHands, file, 2, false, lines[1])
	run = file + ":2#tally__tally-12"
	if s := ok.step(t, run, 4); result(s) != "error NameError" {
		t.Errorf("step 4: %s", result(s))
	}
	if s := ok.step(t, run, 7); s.State != schema.StateStop.String() || s.ToolCall != nil {
		t.Errorf("finish: %s %v", s.State, s.ToolCall)
	}
}

// The V1 SDK's typed events: ActionEvent and ObservationEvent linked by
// action_id, ThinkAction is PLAN, FinishAction is STOP, the tool's name is
// the call's; a grep whose output is only terminal escapes found nothing.
func TestOpenHandsV1Sample(t *testing.T) {
	const file = "v1-sdk-output.ndjson"
	lines := sampleLines(t, "openhands/v1-sdk-output.ndjson")
	ok := convert(t, OpenHands, file, 1, false, lines[0])
	run := file + ":1#project-csv-dates"
	want := map[int64]struct{ state, tool, result string }{
		1:  {"ACT", "execute_bash", "ok"},
		3:  {"ACT", "execute_bash", "ok empty"},
		5:  {"ACT", "file_editor", "ok"},
		7:  {"PLAN", "", "none"},
		9:  {"ACT", "file_editor", "ok"},
		11: {"ACT", "execute_bash", "error TESTS_FAILED"},
		13: {"ACT", "file_editor", "ok"},
		15: {"ACT", "execute_bash", "ok"},
		17: {"STOP", "", "none"},
	}
	if len(ok.numbers(run)) != len(want) {
		t.Errorf("steps %v", ok.numbers(run))
	}
	for n, w := range want {
		if s := ok.step(t, run, n); s.State != w.state || tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s %s, want %v", n, s.State, tool(s), result(s), w)
		}
	}
	grep := ok.step(t, run, 3)
	if grep.Intent != searchIntent || data(t, grep) != "" {
		t.Errorf("grep: intent %q data %q: want a search, its escapes stripped", grep.Intent, data(t, grep))
	}
	if s := ok.step(t, run, 15); bytes.IndexByte([]byte(data(t, s)), 0x1b) >= 0 {
		t.Errorf("escapes left in %q", data(t, s))
	}
	if s := ok.step(t, run, 1); reason(s) != "Let me look at the exporter package." || s.TS == nil {
		t.Errorf("thought %q ts %v", reason(s), s.TS)
	}
	loop := convert(t, OpenHands, file, 2, false, lines[1])
	run = file + ":2#shop-unit-tests"
	for n := int64(3); n <= 11; n += 2 {
		if s := loop.step(t, run, n); result(s) != "error USAGE_ERROR" {
			t.Errorf("step %d: %s", n, result(s))
		}
	}
}

// An exported event stream is a JSON array, one run named after the file.
// An agent's message is a call of "message" whose result is the user's
// next message; when that is the evaluation harness's automatic "Please
// continue working on the task", the turn had no tool call: a format error,
// here of the call the turn wrote as text.
func TestOpenHandsExportSample(t *testing.T) {
	const file = "traj-export.json"
	c := convert(t, OpenHands, file, 1, true, readSample(t, "openhands/traj-export.json"))
	if len(c.runs) != 1 || c.runs[0] != file {
		t.Fatalf("runs %q", c.runs)
	}
	if got := fmt.Sprint(c.numbers(file)); got != "[5 7 11 15 19 23 27]" {
		t.Errorf("steps %s", got)
	}
	for n := int64(7); n <= 27; n += 4 {
		s := c.step(t, file, n)
		if tool(s) != "execute_bash" || s.State != schema.StateAct.String() || result(s) != "error FORMAT_ERROR" {
			t.Errorf("step %d: %s %s %s, want a call written as text the harness rejected", n, s.State, tool(s), result(s))
			continue
		}
		if args(t, s)["command"] != "df -h /data" || !contains(data(t, s), "Please continue working on the task") {
			t.Errorf("step %d: %s -> %q", n, s.ToolCall.Args, data(t, s))
		}
	}
}

// A session's events/ directory, read as one array of its files in the
// order of their numbers (ingest does this), is one run: polling that ends
// with a change.
func TestOpenHandsEventDirSample(t *testing.T) {
	dir := filepath.Join(samples, "openhands", "session-5f0c2a", "events")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	doc.WriteString("[\n")
	for i := range entries {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			doc.WriteString(",\n")
		}
		doc.Write(b)
	}
	doc.WriteString("\n]\n")
	c := convert(t, OpenHands, "session-5f0c2a/events", 1, true, doc.Bytes())
	run := "session-5f0c2a/events"
	if got := fmt.Sprint(c.numbers(run)); got != "[5 7 9 11 13 15 17]" {
		t.Errorf("steps %s: want the file numbers of the agent's actions", got)
	}
	first, last := c.step(t, run, 7), c.step(t, run, 13)
	if string(first.ToolCall.Args) != string(last.ToolCall.Args) || data(t, first) == data(t, last) {
		t.Errorf("the polls: %s %q / %s %q", first.ToolCall.Args, data(t, first), last.ToolCall.Args, data(t, last))
	}
	if s := c.step(t, run, 17); s.State != schema.StateStop.String() {
		t.Errorf("finish: %q", s.State)
	}
}

// ohV0 is an evaluation output line with the given events as its history.
func ohV0(t testing.TB, events ...map[string]any) []byte {
	return mustMarshal(t, map[string]any{"instance_id": "i-1", "history": events})
}

// Exit codes, the harness's error flag and its errors: what an observation
// says of its action beyond its text. An error observation that answers no
// action (a tool call that failed validation) is a failed step of its own.
func TestOpenHandsObservationFlags(t *testing.T) {
	run := func(id int, cmd string) map[string]any {
		return map[string]any{"id": id, "source": "agent", "action": "run", "args": map[string]any{"command": cmd}}
	}
	obs := func(id, cause int, content string, exit int) map[string]any {
		return map[string]any{"id": id, "cause": cause, "source": "agent", "observation": "run", "content": content,
			"extras": map[string]any{"metadata": map[string]any{"exit_code": exit}}}
	}
	c := convert(t, OpenHands, "o.jsonl", 3, false, ohV0(t,
		run(0, "make test"), obs(1, 0, "make: *** [test] Error 2", 2),
		run(2, "python server.py"), obs(3, 2, "Serving on :8000\n[The command has no new output after 30 seconds.]", -1),
		run(4, "grep -rn TODO src"), obs(5, 4, "", 1),
		map[string]any{"id": 6, "source": "agent", "observation": "error", "content": "Missing required parameters for function 'str_replace_editor': {'security_risk'}", "extras": map[string]any{}},
		run(7, "ls"), map[string]any{"id": 8, "cause": 7, "source": "agent", "observation": "error", "content": "Browser environment took too long to respond.", "extras": map[string]any{}},
		map[string]any{"id": 9, "source": "agent", "action": "reject", "args": map[string]any{"outputs": map[string]any{"reason": "cannot"}}},
		map[string]any{"id": 10, "source": "agent", "observation": "error", "content": `Missing required argument "task_list" for "plan" command in tool call task_tracker`, "extras": map[string]any{}},
		run(11, `find src -name "*.py" -exec grep -l "def x" {} \;`), obs(12, 11, "find src -name \"*.py\" -exec grep -l \"def x\" {} \\;\n", 0),
		run(13, `find src -name "*.py" -exec grep -l "def y" {} \;`), obs(14, 13, "find src -name \"*.py\" -exec grep -l \"def y\" {} \\;\nsrc/a.py\n", 0),
	))
	runID := "o.jsonl:3#i-1"
	want := map[int64]struct{ tool, result string }{
		0:  {"run", "error EXIT_CODE"},
		2:  {"run", "error TIMEOUT"},
		4:  {"run", "ok empty"}, // grep's exit code 1 found nothing
		6:  {"str_replace_editor", "error INVALID_CALL"},
		7:  {"run", "error ERROR"},
		9:  {"", "none"},
		10: {"task_tracker", "error INVALID_CALL"}, // the tool, not its command
		11: {"run", "ok empty"},                    // the terminal's echo of the command, then nothing
		13: {"run", "ok"},
	}
	for n, w := range want {
		if s := c.step(t, runID, n); tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s, want %v", n, tool(s), result(s), w)
		}
	}
	if s := c.step(t, runID, 9); s.State != schema.StateStop.String() {
		t.Errorf("reject: state %q, want STOP", s.State)
	}
}

// A message answered by a person is a message answered; one answered by
// the evaluation harness's automatic nudge is a turn without a tool call,
// and when it wrote a call as text (`<function=NAME>`, or GLM's
// `<function>NAME>`), a call of that function refused.
func TestOpenHandsMessageAnsweredByTheHarnessIsAFormatError(t *testing.T) {
	msg := func(id int, source, text string) map[string]any {
		return map[string]any{"id": id, "source": source, "action": "message", "args": map[string]any{"content": text}}
	}
	const nudge = "Please continue working on the task on whatever approach you think is suitable.\nIMPORTANT: YOU SHOULD NEVER ASK FOR HUMAN HELP.\n"
	c := convert(t, OpenHands, "m.jsonl", 1, false, ohV0(t,
		msg(0, "agent", "Should I also update the docs?"), msg(1, "user", "Yes, please continue with the docs."),
		msg(2, "agent", "<function=execute_bash>\n<parameter=command>ls</parameter>"), msg(3, "user", nudge),
		msg(4, "agent", "<think></think>\n## Phase 7\n\n<function>execute_bash>\n<parameter=command>ls</parameter>\n<parameter=security_risk>LOW</parameter>\n"), msg(5, "user", nudge),
		msg(6, "agent", "I have finished the change."), msg(7, "user", nudge),
	))
	runID := "m.jsonl:1#i-1"
	if s := c.step(t, runID, 0); tool(s) != MessageTool || result(s) != "ok" {
		t.Errorf("a person's answer: %s %s, want a message answered", tool(s), result(s))
	}
	for _, n := range []int64{2, 4} {
		s := c.step(t, runID, n)
		if tool(s) != "execute_bash" || string(s.ToolCall.Args) != `{"command":"ls"}` || result(s) != "error FORMAT_ERROR" || s.State != schema.StateAct.String() {
			t.Errorf("step %d, a call written as text: %s %s %s %s, want execute_bash {\"command\":\"ls\"} refused", n, s.State, tool(s), s.ToolCall.Args, result(s))
		}
	}
	if s := c.step(t, runID, 6); tool(s) != MessageTool || result(s) != "error FORMAT_ERROR" {
		t.Errorf("the harness's nudge: %s %s, want a format error", tool(s), result(s))
	}
}

func TestOpenHandsRecognize(t *testing.T) {
	for _, c := range []struct{ doc, why string }{
		{`{"messages": []}`, `no "history" list`},
		{`{"history": 3}`, `"history" is not a list`},
		{`{"history": [{"role": "user", "content": "x"}]}`, `"history" holds neither events ({"action"|"observation"|"kind": ...}) nor [action, observation] pairs`},
		{`[]`, "an empty list"},
		{`[{"role": "user", "content": "x"}]`, `not a list of events with "action", "observation" or "kind"`},
		{`{"trajectory": [{"action": "ls", "observation": "a.py", "thought": "look"}]}`, `no "history" list, and "trajectory" does not start with an OpenHands event (an "action" or an "observation" with its "source")`},
		{`{"trajectory": null, "error": "Error getting trajectory"}`, `no "history" list, and "trajectory" is not a list of events`},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := OpenHands.Recognize(d); err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
}

// SDK releases of late 2025 keep a command's exit code in the
// observation's metadata only, exit_code null at its top: it is read
// there.
func TestOpenHandsV1MetadataExitCode(t *testing.T) {
	act := func(id, cmd string) map[string]any {
		return map[string]any{"kind": "ActionEvent", "source": "agent", "id": id, "tool_name": "execute_bash", "tool_call_id": "t" + id,
			"action": map[string]any{"kind": "ExecuteBashAction", "command": cmd}}
	}
	obs := func(id, out string, meta any) map[string]any {
		return map[string]any{"kind": "ObservationEvent", "source": "environment", "tool_name": "execute_bash", "action_id": id, "tool_call_id": "t" + id,
			"observation": map[string]any{"kind": "ExecuteBashObservation", "output": out, "exit_code": nil, "metadata": meta}}
	}
	raw := mustMarshal(t, []any{
		act("a1", "python -m sympy.testing.runtests"), obs("a1", "running", map[string]any{"exit_code": 1}),
		act("a2", "ls"), obs("a2", "setup.py", map[string]any{"exit_code": 0}),
	})
	c, run := convertOne(t, OpenHands, raw)
	c.calls(t, run, map[int64]string{0: "execute_bash error EXIT_CODE", 2: "execute_bash ok"})
}

// A V1 observation whose "error" is a message (the file editor's, the
// browser's) failed, whatever its empty output says: the editor asked to
// view a path that is not there says so in "error" and prints nothing,
// read as the output rules read the editor's words (NO_SUCH_FILE), also
// with the output stripped: the field is not the output. A null error, or
// the terminal's false, is no failure.
func TestOpenHandsV1ErrorMessageIsAFailure(t *testing.T) {
	act := func(id, tool string, action map[string]any) map[string]any {
		return map[string]any{"kind": "ActionEvent", "source": "agent", "id": id, "tool_name": tool, "tool_call_id": "t" + id, "action": action}
	}
	obs := func(id, tool string, o map[string]any) map[string]any {
		return map[string]any{"kind": "ObservationEvent", "source": "environment", "tool_name": tool, "action_id": id, "tool_call_id": "t" + id, "observation": o}
	}
	view := map[string]any{"kind": "FileEditorAction", "command": "view", "path": "/workspace/roadmap.txt"}
	missing := "Invalid `path` parameter: /workspace/roadmap.txt. The path /workspace/roadmap.txt does not exist. Please provide a valid path."
	raw := mustMarshal(t, []any{
		act("a1", "str_replace_editor", view),
		obs("a1", "str_replace_editor", map[string]any{"kind": "FileEditorObservation", "command": "view", "output": "", "error": missing}),
		act("a2", "browser_navigate", map[string]any{"kind": "BrowserNavigateAction", "url": "http://example.com"}),
		obs("a2", "browser_navigate", map[string]any{"kind": "BrowserObservation", "output": "Navigated to: http://example.com", "error": nil}),
		act("a3", "execute_bash", map[string]any{"kind": "ExecuteBashAction", "command": "ls"}),
		obs("a3", "execute_bash", map[string]any{"kind": "ExecuteBashObservation", "output": "setup.py", "error": false, "metadata": map[string]any{"exit_code": 0}}),
		act("a4", "browser_navigate", map[string]any{"kind": "BrowserNavigateAction", "url": "http://example.com/x"}),
		obs("a4", "browser_navigate", map[string]any{"kind": "BrowserObservation", "output": "", "error": "Navigation failed: the page crashed"}),
	})
	for _, strip := range []bool{false, true} {
		c, run := convertRead(t, OpenHands, raw, strip)
		c.calls(t, run, map[int64]string{0: "str_replace_editor error NO_SUCH_FILE", 2: "browser_navigate ok", 4: "execute_bash ok", 6: "browser_navigate error ERROR"})
		if s := c.step(t, run, 0); !strip && !bytes.Contains(s.ToolResult.Data, []byte("does not exist")) {
			t.Errorf("the error's message is the result: %s", s.ToolResult.Data)
		}
	}
}

// An edit whose observation's diff, the harness's own record of what the
// edit changed, is empty changed nothing: it is EDIT_REJECTED, also when
// the log keeps no tool output (the diff is a field of its own, not what
// the editor printed). An edit with a diff, or a view, is left alone.
func TestOpenHandsEmptyDiffIsARejectedEdit(t *testing.T) {
	replace := map[string]any{"command": "str_replace", "path": "/repo/app.py", "old_str": "x = 1", "new_str": "x = 2"}
	refused := "ERROR:\nNo replacement was performed, old_str `x = 1` did not appear verbatim in /repo/app.py."
	for _, c := range []struct {
		name  string
		args  map[string]any
		out   string
		diff  any
		strip bool
		want  string
	}{
		{"no diff, stripped", replace, refused, "", true, "error " + schema.ErrEditRejected},
		{"no diff, logged", replace, refused, "", false, "error " + schema.ErrEditRejected},
		{"no diff, logged as edited", replace, "The file /repo/app.py has been edited.", "", false, "ok"},
		{"a diff, stripped", replace, "The file /repo/app.py has been edited.", "--- /repo/app.py\n+++ /repo/app.py\n-x = 1\n+x = 2", true, "ok"},
		{"no diff field, stripped", replace, refused, nil, true, "ok"},
		{"a view, stripped", map[string]any{"command": "view", "path": "/repo/app.py"}, "1 x = 1", "", true, "ok"},
	} {
		extras := map[string]any{"path": "/repo/app.py"}
		if c.diff != nil {
			extras["diff"] = c.diff
		}
		doc := ohV0(t,
			map[string]any{"id": 0, "source": "agent", "action": "edit", "args": c.args},
			map[string]any{"id": 1, "cause": 0, "source": "agent", "observation": "edit", "content": c.out, "extras": extras})
		conv, run := convertRead(t, OpenHands, doc, c.strip)
		if got := result(conv.step(t, run, 0)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// The OpenHands server answers GET /api/conversations/{id}/trajectory
// with {"trajectory": [events]}, and its shared feedback records keep the
// events under "trajectory" too, an action's args under "extras" (written
// here from the shapes of both): both are one run, read as the events of
// an export are.
func TestOpenHandsTrajectoryKey(t *testing.T) {
	server := mustMarshal(t, map[string]any{"trajectory": []any{
		map[string]any{"id": 0, "source": "environment", "observation": "agent_state_changed", "content": "", "extras": map[string]any{"agent_state": "loading"}},
		map[string]any{"id": 1, "source": "user", "action": "message", "args": map[string]any{"content": "Review the PR"}},
		map[string]any{"id": 2, "source": "agent", "action": "run", "args": map[string]any{"command": "grep -rn todo src", "thought": "look", "is_input": false}},
		map[string]any{"id": 3, "source": "agent", "cause": 2, "observation": "run", "content": "", "extras": map[string]any{"metadata": map[string]any{"exit_code": 1}}},
		map[string]any{"id": 4, "source": "agent", "action": "finish", "args": map[string]any{"final_thought": "done"}},
	}})
	c, run := convertOne(t, OpenHands, server)
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4]" {
		t.Fatalf("steps %s, want the run and the finish at their positions", got)
	}
	if s := c.step(t, run, 2); tool(s) != "run" || result(s) != "ok empty" || fmt.Sprint(args(t, s)) != "map[command:grep -rn todo src is_input:false]" {
		t.Errorf("step 2: %s %v %s, want the search read with its empty answer", tool(s), args(t, s), result(s))
	}
	feedback := mustMarshal(t, map[string]any{"version": "1.0", "feedback": "positive", "permissions": "public", "trajectory": []any{
		map[string]any{"action": "initialize", "content": nil, "extras": map[string]any{"AGENT": "CodeActAgent"}, "id": nil, "observation": nil, "source": "environment"},
		map[string]any{"action": nil, "content": "", "extras": map[string]any{"agent_state": "init"}, "id": 4, "observation": "agent_state_changed", "source": "agent"},
		map[string]any{"action": "message", "content": "Fix the README", "extras": map[string]any{"content": "Fix the README"}, "id": nil, "observation": nil, "source": "user"},
		map[string]any{"action": "run_ipython", "content": nil, "extras": map[string]any{"code": "create_file('README.md')", "thought": "Create it", "is_confirmed": "confirmed", "kernel_init_code": "from agentskills import *"}, "id": 8, "observation": nil, "source": "agent"},
		map[string]any{"action": nil, "content": "[File: /workspace/README.md (1 lines total after edit)]", "extras": map[string]any{"code": "create_file('README.md')"}, "id": 9, "observation": "run_ipython", "source": "agent"},
		map[string]any{"action": "finish", "content": nil, "extras": map[string]any{"outputs": map[string]any{}, "thought": ""}, "id": 10, "observation": nil, "source": "agent"},
	}})
	c, run = convertOne(t, OpenHands, feedback)
	if got := fmt.Sprint(c.numbers(run)); got != "[3 5]" {
		t.Fatalf("steps %s, want the agent's two actions", got)
	}
	s := c.step(t, run, 3)
	if tool(s) != "run_ipython" || fmt.Sprint(args(t, s)) != "map[code:create_file('README.md')]" || reason(s) != "Create it" {
		t.Errorf("step 3: %s %v reason %q, want the args kept under extras, thought the reason", tool(s), args(t, s), reason(s))
	}
	if result(s) != "ok" || !contains(data(t, s), "1 lines total") {
		t.Errorf("step 3: %s %q, want the answer of the observation after it", result(s), data(t, s))
	}
}

// The V1 SDK asks the model for a few words on what each tool call does
// and keeps them as the ActionEvent's "summary": the step's reason when the
// event has no thought. The SDK's own stand-in when the model gave none
// (the tool's name and its arguments as JSON) and a tool's own argument
// named summary (kept in the action too) are not the agent's account of
// the call. Samples written from the format.
func TestOpenHandsV1SummaryIsTheReasonWithoutAThought(t *testing.T) {
	act := func(id string, thought []any, summary string, action map[string]any) map[string]any {
		return map[string]any{"kind": "ActionEvent", "source": "agent", "id": id, "thought": thought, "tool_name": "terminal",
			"tool_call_id": "t" + id, "action": action, "summary": summary}
	}
	term := map[string]any{"kind": "TerminalAction", "command": "ls"}
	raw := mustMarshal(t, []any{
		act("a0", []any{}, "List the files to find the task description", term),
		act("a1", []any{map[string]any{"type": "text", "text": "Let me look around."}}, "List the files", term),
		act("a2", []any{}, `terminal: {"command": "ls", "is_input": false}`, term),
		act("a3", []any{}, "Fix the login redirect", map[string]any{"kind": "CreateIssueAction", "summary": "Fix the login redirect"}),
		map[string]any{"kind": "ActionEvent", "source": "agent", "id": "a4", "thought": []any{}, "tool_name": "finish", "tool_call_id": "ta4",
			"action": map[string]any{"kind": "FinishAction", "message": "Done: the tests pass."}, "summary": `finish: {"message": "Done: the tests pass."}`},
	})
	c, run := convertOne(t, OpenHands, raw)
	for n, want := range map[int64]string{0: "List the files to find the task description", 1: "Let me look around.", 2: "", 3: "", 4: "Done: the tests pass."} {
		if got := reason(c.step(t, run, n)); got != want {
			t.Errorf("step %d: reason %q, want %q", n, got, want)
		}
	}
}
