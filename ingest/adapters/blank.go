package adapters

import (
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Blank answers: a logged output that is blank says nothing by itself, but
// a shell command that prints whatever happens says something by printing
// nothing. This file reads that.

// markBlankAnswers reads the calls answered with a logged output that is
// blank. A shell command that prints whatever happens (it opens with an
// echo of some text, or pwd) and printed nothing did not run as written:
// its output was lost, or the line failed before it (NO_OUTPUT). A shell
// that lost even an echo's output has lost the others' too: the blank
// answers of the calls of the same tool next to it, up to the first that
// is not blank or another tool's call, were lost the same way, and said
// nothing of what ran.
func (r *run) markBlankAnswers() {
	lost := func(s *schema.Step) {
		ok := false
		res := s.ToolResult
		res.OK, res.ErrorType, res.Empty = &ok, schema.ErrNoOutput, nil
		res.Reason = "a command that prints whatever happens printed nothing"
	}
	blank := func(s *schema.Step) bool {
		res := s.ToolResult
		return res != nil && res.ErrorType == "" && s.State != schema.StateStop.String() &&
			(r.blank[s] || res.Empty != nil && *res.Empty && strings.TrimSpace(resultText(res)) == "" ||
				harnessBlank(res))
	}
	for i, s := range r.steps {
		if s.ToolCall == nil || !blank(s) {
			continue
		}
		cmd, ok := shellCallCommand(s.ToolCall.Name, s.ToolCall.Args)
		if !ok {
			continue
		}
		if !callPrintsForSure(cmd) {
			if listsNothing(cmd) {
				empty := true
				s.ToolResult.Empty = &empty
			}
			continue
		}
		lost(s)
		for _, dir := range []int{-1, 1} {
			for j := i + dir; j >= 0 && j < len(r.steps); j += dir {
				t := r.steps[j]
				if t.ToolCall == nil {
					continue
				}
				if t.ToolCall.Name != s.ToolCall.Name {
					break
				}
				if t.ToolResult != nil && t.ToolResult.ErrorType == schema.ErrNoOutput {
					continue
				}
				if !blank(t) {
					break
				}
				lost(t)
			}
		}
	}
}

// harnessBlank reports whether a logged output holds only the label the
// mini-swe-agent research fork puts before a command's output.
func harnessBlank(res *schema.ToolResult) bool {
	if len(res.Data) > 2*len(harnessLabel) {
		return false // more than the label and blank space; not decoded
	}
	text := resultText(res)
	return strings.HasPrefix(strings.TrimSpace(text), harnessLabel) && withoutHarnessLabel(text) == ""
}

// callPrintsForSure reports whether a shell call prints for sure: the
// command a shell wrapper runs, or any of the shell commands a stage
// action of the mini-swe-agent research fork hands to exec_bash_cmd.
func callPrintsForSure(cmd string) bool {
	if !strings.HasPrefix(strings.TrimSpace(cmd), "@") {
		return printsForSure(unwrapShell(cmd))
	}
	for _, inner := range stageShellCommands(cmd) {
		if printsForSure(strings.TrimLeft(inner, " \t\r\n")) {
			return true
		}
	}
	return false
}

// printsForSure reports whether a command line prints something whatever
// happens: its first command (or one after it joined only by ; or a new
// line, or by the && after a cd, which says why when it fails; never by
// other && or || or a pipe, which make what follows depend on what came
// before) is pwd, an echo or printf of some literal text, or a Python
// program that prints for sure (pyprints.go), not redirected. A line
// holding a here-document is read up to its first new line: the
// document's lines are data, or the program of the python it feeds.
func printsForSure(cmd string) bool {
	var doc string
	if strings.Contains(cmd, "<<") {
		cmd, doc, _ = strings.Cut(cmd, "\n")
	}
	var seps []byte
	segs := splitSegs(cmd, nil, &seps)
	docSeen := false
	for k := 0; k < len(segs); k++ {
		seg := segs[k]
		// What a command prints into a pipe is the pipe's to print; the
		// empty segment between the two bytes of && or || is no command.
		double := k+1 < len(segs) && segs[k+1] == "" && seps[k+1] == seps[k]
		piped := seps[k] == '|' && !double
		// The here-document on the line is the first segment's to read
		// that opens one.
		var segDoc string
		if !docSeen && strings.Contains(seg, "<<") {
			segDoc, docSeen = doc, true
		}
		if !piped && (printsText(seg) || pythonPrintsForSure(seg, segDoc)) {
			return true
		}
		if double && seps[k] == '&' && firstWord(seg) == "cd" && len(strings.Fields(seg)) == 2 {
			k++ // cd says why when it fails: what follows its && runs or the output says so
			continue
		}
		if seps[k] != ';' && seps[k] != '\n' {
			return false // the end, or what follows depends on what came before
		}
	}
	return false
}

// reShellExpansion is what a shell replaces before echo prints: a command
// substitution or a variable.
var reShellExpansion = regexp.MustCompile(`\$\([^)]*\)|\$\{[^}]*\}|\$\w+|` + "`[^`]*`")

// printsText reports whether a simple command prints literal text to the
// output: pwd, or echo or printf with a letter or digit outside what the
// shell expands, without a redirect of its output (one of the error
// stream, 2>&1 or 2>/dev/null, leaves the text where it was).
func printsText(seg string) bool {
	if seg = reStderrRedirect.ReplaceAllString(seg, ""); strings.Contains(seg, ">") {
		return false
	}
	p := segmentProgram(seg)
	switch p {
	case "pwd":
		return true
	case "echo", "printf":
		// The text after the program's word (past assignments and
		// wrappers before it) and its options.
		words := strings.Fields(seg)
		k := slices.Index(words, p)
		if k < 0 {
			return false // a path to it (/bin/echo): not read
		}
		rest := strings.Join(words[k+1:], " ")
		for strings.HasPrefix(rest, "-") {
			_, rest, _ = strings.Cut(rest, " ")
		}
		return strings.IndexFunc(reShellExpansion.ReplaceAllString(rest, ""), func(r rune) bool {
			return r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0
	}
	return false
}

// listsNothing reports whether a command line whose output is blank lists
// nothing: it lists names (ls) or looks a program up (which), as its first
// program, and what it prints is the output (its last program, looked
// through the stages that cut what it prints, or an echo after it that did
// not run). A blank listing found nothing: the directory is empty or the
// names are not there; a blank which, the program is not installed. A
// long listing (-l) or one of all names (-a) prints something for any name
// that is there and says why for one that is not: blank, it found nothing
// only when its errors were dropped (2>/dev/null).
func listsNothing(cmd string) bool {
	cmd = unwrapShell(cmd)
	p := firstProgram(cmd)
	if p != "ls" && p != "which" {
		return false
	}
	if p == "ls" && !strings.Contains(cmd, "2>/dev/null") && reLongListing.MatchString(cmd) {
		return false // it prints a total, a line, . and .., or why the name is not there
	}
	switch lastFilter(cmd) {
	case "ls", "which", "echo":
		return true
	}
	return false
}

// reLongListing is an ls with an option asking for a long listing or for
// all names: -l, -la, -al, -a, -lh.
var reLongListing = regexp.MustCompile(`\bls\s+(?:-\w+\s+)*-\w*[la]`)
