package adapters

import (
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// markEditScriptCrashes types the edits (schema.IntentEdit) that failed
// with a Python traceback raised in the agent's own script or in the
// standard library it called, and in no file of the code, EDIT_CRASHED:
// the script stopped before it made its change (editScriptCrashed). An
// agent whose patch script dies of a bad regular expression, then of a
// file read as ASCII, then finds its text missing, has failed to land one
// change three times, not run three experiments.
func markEditScriptCrashes(steps []*schema.Step) {
	for _, s := range steps {
		res := s.ToolResult
		if s.Intent != schema.IntentEdit || res == nil || !res.IsError() {
			continue
		}
		text := resultText(res)
		if !strings.Contains(text, "Traceback (most recent call last):") || !editScriptCrashed(res.ErrorType, text) {
			continue
		}
		res.ErrorType = schema.ErrEditCrashed
	}
}

// reFrameFile is a frame of a Python traceback; the submatch is its file.
var reFrameFile = regexp.MustCompile(`(?m)^\s*File "([^"\n]+)", line \d+`)

// reStdlibFile is a module of Python's standard library: a file under
// lib/pythonX.Y/ (a package installed into it is under site-packages or
// dist-packages, and is checked apart).
var reStdlibFile = regexp.MustCompile(`/lib/python\d(?:\.\d+)?/\S+$`)

// scriptCrashClass are the exceptions an editing script raises in its own
// code when the text it works on is not what it expected: a value not
// found (`str.index`), a list or a dict without the entry, a file not
// there, a file read or written with the wrong codec.
var scriptCrashClass = map[string]bool{
	"ValueError": true, "IndexError": true, "KeyError": true, "FileNotFoundError": true,
	"UnicodeDecodeError": true, "UnicodeEncodeError": true,
}

// editScriptCrashed reports whether a failed edit's traceback (text, the
// exception's class errType as the output rules named it) says its script
// died before it made its change. Every frame must be the script's own
// (`<stdin>`, `<string>`: a here-document, `python -c`, a harness's
// helper) or the standard library's: a frame in any other file is the
// code under work, and the failure is what a check in the same call found
// (an experiment's answer, RA301's goal storms). Raised in the standard
// library (`re.error` from sre_parse, UnicodeDecodeError from the codecs),
// any exception but an assertion, a subprocess's failure or a compile
// error (a subprocess runs a check; a compile error is read as one
// already) is the script's own call failing. Raised in the script itself,
// only the exceptions of text not as expected (scriptCrashClass), and an
// attribute of None (`re.search(...).group`: a match that found nothing);
// an AssertionError there is as likely a check's assertion, a NameError a
// harness calling a function it could not find after the edit ran, an
// ImportError or an AttributeError of a module a check of the code.
func editScriptCrashed(errType, text string) bool {
	frames := reFrameFile.FindAllStringSubmatch(text, -1)
	if len(frames) == 0 {
		return false
	}
	for _, f := range frames {
		if p := f[1]; !strings.HasPrefix(p, "<") && (!reStdlibFile.MatchString(p) || strings.Contains(p, "-packages/")) {
			return false
		}
	}
	if last := frames[len(frames)-1][1]; !strings.HasPrefix(last, "<") {
		switch {
		case errType == "AssertionError", strings.HasSuffix(errType, "CalledProcessError"),
			errType == "SyntaxError", errType == "IndentationError", errType == "TabError":
			return false
		}
		return true
	}
	return scriptCrashClass[errType] || errType == "AttributeError" && strings.Contains(text, "AttributeError: 'NoneType' object has no attribute")
}
