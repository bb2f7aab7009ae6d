package adapters

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// A change that lands is written once. When an edit writes into a file
// the very text an earlier edit wrote at the same place, the agent is
// writing that change again: the earlier write did not hold (the helper
// put it at the wrong indentation, a later edit took it out, the pattern
// matched nothing), whatever its output said.

// aWrite is what an edit writes: the file as the call names it, the new
// text (as targetText compares it), and where: the old text it replaces,
// or the lines it replaces or inserts at.
type aWrite struct {
	file, old, new string
	lines          [2]int
	// overRange says the write replaces its lines (code_replace given a
	// range), not inserts at them: written again over the same lines, it
	// replaces itself or its own last lines, which markUnlandedRetargets
	// and markUnheldReplacements read.
	overRange bool
	// span is how many lines a range replacement writes, as the helper
	// counts them: written again over just those lines, the same text
	// replaces itself and the earlier write held.
	span int
}

// rewriteLineSlack is how far apart two writes by line number may be and
// still be at the same place: every insertion or removal before it moves
// a place by a few lines.
const rewriteLineSlack = 5

// markRewrites types EDIT_REJECTED each edit whose text a later edit of
// the run writes again at the same place in the same file, with no call
// between them that could have put the file back (a git checkout, a copy).
func (r *run) markRewrites() {
	var earlier []int
	writes := map[int]aWrite{}
	for i, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		var w aWrite
		ok := false
		if s.Intent == schema.IntentEdit {
			w, ok = writeOf(s.ToolCall.Name, s.ToolCall.Args)
		}
		if !ok {
			if len(earlier) > 0 && reRestore.Match(s.ToolCall.Args) {
				earlier = earlier[:0]
			}
			continue
		}
		// A call that puts the file back and then writes (`git checkout
		// -- f && sed -i ...`) writes over the restored file: what came
		// before it says nothing of the earlier writes.
		if reGitRestore.Match(s.ToolCall.Args) {
			earlier = earlier[:0]
		}
		// A write that failed may have failed because the earlier one
		// landed (its old text is gone): it says nothing of it.
		failed := s.ToolResult != nil && s.ToolResult.IsError()
		kept := earlier[:0]
		for _, j := range earlier {
			p := writes[j]
			if !failed && p.file == w.file && worksOn(w, p) {
				continue // it landed: nothing later says otherwise
			}
			kept = append(kept, j)
			if !failed && p.file == w.file && p.new == w.new && samePlace(p, w) && !overItself(p, w) {
				notHeld(r.steps[j])
			}
		}
		writes[i] = w
		earlier = append(kept, i)
		if len(earlier) > maxRewriteWindow {
			delete(writes, earlier[0])
			earlier = earlier[1:]
		}
	}
}

// maxRewriteWindow is how many of the run's last edits a write is
// compared with: the same change sent again comes back within a few
// edits, and the comparison stays linear in a run of thousands of edits.
const maxRewriteWindow = 64

// overItself reports whether a later range replacement writes the same
// text over just the lines the earlier one wrote (its range, or the lines
// its text took up there): the later one replaced the earlier's text by
// itself, and the earlier held.
func overItself(earlier, later aWrite) bool {
	if !earlier.overRange || !later.overRange || later.lines[0] != earlier.lines[0] {
		return false
	}
	return later.lines == earlier.lines || later.lines[1] == earlier.lines[0]+earlier.span-1
}

// reGitRestore is git putting files back (checkout, restore, reset,
// stash), read in a call's JSON arguments as reRestore reads it.
var reGitRestore = regexp.MustCompile(`(?:^|[\s;&|"(]|\\[nt])git\s+(?:checkout|restore|stash|reset)\b`)

// worksOn reports whether the later write replaces text the earlier one
// wrote, or all of it and more: the earlier landed, and the later works
// on it (takes out what follows it, rewrites a part of it).
func worksOn(later, earlier aWrite) bool {
	return later.old != "" && (strings.Contains(later.old, earlier.new) || strings.Contains(earlier.new, later.old))
}

