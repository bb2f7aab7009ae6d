package adapters

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// editTools are tools whose every call writes a file.
var editTools = map[string]bool{
	"edit": true, "write": true, "multiedit": true, "apply_patch": true, "write_file": true,
	"edit_file": true, "create_file": true, "create": true, "replace": true, "insert": true,
	"find_and_replace_code": true, "delete_file": true,
	// Continue's.
	"edit_existing_file": true, "single_find_and_replace": true, "multi_edit": true, "create_new_file": true,
}

// reShellWrite finds a shell command that writes a file: a redirect to a
// path (not /dev/null, not another descriptor), sed or perl editing in
// place, tee, patch, git apply, Codex's apply_patch run through the shell.
var reShellWrite = regexp.MustCompile(`(?:^|[^0-9&>])>>?\s*[^\s&|>]|\bsed\s+(?:-\w+\s+)*-i|\bperl\s+(?:-\S+\s+)*-\w*i|\btee\s|\bpatch\s|\bgit\s+apply\b|(?:^|[\s;&|(])apply_patch\b`)

// reInstall finds a shell command that installs a package: it changes the
// environment the next command runs in (a check re-run after installing
// what it lacked is another experiment).
var reInstall = regexp.MustCompile(`\b(?:pip3?|uv pip|conda|mamba|micromamba|apt|apt-get|gem|brew) install\b|\bpython3? -m pip install\b|\b(?:npm|pnpm) (?:install|i|ci|add)\b|\byarn (?:add|install)\b|\bpoetry (?:add|install)\b|\bgo (?:get|install)\b|\bcargo (?:add|install)\b|(?:^|[\s/;&|])mvnw? (?:\S+ )*install\b`)

// reHelperEdit is a call of the editing tools the mini-swe-agent research
// fork gives its agent as Python functions (its system prompt lists them:
// code_replace, code_insert, save_code_to_file).
var reHelperEdit = regexp.MustCompile(`\b(?:code_replace|code_insert|save_code_to_file)\(`)

// rePythonStdin is a command line that runs Python on a here-document
// (`python - <<'PY'`, `python3 <<EOF`), also past the interpreter's own
// options (`python3 -u - <<'PY'`).
var rePythonStdin = regexp.MustCompile(`(?:^|[\s;&|(])python[0-9.]*\s+(?:-[A-Za-z]+\s+)*(?:-\s+)?<<-?\s*['"]?\w+`)

// rePythonWrites is Python writing a file: pathlib's write_text or
// write_bytes, or open() in a writing mode.
var rePythonWrites = regexp.MustCompile(`\.write_(?:text|bytes)\(|\bopen\([^)\n]*,\s*(?:mode\s*=\s*)?['"][wa]`)

// reDevNull is a redirect that discards: no file is written.
var reDevNull = regexp.MustCompile(`[0-9&]?>>?\s*/dev/null`)

// markEdits gives the install intent to the calls that install a package
// and the edit intent to the calls that change a file, where no other
// intent was given.
func markEdits(steps []*schema.Step) {
	for _, s := range steps {
		if s.ToolCall == nil || s.Intent != "" {
			continue
		}
		s.Intent = callChange(s.ToolCall.Name, s.ToolCall.Args)
	}
}

// callChange is the intent of a call that changes something: install,
// edit, or "" for a call that changes nothing. Of a shell command only the
// first line is read (a here-document's body is data, not the command),
// without what is quoted (a comparison in a python -c string is no
// redirect) and without redirects to /dev/null.
func callChange(tool string, args json.RawMessage) string {
	t := strings.ToLower(tool)
	switch {
	case editTools[t]:
		return schema.IntentEdit
	case schema.EditorTools[t]:
		// {"command": "str_replace", ...}, or SWE-agent's one string of
		// arguments, {"args": "str_replace /path --old_str ..."}.
		var a struct {
			Command string `json:"command"`
			Args    string `json:"args"`
		}
		json.Unmarshal(args, &a)
		cmd := a.Command
		if cmd == "" {
			cmd = firstWord(a.Args)
		}
		if cmd != "" && cmd != "view" {
			return schema.IntentEdit
		}
		return ""
	}
	cmd, restart, ok := readShellCall(tool, args)
	switch {
	case !ok:
		return ""
	case restart:
		return schema.IntentRestart
	}
	return commandChange(cmd)
}

