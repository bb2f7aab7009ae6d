package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// chatCall is one tool call of chatCallsDoc and the reply it gets.
type chatCall struct {
	tool  string
	args  map[string]any
	reply string
}

// chatCallsDoc is an OpenAI conversation whose assistant makes calls one
// after the other, each answered; call k is step 1+2k.
func chatCallsDoc(t testing.TB, calls ...chatCall) []byte {
	msgs := []map[string]any{{"role": "user", "content": "go"}}
	for _, c := range calls {
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
				{"id": "c", "type": "function", "function": map[string]any{"name": c.tool, "arguments": string(mustMarshal(t, c.args))}}}},
			map[string]any{"role": "tool", "tool_call_id": "c", "content": c.reply})
	}
	return mustMarshal(t, map[string]any{"messages": msgs})
}

// A replacement of a text that the agent's next edit replaces again did
// not land, when the log keeps no output to say so: at most one of the
// two can have (the text is gone once replaced), and the first is the
// one retried. Both ways: a second replacement of other text, a restore
// between, an anchor kept by the new text, an old text too short to name
// one place, or an output that says the edit landed leave it as it was.
func TestUnlandedRetargets(t *testing.T) {
	const block = "def area(self):\n    return self.w * self.h\n"
	replace := func(oldStr, newStr string) chatCall {
		return chatCall{"str_replace_editor", map[string]any{"command": "str_replace", "path": "/repo/shape.py", "old_str": oldStr, "new_str": newStr}, "The file /repo/shape.py has been edited."}
	}
	view := chatCall{"str_replace_editor", map[string]any{"command": "view", "path": "/repo/shape.py"}, "1\tclass Shape:"}
	shell := func(cmd string) chatCall { return chatCall{"bash", map[string]any{"command": cmd}, ""} }
	helper := func(call string) chatCall {
		return shell("@patch_generation\ndef fix_area():\n    " + call)
	}
	// code_replace(file, new, (first, last)): lines 10-12 replaced by new,
	// split at its line breaks (three lines, none after the last).
	const areaLines = "    def area(self):\n        return self.w * self.h\n        # width by height"
	rangeCall := func(text string) string {
		return "return code_replace('shape.py', \"\"\"" + text + "\"\"\", (10, 12))"
	}
	swe := func(oldStr, newStr string) chatCall {
		return chatCall{"str_replace_editor", map[string]any{"args": "str_replace /repo/shape.py --old_str '" + oldStr + "' --new_str '" + newStr + "'"}, ""}
	}
	for _, c := range []struct {
		name  string
		calls []chatCall
		strip bool
		want  map[int64]string // step -> result
	}{
		{"the same text replaced again, stripped",
			[]chatCall{replace(block, "def area(self):\n    return self.w * self.h * 1.0\n"), view, replace(block+"\n\n", "def area(self):\n    return float(self.w * self.h)\n")}, true,
			map[int64]string{1: "error " + schema.ErrEditRejected, 5: "ok"}},
		{"three times: the first two did not land",
			[]chatCall{replace(block, "a = 1\n"+block[:10]), replace(block, "b = 2"), replace(block, "c = 3")}, true,
			map[int64]string{1: "error " + schema.ErrEditRejected, 3: "error " + schema.ErrEditRejected, 5: "ok"}},
		{"the output logged says the first landed",
			[]chatCall{replace(block, "x = 1"), replace(block, "x = 1")}, false,
			map[int64]string{1: "ok"}},
		{"a wider text around the replaced one looked for next, stripped",
			[]chatCall{replace(block, "def area(self):\n    return self.w * self.h * 1.0\n"), view, replace("class Shape:\n"+block, "class Shape:\n    area = None\n")}, true,
			map[int64]string{1: "error " + schema.ErrEditRejected, 5: "ok"}},
		{"a wider text looked for next, the output logged",
			[]chatCall{replace(block, "x = 1"), replace("class Shape:\n"+block, "x = 2")}, false,
			map[int64]string{1: "ok"}},
		{"a part of the replaced text looked for next (it may occur elsewhere)",
			[]chatCall{replace("class Shape:\n"+block, "class Shape:\n    area = None\n"), replace(block, "x = 1")}, true,
			map[int64]string{1: "ok", 3: "ok"}},
		{"another text replaced next",
			[]chatCall{replace(block, "x = 1"), replace("class Shape:\n    pass\n", "class Shape(Base):\n")}, true,
			map[int64]string{1: "ok"}},
		{"a checkout between puts the text back",
			[]chatCall{replace(block, "x = 1"), shell("git checkout -- shape.py"), replace(block, "x = 2")}, true,
			map[int64]string{1: "ok"}},
		{"a checkout on a later line of a command between",
			[]chatCall{replace(block, "x = 1"), shell("cd /repo\ngit checkout -- shape.py\ncat shape.py"), replace(block, "x = 2")}, true,
			map[int64]string{1: "ok"}},
		{"a copy in a stage action between",
			[]chatCall{replace(block, "x = 1"), helper("exec_bash_cmd('ls')\n    return exec_bash_cmd(\"cp /tmp/shape.py.bak shape.py\")"), replace(block, "x = 2")}, true,
			map[int64]string{1: "ok"}},
		{"an edit of another kind between",
			[]chatCall{replace(block, "x = 1"), shell("sed -i 's/w/width/' shape.py"), replace(block, "x = 2")}, true,
			map[int64]string{1: "ok"}},
		{"the new text keeps the old one (an insertion after an anchor)",
			[]chatCall{replace(block, block+"\ndef perimeter(self):\n    return 2 * (self.w + self.h)\n"), replace(block, block+"\n# end\n")}, true,
			map[int64]string{1: "ok"}},
		{"an old text too short to name one place",
			[]chatCall{replace("pass\n", "return 1\n"), replace("pass\n", "return 2\n")}, true,
			map[int64]string{1: "ok"}},
		{"the same text over the same lines again: the second changed nothing",
			[]chatCall{helper(rangeCall(areaLines)), view, helper(rangeCall(areaLines)), helper(rangeCall(areaLines))}, true,
			map[int64]string{1: "ok", 5: "error " + schema.ErrEditRejected, 7: "error " + schema.ErrEditRejected}},
		{"a text longer than its range (a last empty line) grows the file each time",
			[]chatCall{helper(rangeCall(areaLines + "\n")), helper(rangeCall(areaLines + "\n"))}, true,
			map[int64]string{1: "ok", 3: "ok"}},
		{"another text over the same lines",
			[]chatCall{helper(rangeCall(areaLines)), helper(rangeCall(strings.Replace(areaLines, "w * self.h", "h * self.w", 1)))}, true,
			map[int64]string{1: "ok", 3: "ok"}},
		{"SWE-agent's quoted arguments",
			[]chatCall{swe("return self.w * self.h", "return self.w*self.h*1.0"), swe("return self.w * self.h", "return float(self.w*self.h)")}, true,
			map[int64]string{1: "error " + schema.ErrEditRejected, 3: "ok"}},
		{"the research fork's code_replace, a literal then a name",
			[]chatCall{
				helper(`return code_replace("shape.py", """` + block + `""", """def area(self):\n    return 0\n""")`),
				helper("old = '''" + block + "'''\n    new = 'x'\n    return code_replace('shape.py', old, new)"),
			}, true,
			map[int64]string{1: "error " + schema.ErrEditRejected, 3: "ok"}},
	} {
		doc := chatCallsDoc(t, c.calls...)
		conv, run := convertRead(t, OpenAIMessages, doc, c.strip)
		for n, w := range c.want {
			if got := result(conv.step(t, run, n)); got != w {
				t.Errorf("%s: step %d %s, want %s", c.name, n, got, w)
			}
		}
	}
}

