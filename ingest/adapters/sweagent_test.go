package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// SWE-agent 0.x: a step is an entry of "trajectory", numbered by its
// position; the action's first word names SWE-agent's own tool, the run is
// named after the file, and the run's totals are spread over its calls.
func TestSWEAgent0xSample(t *testing.T) {
	const name = "fixtures/trajectories/swe-agent/edit-syntax-error-loop.traj"
	c := convert(t, SWEAgent, name, 1, true, readSample(t, "swe-agent/edit-syntax-error-loop.traj"))
	if len(c.runs) != 1 || c.runs[0] != name {
		t.Fatalf("runs %q, want the file's name", c.runs)
	}
	if got := c.numbers(name); len(got) != 9 || got[0] != 0 || got[8] != 8 {
		t.Fatalf("steps %v, want 0..8 (the trajectory's positions)", got)
	}
	s0 := c.step(t, name, 0)
	if tool(s0) != "find_file" || args(t, s0)["args"] != `"parser.py"` || s0.Intent != searchIntent || result(s0) != "ok" {
		t.Errorf("step 0: %s %s intent %q %s", tool(s0), s0.ToolCall.Args, s0.Intent, result(s0))
	}
	if s0.State != schema.StateAct.String() || !contains(reason(s0), "find the parser") {
		t.Errorf("step 0: state %q reason %q", s0.State, reason(s0))
	}
	if s := c.step(t, name, 1); tool(s) != "open" || result(s) != "ok" {
		t.Errorf("step 1: %s %s", tool(s), result(s))
	}
	for n := int64(3); n <= 8; n++ {
		s := c.step(t, name, n)
		if tool(s) != "edit" || result(s) != "error EDIT_REJECTED" {
			t.Errorf("step %d: %s %s, want the rejected edit", n, tool(s), result(s))
		}
		if s.State == schema.StateStop.String() {
			t.Errorf("step %d: STOP in a run that hit its cost limit", n)
		}
	}
	p, cm, cost, steps := usageSum(c, name)
	if p != 198450 || cm != 2210 || !near(cost, 2.04) || steps != 9 {
		t.Errorf("usage: %d prompt, %d completion, $%g over %d steps; want the totals over the 9 calls", p, cm, cost, steps)
	}
}

// SWE-agent 1.x: str_replace_editor and bash actions, a traceback is an
// error of its class, submit ends the run.
func TestSWEAgent1xSample(t *testing.T) {
	const name = "healthy-fix.traj"
	c := convert(t, SWEAgent, name, 1, true, readSample(t, "swe-agent/healthy-fix.traj"))
	want := map[int64]struct{ tool, result string }{
		0:  {"bash", "ok"},
		1:  {"str_replace_editor", "ok"},
		2:  {"str_replace_editor", "ok"},
		3:  {"bash", "error ZeroDivisionError"},
		4:  {"str_replace_editor", "ok"},
		5:  {"bash", "error TESTS_FAILED"}, // pytest reports failures: what an exit code would say
		8:  {"bash", "ok"},
		9:  {"bash", "ok"}, // rm prints nothing: not a search, so not empty
		10: {"submit", "ok"},
	}
	for n, w := range want {
		s := c.step(t, name, n)
		if tool(s) != w.tool || result(s) != w.result {
			t.Errorf("step %d: %s %s, want %s %s", n, tool(s), result(s), w.tool, w.result)
		}
	}
	if s := c.step(t, name, 0); s.Intent != searchIntent {
		t.Errorf("find: intent %q, want %q", s.Intent, searchIntent)
	}
	if s := c.step(t, name, 3); args(t, s)["command"] != "cd /testbed && python reproduce.py" {
		t.Errorf("bash args %s", s.ToolCall.Args)
	}
	if s := c.step(t, name, 10); s.State != schema.StateStop.String() {
		t.Errorf("submit: state %q, want STOP", s.State)
	}
	if s := c.step(t, name, 9); s.State != schema.StateAct.String() {
		t.Errorf("rm: state %q, want ACT", s.State)
	}
}

