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

// A SWE-agent 0.x conversation kept under "messages" (its user messages
// end with SWE-agent's prompt) is read as the chat form; a conversation of
// another agent with an instance_id stays a conversation.
func TestSWEAgentChatUnderMessages(t *testing.T) {
	edit := "edit 2:3\ndef mean(values):\n        if not values:\nend_of_edit"
	msgs := []map[string]any{{"role": "system", "content": "SETTING: You are an autonomous programmer."}, {"role": "user", "content": "ISSUE: mean() of an empty list"}}
	for range 4 {
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": "DISCUSSION\nLet me edit it.\n\n```\n" + edit + "\n```"},
			map[string]any{"role": "user", "content": "Your proposed edit has introduced new syntax error(s).\n\nYour changes have NOT been applied.\n(Open file: /m/stats.py)\n(Current directory: /m)\nbash-$"})
	}
	raw := mustMarshal(t, map[string]any{"instance_id": "m-1", "traj_id": "m-1.a", "messages": msgs})
	if f, err := Detect(mustDoc(t, raw)); err != nil || f != SWEAgent {
		t.Fatalf("detected %v (%v), want swe-agent", f, err)
	}
	c, run := convertOne(t, SWEAgent, raw)
	c.calls(t, run, map[int64]string{2: "edit error EDIT_REJECTED", 8: "edit error EDIT_REJECTED"})
	if run != "t.json#m-1" {
		t.Errorf("run %q", run)
	}

	other := mustMarshal(t, map[string]any{"instance_id": "moto-1_0", "messages": []map[string]any{
		{"role": "user", "content": "fix it"},
		{"role": "assistant", "content": "", "tool_calls": []map[string]any{{"id": "c1", "type": "function", "function": map[string]any{"name": "execute_bash", "arguments": `{"command": "cd /m && ls"}`}}}},
		{"role": "tool", "tool_call_id": "c1", "content": "(Current directory: /m) is what ls printed"},
	}})
	if f, err := Detect(mustDoc(t, other)); err != nil || f != OpenAIMessages {
		t.Errorf("an OpenHands conversation detected as %v (%v), want openai-messages", f, err)
	}
}

func mustDoc(t testing.TB, raw []byte) *Doc {
	t.Helper()
	d, err := ParseDoc("t.json", 1, true, raw)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