// The helper's arguments are read as Python reads them: escapes in a
// literal that is not raw, keywords, a literal cut short; and a line range
// for third argument makes the second the range's new text.
func TestHelperTarget(t *testing.T) {
	stage := func(body string) string { return "@p\ndef f():\n    " + body }
	for _, c := range []struct {
		action string
		want   replaceTarget
		ok     bool
	}{
		{stage(`return code_replace('a.py', "x = 1\n", 'x = 2\n')`), replaceTarget{file: "a.py", old: "x = 1\n", new: "x = 2\n"}, true},
		{stage(`return code_replace(file_path='a.py', old_code=r"a\nb", new_code="c")`), replaceTarget{file: "a.py", old: `a\nb`, new: "c"}, true},
		{stage(`return code_replace('a.py', """never closed`), replaceTarget{}, false},
		{stage(`return code_replace('a.py', build(), 'x')`), replaceTarget{}, false},
		{stage(`return code_replace('a.py', 'x = 1', 42)`), replaceTarget{}, false},
		{stage("new = old.replace('a', 'b')\n    return code_replace('a.py', 'x = compute(1)', new)"), replaceTarget{file: "a.py", old: "x = compute(1)"}, true},
		{stage("new = 'def f():\\n    return 1\\n    pass'\n    return code_replace('a.py', new, (10, 12))"),
			replaceTarget{file: "a.py", new: "def f():\n    return 1\n    pass", lines: [2]int{10, 12}, fits: true}, true},
		// Two lines and the empty one after the final break: three lines
		// written over two.
		{stage("return code_replace('a.py', 'def f():\\n    return 1\\n', (10, 11))"),
			replaceTarget{file: "a.py", new: "def f():\n    return 1\n", lines: [2]int{10, 11}}, true},
	} {
		got, ok := helperTarget(c.action)
		if ok != c.ok || got != c.want {
			t.Errorf("%q: %+v %v, want %+v %v", c.action, got, ok, c.want, c.ok)
		}
	}
}

