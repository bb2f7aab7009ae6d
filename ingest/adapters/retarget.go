package adapters

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/runawayhq/runaway/schema"
)

// A replacement names the text it replaces. Once it lands that text is
// gone (unless the new text holds it again), so when the agent's next
// edit replaces the very same text in the same file, and nothing between
// them could have put it back, at most one of the two landed. With the
// output logged the editor says which ("No replacement was performed",
// "Code to replace not found"); a log that keeps no output still holds
// both calls' arguments, and the chain of them says the agent kept
// trying one change that did not land.

// replaceTarget is what a replacement replaces: the file as the call
// names it, and the old and new texts as compared (targetText); or, for a
// replacement of a range of lines (the research fork's code_replace given
// a line range), the range and the new text.
type replaceTarget struct {
	file, old, new string
	lines          [2]int // the range's first and last line; zero for a text replacement
	// fits says the new text has as many lines as the range: written
	// again over the same range, it replaces itself.
	fits bool
	// windowed says the replacement is SWE-agent's windowed `edit
	// FIRST:LAST` (0.x, and CodeR's), which names no file: it edits the
	// file open in the viewer.
	windowed bool
}

// minTargetChars is the least old text, blank space left out, that names
// a place in a file: a lone `pass` or `})` occurs many times, and
// replacing one of them leaves the others to replace again.
const minTargetChars = 12

// namesPlace reports whether a text has at least minTargetChars
// characters besides blank space.
func namesPlace(text string) bool {
	n := 0
	for _, c := range text {
		if !unicode.IsSpace(c) {
			if n++; n >= minTargetChars {
				return true
			}
		}
	}
	return false
}

// markUnlandedRetargets gives a replacement whose output was not logged
// the error EDIT_REJECTED when the run's next edit replaces the same old
// text in the same file, or a wider text that holds it, with no call
// between them that could have put the text back (another edit, a git
// command, a copy or move): the log cannot tell which of the two did not
// land, and the first is the one the agent retried. A replacement whose
// new text still holds the old one (an insertion after an anchor keeps
// the anchor) says nothing of the next. A range replacement written
// again, the same text over the same lines, is the one typed: it
// replaced itself. A windowed edit (SWE-agent's `edit FIRST:LAST`) sent
// again over the same range with a text of another length did not land
// either time: had the first, the lines after it would have moved.
func (r *run) markUnlandedRetargets() {
	var prev replaceTarget
	prevAt := -1
	for i, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		t, ok := editTarget(s.ToolCall.Name, s.ToolCall.Args)
		if !ok {
			t, ok = windowedTarget(s.ToolCall.Name, s.ToolCall.Args)
		}
		if !ok {
			if prevAt >= 0 && (s.Intent == schema.IntentEdit || reRestore.Match(s.ToolCall.Args)) {
				prevAt = -1
			}
			continue
		}
		switch {
		case prevAt < 0:
		case t.lines == [2]int{} && prev.lines == [2]int{} && t.file == prev.file && t.old == prev.old && !s.ToolResult.IsError():
			unlanded(r.steps[prevAt], "the next edit replaces the same text again: this replacement did not land")
		case t.lines == [2]int{} && prev.lines == [2]int{} && t.file == prev.file && strings.Contains(t.old, prev.old) && !s.ToolResult.IsError():
			// The next edit looks for a wider text around the one this
			// replaced (the agent giving the same change more context):
			// had this landed, that text would be gone from the file.
			unlanded(r.steps[prevAt], "the next edit looks for a wider text around the one this replaced: this replacement did not land")
		case t.lines != [2]int{} && t == prev && t.fits:
			unlanded(s, "the same text written again over the same lines: it changed nothing")
		case t.windowed && t == prev:
			// Had the earlier landed, the lines after its text would have
			// moved, and the agent would not write the same range again;
			// it did not, so the later met the file the earlier met.
			unlanded(r.steps[prevAt], "the same edit sent again over the same lines: this edit did not land")
			unlanded(s, "the same edit sent again over the same lines, on the file the last one failed on")
		}
		prev, prevAt = t, i
		if t.lines == [2]int{} && strings.Contains(t.new, t.old) {
			prevAt = -1
		}
	}
}

