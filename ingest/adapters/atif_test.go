package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A Claude Code trajectory in ATIF: steps are numbered by their entry in
// "steps" (the user's task, entry 0, is none), parallel calls keep a number
// each and get the results with their call ids, the step's metrics go on
// its first call, the last response without a call ends the run, and an
// embedded subagent is a run of its own named after its parent.
func TestATIFClaudeCodeTrajectory(t *testing.T) {
	c := convert(t, ATIF, "claude-code-healthy-fix.json", 1, true, readSample(t, "atif/claude-code-healthy-fix.json"))
	run := "claude-code-healthy-fix.json#9e41f2c7-0d3b-4a58-b6e2-7c1f5a9d3e08"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 4 5 6 7 8 9]" {
		t.Fatalf("steps %s, want [1 2 3 4 5 6 7 8 9]: the first agent step's two calls keep a number each", got)
	}
	c.calls(t, run, map[int64]string{1: "Read ok", 2: "Grep ok", 3: "Task ok", 4: "Edit ok", 6: "Bash error TESTS_FAILED", 8: "Bash ok"})
	if s := c.step(t, run, 2); !strings.Contains(data(t, s), "test_slug.py:5") || s.Usage != nil || s.Intent != searchIntent {
		t.Errorf("step 2: %q usage %+v intent %q, want Grep's own result, no second count of the usage, a search", data(t, s), s.Usage, s.Intent)
	}
	if s := c.step(t, run, 1); s.Usage == nil || s.Usage.PromptTokens != 15210 || s.Usage.CostUSD != 0.0598 || s.Usage.Model != "claude-sonnet-4-5-20250929" || s.TS == nil || !strings.HasPrefix(reason(s), "I'll look") {
		t.Errorf("step 1: usage %+v ts %v reason %q, want the step's metrics, model, time and words", s.Usage, s.TS, reason(s))
	}
	if s := c.step(t, run, 4); s.Usage == nil || s.Usage.CacheReadTokens != 15800 {
		t.Errorf("step 4: usage %+v, want the cached tokens as cache reads", s.Usage)
	}
	if s := c.step(t, run, 9); s.State != "STOP" || s.ToolCall != nil {
		t.Errorf("step 9: %s %v, want the last response, without a call, to end the run", s.State, s.ToolCall)
	}
	sub := run + "#explore-toolu_02Aa"
	if got := fmt.Sprint(c.numbers(sub)); got != "[1 2 3 4]" {
		t.Fatalf("subagent steps %s, want [1 2 3 4]", got)
	}
	c.calls(t, sub, map[int64]string{1: "Glob ok", 2: "Grep ok empty", 3: "Read ok"})
	if s := c.step(t, sub, 1); s.Usage == nil || s.Usage.Model != "claude-haiku-4-5-20251001" {
		t.Errorf("subagent step 1: usage %+v, want the subagent's own model", s.Usage)
	}
}

// Terminus types several commands in a step and the harness reports the
// terminal once: the screen answers the last command. The keystrokes are
// read as a command line; a response the harness could not parse is a
// format error; marking the task complete is the run's STOP.
func TestATIFTerminusTrajectory(t *testing.T) {
	c, run := convertOne(t, ATIF, readSample(t, "atif/terminus-install-loop.json"))
	if s := c.step(t, run, 1); s.ToolResult != nil {
		t.Errorf("step 1: result %s, want none: the screen answers the step's last command", result(s))
	}
	if s := c.step(t, run, 2); result(s) != "ok" || !strings.Contains(data(t, s), "tokenizers==0.99.1") {
		t.Errorf("step 2: %s %q, want the terminal's screen", result(s), data(t, s))
	}
	c.calls(t, run, map[int64]string{3: "bash_command error PIP_ERROR", 5: "format_error error FORMAT_ERROR", 10: "bash_command error PIP_ERROR", 11: "mark_task_complete ok"})
	if s := c.step(t, run, 11); s.State != "STOP" {
		t.Errorf("step 11: %s, want mark_task_complete to end the run", s.State)
	}
	if s := c.step(t, run, 5); !strings.HasPrefix(reason(s), "The package index may be stale") {
		t.Errorf("step 5: reason %q, want the response the harness refused", reason(s))
	}
}

// Keystrokes typed into the terminal are a command line like any other:
// a grep that prints nothing found nothing.
func TestATIFKeystrokesAreACommandLine(t *testing.T) {
	doc := atifDoc(t, "terminus-2", "bash_command", map[string]any{"keystrokes": "grep -rn 'def parse' src/\n", "duration": 1}, "")
	c, run := convertOne(t, ATIF, doc)
	if s := c.step(t, run, 1); s.Intent != searchIntent || result(s) != "ok empty" {
		t.Errorf("step 1: intent %q %s, want a search that found nothing", s.Intent, result(s))
	}
}

