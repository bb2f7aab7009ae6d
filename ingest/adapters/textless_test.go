package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// Read without its output, a failed command is known by what it ran: a
// compile check's failure is a compile error of the file it compiled, an
// edit that ran nothing else failed to make its change, and anything that
// also ran a test or a script stays a bare exit code.
func TestTextlessFailures(t *testing.T) {
	const patch = "python - <<'PY'\nfrom pathlib import Path\np = Path('pkg/mod.py')\np.write_text(p.read_text().replace('a', 'b'))\nPY"
	cases := []struct {
		cmd, want, failFile string
	}{
		{"python -m py_compile pkg/mod.py", "error SyntaxError", "pkg/mod.py"},
		{"cd /testbed && python3 -m py_compile '/testbed/pkg/mod.py'", "error SyntaxError", "mod.py"},
		{"python -m py_compile pkg/mod.py && python repro.py", "error EXIT_CODE", ""},
		{"python -m py_compile a.py b.py", "error EXIT_CODE", ""},
		{"sed -i 's/a/b/' pkg/mod.py", "error EDIT_FAILED", ""},
		{"git restore pkg/mod.py && git apply -p0 <<'PATCH'\n--- pkg/mod.py\n+++ pkg/mod.py\n@@ -1 +1 @@\n-a\n+b\nPATCH", "error EDIT_FAILED", ""},
		{"cd /testbed && " + patch, "error EDIT_FAILED", ""},
		// A program's body that names a test runner runs none.
		{"python - <<'PY'\nfrom pathlib import Path\n# then pytest and make\nPath('a.py').write_text('x = 1')\nPY", "error EDIT_FAILED", ""},
		{patch + "\npython -m pytest -q tests/test_mod.py", "error EXIT_CODE", ""},
		{"sed -i 's/a/b/' pkg/mod.py && python repro.py", "error EXIT_CODE", ""},
		{"python repro.py", "error EXIT_CODE", ""},
		// A research-fork action opened by a markup line did not parse:
		// nothing of it ran. Without the line, or with a line of markup
		// before a shell command, the exit code is all there is.
		{"<format_example>\n@bug_reproduction\ndef f():\n    return exec_bash_cmd('ls')\n</format_example>", "error " + schema.ErrScriptSyntax, ""},
		{"@bug_reproduction\ndef f():\n    return exec_bash_cmd('ls')", "error EXIT_CODE", ""},
		{"<format_example>\npython repro.py", "error EXIT_CODE", ""},
	}
	for _, c := range cases {
		conv, run := convertStripped(t, OpenHands, ohDoc(t, "run", map[string]any{"command": c.cmd}, "", 1))
		s := conv.step(t, run, 0)
		if got := result(s); got != c.want {
			t.Errorf("%q exiting 1, output stripped: %s, want %s", c.cmd, got, c.want)
		}
		var want string // the key ingest gives the failure: none but a compile check's file
		if c.failFile != "" {
			want = schema.FormatKey(schema.FileKey([]byte(c.failFile)))
		} else {
			want = schema.FormatKey(0)
		}
		// What ingest keys the failure to (tool_result.fail_file).
		if got := schema.FormatKey(schema.FailedCallFileKey(s.ToolResult.Data, s.ToolCall.Args)); got != want {
			t.Errorf("%q: fail_file %s, want %s (%s)", c.cmd, got, want, c.failFile)
		}
	}
	// Logged, the output says what failed, and it is what is read.
	out := "Sorry: IndentationError: unexpected indent (mod.py, line 3)"
	c, run := convertOne(t, OpenHands, ohDoc(t, "run", map[string]any{"command": "python -m py_compile pkg/mod.py"}, out, 1))
	if got := result(c.step(t, run, 0)); got != "error IndentationError" {
		t.Errorf("logged compile check: %s, want error IndentationError", got)
	}
	c, run = convertOne(t, OpenHands, ohDoc(t, "run", map[string]any{"command": "sed -i 's/a/b/' pkg/mod.py"}, "sed: can't read pkg/mod.py: No such file or directory", 1))
	if got := result(c.step(t, run, 0)); got == "error "+schema.ErrEditFailed {
		t.Errorf("logged failed edit: %s, want what its output says", got)
	}
}