// unlanded types an edit whose output was not logged EDIT_REJECTED, for
// the reason given; an output that says what happened is left as it is.
func unlanded(s *schema.Step, reason string) {
	res := s.ToolResult
	if res == nil || res.IsError() || !schema.NoData(res.Data) {
		return
	}
	rejectEdit(res, reason)
}

// rejectEdit types an edit's result EDIT_REJECTED, saying why: a failed
// edit, not an empty answer.
func rejectEdit(res *schema.ToolResult, reason string) {
	f := false
	res.OK, res.ErrorType, res.Empty = &f, schema.ErrEditRejected, nil
	res.Reason = reason
}

// reRestore is a command that can put a file's old text back, read in
// the call's JSON arguments: a command opens a line there after an escaped
// line break (`\n`), a quote or a shell separator.
var reRestore = regexp.MustCompile(`(?:^|[\s;&|"(]|\\[nt])(?:git\s+(?:checkout|restore|stash|reset|apply|am|revert|cherry-pick)\b|(?:cp|mv|rsync|patch|tar|unzip)\s)`)

// editTarget reads what a replacement replaces: an editor's str_replace
// (editorTarget, or SWE-agent's one string of arguments) or the mini-swe-agent research
// fork's code_replace helper (a text or a range replacement). False for
// any other call, and for a text too short to name one place.
func editTarget(tool string, args json.RawMessage) (replaceTarget, bool) {
	t, ok, read := argsReplacement(args)
	if !read && bytes.Contains(args, []byte("code_replace(")) {
		var cmd string
		if cmd, _, ok = readShellCall(tool, args); ok {
			t, ok = helperTarget(cmd)
		}
	}
	named := t.old // the text that names the place: the old one, or a range's new one
	if t.lines != [2]int{} {
		named = t.new
	}
	if !ok || !namesPlace(named) {
		return replaceTarget{}, false
	}
	t.old, t.new = targetText(t.old), targetText(t.new)
	return t, true
}

// argsReplacement reads the replacement an editor's JSON arguments, or
// SWE-agent's one string of them, name; read is false for arguments of
// neither kind.
func argsReplacement(args json.RawMessage) (t replaceTarget, ok, read bool) {
	switch {
	case hasEditorArgs(args):
		t, ok = editorTarget(args)
	case bytes.Contains(args, []byte("--old_str")):
		t, ok = sweAgentTarget(args)
	default:
		return replaceTarget{}, false, false
	}
	return t, ok, true
}

// hasEditorArgs reports whether a call's JSON arguments may be an
// editor's replacement: they name an old text.
func hasEditorArgs(args json.RawMessage) bool {
	return bytes.Contains(args, []byte(`"old_str`)) || bytes.Contains(args, []byte(`"oldString"`))
}

// editorTarget reads an editor call's JSON arguments: old_str and
// new_str, Claude Code's and Gemini CLI's old_string and new_string, or
// OpenCode's oldString and newString.
func editorTarget(args json.RawMessage) (replaceTarget, bool) {
	var a struct {
		Path          string  `json:"path"`
		FilePath      string  `json:"file_path"`
		FilePathCamel string  `json:"filePath"`
		OldStr        *string `json:"old_str"`
		NewStr        string  `json:"new_str"`
		OldString     *string `json:"old_string"`
		NewString     string  `json:"new_string"`
		OldCamel      *string `json:"oldString"`
		NewCamel      string  `json:"newString"`
	}
	if json.Unmarshal(args, &a) != nil {
		return replaceTarget{}, false
	}
	file := a.Path + a.FilePath + a.FilePathCamel
	switch {
	case a.OldStr != nil:
		return replaceTarget{file: file, old: *a.OldStr, new: a.NewStr}, true
	case a.OldString != nil:
		return replaceTarget{file: file, old: *a.OldString, new: a.NewString}, true
	case a.OldCamel != nil:
		return replaceTarget{file: file, old: *a.OldCamel, new: a.NewCamel}, true
	}
	return replaceTarget{}, false
}

