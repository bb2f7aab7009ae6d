package adapters

import (
	"strconv"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// An edit whose text the agent writes again at the same place did not
// hold, whatever its output said: the research fork's helper reports
// "Inserted" while it writes the method dedented, and the agent sends the
// same method back three times. Both ways: the same text in another file
// or far from the first, an insertion after an anchor, a later edit that
// works on what the earlier one wrote, a later write that fails because
// the earlier one landed, an editor's insertion by line number (no old
// text: no place read), a range written again over just the lines the
// first wrote, and a checkout between or in the later call leave the
// earlier edit as it was.
func TestRewrites(t *testing.T) {
	const method = "    def use_required_attribute(self, initial):\n        return super().use_required_attribute(initial) and not initial\n"
	shell := func(cmd, reply string) chatCall { return chatCall{"bash", map[string]any{"command": cmd}, reply} }
	helper := func(call, reply string) chatCall {
		return shell("@patch_generation\ndef fix_widget():\n    "+call, reply)
	}
	insert := func(file string, line int) chatCall {
		return helper("return code_insert(\""+file+"\", \"\"\""+method+"\"\"\", "+strconv.Itoa(line)+")",
			"<returncode>0</returncode>\n<output>\nInserted 3 lines at L"+strconv.Itoa(line)+"\n  Code: def use_required_attribute(self, initial):\n</output>")
	}
	overRange := func(first, last int) chatCall {
		return helper("return code_replace(\"widgets.py\", \"\"\""+method+"\"\"\", ("+strconv.Itoa(first)+", "+strconv.Itoa(last)+"))",
			"<returncode>0</returncode>\n<output>\nReplaced L"+strconv.Itoa(first)+"-"+strconv.Itoa(last)+"\n</output>")
	}
	view := shell("nl -ba widgets.py | sed -n '380,400p'", "   389\tdef use_required_attribute(self, initial):")
	edited := "The file /repo/widgets.py has been edited."
	replace := func(oldStr, newStr, reply string) chatCall {
		return chatCall{"str_replace_editor", map[string]any{"command": "str_replace", "path": "/repo/widgets.py", "old_str": oldStr, "new_str": newStr}, reply}
	}
	const stray = "def use_required_attribute(self, initial):\n    return super().use_required_attribute(initial) and not initial\n"
	openCodeEdit := chatCall{"edit", map[string]any{"filePath": "/repo/widgets.py", "oldString": stray, "newString": method}, "Edit applied successfully."}
	// patch is an apply_patch call (Codex CLI's edit tool) putting lines
	// in place of the stray top-level def, as its rollout logs it.
	patch := func(lines string) chatCall {
		var b strings.Builder
		b.WriteString("*** Begin Patch\n*** Update File: formkit/widgets.py\n@@ class FileInput(Input):\n     template_name = 'formkit/widgets/file.html'\n")
		for line := range strings.Lines(stray) {
			b.WriteString("-" + line)
		}
		for line := range strings.Lines(lines) {
			b.WriteString("+" + line)
		}
		b.WriteString("*** End Patch\n")
		return chatCall{"apply_patch", map[string]any{"patch": b.String()}, "Success. Updated the following files:\nM formkit/widgets.py"}
	}
	const anchor = "class FileInput(Input):\n    input_type = 'file'\n"
	// script and sed make one change to a line by other means: a Python
	// program's replace, sed's substitution in place.
	script := func(oldLine, newLine string) chatCall {
		return shell("python - <<'PY'\np = 'widgets.py'\ntext = open(p).read()\ntext = text.replace('''"+oldLine+"''', '''"+newLine+"''')\nopen(p, 'w').write(text)\nprint('patched')\nPY", "patched")
	}
	// resub makes it by the re module's sub, its pattern given raw.
	resub := func(pattern, newLine string) chatCall {
		return shell("python - <<'PY'\nimport re\np = 'widgets.py'\ntext = open(p).read()\ntext = re.sub(r'"+pattern+"', '"+newLine+"', text, count=1)\nopen(p, 'w').write(text)\nPY", "")
	}
	sed := func(oldLine, newLine string) chatCall {
		return shell("sed -i 's/"+oldLine+"/"+newLine+"/' widgets.py", "")
	}
	const (
		guard     = "        if value is None:"
		guardFix  = "        if value is None or not value:"
		guardFix2 = "        if not value or value is False:"
	)
	// editorInsert is an editor's insertion by line number, its old_str
	// sent empty (Trae Agent sends every argument).
	editorInsert := func(line int) chatCall {
		return chatCall{"str_replace_based_edit_tool", map[string]any{"command": "insert", "path": "/repo/widgets.py", "insert_line": line, "old_str": "", "new_str": method}, edited}
	}
	rejected := "error " + schema.ErrEditRejected
	for _, c := range []struct {
		name  string
		calls []chatCall
		strip bool
		want  map[int64]string // step -> result
	}{
		{"the same method inserted again and again near one line",
			[]chatCall{insert("widgets.py", 391), view, overRange(390, 396), view, insert("widgets.py", 389)}, false,
			map[int64]string{1: rejected, 5: rejected, 9: "ok"}},
		{"stripped, the calls alone say it",
			[]chatCall{insert("widgets.py", 391), view, insert("widgets.py", 389)}, true,
			map[int64]string{1: rejected, 5: "ok"}},
		{"the same method in another file",
			[]chatCall{insert("widgets.py", 391), insert("fields.py", 391)}, false,
			map[int64]string{1: "ok", 3: "ok"}},
		{"the same method far from the first: another class",
			[]chatCall{insert("widgets.py", 391), insert("widgets.py", 470)}, false,
			map[int64]string{1: "ok", 3: "ok"}},
		{"the stray copy replaced by the method twice",
			[]chatCall{replace(stray, method, edited), view, replace(stray, method, edited)}, false,
			map[int64]string{1: rejected, 5: "ok"}},
		{"an insertion after an anchor lands each time",
			[]chatCall{replace(anchor, anchor+method, edited), replace(anchor, anchor+method, edited)}, false,
			map[int64]string{1: "ok", 3: "ok"}},
		{"the later edit takes out what follows the earlier one's text",
			[]chatCall{replace(stray, method, edited), replace(method+"        return None\n", method, edited)}, false,
			map[int64]string{1: "ok", 3: "ok"}},
		{"the earlier text rewritten in part, then written back",
			[]chatCall{replace(stray, method, edited), replace(method, method+"        print('debug')\n", edited), replace(method+"        print('debug')\n", method, edited)}, false,
			map[int64]string{1: "ok", 3: "ok", 5: "ok"}},
		{"the later write fails: the earlier took its old text away",
			[]chatCall{replace(stray, method, edited), replace(stray, method, "Error: String to replace not found in file.")}, false,
			map[int64]string{1: "ok", 3: rejected}},
		{"of two writes in one action, the last is read",
			[]chatCall{helper("code_insert(\"widgets.py\", \"\"\"    # required only without a file\n\"\"\", 120)\n    return code_replace(\"widgets.py\", \"\"\""+method+"\"\"\", (391, 393))", "Inserted\nReplaced"), view, insert("widgets.py", 392)}, false,
			map[int64]string{1: rejected, 5: "ok"}},
		{"OpenCode's edit tool, its arguments in camel case",
			[]chatCall{openCodeEdit, view, openCodeEdit}, false,
			map[int64]string{1: rejected, 5: "ok"}},
		{"the same hunk of an apply_patch patch sent again",
			[]chatCall{patch(method), view, patch(method)}, false,
			map[int64]string{1: rejected, 5: "ok"}},
		{"another hunk of the same file next",
			[]chatCall{patch(method), patch("    input_type = 'file'\n    allow_multiple_selected = False\n")}, false,
			map[int64]string{1: "ok", 3: "ok"}},
		{"the same change by a script, sed, a script again",
			[]chatCall{script(guard, guardFix), view, sed(guard, guardFix), view, script(guard, guardFix)}, true,
			map[int64]string{1: rejected, 5: rejected, 9: "ok"}},
		{"the same change by re.sub with a literal pattern, then by a script",
			[]chatCall{resub(`        if value is None\:`, guardFix), view, script(guard, guardFix)}, true,
			map[int64]string{1: rejected, 5: "ok"}},
		{"re.sub with a pattern that is no literal text is not read",
			[]chatCall{resub(`\s+if value is None:`, guardFix), view, script(guard, guardFix)}, true,
			map[int64]string{1: "ok", 5: "ok"}},
		{"re.sub with a back-reference in its replacement is not read",
			[]chatCall{resub(guard, `\\g<0> or not value`), view, resub(guard, `\\g<0> or not value`)}, true,
			map[int64]string{1: "ok", 5: "ok"}},
		{"a script's change, then another change of what it wrote",
			[]chatCall{script(guard, guardFix), view, script(guardFix, guardFix2), view, sed(guardFix2, guard)}, true,
			map[int64]string{1: "ok", 5: "ok", 9: "ok"}},
		{"the same line changed to another text each time",
			[]chatCall{sed(guard, guardFix), view, script(guard, guardFix2)}, true,
			map[int64]string{1: "ok", 5: "ok"}},
		{"sed inserting after what it matched lands each time",
			[]chatCall{sed(guard, "&\\n            return None"), sed(guard, "&\\n            return None")}, true,
			map[int64]string{1: "ok", 3: "ok"}},
		{"an editor's insertions by line, old_str empty, in two classes",
			[]chatCall{editorInsert(160), view, editorInsert(556)}, false,
			map[int64]string{1: "ok", 5: "ok"}},
		{"a range written again over just the lines it wrote: the first held",
			[]chatCall{overRange(390, 396), view, overRange(390, 392)}, true,
			map[int64]string{1: "ok", 5: "ok"}},
		{"a range written again over other lines from the same one",
			[]chatCall{overRange(390, 396), view, overRange(390, 394)}, true,
			map[int64]string{1: rejected, 5: "ok"}},
		{"a checkout in the call that writes again puts the file back first",
			[]chatCall{script(guard, guardFix), view, shell("git checkout -- widgets.py && sed -i 's/"+guard+"/"+guardFix+"/' widgets.py", "")}, true,
			map[int64]string{1: "ok", 5: "ok"}},
		{"a checkout between puts the file back",
			[]chatCall{insert("widgets.py", 391), shell("git checkout -- widgets.py", ""), insert("widgets.py", 391)}, false,
			map[int64]string{1: "ok", 5: "ok"}},
	} {
		doc := chatCallsDoc(t, c.calls...)
		conv, run := convertRead(t, OpenAIMessages, doc, c.strip)
		for n, w := range c.want {
			if got := result(conv.step(t, run, n)); got != w {
				t.Errorf("%s: step %d %s, want %s", c.name, n, got, w)
			}
		}
		if w := c.want[1]; w == rejected {
			if got := conv.step(t, run, 1).ToolResult.Reason; got != "the same text written again at the same place: this write did not hold" {
				t.Errorf("%s: step 1 reason %q", c.name, got)
			}
		}
	}
}

// writeOf reads any call without panicking, and a write it returns
// names a file and a place.
func FuzzWriteOf(f *testing.F) {
	f.Add("bash", `{"command":"@patch_generation\ndef f():\n    return code_insert(\"a.py\", \"\"\"    def use_required(self):\n        pass\n\"\"\", 391)"}`)
	f.Add("bash", `{"command":"old = '''def area(self):\n    return 1\n'''\n    code_replace('shape.py', old, \"x = 1 + 2 + 3 + 4\", (3, 4))"}`)
	f.Add("str_replace_editor", `{"command":"str_replace","path":"/r/a.py","old_str":"def area(self):","new_str":"def area(self) -> int:"}`)
	f.Add("str_replace_editor", `{"args":"str_replace /r/a.py --old_str 'return self.w' --new_str 'return self.width'"}`)
	f.Add("apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return compute_the_answer()\n*** End Patch\n"}`)
	f.Add("bash", `{"command":"python - <<'PY'\np = 'a.py'\ns = open(p).read().replace('if x is None:', 'if x is None or not x:')\nopen(p, 'w').write(s)\nPY"}`)
	f.Add("bash", `{"command":"sed -i.bak -e 's/if x is None:/if x is None or not x:/' a.py && echo ok"}`)
	f.Add("bash", `{"command":"perl -0pi -e 's|return 1\\n|return compute(1)\\n|' a.py"}`)
	f.Fuzz(func(t *testing.T, tool, args string) {
		w, ok := writeOf(tool, []byte(args))
		if ok && (w.file == "" || !namesPlace(w.new)) {
			t.Fatalf("writeOf(%q, %q) = %+v: no file or no place", tool, args, w)
		}
	})
}
