package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// SWE-agent runs kept as the model's chat (Nebius' dataset): each model
// turn is a step numbered by its position in "trajectory", its command the
// fenced block, its result the next user message without the template's
// prompt; a JSON array holds a run per element, named by its instance_id.
func TestSWEAgentChatForm(t *testing.T) {
	const file = "fixtures/trajectories/swe-agent/chat-form-runs.json"
	c := convert(t, SWEAgent, file, 1, true, readSample(t, "swe-agent/chat-form-runs.json"))
	loop, fixed := file+"[0]#mathkit__mathkit-12", file+"[1]#mathkit__mathkit-15"
	if len(c.runs) != 2 || c.runs[0] != loop || c.runs[1] != fixed {
		t.Fatalf("runs %q", c.runs)
	}
	if got := c.numbers(loop); len(got) != 7 || got[0] != 2 || got[6] != 14 {
		t.Fatalf("steps %v, want the model's turns 2, 4, ..., 14", got)
	}
	c.calls(t, loop, map[int64]string{2: "find_file ok", 4: "open ok", 6: "edit error EDIT_REJECTED", 12: "edit error EDIT_REJECTED", 14: "submit ok"})
	s := c.step(t, loop, 6)
	if a := args(t, s)["args"]; !strings.HasPrefix(a.(string), "2:3\ndef mean(values):") || !strings.HasSuffix(a.(string), "end_of_edit") {
		t.Errorf("step 6 args %q, want the fenced edit without its fences", a)
	}
	if r := reason(s); r != "DISCUSSION\nI'll return None for an empty list." {
		t.Errorf("step 6 thought %q, want the words before the block", r)
	}
	if s := c.step(t, loop, 14); s.State != schema.StateStop.String() {
		t.Errorf("submit is %q, want STOP", s.State)
	}
	if s := c.step(t, fixed, 10); tool(s) != "bash" || string(s.ToolResult.Data) != `"None"` {
		t.Errorf("step 10: %s result %q, want the output without the template's prompt", tool(s), s.ToolResult.Data)
	}
}

// The action is the last fenced block not nested in another, as SWE-agent
// 0.x parses it; a turn without one ran nothing.
func TestSWEThoughtAction(t *testing.T) {
	for _, tc := range []struct{ words, thought, action string }{
		{"Look.\n```\nls -a\n```", "Look.", "ls -a"},
		{"First\n```python\nprint(1)\n```\nthen\n```\npython x.py\n```\n", "First\n```python\nprint(1)\n```\nthen", "python x.py"},
		{"Write it:\n```\ncreate a.md\n```bash\necho hi\n```\n```\n", "Write it:", "create a.md\n```bash\necho hi\n```"},
		{"No command here.", "No command here.", ""},
	} {
		th, ac := sweThoughtAction(tc.words)
		if th != tc.thought || ac != tc.action {
			t.Errorf("%q: thought %q action %q, want %q %q", tc.words, th, ac, tc.thought, tc.action)
		}
	}
}