// commandChange is callChange for a shell command line.
func commandChange(cmd string) string {
	cmd = unwrapShell(cmd) // the command a `bash -lc '...'` runs
	first := firstLine(cmd)
	line := unquoted(first)
	switch {
	case strings.HasPrefix(line, "@"):
		// A Python function under a stage decorator, the action of the
		// mini-swe-agent research fork: it edits when it calls one of
		// the fork's editing tools.
		if reHelperEdit.MatchString(cmd) {
			return schema.IntentEdit
		}
		// Or when the shell command it runs does.
		for _, inner := range stageShellCommands(cmd) {
			// A literal opened on a line of its own (`r"""` then the
			// command) starts with that line's end.
			inner = strings.TrimLeft(inner, " \t\r\n")
			if strings.HasPrefix(inner, "@") {
				continue
			}
			if c := commandChange(inner); c == schema.IntentEdit {
				return c
			}
		}
	case strings.Contains(first, "<<") && strings.Contains(first, "python") && rePythonStdin.MatchString(first) && rePythonWrites.MatchString(cmd):
		// A Python program fed on standard input (a here-document) that
		// writes a file: the body is the program, and it edits.
		return schema.IntentEdit
	case installsPackage(line):
		return installIntent(first)
	case reShellWrite.MatchString(reDevNull.ReplaceAllString(line, "")):
		return schema.IntentEdit
	}
	return ""
}

// reExecBashCall is a call of the exec_bash_cmd helper the mini-swe-agent
// research fork's actions hand their shell commands to: with a string
// literal (its prefix and opening quote), or with a variable (its name).
var reExecBashCall = regexp.MustCompile(`\bexec_bash_cmd\(\s*(?:([rRuU]?)("""|'''|"|')|([A-Za-z_]\w*)\s*[,)])`)

// stageShellCommands returns the shell commands a stage-decorated action
// runs (`return exec_bash_cmd(r"""python3 - <<'PY' ...""")`), one per
// call of exec_bash_cmd in the order written (an action may look, then
// edit): the text of the call's string literal argument, or of the
// literal last assigned before it to the variable it is passed
// (`cmd = r"""..."""`), with the escapes of a literal that is not raw read
// (`\n` a new line); or, without such a call, the shell block the action
// holds in a fence (stageFence). A call passed no literal it assigned (a
// name built from parts), or whose literal is not closed, gives none.
func stageShellCommands(action string) []string {
	var cmds []string
	calls := reExecBashCall.FindAllStringSubmatchIndex(action, -1)
	for _, c := range calls {
		m := c[2:6] // the literal's prefix and quote
		if c[2] < 0 {
			m = assignedLiteral(action[:c[0]], action[c[6]:c[7]])
		}
		if m == nil {
			continue
		}
		if cmd, _, ok := literalText(action, m); ok {
			cmds = append(cmds, cmd)
		}
	}
	if len(calls) == 0 {
		if cmd, ok := stageFence(action); ok {
			cmds = append(cmds, cmd)
		}
	}
	return cmds
}

// literalText reads the Python string literal whose prefix and opening
// quote are at m (indices into action): its text up to the closing quote,
// escapes read unless it is raw, and the index just past that quote.
// False when it is not closed.
func literalText(action string, m []int) (string, int, bool) {
	raw := strings.EqualFold(action[m[0]:m[1]], "r")
	quote := action[m[2]:m[3]]
	body := action[m[3]:]
	for i := 0; i+len(quote) <= len(body); i++ {
		if body[i] == '\\' {
			i++ // an escaped character, the quote among them
			continue
		}
		if strings.HasPrefix(body[i:], quote) {
			end := m[3] + i + len(quote)
			if raw {
				return body[:i], end, true
			}
			return pyEscapes.Replace(body[:i]), end, true
		}
	}
	return "", 0, false
}

// assignedLiteral finds the string literal last assigned in before (the
// action up to a call of exec_bash_cmd) to the variable name: the indices
// of its prefix and its opening quote, or nil. Lines are read from the
// last up, a line at a time, without a regular expression compiled per
// name.
func assignedLiteral(before, name string) []int {
	end := len(before)
	for end > 0 {
		start := strings.LastIndexByte(before[:end], '\n') + 1
		if m := literalAssignment(before, start, end, name); m != nil {
			return m
		}
		end = start - 1
	}
	return nil
}