// Claude Code's own answers are read as Claude Code's only in its
// trajectories: another agent's tool may print anything.
func TestATIFClaudeCodeRulesOnlyForClaudeCode(t *testing.T) {
	const refused = "<tool_use_error>File does not exist.</tool_use_error>"
	for agent, want := range map[string]string{"claude-code": "error NO_SUCH_FILE", "terminus-2": "ok"} {
		c, run := convertOne(t, ATIF, atifDoc(t, agent, "Read", map[string]any{"file_path": "/app/x.py"}, refused))
		if got := result(c.step(t, run, 1)); got != want {
			t.Errorf("%s: %s, want %s", agent, got, want)
		}
	}
}

// Harbor writes a Bash result as its [stdout] and [stderr] and, when the
// command failed, an [exit_code] line, and copies mini-swe-agent's reply
// (<returncode>, <output>) as it is: a non-zero code is a failure, a grep
// exiting 1 found nothing, and with the output stripped the code, being
// in the text, is gone.
func TestATIFExitCodeInTheText(t *testing.T) {
	for _, c := range []struct {
		cmd, out string
		strip    bool
		want     string
	}{
		{"python check.py", "[stdout]\n3 rows differ\n\n[exit_code] 1", false, "error EXIT_CODE"},
		{"pytest -q", "[stdout]\n1 failed, 2 passed in 0.04s\n\n[exit_code] 1", false, "error TESTS_FAILED"},
		{"grep -rn slugify src", "[exit_code] 1", false, "ok empty"},
		{"pytest -q", "[stdout]\n3 passed in 0.04s", false, "ok"},
		{"pytest -q", "[stdout]\n1 failed, 2 passed in 0.04s\n\n[exit_code] 1", true, "ok"},
		// mini-swe-agent's reply, as Harbor copies it into the observation.
		{"python check.py", "<returncode>1</returncode>\n<output>\n3 rows differ\n</output>", false, "error EXIT_CODE"},
		{"grep -rn slugify src", "<returncode>1</returncode>\n<output>\n</output>", false, "ok empty"},
	} {
		conv, run := convertRead(t, ATIF, atifDoc(t, "claude-code", "Bash", map[string]any{"command": c.cmd}, c.out), c.strip)
		if got := result(conv.step(t, run, 1)); got != c.want {
			t.Errorf("%s -> %q (stripped %v): %s, want %s", c.cmd, c.out, c.strip, got, c.want)
		}
	}
}

// A response without a call that the user answers is a turn of
// conversation, answered by the user's next message; with the output
// stripped, the answer is gone and the turn remains.
func TestATIFTurnAnsweredByTheUser(t *testing.T) {
	doc := []byte(`{"schema_version": "ATIF-v1.4", "session_id": "s", "agent": {"name": "my-agent", "version": "1"}, "steps": [
	  {"step_id": 1, "source": "system", "message": "You are a booking assistant."},
	  {"step_id": 2, "source": "user", "message": "Change my flight."},
	  {"step_id": 3, "source": "agent", "message": "Which booking number?"},
	  {"step_id": 4, "source": "user", "message": "ABC123"},
	  {"step_id": 5, "source": "agent", "message": "Done."}]}`)
	for _, strip := range []bool{false, true} {
		c, run := convertRead(t, ATIF, doc, strip)
		s := c.step(t, run, 2)
		if tool(s) != MessageTool || s.Intent != "user" || (data(t, s) == "ABC123") == strip {
			t.Errorf("stripped %v: step 2 %s intent %q answer %q, want a turn the user answered", strip, tool(s), s.Intent, data(t, s))
		}
		if s := c.step(t, run, 4); s.State != "STOP" {
			t.Errorf("stripped %v: step 4 %s, want the last response to end the run", strip, s.State)
		}
	}
}

// A trajectory another project wrote (testdata/atif/README.md says
// whose): recognised with no flag, named by its session, each call with
// the result its id names, done ending the run.
func TestATIFRealTrajectory(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "atif", "openagents-login-trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := convert(t, ATIF, "trajectory.json", 1, true, raw)
	run := "trajectory.json#login-trace"
	if got := fmt.Sprint(c.numbers(run)); got != "[1 2 3 4 5 6]" {
		t.Fatalf("steps %s, want [1 2 3 4 5 6]", got)
	}
	c.calls(t, run, map[int64]string{1: "navigate ok", 3: "assert ok", 5: "screenshot ok", 6: "done ok"})
	if s := c.step(t, run, 3); data(t, s) != "ok: Login page shows 'Log in to OpenAgents'" || !strings.HasPrefix(reason(s), "Login page shows") {
		t.Errorf("step 3: %q reason %q, want the assertion's own result and the step's words", data(t, s), reason(s))
	}
	if s := c.step(t, run, 6); s.State != "STOP" {
		t.Errorf("step 6: %s, want done to end the run", s.State)
	}
}