// samePlace reports whether two writes of the same text are at the same
// place: the same old text replaced or one line of it in common, or line
// numbers a few lines apart.
func samePlace(a, b aWrite) bool {
	switch {
	case a.lines != [2]int{} && b.lines != [2]int{}:
		d := a.lines[0] - b.lines[0]
		return d <= rewriteLineSlack && d >= -rewriteLineSlack
	case a.lines == [2]int{} && b.lines == [2]int{}:
		// An insertion with no line (old text empty) names no place.
		if a.old == b.old && a.old != "" {
			return true
		}
		for line := range strings.Lines(a.old) {
			if namesPlace(line) && strings.Contains(b.old, line) {
				return true
			}
		}
	}
	return false
}

// notHeld types an edit EDIT_REJECTED because the same text was written
// again; a failure already read is left as it is.
func notHeld(s *schema.Step) {
	res := s.ToolResult
	if res == nil || res.IsError() {
		return
	}
	rejectEdit(res, "the same text written again at the same place: this write did not hold")
}

// reHelperInsert is a call of the research fork's code_insert helper.
var reHelperInsert = regexp.MustCompile(`\bcode_insert\(`)

// reLineArgument is an argument that is one line number.
var reLineArgument = regexp.MustCompile(`^\s*(?:\w+\s*=\s*)?(\d{1,7})\s*[,)]`)

// writeOf reads what an edit writes: an editor's replacement, the
// research fork's code_replace or code_insert (the last of them in the
// action that writes a text naming a place), or the last hunk of a patch
// in the apply_patch format. False for any other call.
func writeOf(tool string, args json.RawMessage) (aWrite, bool) {
	cmd, _, shell := readShellCall(tool, args)
	var w aWrite
	at := -1 // where in the action the write read is called
	if t, from, ok := replacementOf(args, cmd, shell); ok {
		w = aWrite{file: t.file, old: targetText(t.old), new: targetText(t.new), lines: t.lines, overRange: t.lines != [2]int{},
			span: strings.Count(t.new, "\n") + 1}
		at = from
	}
	if shell && reHelperInsert.MatchString(cmd) {
		for _, loc := range reHelperInsert.FindAllStringIndex(cmd, -1) {
			if ins, ok := helperInsert(cmd, loc); ok && loc[0] > at {
				w, at = ins, loc[0]
			}
		}
	}
	if w.file == "" && shell && (strings.Contains(cmd, ".replace(") || strings.Contains(cmd, "re.sub(")) {
		w, _ = scriptReplacement(cmd)
	}
	if w.file == "" && shell && reInPlaceEdit.MatchString(cmd) {
		w, _ = inPlaceReplacement(cmd)
	}
	if w.file == "" && bytes.Contains(args, []byte(patchBegin)) {
		if !shell {
			cmd = patchArgument(args)
		}
		w, _ = patchWrite(cmd)
	}
	// A new text that holds the old one inserts after an anchor: written
	// again, it lands again.
	return w, w.file != "" && namesPlace(w.new) && (w.old == "" || !strings.Contains(w.new, w.old))
}

// replacementOf reads a replacement as editTarget does, without asking
// its old text to name a place (a range replacement has none), and
// where in a helper action (cmd, when the call is a shell's) its call
// is (0 for an editor's).
func replacementOf(args json.RawMessage, cmd string, shell bool) (replaceTarget, int, bool) {
	if t, ok, read := argsReplacement(args); read {
		return t, 0, ok
	}
	if !shell {
		return replaceTarget{}, 0, false
	}
	var last replaceTarget
	at := -1
	for _, loc := range reHelperReplace.FindAllStringIndex(cmd, -1) {
		if t, ok := helperTargetAt(cmd, loc); ok && namesPlace(t.new) {
			last, at = t, loc[0]
		}
	}
	return last, at, at >= 0
}

