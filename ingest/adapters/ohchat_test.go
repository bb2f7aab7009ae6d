package adapters

import "testing"

// OpenHands runs kept as its model's conversation: the exit code OpenHands
// writes after a command's output is the command's, the shell's state and
// the observation's label are not the output.
func TestOpenHandsRenderingInMessages(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		reply      string
		want, data string
	}{
		{"exit code", "execute_bash", map[string]any{"command": "python reproduce.py"},
			"assert 1 == 2 failed\n[Current working directory: /workspace/app]\n[Python interpreter: /usr/bin/python]\n[Command finished with exit code 1]",
			"error EXIT_CODE", `"assert 1 == 2 failed"`},
		{"the 2024 form, with the shell's prompt", "execute_bash", map[string]any{"command": "mypy reproduce.py"},
			"reproduce.py:3: note: Revealed type is \"int\"\n[Python Interpreter: /opt/miniconda3/envs/testbed/bin/python]\nroot@openhands-workspace:/workspace/python__mypy__1.6 # \n[Command finished with exit code 1]",
			"error EXIT_CODE", `"reproduce.py:3: note: Revealed type is \"int\""`},
		{"exit code 0", "execute_bash", map[string]any{"command": "python reproduce.py"},
			"all good\n[Current working directory: /workspace/app]\n[Command finished with exit code 0]", "ok", `"all good"`},
		{"a search that found nothing", "execute_bash", map[string]any{"command": "grep -rn load_config src"},
			"\n[Current working directory: /workspace/app]\n[Command finished with exit code 1]", "ok empty", ""},
		{"the label of the prompt form", "str_replace_editor", map[string]any{"command": "view", "path": "/workspace/app", "view_range": []int{1, 20}},
			"OBSERVATION:\nERROR:\nThe `view_range` parameter is not allowed when `path` points to a directory.", "error ERROR", ""},
		{"a traceback names its class before the exit code", "execute_bash", map[string]any{"command": "python run.py"},
			"Traceback (most recent call last):\n  File \"run.py\", line 1, in <module>\nKeyError: 'x'\n[Command finished with exit code 1]", "error KeyError", ""},
	} {
		c, run := convertOne(t, OpenAIMessages, chatDoc(t, tc.tool, tc.args, tc.reply))
		s := c.step(t, run, 1)
		if got := result(s); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		if tc.data != "" && string(s.ToolResult.Data) != tc.data {
			t.Errorf("%s: output %s, want %s", tc.name, s.ToolResult.Data, tc.data)
		}
	}
}

// The same in the form OpenHands gives a model without tool calls: the
// result opens with `EXECUTION RESULT of [TOOL]:`.
func TestOpenHandsRenderingOfTextCalls(t *testing.T) {
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "fix the test"},
		{"role": "assistant", "content": "<function=execute_bash>\n<parameter=command>pytest -q</parameter>\n</function>"},
		{"role": "user", "content": "EXECUTION RESULT of [execute_bash]:\nE   ImportError: cannot import name 'load'\n[Current working directory: /testbed]\n[Command finished with exit code 2]"},
		{"role": "assistant", "content": "<function=execute_bash>\n<parameter=command>pytest -q</parameter>\n</function>"},
		{"role": "user", "content": "EXECUTION RESULT of [execute_bash]:\n3 passed\n[Current working directory: /testbed]\n[Command finished with exit code 0]"},
	}})
	c, run := convertOne(t, OpenAIMessages, raw)
	if s := c.step(t, run, 1); result(s) != "error EXIT_CODE" || string(s.ToolResult.Data) != `"E   ImportError: cannot import name 'load'"` {
		t.Errorf("step 1: %s %s", result(s), s.ToolResult.Data)
	}
	if s := c.step(t, run, 3); result(s) != "ok" {
		t.Errorf("step 3: %s", result(s))
	}
}
