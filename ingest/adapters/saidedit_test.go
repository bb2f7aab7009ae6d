package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// saidEditDoc is a conversation in which the assistant runs cmd (answered
// with reply), then says words and runs `ls`; the first call is step 1.
func saidEditDoc(t testing.TB, cmd, reply, words string) []byte {
	call := func(id, cmd string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": string(mustMarshal(t, map[string]any{"command": cmd}))}}
	}
	return mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Fix it."},
		{"role": "assistant", "content": "Patching.", "tool_calls": []any{call("a", cmd)}},
		{"role": "tool", "tool_call_id": "a", "content": reply},
		{"role": "assistant", "content": words, "tool_calls": []any{call("b", "ls")}},
		{"role": "tool", "tool_call_id": "b", "content": "a.py"},
	}})
}

// An edit whose script said nothing is one that did not land when the
// agent's next words say so; words about the tests, or a claim that it
// worked, leave it as it was, and so do the same words after a call that
// is no edit, or after an editor's word that the change was made.
func TestSaidEditMisses(t *testing.T) {
	const sed = "sed -i 's/return x/return y/' a.py"
	for _, c := range []struct {
		cmd, reply, words, want string
	}{
		{sed, "", "My previous sed didn't change anything. I'll use Python instead.", "bash error " + schema.ErrEditRejected},
		{sed, "", "My previous insertion didn't place the block where intended.", "bash error " + schema.ErrEditRejected},
		{sed, "patched\n", "The file is still unchanged; the pattern has a tab in it.", "bash error " + schema.ErrEditRejected},
		{sed, "", "The replacement wasn't applied because of the quotes.", "bash error " + schema.ErrEditRejected},
		{sed, "", "The edit was applied, but the test still fails.", "bash ok"},
		{sed, "", "Good, the change is in. Now run the tests to make sure nothing was modified by accident.", "bash ok"},
		{sed, "", "Now I need to check whether the other call sites were not updated.", "bash ok"},
		{"grep -n 'return x' a.py", "3:    return x\n", "My previous sed didn't change anything.", "bash ok"},
		// An editor that says the change was made is believed over the
		// words (which are often about another file); a script's own
		// word is not an editor's.
		{sed, "The file /w/a.py has been updated successfully.", "The import isn't used yet because I haven't updated the template.", "bash ok"},
		{sed, "File created successfully at: /w/a.py", "The edit didn't apply.", "bash ok"},
		{sed, "done: updated a.py\n", "The edit didn't apply.", "bash error " + schema.ErrEditRejected},
	} {
		cv, run := convertOne(t, OpenAIMessages, saidEditDoc(t, c.cmd, c.reply, c.words))
		if s := cv.step(t, run, 1); tool(s)+" "+result(s) != c.want {
			t.Errorf("%q after %q: %s %s, want %s", c.words, c.cmd, tool(s), result(s), c.want)
		}
	}
}

// With the output stripped, the words are read by the rules for calls
// without an answer, not by this one: the edit they say failed is an edit
// that failed with no output to say how (EDIT_FAILED), not a rejected one.
func TestSaidEditMissesLeaveStrippedRuns(t *testing.T) {
	raw := saidEditDoc(t, "sed -i 's/a/b/' a.py", "", "The sed command failed to apply.")
	c, run := convertStripped(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{1: "bash error " + schema.ErrEditFailed})
}

// askedExactDoc is a conversation in which the assistant sends the
// editor's replacement edits (each answered with reply), then says words
// and runs `ls`; the first edit is step 1.
func askedExactDoc(t testing.TB, edits int, reply, words string) []byte {
	edit := func(id string) map[string]any {
		args := map[string]any{"command": "str_replace", "path": "/repo/a.py", "old_str": "    return compute_total(x)", "new_str": "    return compute_total(y)"}
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "str_replace_editor", "arguments": string(mustMarshal(t, args))}}
	}
	msgs := []map[string]any{{"role": "user", "content": "Fix it."}}
	for k := range edits {
		id := string(rune('a' + k))
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": "Patching.", "tool_calls": []any{edit(id)}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": reply})
	}
	ls := map[string]any{"id": "z", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls"}`}}
	msgs = append(msgs,
		map[string]any{"role": "assistant", "content": words, "tool_calls": []any{ls}},
		map[string]any{"role": "tool", "tool_call_id": "z", "content": "a.py"})
	return mustMarshal(t, map[string]any{"messages": msgs})
}