// Only ATIF trajectories are recognised: an object whose schema_version
// names ATIF, with steps that have a source.
func TestATIFRecognize(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"schema_version": "ATIF-v1.4", "steps": []}`:                                 true,
		`{"schema_version": "ATIF-v1.7", "steps": [{"step_id": 1, "source": "user"}]}`: true,
		`{"schema_version": "atif-v1.2", "steps": [{"source": "agent"}]}`:              true,
		`{"schema_version": "1.4", "steps": [{"step_id": 1, "source": "user"}]}`:       false,
		`{"schema_version": "ATIF-v1.4", "steps": [{"step_number": 1}]}`:               false,
		`{"schema_version": "ATIF-v1.4"}`:                                              false,
		`[{"schema_version": "ATIF-v1.4", "steps": []}]`:                               false,
		`{"messages": [{"role": "user", "content": "hi"}]}`:                            false,
	} {
		d, err := ParseDoc("t.json", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := ATIF.Recognize(d) == nil; got != want {
			t.Errorf("%s: recognised %v, want %v", doc, got, want)
		}
	}
}

// A step that is not what ATIF says a step is (a tool call list that is a
// string) is an error naming the step, not a run read in part.
func TestATIFMalformedStepIsAnError(t *testing.T) {
	doc := []byte(`{"schema_version": "ATIF-v1.4", "agent": {"name": "a"}, "steps": [{"step_id": 1, "source": "user", "message": "x"}, {"step_id": 2, "source": "agent", "tool_calls": "ls"}]}`)
	d, err := ParseDoc("t.json", 1, true, doc)
	if err != nil {
		t.Fatal(err)
	}
	err = ATIF.Convert(d, func(*schema.Step) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "step 1") {
		t.Errorf("error %v, want one naming step 1", err)
	}
}

// A subagent that is not a trajectory rejects the document whole: no run
// of it, the parent's included, is handed on before the error.
func TestATIFBadSubagentEmitsNothing(t *testing.T) {
	doc := []byte(`{"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a"}, "steps": [
	  {"step_id": 1, "source": "agent", "message": "done"}],
	  "subagent_trajectories": [{"trajectory_id": "sub", "steps": [{"step_id": 1, "source": "agent", "tool_calls": "ls"}]}]}`)
	d, err := ParseDoc("t.json", 1, true, doc)
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	err = ATIF.Convert(d, func(*schema.Step) error { emitted++; return nil })
	if err == nil || !strings.Contains(err.Error(), "subagent trajectory 0") || emitted != 0 {
		t.Errorf("error %v after %d steps, want an error naming the subagent and no step", err, emitted)
	}
}

// A trajectory written as JSON Lines as it goes (OpenAgents' .atif.jsonl:
// a header line holding the trajectory's own fields and "__header__": true,
// then a step a line) is read as the same trajectory written whole.
func TestATIFStream(t *testing.T) {
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(readSample(t, "atif/terminus-install-loop.json"), &whole); err != nil {
		t.Fatal(err)
	}
	var steps []json.RawMessage
	if err := json.Unmarshal(whole["steps"], &steps); err != nil {
		t.Fatal(err)
	}
	header := map[string]json.RawMessage{"__header__": json.RawMessage("true")}
	for k, v := range whole {
		if k != "steps" {
			header[k] = v
		}
	}
	h, _ := json.Marshal(header)
	lines := []string{string(h)}
	for _, s := range steps {
		var b bytes.Buffer
		if err := json.Compact(&b, s); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b.String())
	}
	d, err := ParseLines("t.atif.jsonl", 1, []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Detect(d); f != ATIF || !isATIFStream(d) {
		t.Fatalf("detected %v %v", f, err)
	}
	stream := newConverted()
	if err := ConvertDoc(ATIF, d, stream.adder(t)); err != nil {
		t.Fatal(err)
	}
	file, run := convertOne(t, ATIF, readSample(t, "atif/terminus-install-loop.json"))
	got, want := stream.numbers(stream.runs[0]), file.numbers(run)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("steps %v, want the whole file's %v", got, want)
	}
	for _, n := range want {
		a, b := stream.step(t, stream.runs[0], n), file.step(t, run, n)
		if tool(a) != tool(b) || result(a) != result(b) || data(t, a) != data(t, b) {
			t.Errorf("step %d: %s %s, want %s %s", n, tool(a), result(a), tool(b), result(b))
		}
	}
}
