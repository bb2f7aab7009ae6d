package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Trae Agent's trajectory: each agent step's calls are steps, answered by
// the results with their call ids; success false is a failure, refined by
// the rules (the edit refused); sequentialthinking is a thought; task_done
// ends the run; a step that failed before any call is a failed "model".
func TestTraeAgentTrajectories(t *testing.T) {
	c, run := convertOne(t, TraeAgent, readSample(t, "trae-agent/healthy-fix.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5 6 7]" {
		t.Fatalf("steps %s, want [0 1 2 3 4 5 6 7]: the first step's two calls keep a number each", got)
	}
	c.calls(t, run, map[int64]string{0: "str_replace_based_edit_tool ok", 1: "bash error TESTS_FAILED", 3: "str_replace_based_edit_tool ok", 6: "bash ok", 7: "task_done ok"})
	if s := c.step(t, run, 1); !strings.Contains(data(t, s), "AssertionError") || s.Usage != nil {
		t.Errorf("step 1: %q usage %+v, want its own result and no second count of the step's usage", data(t, s), s.Usage)
	}
	if s := c.step(t, run, 0); s.Usage == nil || s.Usage.PromptTokens != 3120 || s.Usage.Model != "claude-sonnet-4-20250514" || s.TS == nil || !strings.HasPrefix(reason(s), "I'll look") {
		t.Errorf("step 0: usage %+v ts %v reason %q, want the response's usage, model, words and the step's time", s.Usage, s.TS, reason(s))
	}
	if s := c.step(t, run, 2); s.State != "PLAN" || s.ToolCall != nil || !strings.Contains(reason(s), "csv.reader") {
		t.Errorf("step 2: %s %v %q, want sequentialthinking as a thought", s.State, s.ToolCall, reason(s))
	}
	if s := c.step(t, run, 7); s.State != "STOP" {
		t.Errorf("step 7: %s, want task_done to end the run", s.State)
	}

	c, run = convertOne(t, TraeAgent, readSample(t, "trae-agent/edit-rejected-loop.json"))
	if s := c.step(t, run, 3); result(s) != "error EDIT_REJECTED" || !strings.HasPrefix(data(t, s), "No replacement was performed") {
		t.Errorf("step 3: %s %q, want the refused edit", result(s), data(t, s))
	}
	if s := c.step(t, run, 6); tool(s)+" "+result(s) != "model error ERROR" || !strings.Contains(data(t, s), "overloaded") {
		t.Errorf("step 6: %s %s %q, want the failed model call", tool(s), result(s), data(t, s))
	}
}

// Only Trae Agent's trajectories are recognised: an object with both
// agent_steps and llm_interactions, the steps numbered.
func TestTraeAgentRecognize(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"agent_steps": [], "llm_interactions": []}`:                               true,
		`{"agent_steps": [{"step_number": 1}], "llm_interactions": []}`:             true,
		`{"agent_steps": [{"step_number": 1}]}`:                                     false,
		`{"agent_steps": [{"name": "planner"}], "llm_interactions": []}`:            false,
		`[{"agent_steps": [{"step_number": 1}], "llm_interactions": []}]`:           false,
		`{"messages": [{"role": "user", "content": "hi"}], "llm_interactions": []}`: false,
	} {
		d, err := ParseDoc("t.json", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := TraeAgent.Recognize(d) == nil; got != want {
			t.Errorf("%s: recognised %v, want %v", doc, got, want)
		}
	}
}

// The harness's error message for a call (a result's "error", beside
// "success": false) is an error event, not the tool's output: with the
// output stripped it still says what kind of failure it was.
func TestTraeAgentErrorKindSurvivesStripping(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "tool_calls": [{"call_id": "c1", "name": "bash", "arguments": {"command": "python bench.py"}}],
	  "tool_results": [{"call_id": "c1", "success": false, "result": null,
	    "error": "Error running bash command: timed out: bash has not returned in 120.0 seconds and must be restarted"}]},
	 {"step_number": 2, "state": "completed",
	  "tool_calls": [{"call_id": "c2", "name": "bash", "arguments": {"command": "ls"}}],
	  "tool_results": [{"call_id": "c2", "success": false, "result": null, "error": "permission denied"}]}],
	 "llm_interactions": []}`
	for _, strip := range []bool{false, true} {
		c, run := convertOne(t, TraeAgent, []byte(doc))
		if strip {
			c, run = convertStripped(t, TraeAgent, []byte(doc))
		}
		if got := result(c.step(t, run, 0)); got != "error TIMEOUT" {
			t.Errorf("stripped %v: step 0 %s, want error TIMEOUT", strip, got)
		}
		if got := result(c.step(t, run, 1)); got != "error ERROR" {
			t.Errorf("stripped %v: step 1 %s, want error ERROR", strip, got)
		}
	}
}

// The edit tool's refusal of a path that is not there, which Trae Agent
// keeps in the result's "error", is a missing file (NO_SUCH_FILE), for a
// view and an edit alike, with the output logged or stripped: the field is
// the harness's record of the failure, not the tool's output.
func TestTraeAgentMissingPathIsNoSuchFile(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "tool_calls": [{"call_id": "c1", "name": "str_replace_based_edit_tool", "arguments": {"command": "view", "path": "/repo/ops.py"}}],
	  "tool_results": [{"call_id": "c1", "success": false, "result": null,
	    "error": "The path /repo/ops.py does not exist. Please provide a valid path."}]},
	 {"step_number": 2, "state": "completed",
	  "tool_calls": [{"call_id": "c2", "name": "str_replace_based_edit_tool", "arguments": {"command": "str_replace", "path": "/repo/t.py", "old_str": "a", "new_str": "b"}}],
	  "tool_results": [{"call_id": "c2", "success": false, "result": null,
	    "error": "The path /repo/t.py does not exist. Please provide a valid path."}]}],
	 "llm_interactions": []}`
	for _, strip := range []bool{false, true} {
		c, run := convertRead(t, TraeAgent, []byte(doc), strip)
		for i := int64(0); i < 2; i++ {
			if got := result(c.step(t, run, i)); got != "error NO_SUCH_FILE" {
				t.Errorf("stripped %v: step %d %s, want error NO_SUCH_FILE", strip, i, got)
			}
		}
	}
}

// Trae Agent keeps no exit code, only "success": a grep that matched
// nothing exits 1 and prints nothing, and is marked failed. Such a call
// found nothing, with its output logged or not; a grep that failed
// otherwise says why (its "error"), and a command that is no search and
// failed without a word is a failure still.
func TestTraeAgentSilentFailedSearchFoundNothing(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "tool_calls": [{"call_id": "c1", "name": "bash", "arguments": {"command": "cd /repo && grep -n \"get_cutlass\" vllm/moe.py"}}],
	  "tool_results": [{"call_id": "c1", "success": false, "result": "", "error": ""}]},
	 {"step_number": 2, "state": "completed",
	  "tool_calls": [{"call_id": "c2", "name": "bash", "arguments": {"command": "grep -n get_cutlass vllm/missing.py"}}],
	  "tool_results": [{"call_id": "c2", "success": false, "result": "", "error": "grep: vllm/missing.py: No such file or directory"}]},
	 {"step_number": 3, "state": "completed",
	  "tool_calls": [{"call_id": "c3", "name": "bash", "arguments": {"command": "which finish"}}],
	  "tool_results": [{"call_id": "c3", "success": false, "result": "", "error": ""}]}],
	 "llm_interactions": []}`
	want := []string{"ok empty", "error NO_SUCH_FILE", "error ERROR"}
	for _, strip := range []bool{false, true} {
		c, run := convertOne(t, TraeAgent, []byte(doc))
		if strip {
			c, run = convertStripped(t, TraeAgent, []byte(doc))
			want[1] = "error ERROR"
		}
		for i, w := range want {
			if got := result(c.step(t, run, int64(i))); got != w {
				t.Errorf("stripped %v: step %d %s, want %s", strip, i, got, w)
			}
		}
	}
}

