package adapters

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// program names what a shell command line runs, for reading its output
// (inside a shell it was handed to: `bash -lc '...'`, unwrapShell): the
// first word of the first pipeline segment that is not a cd, an export, an
// environment assignment or a wrapper (timeout, sudo, env, time, nohup),
// without its directory. "git grep" is named as such, since grep's rule
// (blank output found nothing) holds for it. An empty line names nothing.
func program(cmd string) string { return firstProgram(unwrapShell(cmd)) }

// firstProgram is program for a command line already unwrapped.
func firstProgram(cmd string) string {
	for _, seg := range splitSegments(cmd) {
		if p := segmentProgram(seg); p != "" {
			return p
		}
	}
	return ""
}

// commandSearches reports whether a command line searches: its program is
// a search (grep, find, rg), or its last stage keeps the lines of what came
// before that match (`npm test 2>&1 | grep passing`), so that a blank
// output says the lines looked for are not there.
// Stages that only cut or order what a filter kept (`| grep error | head
// -10`) are looked through: their blank output is the filter's.
//
// A function of the mini-swe-agent research fork (`@bug_localization\ndef
// f():\n    return exec_bash_cmd('grep -RIn ...')`) searches when each of
// the shell commands it hands to exec_bash_cmd does.
func commandSearches(cmd string) bool {
	cmd = unwrapShell(cmd)
	if strings.HasPrefix(strings.TrimSpace(cmd), "@") {
		inner := stageShellCommands(cmd)
		return len(inner) > 0 && !slices.ContainsFunc(inner, func(c string) bool {
			c = strings.TrimLeft(c, " \t\r\n")
			return strings.HasPrefix(c, "@") || !commandSearches(c)
		})
	}
	if actsOnWhatItFinds(cmd) {
		return false
	}
	return isSearch(firstProgram(cmd)) || lineFilters[lastFilter(cmd)]
}

// actsOnWhatItFinds reports whether a command line's search hands what it
// finds to a program that changes files, which prints nothing when it
// works: its first program is a find that deletes what it finds
// (`-delete`) or runs such a program on it (`-exec rm -rf {} +`, `-exec
// sed -i ... {} \;`), or its last stage is xargs running one (`grep -l x
// src | xargs sed -i s/x/y/`). A blank output is then the change done (or
// nothing to change), not a search that found nothing.
func actsOnWhatItFinds(cmd string) bool {
	segs := splitSegments(cmd)
	for _, seg := range segs {
		p := segmentProgram(seg)
		if p == "" {
			continue
		}
		if p == "find" {
			words := strings.Fields(seg)
			for i, w := range words {
				switch w {
				case "-delete":
					return true
				case "-exec", "-execdir", "-ok", "-okdir":
					if i+1 < len(words) && changesFiles(words[i+1:]) {
						return true
					}
				}
			}
		}
		break
	}
	for i := len(segs) - 1; i >= 0; i-- {
		p := segmentProgram(segs[i])
		if p == "" {
			continue
		}
		if p != "xargs" {
			return false
		}
		words := strings.Fields(segs[i])
		k := slices.Index(words, "xargs") + 1
		for k < len(words) && strings.HasPrefix(words[k], "-") {
			if xargsValued[words[k]] {
				k++
			}
			k++
		}
		if k+2 < len(words) && (words[k] == "sh" || words[k] == "bash") && words[k+1] == "-c" {
			// xargs -I {} sh -c 'sed -i ... {}'
			return changesFiles(strings.Fields(strings.Trim(strings.Join(words[k+2:], " "), `'"`)))
		}
		return k < len(words) && changesFiles(words[k:])
	}
	return false
}

// xargsValued are the options of xargs that take the next word as their
// value.
var xargsValued = map[string]bool{"-I": true, "-n": true, "-P": true, "-d": true, "-L": true, "-s": true, "-E": true, "-a": true}

// fileChangers change files and print nothing when they work.
var fileChangers = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "cp": true, "chmod": true, "chown": true, "touch": true,
	"ln": true, "mkdir": true, "unlink": true, "truncate": true, "shred": true,
}

// changesFiles reports whether words (a program and its arguments) change
// files and print nothing: one of fileChangers, or sed or perl editing in
// place (`-i`, `-pi`, `-i.bak`).
func changesFiles(words []string) bool {
	p := path.Base(words[0])
	if fileChangers[p] {
		return true
	}
	if p != "sed" && p != "perl" {
		return false
	}
	for _, w := range words[1:] {
		if w == "--in-place" || strings.HasPrefix(w, "--in-place=") || reInPlace.MatchString(w) {
			return true
		}
	}
	return false
}

