package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// An ADP standardized trajectory: each action is a step numbered by its
// position in "content", the observation after it its result whatever its
// source; a bash code_action is a shell call; the last message_action
// hands the answer in.
func TestADPTrajectory(t *testing.T) {
	raw := []byte(`[{"id": "swe-gym-7", "content": [
		{"class_": "text_observation", "content": "Fix the failing import.", "name": null, "source": "user"},
		{"class_": "api_action", "function": "str_replace_editor", "kwargs": {"command": "view", "path": "/workspace/app"}, "description": "Let me look at the repository."},
		{"class_": "text_observation", "content": "ERROR:\nInvalid view_range for a directory.", "name": null, "source": "environment"},
		{"class_": "code_action", "language": "bash", "content": "python -m pytest -q tests", "description": "Run the tests."},
		{"class_": "text_observation", "content": "1 failed, 3 passed in 0.4s", "name": null, "source": "user"},
		{"class_": "web_observation", "url": "http://localhost:3000/help", "axtree": "[1] RootWebArea 'Help'", "html": null},
		{"class_": "message_action", "content": "The import is fixed.", "description": ""}
	], "details": {}}]`)
	c, run := convertOne(t, OpenAIMessages, raw)
	if run != "t.json[0]#swe-gym-7" {
		t.Errorf("run %q, want the element and its id", run)
	}
	c.calls(t, run, map[int64]string{1: "str_replace_editor error ERROR", 3: "bash error TESTS_FAILED"})
	if s := c.step(t, run, 1); reason(s) != "Let me look at the repository." || args(t, s)["path"] != "/workspace/app" {
		t.Errorf("step 1: reason %q args %s", reason(s), s.ToolCall.Args)
	}
	if s := c.step(t, run, 3); args(t, s)["command"] != "python -m pytest -q tests" {
		t.Errorf("step 3 args %s, want the code as a shell command", s.ToolCall.Args)
	}
	if s := c.step(t, run, 6); s.State != schema.StateStop.String() {
		t.Errorf("the last message is %q, want STOP", s.State)
	}
}