// Trae Agent answers a finish it does not accept (task_done with an empty
// patch) with a user message of its own among the step's messages, and
// the run goes on; the task_done result only echoes the agent's message,
// or is missing when the tool was not run. The finish was refused, with
// the output logged or not; a finish answered by nothing of the harness's
// own, and a task_done whose step's last user message is no error, stay
// finishes that worked.
func TestTraeAgentRefusedFinish(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "llm_messages": [{"role": "user", "content": null, "tool_result": {"call_id": "c1", "success": true, "result": "Done: optimised the cache."}},
	    {"role": "user", "content": "ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}],
	  "tool_calls": [{"call_id": "c1", "name": "task_done", "arguments": {"message": "Done: optimised the cache."}}],
	  "tool_results": [{"call_id": "c1", "success": true, "result": "Done: optimised the cache.", "error": ""}]},
	 {"step_number": 2, "state": "completed",
	  "llm_messages": [{"role": "user", "content": "ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}],
	  "llm_response": {"content": "", "tool_calls": [{"call_id": "c2", "name": "task_done", "arguments": {"message": "Done."}}]}},
	 {"step_number": 3, "state": "completed",
	  "llm_messages": [{"role": "user", "content": "Please continue."}],
	  "tool_calls": [{"call_id": "c3", "name": "task_done", "arguments": {"message": "Done."}}],
	  "tool_results": [{"call_id": "c3", "success": true, "result": "Done.", "error": ""}]},
	 {"step_number": 4, "state": "completed",
	  "llm_messages": [{"role": "user", "content": null, "tool_result": {"call_id": "c4", "success": true, "result": "Done."}}],
	  "tool_calls": [{"call_id": "c4", "name": "task_done", "arguments": {"message": "Done."}}],
	  "tool_results": [{"call_id": "c4", "success": true, "result": "Done.", "error": ""}]}],
	 "llm_interactions": []}`
	want := []string{"error REJECTED", "error REJECTED", "ok", "ok"}
	for _, strip := range []bool{false, true} {
		c, run := convertOne(t, TraeAgent, []byte(doc))
		if strip {
			c, run = convertStripped(t, TraeAgent, []byte(doc))
		}
		for i, w := range want {
			s := c.step(t, run, int64(i))
			if got := result(s); s.State != "STOP" || got != w {
				t.Errorf("stripped %v: step %d %s %s, want STOP %s", strip, i, s.State, got, w)
			}
		}
		if got := data(t, c.step(t, run, 0)); strip != (got == "") || !strip && !strings.HasPrefix(got, "ERROR! Your Patch is empty") {
			t.Errorf("stripped %v: step 0 data %q, want the harness's message, dropped when stripped", strip, got)
		}
	}
}

// Trae Agent's bash tool, given {"restart": true}, restarts its shell and
// answers "tool has been restarted." without running the command the call
// carries too: such a call is the restart (its intent), not the search or
// the file view its command would be.
func TestTraeAgentRestartRunsNoCommand(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "tool_calls": [{"call_id": "c1", "name": "bash", "arguments": {"command": "grep -RIn \"Alloc\\\\(\" /repo", "restart": true}}],
	  "tool_results": [{"call_id": "c1", "success": true, "result": "tool has been restarted.", "error": ""}]},
	 {"step_number": 2, "state": "completed",
	  "tool_calls": [{"call_id": "c2", "name": "bash", "arguments": {"command": "sed -n '1,80p' /repo/a.py", "restart": true}}],
	  "tool_results": [{"call_id": "c2", "success": true, "result": "tool has been restarted.", "error": ""}]},
	 {"step_number": 3, "state": "completed",
	  "tool_calls": [{"call_id": "c3", "name": "bash", "arguments": {"command": "grep -RIn \"Alloc\\\\(\" /repo", "restart": false}}],
	  "tool_results": [{"call_id": "c3", "success": true, "result": "", "error": "grep: Unmatched ( or \\("}]}],
	 "llm_interactions": []}`
	for _, strip := range []bool{false, true} {
		c, run := convertRead(t, TraeAgent, []byte(doc), strip)
		for i, want := range []string{"restart", "restart", "search"} {
			if s := c.step(t, run, int64(i)); s.Intent != want {
				t.Errorf("stripped %v: step %d intent %q, want %q", strip, i, s.Intent, want)
			}
		}
	}
}