// SWE-agent 1.x searches that print nothing are empty results, with the
// search intent; the synthetic exit step has no call.
func TestSWEAgentEmptySearchSample(t *testing.T) {
	const name = "empty-search-loop.traj"
	c := convert(t, SWEAgent, name, 1, true, readSample(t, "swe-agent/empty-search-loop.traj"))
	for n := int64(1); n <= 7; n++ {
		s := c.step(t, name, n)
		if result(s) != "ok empty" || s.Intent != searchIntent {
			t.Errorf("step %d: %s intent %q, want an empty search", n, result(s), s.Intent)
		}
	}
	last := c.step(t, name, 8)
	if last.ToolCall != nil || last.State != "" || reason(last) != "Exit due to cost limit" {
		t.Errorf("exit step: call %v state %q reason %q", last.ToolCall, last.State, reason(last))
	}
}

// sweDoc is a one-step SWE-agent 1.x trajectory.
func sweDoc(t testing.TB, action, observation string) []byte {
	return mustMarshal(t, map[string]any{
		"trajectory":  []map[string]any{{"action": action, "observation": observation, "thought": "t", "state": map[string]string{}}},
		"info":        map[string]any{"exit_status": "submitted"},
		"environment": "main",
	})
}

func TestSWEAgentRecognize(t *testing.T) {
	for _, c := range []struct {
		doc, why string
	}{
		{`{"history": [{"role": "system", "content": "x"}]}`, `no "trajectory" list`},
		{`{"trajectory": []}`, `"trajectory" without "info", "history" or "environment"`},
		{`{"trajectory": 3, "info": {}}`, `"trajectory" is not a list of objects`},
		{`{"trajectory": [{"thought": "x"}], "info": {}}`, `"trajectory" entries lack "action" and "observation"`},
		{`[{"action": "ls", "observation": ""}]`, "not a JSON object"},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := SWEAgent.Recognize(d); err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
	d, _ := ParseDoc("x", 1, true, []byte(`{"trajectory": [], "info": {}}`))
	if err := SWEAgent.Convert(d, func(*schema.Step) error { return nil }); err == nil {
		t.Error("an empty trajectory converts without an error")
	}
}

// SWE-agent 0.x ends a run on a limit with an entry of its own whose action
// names the exit (exit_cost, exit_context, ...), its thought "Exit due to
// ...": the harness's exit, read as 1.x's empty action is, without a call.
// The agent's own exit_forfeit stays a STOP.
func TestSWEAgent0xExitEntries(t *testing.T) {
	const name = "limits.traj"
	entry := func(action, obs, thought string) map[string]any {
		return map[string]any{"action": action, "observation": obs, "thought": thought, "response": thought, "state": "{\"open_file\": \"n/a\"}"}
	}
	doc := mustMarshal(t, map[string]any{
		"environment": "swe_main",
		"trajectory": []map[string]any{
			entry("edit 12:12\n    return x\nend_of_edit\n", "Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.", "Fix the return."),
			entry("exit_cost", "", "Exit due to cost limit"),
			entry("exit_context", "Exited (autosubmitted)", "Exit due to context window"),
			entry("exit_forfeit", "Exited", "I give up."),
		},
		"info": map[string]any{"exit_status": "submitted (exit_cost)"},
	})
	c := convert(t, SWEAgent, name, 1, true, doc)
	if got := c.numbers(name); len(got) != 4 {
		t.Fatalf("steps %v, want the 4 entries", got)
	}
	if s := c.step(t, name, 0); tool(s) != "edit" || result(s) != "error EDIT_REJECTED" {
		t.Errorf("step 0: %s %s", tool(s), result(s))
	}
	for n, why := range map[int64]string{1: "Exit due to cost limit", 2: "Exit due to context window"} {
		s := c.step(t, name, n)
		if s.ToolCall != nil || s.ToolResult != nil || s.State != "" || reason(s) != why {
			t.Errorf("step %d: call %v result %v state %q reason %q, want the harness's exit without a call", n, s.ToolCall, s.ToolResult, s.State, reason(s))
		}
	}
	if s := c.step(t, name, 3); tool(s) != "exit_forfeit" || s.State != schema.StateStop.String() {
		t.Errorf("step 3: %s state %q, want the agent's forfeit, STOP", tool(s), s.State)
	}
}

// CodeR runs in SWE-agent's format and gives its agents AutoCodeRover's
// search API as shell commands (rover_search_class, rover_search_method,
// rover_search_code): their answers that found nothing are empty results,
// whatever Python warned before them, and a command line the search's
// argparse refused is a usage error, not an answer.
func TestSWEAgentRoverSearch(t *testing.T) {
	const name = "coder.traj"
	entry := func(action, obs string) map[string]any {
		return map[string]any{"action": action, "observation": obs, "thought": "Search for it.", "state": "{\"open_file\": \"n/a\"}"}
	}
	found := "The tool returned information about class `TemplateView`.\n========= start =================\nFound 1 classes with name TemplateView in the codebase.\nSearch result 1: Found match in file django/views/generic/base.py,  for `class TemplateView`:Line 210\n\n```\nclass TemplateView(View):\n```\n\n========= end  ==================\n"
	usage := "usage: _rover_search [-h] --project_path PROJECT_PATH\n                     [--class_name CLASS_NAME] [--method_name METHOD_NAME]\n                     [--file_name FILE_NAME] [--code CODE]\n_rover_search: error: argument --code: expected one argument\n"
	doc := mustMarshal(t, map[string]any{
		"environment": "swe_main",
		"trajectory": []map[string]any{
			entry("rover_search_class /django__django SessionStore", "Class SessionStore did not appear in the codebase.\n"),
			entry("rover_search_method /django__django get_cache_key", "Found 0 methods with name get_cache_key in the codebase.\n\n========= start =================\nFound 0 methods with name get_cache_key in the codebase.\n\n========= end  ==================\n\n"),
			entry("rover_search_code /django__django \"render_to_json(\"", "Could not find code render_to_json( in the codebase.\n"),
			entry("rover_search_method /sympy__sympy BlockDiagMatrix", "<unknown>:23: SyntaxWarning: invalid escape sequence '\\S'\n<unknown>:1: SyntaxWarning: invalid escape sequence '\\m'\nCould not find method BlockDiagMatrix in the codebase.\n"),
			entry("rover_search_class /django__django TemplateView", found),
			entry("rover_search_code /sphinx-doc__sphinx --verbose", usage),
			entry("python reproduce.py", "Could not find code render_to_json( in the codebase.\n"),
		},
		"info": map[string]any{"exit_status": "submitted"},
	})
	c := convert(t, SWEAgent, name, 1, true, doc)
	for n, want := range map[int64]string{0: "ok empty", 1: "ok empty", 2: "ok empty", 3: "ok empty", 4: "ok", 5: "error USAGE_ERROR", 6: "ok"} {
		s := c.step(t, name, n)
		if result(s) != want {
			t.Errorf("step %d: %s, want %s", n, result(s), want)
		}
		if n < 6 && s.Intent != searchIntent {
			t.Errorf("step %d: intent %q, want a search", n, s.Intent)
		}
	}
	if s := c.step(t, name, 1); s.ToolResult.Reason != "output rule rover-search-empty" {
		t.Errorf("step 1: reason %q", s.ToolResult.Reason)
	}
	if s := c.step(t, name, 5); s.ToolResult.Reason != "output rule argparse-usage" {
		t.Errorf("step 5: reason %q", s.ToolResult.Reason)
	}
}

// SWE-agent's own message in place of a blank observation ("Your command
// ran successfully and did not produce any output.") is the harness's, not
// the tool's: read without the output, a search it answered still found
// nothing, and a call answered otherwise stays unknown.
func TestSWEAgentNoOutputMessageSurvivesStripping(t *testing.T) {
	msgs := func(last string) []map[string]any {
		return []map[string]any{
			{"role": "system", "content": "You are a helpful assistant."},
			{"role": "assistant", "content": "Let's look."},
			{"role": "user", "content": last},
		}
	}
	entry := func(action, observation, last string) map[string]any {
		return map[string]any{"action": action, "observation": observation, "thought": "Let's look.",
			"state": map[string]string{}, "messages": msgs(last)}
	}
	raw := mustMarshal(t, map[string]any{
		"trajectory": []map[string]any{
			entry(`grep -n "def process_type" /testbed/a.py`, "", "Your command ran successfully and did not produce any output."),
			entry(`grep -n "def process_doc" /testbed/a.py`, "", "Your last command ran successfully and did not produce any output."),
			entry(`grep -n "def make_xrefs" /testbed/a.py`, "75:    def make_xrefs(self):", "OBSERVATION:\n75:    def make_xrefs(self):"),
			entry(`grep -n "def process_type" /testbed/b.py`, "", "OBSERVATION:\n"),
			entry(`grep -n "def process_type" /testbed/c.py`, "", "Your command ran successfully and did not produce any output."),
		},
		"info":        map[string]any{"exit_status": "submitted"},
		"environment": "main",
	})
	c, run := convertStripped(t, SWEAgent, raw)
	for n, want := range map[int64]string{0: "ok empty", 1: "ok empty", 2: "ok", 3: "ok", 4: "ok empty"} {
		if got := result(c.step(t, run, n)); got != want {
			t.Errorf("step %d: %s, want %s", n, got, want)
		}
	}
}

// Read without the output, SWE-agent's pager commands are told apart by
// where the view stands: scroll_down three times after an open is three
// pages; goto 241 and a scroll_down, twice over, show the same page twice;
// once the agent says the view reached the end of the file, scrolling
// further down shows that last page again. Read with the output, the pages
// are told apart by their text and the args stay the command's own.
func TestSWEAgentPagerPlaceWhenStripped(t *testing.T) {
	entry := func(action, thought string) map[string]any {
		return map[string]any{"action": action, "observation": "[File: /repo/a.py (420 lines total)]\n1:import os\n", "thought": thought, "state": "{\"open_file\": \"/repo/a.py\"}"}
	}
	raw := mustMarshal(t, map[string]any{
		"environment": "swe_main",
		"trajectory": []map[string]any{
			entry("open a.py", "Let's read the file."),                                          // 0
			entry("scroll_down", "Let's read on."),                                              // 1
			entry("scroll_down", "We have not reached the end of the file yet."),                // 2
			entry("scroll_down", "Let's read on."),                                              // 3
			entry("scroll_up", "Back up."),                                                      // 4
			entry("open b.py 241", "The method is at 241."),                                     // 5
			entry("scroll_down", "Let's see the rest."),                                         // 6
			entry("goto 241", "We have reached the end of the file, but not the method's end."), // 7
			entry("scroll_down", "Let's see the rest."),                                         // 8
			entry("scroll_down", "We haven't reached the end of the file yet."),                 // 9
			entry("goto 241", "We reached the end of the file again."),                          // 10
			entry("scroll_down", "Let's see the rest."),                                         // 11
			entry("scroll_up", "Back to the top."),                                              // 12
			entry("scroll_up", "Up again."),                                                     // 13
			entry("open a.py", "Let's read it again."),                                          // 14
			entry("scroll_up", "Up."),                                                           // 15
		},
		"info": map[string]any{"exit_status": "submitted"},
	})
	args := func(s *schema.Step) string { return string(s.ToolCall.Args) }
	c, run := convertStripped(t, SWEAgent, raw)
	page := map[int64]string{}
	for _, n := range []int64{1, 2, 3, 4, 6, 8, 9, 11, 12, 13, 15} {
		page[n] = args(c.step(t, run, n))
	}
	for _, same := range [][2]int64{{2, 4}, {6, 8}, {8, 9}, {8, 11}} {
		if page[same[0]] != page[same[1]] {
			t.Errorf("steps %d and %d: %s and %s, want the same page", same[0], same[1], page[same[0]], page[same[1]])
		}
	}
	for _, other := range [][2]int64{{1, 2}, {2, 3}, {1, 3}, {1, 6}, {11, 12}, {12, 13}} {
		if page[other[0]] != page[other[1]] {
			continue
		}
		t.Errorf("steps %d and %d: both %s, want two pages", other[0], other[1], page[other[0]])
	}
	if got := page[13]; !strings.Contains(got, `line 241 -1`) {
		t.Errorf("step 13: %s, want a page above line 241", got)
	}
	if got := page[15]; !strings.Contains(got, `top +0`) {
		t.Errorf("step 15: %s, want the top of the file (no page above it)", got)
	}
	logged := convert(t, SWEAgent, "t.traj", 1, true, raw)
	for _, n := range []int64{1, 2, 3, 6, 8} {
		if got := args(logged.step(t, "t.traj", n)); got != `{"args":""}` {
			t.Errorf("logged step %d: args %s, want the command's own", n, got)
		}
	}
}