// sweAgentTarget reads SWE-agent's `str_replace PATH --old_str '...'
// --new_str '...'`, its arguments quoted as a shell quotes them.
func sweAgentTarget(args json.RawMessage) (replaceTarget, bool) {
	var a struct {
		Args string `json:"args"`
	}
	if json.Unmarshal(args, &a) != nil {
		return replaceTarget{}, false
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(a.Args), "str_replace ")
	if !ok {
		return replaceTarget{}, false
	}
	var t replaceTarget
	t.file = firstWord(rest)
	if _, rest, ok = strings.Cut(rest, "--old_str"); !ok {
		return replaceTarget{}, false
	}
	t.old, rest = shellWord(rest)
	if _, rest, ok = strings.Cut(rest, "--new_str"); ok {
		t.new, _ = shellWord(rest)
	}
	return t, true
}

// shellWord reads the first shell word of s, after blank space: its
// parts quoted with ' or " or bare, unquoted, and what follows it.
func shellWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t\n")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				return b.String(), ""
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
		case ' ', '\t', '\n':
			return b.String(), s[i:]
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// targetText is a replacement's text as compared: blank space at the
// ends of its lines and blank lines left out (a text written once with a
// stray space names the same place; the research fork's actions are
// logged without their blank lines).
func targetText(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if line = strings.TrimRight(line, " \t\r\n"); line != "" {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// reWindowedEdit is SWE-agent's windowed edit command as its adapter
// logs it: the range, a line break, the new text and end_of_edit.
var reWindowedEdit = regexp.MustCompile(`^\s*(\d{1,7}):(\d{1,7})\n((?s:.*?))\n?end_of_edit\s*$`)

// windowedTarget reads SWE-agent's windowed `edit FIRST:LAST` (the tool
// edit, its arguments one string): lines first to last of the open file
// replaced by the new text. False for any other call, and for a new text
// too short to name one place (a deletion).
func windowedTarget(tool string, args json.RawMessage) (replaceTarget, bool) {
	if tool != "edit" {
		return replaceTarget{}, false
	}
	var a struct {
		Args string `json:"args"`
	}
	if json.Unmarshal(args, &a) != nil {
		return replaceTarget{}, false
	}
	m := reWindowedEdit.FindStringSubmatch(a.Args)
	if m == nil || !namesPlace(m[3]) {
		return replaceTarget{}, false
	}
	first, _ := strconv.Atoi(m[1])
	last, _ := strconv.Atoi(m[2])
	return replaceTarget{new: targetText(m[3]), lines: [2]int{first, last}, windowed: true,
		fits: last >= first && strings.Count(m[3], "\n")+1 == last-first+1}, true
}

// reHelperReplace is a call of the research fork's code_replace helper.
var reHelperReplace = regexp.MustCompile(`\bcode_replace\(`)

// helperTarget reads code_replace(file, old, new) in a stage-decorated
// action: each argument a string literal, or a name the action assigned
// a literal to before the call. The new text may be a name assigned some
// other way (built from parts); the file and the old text may not. Agents
// also call it as code_replace(file, new, (first, last)), which the
// helper takes as lines first to last replaced by new ("Replaced
// L195-207 (13 lines) -> L195-207 (13 lines)"): a range replacement.
func helperTarget(action string) (replaceTarget, bool) {
	loc := reHelperReplace.FindStringIndex(action)
	if loc == nil {
		return replaceTarget{}, false
	}
	return helperTargetAt(action, loc)
}

// helperTargetAt reads the call of code_replace at loc in the action.
func helperTargetAt(action string, loc []int) (replaceTarget, bool) {
	var parts [3]string
	at := loc[1]
	for k := range parts {
		text, next, ok := pyStringArgument(action, loc[0], at)
		if ok {
			parts[k], at = text, next
			continue
		}
		if k == 2 {
			if m := reLineRange.FindStringSubmatch(action[at:]); m != nil {
				first, _ := strconv.Atoi(m[1])
				last, _ := strconv.Atoi(m[2])
				// The helper writes the text split at its line breaks, a
				// last empty line after a final break included, as its
				// reports count them.
				return replaceTarget{file: parts[0], new: parts[1], lines: [2]int{first, last},
					fits: last >= first && strings.Count(parts[1], "\n")+1 == last-first+1}, true
			}
			if rePyArgument.MatchString(action[at:]) {
				break // a new text built some other way
			}
		}
		return replaceTarget{}, false // no file or old text, or a third argument of no known kind
	}
	return replaceTarget{file: parts[0], old: parts[1], new: parts[2]}, true
}

// reLineRange is an argument that is a range of lines: `(195, 207)`.
var reLineRange = regexp.MustCompile(`^\s*(?:\w+\s*=\s*)?[(\[]\s*(\d{1,7})\s*,\s*(\d{1,7})\s*[)\]]`)

// rePyArgument opens an argument of a call: a keyword perhaps, then a
// string literal's prefix and quote, or a name followed by the end of the
// argument.
var rePyArgument = regexp.MustCompile(`^\s*(?:\w+\s*=\s*)?(?:([rRuU]?)("""|'''|"|')|([A-Za-z_]\w*)\s*[,)])`)

// pyStringArgument reads the argument of the call at callAt that starts
// at at: the text of its string literal, or of the literal last assigned
// before the call to the name it passes, and where the next argument
// starts.
func pyStringArgument(action string, callAt, at int) (text string, next int, ok bool) {
	m := rePyArgument.FindStringSubmatchIndex(action[at:])
	if m == nil {
		return "", 0, false
	}
	if m[4] >= 0 {
		text, end, ok := literalText(action, []int{at + m[2], at + m[3], at + m[4], at + m[5]})
		if !ok {
			return "", 0, false
		}
		if c := strings.IndexAny(action[end:], ",)"); c >= 0 {
			end += c + 1
		}
		return text, end, true
	}
	q := assignedLiteral(action[:callAt], action[at+m[6]:at+m[7]])
	if q == nil {
		return "", 0, false
	}
	text, _, ok = literalText(action, q)
	return text, at + m[1], ok
}

// markUnheldReplacements reads the research fork's code_replace reports,
// which show the text a replacement found and replaced ("Replaced
// L108-114 (7 lines) -> L108-112 (5 lines)", then "Old:" and "New:").
// When the next replacement in the same file reports finding the very
// same old text, with no call between them that could have put it back,
// the first did not hold: the helper said it replaced that text, yet the
// text was there again (it wrote the new text mangled, or elsewhere).
// The first is typed EDIT_REJECTED, as an unlogged one would be; the
// helper's own report of the second is the evidence, not a guess. A
// replacement whose new text holds the old one says nothing of the next.
func (r *run) markUnheldReplacements() {
	var prevFile, prevOld string
	prevAt := -1
	for i, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		file, old, new, ok := reportedReplacement(s)
		if !ok {
			if prevAt >= 0 && (s.Intent == schema.IntentEdit || reRestore.Match(s.ToolCall.Args)) {
				prevAt = -1
			}
			continue
		}
		if prevAt >= 0 && file == prevFile && old == prevOld {
			rejectEdit(r.steps[prevAt].ToolResult, "the next replacement found the same old text: this one did not hold")
		}
		prevFile, prevOld, prevAt = file, old, i
		if strings.Contains(new, old) {
			prevAt = -1
		}
	}
}

// reportedReplacement reads a code_replace call whose logged report holds
// one replacement: the file the call names, and the old and new texts the
// report shows (as targetText compares them). False for any other step,
// a report that failed or holds several replacements, and an old text
// too short to name one place.
func reportedReplacement(s *schema.Step) (file, old, new string, ok bool) {
	res := s.ToolResult
	if res == nil || res.IsError() || !bytes.Contains(s.ToolCall.Args, []byte("code_replace(")) {
		return "", "", "", false
	}
	text := resultText(res)
	heads := reHelperReplaced.FindAllStringSubmatchIndex(text, 2)
	if len(heads) != 1 {
		return "", "", "", false
	}
	cmd, _, _ := readShellCall(s.ToolCall.Name, s.ToolCall.Args)
	t, ok := helperTarget(cmd)
	if !ok {
		return "", "", "", false
	}
	h := heads[0]
	old, new, ok = strings.Cut(text[h[1]:], "\n  New: ")
	if !ok || !namesPlace(old) {
		return "", "", "", false
	}
	// The new text is as many lines as the report counts; what follows
	// is the harness's.
	n, _ := strconv.Atoi(text[h[4]:h[5]])
	if lines := strings.SplitN(new, "\n", n+1); len(lines) > n {
		new = strings.Join(lines[:n], "\n")
	}
	return t.file, targetText(old), targetText(new), true
}