// An agent whose edit landed does not ask for its target's exact text
// again: with the output not logged, words asking for it say the edit
// missed; so do words asking for text to craft a precise or accurate
// replacement. "Exactly the same" is no ask, and an editor's own logged
// answer is not overruled by the words.
func TestAskedExactText(t *testing.T) {
	const view = "Let me view the file again to get the exact content:"
	for _, c := range []struct {
		name, words, want string
		strip             bool
	}{
		{"ask, output not logged", view, "str_replace_editor error " + schema.ErrEditRejected, true},
		{"ask in other words", "Show exact lines with numbers to capture precise whitespace.", "str_replace_editor error " + schema.ErrEditRejected, true},
		{"a match, not an ask", "The patch holds exactly the same content as the diff. Running the tests.", "str_replace_editor ok", true},
		{"an accurate replacement asked for", "Show the current block to craft an accurate replacement.", "str_replace_editor error " + schema.ErrEditRejected, true},
		{"a precise text asked for", "Print the lines to capture the precise text with its whitespace.", "str_replace_editor error " + schema.ErrEditRejected, true},
		{"precise, but no text asked for", "Now make precise changes to the tests so they cover the fix.", "str_replace_editor ok", true},
		{"the editor answered", view, "str_replace_editor ok", false},
	} {
		raw := askedExactDoc(t, 1, "The file /repo/a.py has been edited.", c.words)
		cv, run := convertOne(t, OpenAIMessages, raw)
		if c.strip {
			cv, run = convertStripped(t, OpenAIMessages, raw)
		}
		if s := cv.step(t, run, 1); tool(s)+" "+result(s) != c.want {
			t.Errorf("%s: %s %s, want %s", c.name, tool(s), result(s), c.want)
		}
	}
}

// A replacement that never returned (the conversation goes on without its
// reply) is a replacement whose output was not logged: the agent's ask for
// the exact text after it says it missed.
func TestAskedExactTextAfterACallWithoutResult(t *testing.T) {
	raw := []byte(`[{"role": "user", "content": "fix the total"},
	 {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "str_replace_editor",
	  "arguments": "{\"command\": \"str_replace\", \"path\": \"/repo/a.py\", \"old_str\": \"def compute_total(items):\\n    return sum(i.price for i in items)\", \"new_str\": \"def compute_total(items):\\n    return sum(i.price * i.qty for i in items)\"}"}}]},
	 {"role": "assistant", "content": "Let me view the file again to get the exact content:", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"cat /repo/a.py\"}"}}]},
	 {"role": "tool", "tool_call_id": "c2", "content": "def compute_total(items): ..."}]`)
	c, run := convertOne(t, OpenAIMessages, raw)
	if s := c.step(t, run, 1); result(s) != "error "+schema.ErrEditRejected {
		t.Errorf("the call that never returned: %s, want error %s", result(s), schema.ErrEditRejected)
	}
}

// The same replacement sent twice: when the second is known to have
// missed (here by the agent's ask for the exact text), the text was gone,
// so the first is not blamed; with nothing said, the first is the one
// that did not land.
func TestRetargetBlamesNoEditBeforeAKnownMiss(t *testing.T) {
	c, run := convertStripped(t, OpenAIMessages, askedExactDoc(t, 2, "", "Let me view the file to get the exact content:"))
	c.calls(t, run, map[int64]string{1: "str_replace_editor ok", 3: "str_replace_editor error " + schema.ErrEditRejected})
	c, run = convertStripped(t, OpenAIMessages, askedExactDoc(t, 2, "", "Now the tests."))
	c.calls(t, run, map[int64]string{1: "str_replace_editor error " + schema.ErrEditRejected, 3: "str_replace_editor ok"})
}

// An edit made by a script, whose output was not logged, followed by words
// asking for the exact text, missed its target as a replacement does; a
// logged answer, or a call that edits nothing, is left as it was.
func TestAskedExactTextAfterAScriptEdit(t *testing.T) {
	const sed = "sed -i 's/return x/return y/' a.py"
	const ask = "Show the exact lines with numbers to capture the precise whitespace."
	for _, c := range []struct {
		name, cmd, words, want string
		strip                  bool
	}{
		{"script edit, output not logged", sed, ask, "bash error " + schema.ErrEditRejected, true},
		{"python edit, output not logged", "python - <<'PY'\np='a.py'\nt=open(p).read().replace('return x','return y')\nopen(p,'w').write(t)\nPY", "Let me print the exact content of the function to craft the replacement.", "bash error " + schema.ErrEditRejected, true},
		{"no ask", sed, "Now run the tests.", "bash ok", true},
		{"output logged", sed, ask, "bash ok", false},
		{"no edit", "grep -n 'return x' a.py", ask, "bash ok", true},
	} {
		raw := saidEditDoc(t, c.cmd, "", c.words)
		cv, run := convertOne(t, OpenAIMessages, raw)
		if c.strip {
			cv, run = convertStripped(t, OpenAIMessages, raw)
		}
		if s := cv.step(t, run, 1); tool(s)+" "+result(s) != c.want {
			t.Errorf("%s: %s %s, want %s", c.name, tool(s), result(s), c.want)
		}
	}
}