// reInPlace is a switch cluster of sed or perl that edits in place: `-i`,
// `-i.bak`, `-pi`, `-ni`, `-Ei` (the switches before the i take no value).
var reInPlace = regexp.MustCompile(`^-[nEprsuzlaw0-9]*i`)

// passThrough are programs that, at the end of a pipeline, print some or
// all of the lines they read and nothing else: a blank output from them
// is a blank input.
var passThrough = map[string]bool{"head": true, "tail": true, "sort": true, "uniq": true, "cut": true, "tr": true, "cat": true, "column": true}

// lastFilter names the program of a command line's last segment, as
// lastProgram does, looking through the pass-through stages it was piped
// into.
func lastFilter(cmd string) string {
	if !strings.Contains(cmd, "|") {
		return lastProgram(cmd)
	}
	var piped []bool
	segs := splitSegs(cmd, &piped, nil)
	for i := len(segs) - 1; i >= 0; i-- {
		p := segmentProgram(segs[i])
		if p == "" || (passThrough[p] && piped[i]) {
			continue
		}
		return p
	}
	return ""
}

// lineFilters print the lines of their input that match.
var lineFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true}

// lastProgram names the program of a command line's last segment, the one
// whose exit code is the line's (cd, export and the like name nothing).
func lastProgram(cmd string) string {
	segs := splitSegments(cmd)
	for i := len(segs) - 1; i >= 0; i-- {
		if p := segmentProgram(segs[i]); p != "" {
			return p
		}
	}
	return ""
}

// segmentProgram names what one segment runs, as program does.
func segmentProgram(seg string) string {
	words := strings.Fields(seg)
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.ContainsAny(w[:strings.IndexByte(w, '=')], "/'\""):
			words = words[1:] // VAR=value
			continue
		case wrappers[w]:
			words = skipWrapperArgs(words[1:])
			continue
		}
		break
	}
	if len(words) == 0 {
		return ""
	}
	w := path.Base(strings.Trim(words[0], `"'(`))
	switch {
	case w == "cd" || w == "export" || w == "source" || w == "." || w == "set":
		return ""
	case w == "git" && len(words) > 1 && words[1] == "grep":
		return "git grep"
	}
	return w
}

// foundNothing reports whether a command line that exited with code exit
// searched and found nothing: grep, ripgrep, ag and git grep exit 1 when no
// line matched (and 2 on an error), and a line exits with its last
// command's code. Without the output (a log that keeps only exit codes, or
// --strip-output) this is all that tells an empty search from a failure.
func foundNothing(cmd string, exit int) bool {
	return exit == 1 && noMatchExits[lastProgram(cmd)]
}

var noMatchExits = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "zgrep": true, "rg": true, "ag": true, "git grep": true}

var wrappers = map[string]bool{"timeout": true, "sudo": true, "env": true, "time": true, "nohup": true, "exec": true, "command": true}

// skipWrapperArgs drops a wrapper's own options and, for timeout, its
// duration.
func skipWrapperArgs(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	if len(words) > 0 && len(words[0]) > 0 && words[0][0] >= '0' && words[0][0] <= '9' {
		words = words[1:] // timeout 30 cmd
	}
	return words
}

// splitSegments cuts a command line at &&, ||, ;, |, & and newlines outside
// quotes (not at the & of a redirect: 2>&1, &>file).
func splitSegments(cmd string) []string {
	return splitSegs(cmd, nil, nil)
}

// splitSegs cuts cmd as splitSegments says and, when piped is not nil,
// appends to it for each segment whether a single | (a pipe, not ||) came
// before it; when seps is not nil, the byte that ended each segment (0 for
// the last: && and || end two, the second empty).
func splitSegs(cmd string, piped *[]bool, seps *[]byte) (out []string) {
	var quote byte
	pipedNext := false
	start := 0
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '&' && (i > 0 && (cmd[i-1] == '>' || cmd[i-1] == '<') || i+1 < len(cmd) && cmd[i+1] == '>'):
			// 2>&1, &>file: a redirect, not a separator
		case c == ';' || c == '|' || c == '&' || c == '\n':
			out = append(out, cmd[start:i])
			if seps != nil {
				*seps = append(*seps, c)
			}
			if piped != nil {
				*piped = append(*piped, pipedNext)
				pipedNext = c == '|' && (i+1 >= len(cmd) || cmd[i+1] != '|') && (i == 0 || cmd[i-1] != '|')
			}
			start = i + 1
		}
	}
	if piped != nil {
		*piped = append(*piped, pipedNext)
	}
	if seps != nil {
		*seps = append(*seps, 0)
	}
	return append(out, cmd[start:])
}

// viewPrograms show file content: error-like text in their output is as
// likely the file's own.
var viewPrograms = map[string]bool{
	"cat": true, "head": true, "tail": true, "less": true, "more": true, "nl": true, "bat": true,
}

