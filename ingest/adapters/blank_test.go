package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// A command line prints for sure when what it runs first, unconditionally,
// is pwd or an echo of text; not when the echo depends on what ran before
// it, prints only what the shell expands, or writes to a file, nor when the
// echo is a line of a here-document.
func TestPrintsForSure(t *testing.T) {
	for cmd, want := range map[string]bool{
		`echo "Test output"`:                          true,
		`pwd && ls -la`:                               true,
		`cd agents; echo "files:"; ls *.md`:           true,
		`cd agents && echo "files:"`:                  true,
		`cd -P agents && echo "files:"`:               false,
		`echo "Current directory: $(pwd)" && ls`:      true,
		"echo \"step 1\"\nls -la x.sh":                true,
		`printf 'done\n'`:                             true,
		`echo "Testing bash output" 2>&1`:             true,
		`echo "gone" 2>/dev/null`:                     true,
		`echo "x" 2>&1 >log.txt`:                      false,
		`grep -q needle f.txt && echo found`:          false,
		`make test || echo "tests failed"`:            false,
		`echo $HOME`:                                  false,
		`echo "$(date)"`:                              false,
		`echo "ok" > status.txt`:                      false,
		`echo "x" | grep y`:                           false,
		"cat > s.sh <<'EOF'\necho hi\nEOF":            false,
		`if [ -f x ]; then echo "yes"; fi`:            false,
		`python3 run.py`:                              false,
		`ls *.md | wc -l`:                             false,
		`VERBOSE=1 echo "loud"`:                       true,
		`LANG=C echo $HOME`:                           false,
		`./configure --prefix=/usr 2>&1; echo "done"`: true,
	} {
		if got := printsForSure(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

// lostShellDoc is a chat run of shell calls answered in order, then a
// call of another tool between calls i and i+1 when other >= 0.
func lostShellDoc(t testing.TB, cmds, replies []string, other int) []byte {
	msgs := []map[string]any{{"role": "user", "content": "go"}}
	for i, c := range cmds {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
				{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": string(mustMarshal(t, map[string]string{"command": c}))}}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": replies[i]})
		if i == other {
			msgs = append(msgs,
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
					{"id": "r", "type": "function", "function": map[string]any{"name": "read_file", "arguments": `{"path":"a.txt"}`}}}},
				map[string]any{"role": "tool", "tool_call_id": "r", "content": "hello"})
		}
	}
	return mustMarshal(t, map[string]any{"messages": msgs})
}

// A shell that printed nothing even for an echo lost its output: that call
// and the blank answers of the shell calls next to it are NO_OUTPUT, up to
// an answer that is not blank or a call of another tool. Blank answers
// with no such echo among them stay answers.
func TestBlankAnswersAroundALostEcho(t *testing.T) {
	cmds := []string{"ls agents", "./wrapper.sh --status", "find . -name '*.md'", `echo "Test output"`, "./wrapper.sh --agents", "python3 check.py", "./wrapper.sh --help"}
	replies := []string{"a.md\nb.md", "", "", "", "", "", ""}
	c, _ := convertOne(t, OpenAIMessages, lostShellDoc(t, cmds, replies, 4))
	var got []string
	for _, s := range c.steps {
		if s.ToolCall != nil {
			got = append(got, s.ToolCall.Name+" "+result(s))
		}
	}
	want := []string{"bash ok", "bash error NO_OUTPUT", "bash error NO_OUTPUT", "bash error NO_OUTPUT", "bash error NO_OUTPUT", "read_file ok", "bash ok", "bash ok"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}

	// Without the echo, blank answers are answers: a command that printed
	// nothing, a search that found nothing.
	cmds[3] = "./wrapper.sh --register"
	c, _ = convertOne(t, OpenAIMessages, lostShellDoc(t, cmds, replies, 4))
	for _, s := range c.steps {
		if s.ToolResult != nil && s.ToolResult.ErrorType != "" {
			t.Errorf("step %d: %s, want no failure without an echo that printed nothing", *s.Step, result(s))
		}
	}
}

// printsForSure reads any command line without panicking, and an echo of
// text put first, unconditionally, makes any line print for sure.
func FuzzPrintsForSure(f *testing.F) {
	for _, s := range []string{`echo "a" && ls`, "cat > f <<'EOF'\necho x\nEOF", `a\`, `"unclosed`, `x 2>&1 | grep y || echo z`, "pwd;\n", "python3 - <<'PY'\nprint('x')\nPY", `cd d && python -c "a = '''` + "\nprint('y')\\\n\"", "python3 - <<E\nx = (\"\"\"\nprint('z') # ;\nE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		printsForSure(cmd)
		if !strings.Contains(cmd, "<<") && !printsForSure("echo ready; "+cmd) {
			t.Fatalf("echo ready; %q: does not print for sure", cmd)
		}
	})
}

// A listing that printed nothing found nothing: ls of an empty directory
// or of names that are not there, which of a program that is not
// installed. Other blank answers stay answers, as do a listing whose
// output is another program's and a long listing that would have said why
// a name is not there.
func TestBlankListingFoundNothing(t *testing.T) {
	cmds := []string{"ls agents", "cd /workspace && ls node_modules/.bin/ 2>/dev/null | head -10", "which RsaCtfTool.py", "ls node_modules/.bin/mocha 2>/dev/null && echo \"mocha found\"", "ls build && rm -rf build", "npm run build", "python3 check.py", "ls -la ~/.local/bin/claude", "ls -la *.log 2>/dev/null | head -20"}
	replies := []string{"a.md\nb.md", "", "", "", "", "", "", "", ""}
	c, _ := convertOne(t, OpenAIMessages, lostShellDoc(t, cmds, replies, -1))
	var got []string
	for _, s := range c.steps {
		if s.ToolCall != nil {
			got = append(got, result(s))
		}
	}
	want := []string{"ok", "ok empty", "ok empty", "ok empty", "ok", "ok", "ok", "ok", "ok empty"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// A terminal's bracketed-paste toggles around an output are how it drew
// the text, not what it said: an ls that printed only them listed
// nothing, as one that printed nothing at all.
func TestBlankListingInsideTerminalToggles(t *testing.T) {
	cmds := []string{"ls audit_materials", "ls reports"}
	replies := []string{"\x1b[?2004l\x1b[?2004h", "\x1b[?2004la.pdf\n\x1b[?2004h"}
	c, _ := convertOne(t, OpenAIMessages, lostShellDoc(t, cmds, replies, -1))
	var got []string
	for _, s := range c.steps {
		if s.ToolCall != nil {
			got = append(got, result(s))
		}
	}
	want := []string{"ok empty", "ok"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
