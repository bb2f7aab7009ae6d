package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A shell command made only of comments runs nothing: CodeR's Manager,
// with no role left to dispatch, writes "# No command is needed right
// now ..." where a command goes, and the harness answers with nothing.
// The step is the agent's words (PLAN, no call, no result), the comment
// kept after its thought; a command that runs something, an echo among
// them, stays a call.
func TestCommentOnlyCommandIsWords(t *testing.T) {
	traj := mustMarshal(t, map[string]any{
		"trajectory": []any{
			map[string]any{"action": "fail\n", "observation": "", "thought": "The fix does not work."},
			map[string]any{"action": "# No command is required at this moment.\n", "observation": "", "thought": "DISCUSSION\nThe Programmer should revisit _print_Float."},
			map[string]any{"action": "  # still nothing to run\n\n#!/bin/bash\n", "observation": "", "thought": ""},
			map[string]any{"action": "# a placeholder for the Programmer\necho \"Programmer to revisit _print_Float.\"\n", "observation": "Programmer to revisit _print_Float.\n", "thought": "I will issue a placeholder."},
			map[string]any{"action": "# run the check\npython reproduce.py\n", "observation": "ok\n", "thought": ""},
			map[string]any{"action": "submit\n", "observation": "diff", "thought": ""},
		},
		"info": map[string]any{"model_stats": map[string]any{"tokens_sent": 600, "tokens_received": 60}},
	})
	c, run := convertOne(t, SWEAgent, traj)
	for _, n := range []int64{1, 2} {
		s := c.step(t, run, n)
		if s.ToolCall != nil || s.ToolResult != nil || s.State != schema.StatePlan.String() {
			t.Errorf("step %d: %s %s state %q, want words: no call, no result, PLAN", n, tool(s), result(s), s.State)
		}
		if s.Usage == nil {
			t.Errorf("step %d: its share of the run's tokens was dropped", n)
		}
	}
	if r := reason(c.step(t, run, 1)); r != "DISCUSSION\nThe Programmer should revisit _print_Float.\n# No command is required at this moment." {
		t.Errorf("step 1 reason %q, want the thought, then the comment", r)
	}
	if r := reason(c.step(t, run, 2)); r != "# still nothing to run\n\n#!/bin/bash" {
		t.Errorf("step 2 reason %q, want the comments alone", r)
	}
	for _, n := range []int64{3, 4} {
		if s := c.step(t, run, n); tool(s) != "bash" || result(s) != "ok" || s.State != schema.StateAct.String() {
			t.Errorf("step %d: %s %s %q, want a call that ran", n, tool(s), result(s), s.State)
		}
	}
}

// The rule reads shell calls of any format; input typed to a program
// already running (OpenHands' is_input) may not go to a shell, and is
// left a call.
func TestCommentOnlyCommandOfAShellTool(t *testing.T) {
	for _, tc := range []struct {
		tool, args string
		words      bool
	}{
		{"run", `{"command":"# nothing to do yet","is_input":false}`, true},
		{"run", `{"command":"# nothing to do yet","is_input":true}`, false},
		{"shell", `{"command":"bash -lc '# just a note'"}`, true},
		{"bash", `{"cmd":"\n  # one\n  # two\n"}`, true},
		{"bash", `{"command":"echo hi # a note"}`, false},
		{"bash", `{"command":""}`, false},
		{"bash", `{"command":"#"}`, true},
		{"bash", `{"keystrokes":"# typed\n"}`, false},
		{"python", `{"code":"# a comment"}`, false},
	} {
		_, ok := commentCommand(tc.tool, []byte(tc.args))
		if ok != tc.words {
			t.Errorf("%s %s: read as words %v, want %v", tc.tool, tc.args, ok, tc.words)
		}
	}
}