// helperInsert reads code_insert(file, text, line) at loc.
func helperInsert(action string, loc []int) (aWrite, bool) {
	file, at, ok := pyStringArgument(action, loc[0], loc[1])
	if !ok {
		return aWrite{}, false
	}
	text, at, ok := pyStringArgument(action, loc[0], at)
	if !ok {
		return aWrite{}, false
	}
	m := reLineArgument.FindStringSubmatch(action[at:])
	if m == nil {
		return aWrite{}, false
	}
	n, _ := strconv.Atoi(m[1])
	return aWrite{file: file, new: targetText(text), lines: [2]int{n, n}}, true
}

// patchBegin opens a patch in the apply_patch format (Codex CLI's edit
// tool): `*** Update File: PATH`, then hunks opened by `@@` whose lines
// are marked ' ' (kept), '-' (taken out) or '+' (put in).
const patchBegin = "*** Begin Patch"

// patchArgument is the first argument of a call that holds a patch
// (apply_patch's `patch` or `input`), by name, so that the same one is
// read whatever order the map gives.
func patchArgument(args json.RawMessage) string {
	var fields map[string]any
	if json.Unmarshal(args, &fields) != nil {
		return ""
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v, ok := fields[k].(string); ok && strings.Contains(v, patchBegin) {
			return v
		}
	}
	return ""
}

// patchWrite reads the last hunk of a patch that writes a text naming a
// place: the file it updates, the hunk's kept and taken-out lines as the
// old text, its kept and put-in lines as the new.
func patchWrite(patch string) (aWrite, bool) {
	var w aWrite
	file := ""
	var old, new strings.Builder
	flush := func() {
		if file != "" && old.Len() > 0 && namesPlace(new.String()) {
			w = aWrite{file: file, old: targetText(old.String()), new: targetText(new.String())}
		}
		old.Reset()
		new.Reset()
	}
	for line := range strings.Lines(patch) {
		switch {
		case strings.HasPrefix(line, "*** Update File: "):
			flush()
			file = strings.TrimSpace(strings.TrimPrefix(line, "*** Update File: "))
		case strings.HasPrefix(line, "*** "):
			flush()
			file = "" // a file added, deleted or moved, or the patch's end
		case strings.HasPrefix(line, "@@"):
			flush()
		case file == "" || line == "":
		case line[0] == '-':
			old.WriteString(line[1:])
		case line[0] == '+':
			new.WriteString(line[1:])
		case line[0] == ' ':
			old.WriteString(line[1:])
			new.WriteString(line[1:])
		}
	}
	flush()
	return w, w.file != ""
}

// reScriptReplace is a string's replace method called in a Python
// program, reScriptSub the re module's sub, and reScriptFile the file the
// program opens or names as a Path.
var (
	reScriptReplace = regexp.MustCompile(`\.replace\(`)
	reScriptSub     = regexp.MustCompile(`\bre\.sub\(`)
	reScriptFile    = regexp.MustCompile(`\b(?:open|Path)\(`)
)

