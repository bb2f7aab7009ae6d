package adapters

import (
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// A log that keeps no tool output (--strip-output, or a logger that keeps
// only exit codes) still says what a failed call was: the command tells
// the rest. A compile check that failed found code that does not parse in
// the file it compiled; an edit that failed and ran nothing else did not
// make its change. Both are read only from failures with no text: where
// the output is logged, it says more and is read instead.

// markTextlessFailures reads failed shell calls that logged no text (an
// EXIT_CODE and nothing else): a compile check's failure is a SyntaxError
// (the one exception py_compile reports: IndentationError and TabError are
// kinds of it) raised in the file it compiled; an edit's, when its command
// ran nothing but the edit, is EDIT_FAILED: the change was not made, and
// nothing says how, so two of them are not known to be one failure. An
// editor's edit the harness marked failed with no text (a generic ERROR or
// exit code) ran nothing but the edit too, and is EDIT_FAILED alike.
func (r *run) markTextlessFailures() {
	for _, s := range r.steps {
		res := s.ToolResult
		if s.ToolCall == nil || res == nil || !schema.NoData(res.Data) {
			continue
		}
		cmd, ok := shellCallCommand(s.ToolCall.Name, s.ToolCall.Args)
		if !ok {
			// An editor's call marked failed by the harness (Trae
			// Agent's success, an error flag): nothing else ran.
			if s.Intent == schema.IntentEdit && (res.ErrorType == "ERROR" || res.ErrorType == "EXIT_CODE") {
				res.ErrorType = schema.ErrEditFailed
				res.Reason = "an editor's edit marked failed, its output not logged"
			}
			continue
		}
		if res.ErrorType != "EXIT_CODE" {
			continue
		}
		cmd = unwrapShell(cmd)
		switch {
		case taggedStageAction(cmd):
			res.ErrorType = schema.ErrScriptSyntax
			res.Reason = "a function of the research fork opened by a markup line, not Python: it did not parse, its output not logged"
		case s.Intent == schema.IntentEdit && editsOnly(cmd):
			res.ErrorType = schema.ErrEditFailed
			res.Reason = "an edit that ran nothing else exited non-zero, its output not logged"
		case s.Intent == "" && schema.CompileCheckFileKey(s.ToolCall.Args) != 0:
			// Ingest keys the failure to the file compiled
			// (schema.FailedCallFileKey), as it keys one from a traceback.
			res.ErrorType = "SyntaxError"
			res.Reason = "a compile check exited non-zero, its output not logged"
		}
	}
}

// reMarkupLine is a line that is one markup tag and nothing else:
// `<format_example>`, `</format_example>`.
var reMarkupLine = regexp.MustCompile(`^</?[A-Za-z_][\w-]*>$`)

// taggedStageAction reports whether a command is a function of the
// mini-swe-agent research fork (its stage decorator, `@bug_reproduction`)
// opened by a line of markup: the agent wrapped its action in the
// prompt's example tags. The harness runs the action as Python, where
// such a line does not parse, so nothing of the function ran: each such
// action fails the same way, before its first line of code, whatever the
// function would have done.
func taggedStageAction(cmd string) bool {
	first, rest, ok := strings.Cut(strings.TrimSpace(cmd), "\n")
	return ok && reMarkupLine.MatchString(strings.TrimSpace(first)) && strings.HasPrefix(strings.TrimSpace(rest), "@")
}

// markSaidFailedEdits reads an edit the agent's next words said failed
// (SAID_FAILED, its output not logged) as an edit that failed with no
// output to say how, EDIT_FAILED, as an edit that ran nothing else and
// exited non-zero is: the change was not made. Only an edit that ran
// nothing else: a command that also ran a test or a script could be what
// the words say failed.
func (r *run) markSaidFailedEdits() {
	for _, s := range r.steps {
		res := s.ToolResult
		if s.ToolCall == nil || res == nil || res.ErrorType != schema.ErrSaidFailed || s.Intent != schema.IntentEdit {
			continue
		}
		if cmd, ok := shellCallCommand(s.ToolCall.Name, s.ToolCall.Args); ok && !editsOnly(unwrapShell(cmd)) {
			continue
		}
		res.ErrorType = schema.ErrEditFailed
	}
}

// editsOnly reports whether a command line does nothing but change files:
// each of its commands, here-document bodies left out, is a program that
// writes or moves files or prints what it is told (editPrograms), git
// restoring or applying, or Python reading its program from a
// here-document (a function of the mini-swe-agent research fork, by the
// shell commands it runs). A test, a build or a script of the repository run after
// the edit could be what failed.
func editsOnly(cmd string) bool {
	if strings.HasPrefix(strings.TrimSpace(cmd), "@") {
		// A function of the mini-swe-agent research fork: the shell
		// commands it runs are what it does.
		inner := stageShellCommands(cmd)
		return len(inner) > 0 && !slices.ContainsFunc(inner, func(c string) bool { return !editsOnly(c) })
	}
	for _, seg := range splitSegments(withoutHereDocBodies(cmd)) {
		p := segmentProgram(seg)
		switch {
		case p == "" || editPrograms[p]:
		case p == "git":
			if f := strings.Fields(seg); !slices.ContainsFunc(f, isGitChange) {
				return false
			}
		case strings.HasPrefix(p, "python") && rePythonStdin.MatchString(seg):
		default:
			return false
		}
	}
	return true
}

// editPrograms write, move or remove files, or print only what they are
// told.
var editPrograms = map[string]bool{
	"sed": true, "perl": true, "awk": true, "patch": true, "ed": true, "tee": true, "cat": true,
	"cp": true, "mv": true, "rm": true, "mkdir": true, "touch": true, "echo": true, "printf": true, "true": true,
}

// isGitChange is a git subcommand that changes the work tree.
func isGitChange(word string) bool {
	switch word {
	case "apply", "checkout", "restore", "stash", "reset", "am":
		return true
	}
	return false
}

// reHereDoc opens a here-document: `<<EOF`, `<<'EOF'`, `<<-"EOF"`. The
// delimiter is the submatch.
var reHereDoc = regexp.MustCompile(`<<-?\s*['"]?(\w+)['"]?`)

// withoutHereDocBodies is a command without the bodies of its
// here-documents (the lines after an opening line up to the delimiter's
// own line): they are a program's input, not commands.
func withoutHereDocBodies(cmd string) string {
	if !strings.Contains(cmd, "<<") {
		return cmd
	}
	var b strings.Builder
	delim := ""
	for line := range strings.Lines(cmd) {
		if delim != "" {
			if strings.TrimSpace(line) == delim {
				delim = ""
			}
			continue
		}
		b.WriteString(line)
		if m := reHereDoc.FindStringSubmatch(line); m != nil {
			delim = m[1]
		}
	}
	return b.String()
}