// Any arguments are read without a panic, and a target read names a
// place: an old text (a range's new text) of at least minTargetChars
// besides blank space.
func FuzzEditTarget(f *testing.F) {
	f.Add(`{"command":"@p\ndef f():\n    return code_replace('a.py', \"x = 1234567890\\n\", 'y')"}`)
	f.Add(`{"args":"str_replace /a.py --old_str 'return self.w * self.h' --new_str \"x\\\"y\""}`)
	f.Add(`{"command":"str_replace","path":"/a.py","old_str":"return self.w * self.h","new_str":""}`)
	f.Add(`{"command":"@p\ndef f():\n    old = r'''abc'''\n    return code_replace('a', old, new)"}`)
	f.Add(`{"command":"@p\ndef f():\n    return code_replace('a.py', 'x = compute(1)\\ny = 2', (3, 4))"}`)
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range []string{"bash", "str_replace_editor"} {
			got, ok := editTarget(tool, []byte(args))
			named := got.old
			if got.lines != [2]int{} {
				named = got.new
			}
			if ok && len(strings.Join(strings.Fields(named), "")) < minTargetChars {
				t.Errorf("%s %q: target %+v names less than %d characters", tool, args, got, minTargetChars)
			}
		}
	})
}

// The research fork's code_replace reports the text it found and
// replaced. When the next replacement in the file reports finding that
// same text again, the first did not hold, whatever its report said; not
// when a restore came between, when the next found other text, or when
// the first's new text keeps the old one.
func TestUnheldReplacements(t *testing.T) {
	const mangled = "def __iter__(self):\n\n    for n in self.page_range:\n\n        yield self.page(n)"
	const fixed = "    def __iter__(self):\n        for n in self.page_range:\n            yield self.page(n)\n"
	replace := func(old string) chatCall {
		return chatCall{"bash", map[string]any{"command": "@patch_generation\ndef fix_iter():\n    new_code = \"\"\"" + fixed + "\"\"\"\n    return code_replace('django/core/paginator.py', new_code, (108, 114))"},
			"Replaced L108-114 (7 lines) -> L108-111 (4 lines)\n  Old: " + old + "\n  New: " + fixed + "\n"}
	}
	shell := func(cmd, reply string) chatCall { return chatCall{"bash", map[string]any{"command": cmd}, reply} }
	run := shell("python3 repro.py", "AttributeError: 'Paginator' object has no attribute 'x'")
	for _, c := range []struct {
		name  string
		calls []chatCall
		want  map[int64]string
	}{
		{"the same old text found again",
			[]chatCall{replace(mangled), run, replace(mangled), run, replace(mangled)},
			map[int64]string{1: "error " + schema.ErrEditRejected, 5: "error " + schema.ErrEditRejected, 9: "ok"}},
		{"a checkout between",
			[]chatCall{replace(mangled), shell("git checkout -- django/core/paginator.py", ""), replace(mangled)},
			map[int64]string{1: "ok", 5: "ok"}},
		{"other text found next",
			[]chatCall{replace(mangled), replace(strings.ReplaceAll(mangled, "\n\n", "\n"+"    # x\n"))},
			map[int64]string{1: "ok", 3: "ok"}},
		{"the new text keeps the old one",
			[]chatCall{replace(fixed), replace(fixed)},
			map[int64]string{1: "ok", 3: "ok"}},
	} {
		conv, id := convertRead(t, OpenAIMessages, chatCallsDoc(t, c.calls...), false)
		for n, w := range c.want {
			if got := result(conv.step(t, id, n)); got != w {
				t.Errorf("%s: step %d %s, want %s", c.name, n, got, w)
			}
		}
	}
}