// firstWord is the first white-space separated word of s.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// viewsFiles reports whether what a command line prints is file content,
// where error-like text is as likely the file's own: its first program
// shows files (viewPrograms) to the output, not into a file (`cat > f
// <<'EOF'` writes one), and no command after it on the line (after ;,
// && or ||; a pipe stage only cuts what it shows) runs a program other
// than a viewer or one that prints only what it is told (echo, printf):
// in `cat > t.py <<'EOF' ... EOF` then `python t.py`, or `cat t.py &&
// python t.py`, the traceback is the program's.
func viewsFiles(cmd string) bool {
	var piped []bool
	segs := splitSegs(unwrapShell(cmd), &piped, nil)
	viewed := false
	for i, seg := range segs {
		p := segmentProgram(seg)
		switch {
		case p == "" || echoPrograms[p] || (viewed && piped[i] && pipeFilters[p]):
			continue
		case !viewPrograms[p] || writesOutput(seg):
			// A program after the viewer (a script the content is piped
			// into) prints what it made of it: its traceback is its own.
			return false
		}
		viewed = true
	}
	return viewed
}

// pipeFilters cut, select or reorder the lines a viewer shows, adding none
// of their own: `cat f | grep x | head` still shows the file.
var pipeFilters = map[string]bool{
	"head": true, "tail": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "sed": true, "awk": true,
	"sort": true, "uniq": true, "wc": true, "cut": true, "tr": true, "less": true, "more": true, "nl": true,
	"cat": true, "column": true, "fold": true, "tee": true, "xxd": true, "od": true, "hexdump": true,
	"strings": true, "tac": true, "rev": true, "expand": true, "fmt": true, "bat": true,
}

// echoPrograms print only what they are told.
var echoPrograms = map[string]bool{"echo": true, "printf": true, "true": true, "sleep": true}

// writesOutput reports whether a command segment sends its standard
// output to a file: a `>` or `>>` outside quotes that is not standard
// error's (`2>`) or a duplication (`>&2`, `2>&1`).
func writesOutput(seg string) bool {
	var quote byte
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '>':
			if i > 0 && (seg[i-1] == '2' || seg[i-1] == '>') {
				continue
			}
			if i+1 < len(seg) && seg[i+1] == '&' {
				continue
			}
			return true
		}
	}
	return false
}

// commentOnly reports whether a shell command line is made of comments
// and blank lines alone: every line that is not blank opens, after its
// indentation, with a '#' (a shebang, "#!/bin/bash", too: in a command
// line handed to a shell it is a comment like any other). The shell runs
// nothing for it. A blank command is not one: it says nothing at all.
func commentOnly(cmd string) bool {
	said := false
	for line := range strings.SplitSeq(cmd, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if line[0] != '#' {
			return false
		}
		said = true
	}
	return said
}

// readCommentCommands reads a shell call whose command is only comments
// (commentOnly: "# No command is needed right now. The team should
// continue ...") as what it is, the agent's words written where a command
// goes: the shell ran nothing. The step becomes a step without a call, in
// PLAN as a think tool's call is: no call and no result (the harness's
// answer, blank or its note that the command printed nothing, reports on
// nothing that ran), so never progress; its reason the agent's words, those
// logged with the step and then the comment's own. Its share of the run's
// tokens stays: the model wrote it. Keys typed into a terminal, and input
// sent to a program already running (OpenHands' is_input), are not read:
// what they were typed into may not be a shell.
func (r *run) readCommentCommands() {
	for _, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		cmd, ok := commentCommand(s.ToolCall.Name, s.ToolCall.Args)
		if !ok {
			continue
		}
		words := cmd
		if s.Decision != nil && s.Decision.Reason != "" {
			words = s.Decision.Reason + "\n" + cmd
		}
		s.ToolCall, s.ToolResult, s.Intent = nil, nil, ""
		s.State = schema.StatePlan.String()
		s.Decision = nil
		setReason(s, words)
	}
}

// commentCommand returns the command of a shell call (a command line, not
// keys typed into a terminal nor input to a running program) when it is
// only comments.
func commentCommand(tool string, args json.RawMessage) (string, bool) {
	if !bytes.Contains(args, []byte("#")) {
		return "", false // no comment in it: nothing to decode
	}
	c, ok := decodeShellCall(tool, args)
	if !ok || c.Keystrokes != "" || c.IsInput == true || c.IsInput == "true" {
		return "", false
	}
	cmd := unwrapShell(c.Command + c.Cmd)
	if !commentOnly(cmd) {
		return "", false
	}
	return strings.TrimSpace(cmd), true
}