// Whatever a command holds, reading it never panics, and a test run after
// an edit (outside quotes and here-documents) is never taken for part of
// the edit.
func FuzzEditsOnly(f *testing.F) {
	f.Add("sed -i 's/a/b/' a.py")
	f.Add("git restore a.py && git apply -p0 <<'PATCH'\n--- a.py\n+++ a.py\nPATCH")
	f.Add("cd /testbed && python - <<'PY'\nopen('a.py', 'w').write('x')\nPY")
	f.Add("@patch_generation\ndef f():\n ```bash\n sed -i 's/a/b/' a.py\n ```")
	f.Fuzz(func(t *testing.T, cmd string) {
		editsOnly(cmd)
		withoutHereDocBodies(cmd)
		if strings.ContainsAny(cmd, "<'\"\\@`") {
			return
		}
		if editsOnly(cmd + " && pytest -q") {
			t.Fatalf("%q then pytest read as an edit alone", cmd)
		}
	})
}

// An edit the agent's next words say failed, its output not logged, did
// not make its change, as an edit that ran nothing else and exited non-zero
// did not: EDIT_FAILED. A command that also ran a check, or a call that
// edits nothing, keeps the failure the words read.
func TestSaidFailedEdits(t *testing.T) {
	call := func(id, name, args string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
	}
	editor := `{"command":"str_replace","path":"pkg/mod.py","old_str":"a = 1","new_str":"a = 2"}`
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Fix the module."},
		{"role": "assistant", "content": "Let me edit it.", "tool_calls": []any{call("a", "bash", `{"command":"sed -i 's/a = 1/a = 2/' pkg/mod.py"}`)}},
		{"role": "tool", "tool_call_id": "a", "content": "sed: -e expression #1: unterminated `s' command"},
		{"role": "assistant", "content": "I see we're having issues with the sed command. Let me use the editor.", "tool_calls": []any{call("b", "str_replace_editor", editor)}},
		{"role": "tool", "tool_call_id": "b", "content": "Traceback (most recent call last): ImportError"},
		{"role": "assistant", "content": "I see there's an issue with the Python environment. Let me check the module.", "tool_calls": []any{call("c", "bash", `{"command":"sed -i 's/a = 1/a = 2/' pkg/mod.py && python repro.py"}`)}},
		{"role": "tool", "tool_call_id": "c", "content": "AssertionError"},
		{"role": "assistant", "content": "The check failed. Let me run the script alone.", "tool_calls": []any{call("d", "bash", `{"command":"python repro.py"}`)}},
		{"role": "tool", "tool_call_id": "d", "content": "AssertionError"},
		{"role": "assistant", "content": "The test failed again."},
	}})
	stripped, run := convertStripped(t, OpenAIMessages, raw)
	stripped.calls(t, run, map[int64]string{
		1: "bash error " + schema.ErrEditFailed,
		3: "str_replace_editor error " + schema.ErrEditFailed,
		5: "bash error " + schema.ErrSaidFailed,
		7: "bash error " + schema.ErrSaidAgain,
	})
	if got := stripped.step(t, run, 3).ToolResult.Reason; got != "the agent's next words: I see there's an issue with the Python environment." {
		t.Errorf("the edit's reason is %q, want the sentence that said it failed", got)
	}
}

// An editor's edit the harness marked failed (Trae Agent's "success":
// false), read without its output, did not make its change, as an edit
// command that exited non-zero did not: EDIT_FAILED. An editor's view
// marked failed changed nothing and stays a bare failure; logged, the
// output says how the edit failed and is read instead.
func TestTextlessEditorFailures(t *testing.T) {
	doc := `{"agent_steps": [{"step_number": 1, "state": "completed",
	  "tool_calls": [{"call_id": "c1", "name": "str_replace_based_edit_tool", "arguments": {"command": "str_replace", "path": "/repo/k.py", "old_str": "acc = tl.zeros((M, N))", "new_str": "acc = tl.zeros((M, N), dtype=tl.float32)"}}],
	  "tool_results": [{"call_id": "c1", "success": false, "result": null, "error": "No replacement was performed. Multiple occurrences of old_str in lines [12, 40]. Please ensure it is unique"}]},
	 {"step_number": 2, "state": "completed",
	  "tool_calls": [{"call_id": "c2", "name": "str_replace_based_edit_tool", "arguments": {"command": "view", "path": "/repo/missing.py"}}],
	  "tool_results": [{"call_id": "c2", "success": false, "result": null, "error": "The path /repo/missing.py does not exist."}]}],
	 "llm_interactions": []}`
	c, run := convertStripped(t, TraeAgent, []byte(doc))
	for i, w := range []string{"error " + schema.ErrEditFailed, "error ERROR"} {
		if got := result(c.step(t, run, int64(i))); got != w {
			t.Errorf("stripped: step %d %s, want %s", i, got, w)
		}
	}
	c, run = convertOne(t, TraeAgent, []byte(doc))
	if got := result(c.step(t, run, 0)); got != "error "+schema.ErrEditRejected {
		t.Errorf("logged: step 0 %s, want error %s", got, schema.ErrEditRejected)
	}
}
