package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// repairDoc is a conversation in which the assistant, under each of
// words, sends the matching command (each answered "done"); the first call
// is step 1, the next step 3, and so on.
func repairDoc(t testing.TB, words, cmds []string) []byte {
	msgs := []map[string]any{{"role": "user", "content": "Fix it."}}
	for k, cmd := range cmds {
		id := string(rune('a' + k))
		call := map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": string(mustMarshal(t, map[string]any{"command": cmd}))}}
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": words[k], "tool_calls": []any{call}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": "done"})
	}
	return mustMarshal(t, map[string]any{"messages": msgs})
}

// With the output not logged, a repair of a file the agent has to repair
// again did not hold: the words before its next edit of that file call the
// code broken once more. The first change (words that call nothing
// broken), a repair followed by an edit of another file or by a restore
// from git, a repair of the agent's own script, and a logged output are
// left as they were.
func TestRepairsAnnounced(t *testing.T) {
	const (
		change  = "Patch the parser to accept two-digit years."
		repair  = "Fix the indentation of the patched block in parser.py."
		again   = "Replace the broken year block with a correctly indented version to fix the IndentationError."
		view    = "Show the patched region."
		edit    = "sed -i 's/    year = y/        year = y/' parser.py"
		edit2   = "sed -i 's/^year = y/    year = y/' parser.py"
		other   = "sed -i 's/old/new/' other.py"
		restore = "git checkout -- parser.py"
		look    = "nl -ba parser.py | sed -n '10,30p'"
	)
	failed := "bash error " + schema.ErrEditFailed
	for _, c := range []struct {
		name  string
		words []string
		cmds  []string
		strip bool
		want  map[int64]string
	}{
		{"a repair repaired again", []string{change, repair, view, again}, []string{edit, edit2, look, edit},
			true, map[int64]string{1: "bash ok", 3: failed, 7: "bash ok"}},
		{"the repair words only after the first change", []string{change, view, again}, []string{edit, look, edit2},
			true, map[int64]string{1: "bash ok", 5: "bash ok"}},
		{"another file edited between", []string{change, repair, "Now the other module.", again}, []string{edit, edit2, other, edit},
			true, map[int64]string{3: "bash ok", 5: "bash ok"}},
		{"a restore between", []string{change, repair, "Start over.", again}, []string{edit, edit2, restore, edit},
			true, map[int64]string{3: "bash ok"}},
		{"the output logged", []string{change, repair, view, again}, []string{edit, edit2, look, edit},
			false, map[int64]string{3: "bash ok"}},
	} {
		raw := repairDoc(t, c.words, c.cmds)
		cv, run := convertOne(t, OpenAIMessages, raw)
		if c.strip {
			cv, run = convertStripped(t, OpenAIMessages, raw)
		}
		for step, want := range c.want {
			if s := cv.step(t, run, step); tool(s)+" "+result(s) != want {
				t.Errorf("%s: step %d %s %s, want %s", c.name, step, tool(s), result(s), want)
			}
		}
	}
}

// The agent's own script, written whole by the run, is rewritten as its
// checks go: repairs of it are left alone.
func TestRepairsAnnouncedLeaveOwnScripts(t *testing.T) {
	const write = "cat > check.py <<'EOF'\nprint(1)\nEOF"
	raw := repairDoc(t,
		[]string{"Write a check script.", "Fix the syntax error in check.py.", "Fix the indentation of check.py again."},
		[]string{write, "sed -i 's/^  print/print/' check.py", "sed -i 's/^ print/print/' check.py"})
	c, run := convertStripped(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{3: "bash ok"})
}