// reportedReplacement reads any call and report without panicking, and an
// old text it returns names a place.
func FuzzReportedReplacement(f *testing.F) {
	f.Add(`{"command":"@p\ndef f():\n    return code_replace('a.py', 'x = compute(1)\\ny = 2', (3, 4))"}`, "Replaced L3-4 (2 lines) -> L3-4 (2 lines)\n  Old: x = compute(0)\ny = 1\n  New: x = compute(1)\ny = 2\n")
	f.Add(`{"command":"code_replace("}`, "Replaced L1-1 (1 lines) -> L1-2 (9 lines)\n  Old: ")
	f.Fuzz(func(t *testing.T, args, report string) {
		ok := true
		s := &schema.Step{ToolCall: &schema.ToolCall{Name: "bash", Args: []byte(args)}, ToolResult: &schema.ToolResult{OK: &ok, Data: mustMarshal(t, report)}}
		if _, old, _, got := reportedReplacement(s); got && len(strings.Join(strings.Fields(old), "")) < minTargetChars {
			t.Errorf("%q %q: old text %q names less than %d characters", args, report, old, minTargetChars)
		}
	})
}

// SWE-agent's windowed `edit FIRST:LAST` sent again word for word (the
// same range, the same text) into the file it edits, nothing written
// between, read without its output: had the earlier landed, a text of
// another length than its range would have moved the lines after it, and
// the agent would not write over the same range again; it did not land,
// and the later met the same file and the same answer. A text as long as
// its range replaced itself the second time: the later changed nothing.
// Both ways: another text over the same range, an edit between, a
// deletion (no text to name a place), and the output logged leave the
// results alone.
func TestWindowedEditSentAgain(t *testing.T) {
	const fix = "    settings.configure(INSTALLED_APPS=[])\n    django.setup()"
	doc := func(actions ...string) []byte {
		var steps []map[string]any
		for _, a := range actions {
			steps = append(steps, map[string]any{"action": a, "observation": "[File: /repo/reproduce.py (20 lines total)]", "thought": "Let me go on.", "state": map[string]string{}})
		}
		return mustMarshal(t, map[string]any{"trajectory": steps, "info": map[string]any{"exit_status": "submitted"}, "environment": "main"})
	}
	edit := func(rng, text string) string { return "edit " + rng + "\n" + text + "\nend_of_edit" }
	const view = "open reproduce.py 9"
	rejected := "error " + schema.ErrEditRejected
	for _, c := range []struct {
		name    string
		actions []string
		strip   bool
		want    map[int64]string
	}{
		{"three lines replaced by two, three times, a view between",
			[]string{edit("9:11", fix), view, edit("9:11", fix), edit("9:11", fix)}, true,
			map[int64]string{0: rejected, 2: rejected, 3: rejected}},
		{"two lines replaced by two: the later replaced itself",
			[]string{edit("9:10", fix), edit("9:10", fix)}, true,
			map[int64]string{0: "ok", 1: rejected}},
		{"another text over the same range",
			[]string{edit("9:11", fix), edit("9:11", strings.Replace(fix, "[]", "['app']", 1))}, true,
			map[int64]string{0: "ok", 1: "ok"}},
		{"another range",
			[]string{edit("9:11", fix), edit("9:12", fix)}, true,
			map[int64]string{0: "ok", 1: "ok"}},
		{"an edit between",
			[]string{edit("9:11", fix), edit("1:1", "import django"), edit("9:11", fix)}, true,
			map[int64]string{0: "ok", 2: "ok"}},
		{"a deletion sent again",
			[]string{edit("9:11", ""), edit("9:11", "")}, true,
			map[int64]string{0: "ok", 1: "ok"}},
		{"the output logged",
			[]string{edit("9:11", fix), edit("9:11", fix)}, false,
			map[int64]string{0: "ok", 1: "ok"}},
	} {
		conv, run := convertRead(t, SWEAgent, doc(c.actions...), c.strip)
		for n, w := range c.want {
			if got := result(conv.step(t, run, n)); got != w {
				t.Errorf("%s: step %d %s, want %s", c.name, n, got, w)
			}
		}
	}
}