// literalAssignment reads the line before[start:end] as `NAME = <literal>`
// (indentation and spaces allowed): the indices of the literal's prefix and
// opening quote, or nil.
func literalAssignment(before string, start, end int, name string) []int {
	i := start
	for i < end && (before[i] == ' ' || before[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(before[i:end], name) {
		return nil
	}
	i += len(name)
	for i < end && (before[i] == ' ' || before[i] == '\t') {
		i++
	}
	if i >= end || before[i] != '=' || (i+1 < end && before[i+1] == '=') {
		return nil
	}
	i++
	for i < end && (before[i] == ' ' || before[i] == '\t') {
		i++
	}
	prefix := i
	if i < end && strings.ContainsRune("rRuU", rune(before[i])) {
		i++
	}
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(before[i:end], q) {
			return []int{prefix, i, i, i + len(q)}
		}
	}
	return nil
}

// reStageFence opens a fenced shell block inside a stage-decorated action
// (`@debug\ndef f():\n    ```bash\n    cd /testbed && python - <<'PY'`):
// the fork's harness runs the block as the shell command, as the tracebacks
// it answers with show (`File "<stdin>"`).
var reStageFence = regexp.MustCompile("(?m)^[ \t]*```(?:bash|sh|shell)?[ \t]*\n")

// stageFence returns the shell command of an action's fenced block: the
// text after the opening fence up to the closing one (or the end), its
// first line's indentation dropped. False when no block is open.
func stageFence(action string) (string, bool) {
	loc := reStageFence.FindStringIndex(action)
	if loc == nil {
		return "", false
	}
	body := action[loc[1]:]
	if i := strings.Index(body, "```"); i >= 0 {
		body = body[:i]
	}
	body = strings.TrimLeft(body, " \t")
	return body, strings.TrimSpace(body) != ""
}

// pyEscapes reads the escapes of a Python string literal that a shell
// command holds: new lines, tabs, quotes and backslashes.
var pyEscapes = strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\"`, `"`, `\'`, `'`)

// installs reports whether a shell call installs a package.
func installs(tool string, args json.RawMessage) bool {
	return schema.IsInstall(callChange(tool, args))
}

// installIntent names what a command line installs: "install: " and its
// install command, in its own segment of the line (splitSegments), up to a
// redirect, without options and quotes (`pip install -q 'pydantic<2' &&
// python t.py` is `install: pip install pydantic<2`). Installs of one
// thing share it; another package is another intent.
func installIntent(line string) string {
	for _, seg := range splitSegments(line) {
		loc := reInstall.FindStringIndex(seg)
		if loc == nil {
			continue
		}
		var words []string
		for _, w := range strings.Fields(strings.TrimLeft(seg[loc[0]:], " /")) {
			if reRedirect.MatchString(w) {
				break
			}
			if w = strings.Trim(w, `'"`); w != "" && !strings.HasPrefix(w, "-") {
				words = append(words, w)
			}
		}
		return schema.IntentInstall + ": " + strings.Join(words, " ")
	}
	return schema.IntentInstall
}

// reRedirect is a word that redirects (`2>`, `>out.log`, `<in`): the
// install command ends before it.
var reRedirect = regexp.MustCompile(`^\d*[<>]`)

// changesFile reports whether a call writes a file.
func changesFile(tool string, args json.RawMessage) bool {
	return callChange(tool, args) == schema.IntentEdit
}

// installsPackage reports whether a command line, unquoted, installs a
// package. Every installer reInstall knows is named in the line: the
// names are looked for first, as most commands name none.
func installsPackage(line string) bool {
	for _, name := range installers {
		if strings.Contains(line, name) {
			return reInstall.MatchString(line)
		}
	}
	return false
}

var installers = []string{"pip", "npm", "yarn", "poetry", "apt", "conda", "mamba", "gem", "brew", "go ", "cargo", "mvn"}

// shellCallCommand is the command of a call of a shell tool.
func shellCallCommand(tool string, args json.RawMessage) (string, bool) {
	cmd, _, ok := readShellCall(tool, args)
	return cmd, ok
}

// shellArgs is a call of a shell tool as its args say: the command line
// (under `command` or `cmd`), keys typed into a terminal (Harbor's
// Terminus types the command line and the Enter after it), whether the
// call restarts the tool ("restart": true, as Anthropic's bash tool and
// Trae Agent's take it), and whether it is input to a program already
// running (OpenHands' is_input, true or "true").
type shellArgs struct {
	Command    string `json:"command"`
	Cmd        string `json:"cmd"`
	Keystrokes string `json:"keystrokes"`
	Restart    bool   `json:"restart"`
	IsInput    any    `json:"is_input"`
}

// decodeShellCall reads the args of a call of a shell tool; ok is false
// for any other tool. A field of another type than expected is left
// empty, the others still read.
func decodeShellCall(tool string, args json.RawMessage) (c shellArgs, ok bool) {
	if !schema.IsShellTool(tool) {
		return c, false
	}
	json.Unmarshal(args, &c)
	return c, true
}

// readShellCall reads a call of a shell tool: its command, and whether it
// restarts the tool.
func readShellCall(tool string, args json.RawMessage) (cmd string, restart, ok bool) {
	c, ok := decodeShellCall(tool, args)
	return c.Command + c.Cmd + c.Keystrokes, c.Restart, ok
}

// firstLine is the command line a shell command begins with: up to the
// first new line outside quotes, so an awk or perl program quoted over
// several lines is one line with the redirect after it (`awk '{...\n}'
// f > f.new && mv f.new f`). A quote left open falls back to the first
// line as written.
func firstLine(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++ // an escaped character, outside single quotes
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\n':
			return s[:i]
		}
	}
	if quote != 0 {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			return s[:i]
		}
	}
	return s
}

// unquoted is cmd without what it quotes.
func unquoted(cmd string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