// scriptReplacement reads the last replacement of a Python program that
// rewrites a file (`s.replace(OLD, NEW)`, or `re.sub(OLD, NEW, s)` whose
// pattern and replacement are literal text (reLiteral), with literals, or
// names assigned literals, in a program on a here-document or an
// action): the file it opens first, the old and the new text. The same
// change sent by the editor, the research fork's helper or such a script
// is the same write.
func scriptReplacement(cmd string) (aWrite, bool) {
	loc := reScriptFile.FindStringIndex(cmd)
	if loc == nil {
		return aWrite{}, false
	}
	file, _, ok := pyStringArgument(cmd, loc[0], loc[1])
	if !ok || strings.ContainsAny(file, "\n{}") {
		return aWrite{}, false
	}
	var w aWrite
	last := -1 // where the replacement read is called
	for _, call := range []*regexp.Regexp{reScriptReplace, reScriptSub} {
		for _, loc := range call.FindAllStringIndex(cmd, -1) {
			if loc[0] < last {
				continue
			}
			old, at, ok := pyStringArgument(cmd, loc[0], loc[1])
			if !ok {
				continue
			}
			new, _, ok := pyStringArgument(cmd, loc[0], at)
			if call == reScriptSub && ok {
				old, ok = literalPattern(old)
				ok = ok && !strings.Contains(new, `\`)
			}
			if ok && namesPlace(new) {
				w, last = aWrite{file: file, old: targetText(old), new: targetText(new)}, loc[0]
			}
		}
	}
	return w, w.file != ""
}

// literalPattern returns the text a regular expression matches when it
// matches one text only: characters with no meaning to the re module, or
// escaped (`\(`, `\.`, re.escape's output). False for a pattern with a
// class, a repetition, an alternative, a group, an anchor or an escape
// such as `\d`, `\s`, `\b`.
func literalPattern(pattern string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\':
			if i++; i == len(pattern) {
				return "", false
			}
			switch e := pattern[i]; {
			case e == 'n':
				b.WriteByte('\n')
			case e == 't':
				b.WriteByte('\t')
			case e < 0x80 && (e == '_' || 'a' <= e && e <= 'z' || 'A' <= e && e <= 'Z' || '0' <= e && e <= '9'):
				return "", false
			default:
				b.WriteByte(e)
			}
		case strings.IndexByte(".^$*+?{}[]|()", c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// reInPlaceEdit is sed or perl told to edit a file in place.
var reInPlaceEdit = regexp.MustCompile(`\b(?:sed\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*i|perl\s+(?:-\S+\s+)*-\w*i)`)

// reSubstitution opens a substitution of a sed or perl script: a line
// address perhaps, then s and its delimiter.
var reSubstitution = regexp.MustCompile(`^(?:[0-9,$]*|/[^/]*/\s*)s([^\w\s\\])`)

// inPlaceReplacement reads the last substitution of a text for another
// made in place by sed or perl (`sed -i 's/OLD/NEW/' FILE`): the file,
// the old and the new text. The new text stands for itself: a `&` in it
// (the text matched) reads as the old text, so that an insertion after
// the match is one.
func inPlaceReplacement(cmd string) (aWrite, bool) {
	var w aWrite
	for _, loc := range reInPlaceEdit.FindAllStringIndex(cmd, -1) {
		rest := cmd[loc[1]:]
		if i := strings.IndexAny(rest, " \t\n"); i >= 0 {
			rest = rest[i:]
		}
		script, file := "", ""
		for k := 0; k < 8 && file == ""; k++ {
			var word string
			word, rest = shellWord(rest)
			switch {
			case word == "":
				k = 8
			case strings.HasPrefix(word, "-"):
			case script == "":
				script = word
			default:
				file = strings.TrimRight(word, ";&|)")
			}
		}
		old, new, ok := substitution(script)
		if ok && file != "" && namesPlace(new) {
			w = aWrite{file: file, old: targetText(old), new: targetText(new)}
		}
	}
	return w, w.file != ""
}

// substitution reads s/OLD/NEW/ (any delimiter), its escapes undone.
func substitution(script string) (old, new string, ok bool) {
	m := reSubstitution.FindStringSubmatchIndex(script)
	if m == nil {
		return "", "", false
	}
	delim := script[m[2]]
	var parts [2]strings.Builder
	k := 0
	for i := m[1]; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\\' && i+1 < len(script):
			i++
			switch script[i] {
			case 'n':
				parts[k].WriteByte('\n')
			case 't':
				parts[k].WriteByte('\t')
			default:
				parts[k].WriteByte(script[i])
			}
		case c == delim:
			k++
			if k == 2 {
				old = parts[0].String()
				return old, strings.ReplaceAll(parts[1].String(), "&", old), true
			}
		default:
			parts[k].WriteByte(c)
		}
	}
	return "", "", false
}
