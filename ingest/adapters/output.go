package adapters

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// An OutputRule reads a tool's output text and says whether the call failed
// (ErrorType) or came back empty. Trajectories rarely say either in a field
// of its own, so the adapters read it from the text the agent saw. Rules
// are tried in order; the first that matches decides. Every rule is listed,
// with its Doc, on the adapters' pages (TestAdapterDocs).
type OutputRule struct {
	Name      string
	ErrorType string // "" for a rule that finds an empty result
	Doc       string
	// ViewsToo: the rule also applies to the output of a tool that shows
	// file content (open, view, cat, read), where error-like text is as
	// likely to be the file's own content.
	ViewsToo bool
	// Final: the output says the same call will be refused again (CrewAI
	// refusing an input it has run before), so the result is not
	// retryable (tool_result.retryable false): sending it again is a
	// retry loop, not a dependency failing.
	Final bool
	// Harness: the rule reads a message the harness wrote in place of the
	// tool's output (the call refused before it ran, stopped at the
	// harness's time limit, the tool raising in the harness): the
	// harness's account of the call, not what the tool printed, so it is
	// read with --strip-output too (the text is still dropped).
	Harness bool
	match   func(o *output) (errType string, ok bool)
}

// output is a tool output being classified, with its first and last
// non-blank lines found once.
type output struct {
	text        string
	first, last string
	search      bool // the call searched: blank output is an empty result
	mcpFailed   bool // an MCP result the text was unwrapped from said isError
}

func newOutput(text string, search bool) *output {
	o := &output{text: text, search: search}
	t := skipWarnLines(skipPythonWarnings(skipJVMWarnings(skipShellWarnings(withoutHarnessLabel(text)))))
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		o.first = strings.TrimSpace(t[:i])
		o.last = strings.TrimSpace(t[strings.LastIndexByte(t, '\n')+1:])
	} else {
		o.first, o.last = t, t
	}
	return o
}

// skipPythonWarnings is t without the warnings Python printed to stderr
// before the tool's own answer (`lib.py:214: UserWarning: ...`, the
// message's lines, then the indented source line that raised it): a
// deprecation in a library is no part of what the tool said first.
func skipPythonWarnings(t string) string {
	for pythonWarningFirst(t) && reWarningLine.MatchString(t) {
		// The warning runs to its source line, the first indented one.
		rest, found := t, false
		for {
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				return t
			}
			rest = rest[i+1:]
			if strings.HasPrefix(rest, "  ") {
				found = true
				break
			}
		}
		if !found {
			return t
		}
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			return t // the warning is all there is
		}
		t = strings.TrimSpace(rest[i+1:])
	}
	return t
}

// skipWarnLines is t without the warnings a program printed of its own
// before its answer, each on a line of its own with the word in capitals
// (radare2's `WARN: Relocs has not been applied. ...`, `WARNING: ...`): a
// notice, no part of what the program said first. The last is kept when
// warnings are all there is.
func skipWarnLines(t string) string {
	return skipLeadingLines(t, reWarnLine, func(t string) bool { return strings.HasPrefix(t, "WARN") })
}

// skipLeadingLines is t without its first lines while line matches them
// and mayOpen(t) says the next may be one (a cheap look before the
// pattern); a last line is kept, so that an output of warnings alone
// still has a first line.
func skipLeadingLines(t string, line *regexp.Regexp, mayOpen func(string) bool) string {
	for mayOpen(t) {
		i := strings.IndexByte(t, '\n')
		if i < 0 || !line.MatchString(t[:i]) {
			return t
		}
		t = strings.TrimSpace(t[i+1:])
	}
	return t
}

// reWarnLine is a warning's line as programs print it in capitals.
var reWarnLine = regexp.MustCompile(`^(?:WARN|WARNING)(?:\[\w+\])?: `)

// skipShellWarnings is t without the warnings the shell printed before
// the program's own answer (`bash: line 11: warning: here-document at line
// 1 delimited by end-of-file (wanted `PATCH')`): the shell ran the command
// all the same, and what it printed first is the command's.
func skipShellWarnings(t string) string {
	return skipLeadingLines(t, reShellWarning, func(t string) bool { return strings.Contains(t, "warning: ") })
}

// reShellWarning is a warning of the shell's own (bash, sh, dash, zsh).
var reShellWarning = regexp.MustCompile(`^(?:\S*/)?(?:ba|da|z)?sh: (?:-c: |eval: )?(?:line \d+: |\d+: )?warning: `)

// skipJVMWarnings is t without the warnings the Java virtual machine
// printed before the program's own answer (`OpenJDK 64-Bit Server VM
// warning: Unable to get SVE vector length on this system.`, on every
// start of java, javac or mvn on some machines): the machine's notice, no
// part of what javac or the program said first.
func skipJVMWarnings(t string) string {
	return skipLeadingLines(t, reJVMWarning, func(t string) bool { return strings.Contains(t, " VM warning: ") })
}

// reJVMWarning is a line the HotSpot virtual machine (OpenJDK's, Oracle's)
// prints for a warning of its own.
var reJVMWarning = regexp.MustCompile(`^(?:OpenJDK|Java HotSpot\(TM\)) (?:64-Bit )?(?:Server|Client) VM warning: `)

// pythonWarningFirst is reWarningLine's necessary condition, checked on
// every output: its first line names a warning.
func pythonWarningFirst(t string) bool {
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	return strings.Contains(t, "Warning: ")
}

// reWarningLine opens a warning as Python's warnings module prints it.
var reWarningLine = regexp.MustCompile(`^\S+\.py:\d+: [A-Za-z]*Warning: `)

// The rules that scan a whole output first look for a string every match
// holds: a regular expression over every line of a long output costs far
// more than the search for its fixed part.

// mentionsTime is reTimedOut's necessary condition: one of its phrases,
// ASCII letters in any case (no other letter folds to theirs), the word
// boundaries left to the expression.
func mentionsTime(line string) bool {
	for i := 0; i+4 <= len(line); i++ {
		if (line[i]|0x20) == 't' && (line[i+1]|0x20) == 'i' && (line[i+2]|0x20) == 'm' && (line[i+3]|0x20) == 'e' {
			rest := line[i:]
			for _, phrase := range [...]string{"timed out", "timeout expired", "time limit exceeded"} {
				if len(rest) >= len(phrase) && strings.EqualFold(rest[:len(phrase)], phrase) {
					return true
				}
			}
		}
	}
	return false
}

// caughtNoSuchFile reports whether a line is Python's message for a
// missing file, `[Errno 2] No such file or directory: 'PATH'`, alone or
// after a few words of a tool's own that hold no colon, and not after an
// exception's class (`FileNotFoundError: [Errno 2] ...`).
func caughtNoSuchFile(text string) bool {
	for _, m := range rePyNoSuchFile.FindAllStringSubmatch(text, -1) {
		if !reExceptionBefore.MatchString(m[1]) {
			return true
		}
	}
	return false
}

// exceptionAfterFrames names the exception of a traceback by where Python
// writes it: the first line after the last frame (its `File "...", line N`
// line and the indented lines of code and carets under it) that is not
// indented, a class name (its last part capitalised, not all capitals)
// before a colon, or a dotted one alone (`django.core.exceptions.
// MiddlewareNotUsed`: raised without a message). "" when that line is no
// such name.
func exceptionAfterFrames(text string) string {
	locs := reAnyFrame.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return ""
	}
	rest := text[locs[len(locs)-1][1]:]
	for _, line := range strings.Split(rest, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		if m := reExceptionLine.FindStringSubmatch(line); m != nil {
			return m[1] + m[2]
		}
		return ""
	}
	return ""
}

var (
	rePyNoSuchFile      = regexp.MustCompile(`(?m)^[ \t]*([^:\n]{0,60}?(?:: )?)\[Errno 2\] No such file or directory: ['"]`)
	reExceptionBefore   = regexp.MustCompile(`[A-Z]\w*(?:Error|Exception): $`)
	reAnyFrame          = regexp.MustCompile(`(?m)^[ \t]*File "[^"\n]+", line \d+[^\n]*$`)
	reExceptionLine     = regexp.MustCompile(`^((?:[A-Za-z_]\w*\.)*[A-Z]\w*[a-z]\w*):(?:\s|$)|^((?:[A-Za-z_]\w*\.)+[A-Z]\w*[a-z]\w*)\s*$`)
	reTracebackEnd      = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure))(?::|$)`)
	reTracebackFrame    = regexp.MustCompile(`(?m)^(?: {2,3}|[\w ]{1,40}: +)File "[^"\n]+", line \d+(?:, in \S+)?\n`)
	rePyCompileSorry    = regexp.MustCompile(`(?m)^\s*(?:[\w ]{1,40}: )?Sorry: ((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): .* \([^,()\n]+, line \d+\)\s*$`)
	reCompilerError     = regexp.MustCompile(`(?m)^[^\s:]+:\d+(?::\d+)?: (?:fatal )?error:`)
	reRustError         = regexp.MustCompile(`(?m)^error(?:\[E\d{4}\])?: .*\n\s*--> \S+:\d+:\d+\s*$|^error: could not compile `)
	reTSError           = regexp.MustCompile(`(?m)(?:^|\s)error TS\d{4,5}: `)
	reGoBuildHeader     = regexp.MustCompile(`(?m)^# \S+(?: \[\S+\])?\s*$`)
	reGoBuildError      = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: \S`)
	reGoTestBuildFailed = regexp.MustCompile(`(?m)^FAIL\s+\S+ \[(?:build|setup) failed\]\s*$`)
	reJVMBuildError     = regexp.MustCompile(`(?m)^\[ERROR\] (?:COMPILATION ERROR|.*\.java:\[\d+,\d+\] |Failed to execute goal \S+:(?:test)?[cC]ompile \(.*: Compilation failure)|^e: \S+\.kts?:\d+:\d+|^> Compilation failed|^Execution failed for task '\S*:compile\w*'|^> Task \S*:compile\w* FAILED\s*$`)
	reMavenGoal         = regexp.MustCompile(`(?m)^\[ERROR\] Failed to execute goal (\S+)`)
	reNPMCode           = regexp.MustCompile(`(?m)^npm (?:ERR!|error) code (E[A-Z0-9]+)\s*$`)
	reYarnError         = regexp.MustCompile(`(?m)^error (?:An unexpected error occurred: |Couldn't find (?:a package|any versions)|Package ".*" refers to a non-existing file)|^➤ YN0000: (?:· )?Failed with errors in \d`)
	rePipCode           = regexp.MustCompile(`(?m)^\s*error: ((?:metadata-generation|subprocess-exited-with|failed-wheel-build-for-install|externally-managed-environment|resolution-too-deep)[\w-]*)`)
	rePipEncountered    = regexp.MustCompile(`(?m)^\s*× Encountered error while (\S.*)`)
	rePipError          = regexp.MustCompile(`(?m)^ERROR: (?:Could not find a version that satisfies the requirement|No matching distribution found for|Failed building wheel for|Could not build wheels for|Cannot install |ResolutionImpossible)`)
	reMakeFailed        = regexp.MustCompile(`(?m)^make(?:\[\d+\])?: \*\*\* (?:.*Error \d+|No rule to make target .*)\s*$`)
	reJVMBuildFailure   = regexp.MustCompile(`(?m)^(?:\[INFO\] BUILD FAILURE|BUILD FAILED(?: in \S+)?)\s*$`)
	reBuildFailed       = regexp.MustCompile(`(?m)^CMake Error\b|^collect2: error: ld returned \d+ exit status|^\S*ld(?:\.\w+)?: error: |^Warning, treated as error:\s*$|^\[ERROR\] (?:\[ERROR\] )?(?:Some problems were encountered while processing the POMs|The build could not read \d+ projects?|Could not find the selected project in the reactor)|^\[ERROR\] +The project \S+ \(.*\) has \d+ errors?\s*$`)
	reJavaUncaught      = regexp.MustCompile(`(?m)^Exception in thread "[^"]*" ([\w.$]+)`)
	reNodeVersion       = regexp.MustCompile(`^Node\.js v\d+\.\d+\.\d+$`)
	reNodeThrown        = regexp.MustCompile(`(?m)^(\w*(?:Error|Exception))(?:: .*)?\n\s+at \S`)
	reGoPanic           = regexp.MustCompile(`(?m)^panic: .*(?:\n.*)*?\ngoroutine \d+ \[`)
	rePHPFatal          = regexp.MustCompile(`(?m)^PHP (?:Fatal|Parse) error: +(?:Uncaught ([\w\\]+))?`)
	reRubyUncaught      = regexp.MustCompile(`(?m)^\S+\.rb:\d+:in .*\(([A-Z]\w*(?:::\w+)*)\)$`)
	reRustPanic         = regexp.MustCompile(`(?m)^thread '[^']*' panicked at `)
	reWebpackErrors     = regexp.MustCompile(`\bcompiled with \d+ errors?\b`)
	reBundlerStopped    = regexp.MustCompile(`(?m)^(?:error during build:|Failed to compile\.)\s*$`)
	rePytestCollection  = regexp.MustCompile(`(?m)\d+ errors? during collection\b|^_{3,} ERROR collecting \S+ _{3,}$|^ERROR: found no collectors for `)
	rePytestNotFound    = regexp.MustCompile(`(?m)^ERROR: (?:file or directory not found: |not found: \S+\n\(no match in any of )`)
	rePytestELine       = regexp.MustCompile(`(?m)^E +(\w*(?:Error|Exception)): `)
	reHTTPStatus        = regexp.MustCompile(`(?m)^HTTP/\d(?:\.\d)? ([45]\d\d)\b`)
	// reHTTPError is the message of Python requests' HTTPError
	// (raise_for_status), which HTTP tools print or wrap in their own.
	reHTTPError        = regexp.MustCompile(`\b([45]\d\d) (?:Client|Server) Error: [^\n]*? for url: `)
	reNotFoundCmd      = regexp.MustCompile(`(?m)(?:command not found|^[^\n]*\bsh: (?:\d+: )?(?:line \d+: )?[^\n:]+: not found)(?:\.{3})?$`)
	reViewerNoSuchFile = regexp.MustCompile(`^\s*(?:\S*/)?(?:cat|nl|head|tail|less|more|bat): [^\n]*No such file or directory`)
	rePatternError     = regexp.MustCompile(`(?m)^\s*(?:(?:\S*/)?[ef]?grep: (?:Unmatched [(\[{)]|Invalid (?:regular expression|range end|back reference|preceding regular expression|content of \\\{\\\}|character class name|collation character)|Trailing backslash|Regular expression too big|(?:parentheses|brackets \(\[ \]\)|braces \{ \}) not balanced)|regex parse error:)`)
	rePermissionDenied = regexp.MustCompile(`(?m)Permission denied['")]*\.?\s*$`)
	reNoSuchFile       = regexp.MustCompile(`(?m)No such file or directory['")]*(?:\.{1,3})?\s*$`)
	reErrorPrefix      = regexp.MustCompile(`^(?:(?:Error|ERROR|error|Exception|FAILED|Failed|fatal:)(?:\[\w+\])?[: ]|An (?:unexpected )?error occurred\b)`)
	reTimedOut         = regexp.MustCompile(`(?i)\b(?:timed out|timeout expired|time limit exceeded)\b`)
	reEmptyPhrase      = regexp.MustCompile(`(?i)^(?:no (?:matches|results|files?|entries|items|records|documents|hits)(?: were)? found|no match(?:es)? for|found 0 (?:matches|results|files)|0 (?:matches|results) found|did not find any|nothing found|no results)\b`)
)

// containsAny is the fixed-string test a rule makes before its regular
// expression reads the whole output.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// reScriptNoMatch is the line an editing script of the agent's prints when
// the text it was to replace is not there.
var reScriptNoMatch = regexp.MustCompile(`(?i)^(?:error:\s*)?(?:(?:` + scriptTarget + `) not found|(?:could ?n[o']t|can ?n[o']t|cannot|unable to|failed to) (?:find|locate) (?:the )?(?:` + scriptTarget + `))\b`)

// reEditScriptNoMatch is reScriptNoMatch for a call that edits: there a
// word naming what was sought may come before the kind of text
// (`isproperty pattern not found`, `could not locate isproperty
// boundaries`), which from any other program (`restart pattern not found`)
// is an answer, not a refused edit.
var reEditScriptNoMatch = regexp.MustCompile(`(?i)^(?:error:\s*)?(?:(?:[\w.]+ )?(?:` + scriptTarget + `) not found|(?:could ?n[o']t|can ?n[o']t|cannot|unable to|failed to) (?:find|locate) (?:the )?(?:[\w.]+ )?(?:` + scriptTarget + `))\b`)

// scriptTarget is what an editing script names when it says the text it
// was to change is not there: the kind of text (a pattern, an anchor, a
// block) or the boundaries of the region to replace.
const scriptTarget = `(?:(?:start|end|begin|opening|closing|first|second|patch) )?pattern|boundaries|bounds|(?:patch )?anchor|old (?:string|text|pattern|snippet|block)|target(?: text| string| block)?|search (?:string|text|pattern)|original (?:string|text|block)|(?:code|text|string|block) to replace|(?:expected )?(?:code )?block|snippet|marker|needle|(?:target|insertion|insert) (?:location|point|line)`

// scriptNoMatchLine is the line of an output that edit-script-no-match
// reads: the first, or the first after a harness's label, underscores
// read as spaces (`pattern_not_found`).
func scriptNoMatchLine(o *output) string {
	line := o.first
	if strings.HasPrefix(line, harnessLabel) {
		line, _, _ = strings.Cut(withoutHarnessLabel(o.text), "\n")
		line = strings.TrimSpace(line)
	}
	return strings.ReplaceAll(line, "_", " ")
}

// mayNotFind is edit-script-no-match's necessary condition.
func mayNotFind(text string) bool {
	return containsAny(text, "not found", "NOT FOUND", "Not found", "not_found", "NOT_FOUND", "find", "locate")
}

// markEditScriptMisses gives the edits (schema.IntentEdit) whose output is
// their script's word that the text to change is not there, in the form
// only an edit's output is read in (reEditScriptNoMatch), the error
// EDIT_REJECTED: they changed nothing, whatever their exit code.
func markEditScriptMisses(steps []*schema.Step) {
	for _, s := range steps {
		res := s.ToolResult
		if s.Intent != schema.IntentEdit || res == nil || (res.ErrorType != "" && !genericErrorType[res.ErrorType]) {
			continue
		}
		text := resultText(res)
		if text == "" || !mayNotFind(text) {
			continue
		}
		if reEditScriptNoMatch.MatchString(scriptNoMatchLine(newOutput(text, false))) {
			ok := false
			res.OK, res.ErrorType = &ok, schema.ErrEditRejected
		}
	}
}

// testSummaryMarks are words every summary line reTestsFailedLine knows
// holds; the expression runs only on the lines around them, since
// "failed" is common in outputs and the expression is not cheap.
var testSummaryMarks = []string{"failed", "FAIL", "failing", "failure", "Failures: ", "ERROR", "Failed!"}

// maxSummaryLine is the longest line read as a runner's summary: the
// longest, Maven's goal line ending "There are test failures", is about
// 250 bytes, and long lines (minified code, JSON) are not summaries.
// pytest pads its summary with = to the terminal's width, which is not
// counted.
const maxSummaryLine = 400

// reTestsFailedLine is a line of a test runner's summary of a run with
// failing tests (the tests-failed rule), each runner's line as it prints
// it.
var reTestsFailedLine = regexp.MustCompile(`^(?:=+ )?(?:\d+ \w+, )*\d+ failed\b.* in [\d.]+m?s\b|^FAILED \((?:failures|errors)=\d+|^--- FAIL: |^FAIL\s+\S+\s+[\d.]+s\s*$|^\s*Tests:?\s+(?:\d+ \w+[,|] +)*\d+ failed\b|^\s+\d+ failing(?:\.{3})?\s*$|^(?:FAILED|ERROR) \S+::\S+|^=+ (?:FAILURES|ERRORS) =+\s*$|Tests run: \d+, +Failures: (?:[1-9]|\d+, +Errors: [1-9])|There (?:are test failures|were failing tests)|^\[\s+[1-9]\d* tests? failed\s+\]|^\d+ tests? completed, \d+ failed|^test result: FAILED\.|\d+% tests passed, \d+ tests? failed out of \d+|^\d+ examples?, [1-9]\d* failures?|^(?:FAILURES|ERRORS)!+\s*$|^\[  FAILED  \] |^test cases:\s+\d+ \|.* [1-9]\d* failed\b|^Failed!\s+- Failed:\s+[1-9]`)

// reTracebackFrameTrimmed is a traceback's frame opening an output whose
// logger trimmed its blank space, the frame's indentation with it
// (SWE-agent's and OpenHands' observations): Python reports a script that
// does not parse with this frame, the line and a caret, and no header.
var reTracebackFrameTrimmed = regexp.MustCompile(`^File "[^"\n]+", line \d+(?:, in \S+)?\n`)

// rePytestProgressFailed is a line of pytest's progress that shows a
// test failed or errored before any summary was printed (a run cut short
// by `head`, a timeout or a logger): a row of results with an F or an E
// (`..F.ss.. [ 62%]`, `tests/test_a.py ..F [ 50%]`), or a test's verbose
// result (`tests/test_a.py::test_b FAILED [ 83%]`).
var rePytestProgressFailed = regexp.MustCompile(`(?m)^(?:\S+\.py )?[.sxX]*[FE][.sxXFE]*\s+\[ *\d{1,3}%\]\s*$|^\S+::\S.*? (?:FAILED|ERROR)\s+\[ *\d{1,3}%\]\s*$`)

// reJSFailureEntry is a JavaScript test runner's report of one failing
// test, printed only when a test failed, for an output cut off before the
// runner's summary (by `tail`, `head`, a logger): Mocha's numbered entry
// (`  3) sourcemaps`, the test's title lines ending with a colon, then the
// error `     Error: ...`, `AssertionError [ERR_ASSERTION]: ...`), Jest's
// file result `FAIL tests/a.spec.js` or its heading of a failure
// (`● Test suite failed to run`, `● parser › parses a`).
var reJSFailureEntry = regexp.MustCompile(`(?m)^ {2,}\d+\) \S[^\n]*\n(?: {4,}\S[^\n]*:\n)+ {4,}(?:Uncaught )?\w*(?:Error|Exception)\b|^ ?FAIL +\S+\.[cm]?[jt]sx?(?: +\([\d.]+ ?m?s\))?\s*$|^ +● (?:Test suite failed to run\s*$|\S[^\n]* › \S)`)

// testsFailed reports whether a line of the text holding one of
// testSummaryMarks is a failing run's summary.
func testsFailed(text string) bool {
	for _, mark := range testSummaryMarks {
		for from := 0; ; {
			k := strings.Index(text[from:], mark)
			if k < 0 {
				break
			}
			k += from
			start := strings.LastIndexByte(text[:k], '\n') + 1
			end := strings.IndexByte(text[k:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += k
			}
			if line := text[start:end]; len(strings.Trim(line, "= ")) <= maxSummaryLine && reTestsFailedLine.MatchString(line) {
				return true
			}
			from = end
		}
	}
	return false
}

// The failures of programs other than Python that a log without exit
// codes shows only in their text: the shell's report of a signal, the go
// command's refusals, curl's failure line, Node's thrown error printed
// without its version footer, Python's module runner not finding a tool,
// a file utility refusing to move, copy, remove or create a file.
var (
	reCrashed           = regexp.MustCompile(`(?m)^(?:Segmentation fault|Bus error|Illegal instruction|Floating point exception|Aborted|Killed)(?: +\(core dumped\))?\s*$|^.*: line \d+: +\d+ +(?:Segmentation fault|Bus error|Illegal instruction|Floating point exception|Aborted|Killed)\b|^fatal error: (?:runtime: |all goroutines are asleep|concurrent map )`)
	reGoToolError       = regexp.MustCompile(`(?m)^go: (?:cannot find main module|go\.mod file not found|errors parsing go\.mod|updates to go\.mod needed|inconsistent vendoring)|^(?:\S+: )?no required module provides package \S+|^package \S+ is not in std\b`)
	reCurlError         = regexp.MustCompile(`(?m)^curl: \(\d+\) `)
	rePrettierError     = regexp.MustCompile(`(?m)^\[error\] [^\s:]+: (\w*Error): `)
	reNetcatError       = regexp.MustCompile(`(?m)^(?:\S+ \[[0-9A-Fa-f.:]+\] \d+ \([^)\n]*\) : (?:Connection refused|Connection timed out|No route to host)|(?:nc|ncat|netcat): connect to \S+ port \d+ \(\w+\) failed: [^\n]+|Ncat: (?:Connection refused|Connection timed out|No route to host)\.?|telnet: Unable to connect to remote host: [^\n]+)\s*$`)
	reAptError          = regexp.MustCompile(`(?m)^E: (?:Unable to locate package \S|Package '[^'\n]+' has no installation candidate|Couldn't find any package by |Version '[^'\n]+' for '[^'\n]+' was not found|Unable to fetch some archives|Failed to fetch \S|Could not get lock \S|Could not open lock file \S|Unable to acquire the dpkg frontend lock|Unable to correct problems, you have held broken packages|Sub-process /usr/bin/dpkg returned an error code)`)
	reNetcatOpen        = regexp.MustCompile(`(?m)^(?:\S+ \[[0-9A-Fa-f.:]+\] \d+ \([^)\n]*\) open|Connection to \S+ (?:port )?\d+ port \[[^\]\n]*\] succeeded!)\s*$`)
	reNodeThrownAtCaret = regexp.MustCompile(`(?m)^\s*\^+\s*\n\s*\n(\w*(?:Error|Exception))(?: \[[A-Z][A-Z0-9_]+\])?(?:: .*)?\n(?:\s+at \S|Require stack:\n- \S)`)
	reNoModuleToRun     = regexp.MustCompile(`(?m)^\S*python[\d.]*(?:\.exe)?: No module named \S+\s*$`)
	reFileOpRefused     = regexp.MustCompile(`(?m)^(?:(?:mv|cp|rm|ln|mkdir|rmdir): (?:cannot |failed to )|(?:mv|cp|ln): .+ are the same file$)`)
)

// genericErrorType are the error types that say no more than that the
// command failed: an edit's own report of what failed refines them.
var genericErrorType = map[string]bool{"EXIT_CODE": true, "ERROR": true}

// reScriptSyntax is an interpreter's refusal of a program given on the
// command line: perl's closing line or its refusal of a regular expression
// (which it reports without that line), awk's (mawk's, gawk's) syntax
// error, sed's.
var reScriptSyntax = regexp.MustCompile(`(?m)^Execution of \S+ aborted due to compilation errors\.|(?m)^[A-Z][a-z]+ [^\n]{0,60} in regex; marked by <-- HERE in [ms]/|(?m)^(?:g|m)?awk: (?:cmd\. )?line:? ?\d+:? (?:syntax error|runaway string constant|regular expression compile failed|extra '?[)}\]]'?)|(?m)^sed: -e expression #\d+, char \d+: `)

// reShellSyntax is a shell's own syntax error, prefixed by its name (a
// path to it), what it was reading (`-c`, or `eval` for a harness that
// runs the command line through eval) and the position it gives: a
// command line it could not parse.
var reShellSyntax = regexp.MustCompile(`(?m)^\s*(?:\S*/)?(?:ba|da|z)?sh: (?:-c: |eval: )?(?:line \d+: |\d+: )?[Ss]yntax error\b`)

// reShellHistory is an interactive shell's refusal of a `!` word it read as
// a history reference (`bash: !x: event not found`): the shell runs
// nothing of the line.
var reShellHistory = regexp.MustCompile(`(?m)^\s*(?:\S*/)?(?:ba|z)?sh: (?:!.*: event not found|event not found: .*)$`)

// errException is the error type of a program that died of an exception
// whose class the output does not name (a traceback's header without its
// exception line).
const errException = "EXCEPTION"

// OutputRules are the generic rules, shared by every adapter. Format-specific
// rules (an editor's "edit rejected" message) come before them in each
// adapter.
var OutputRules = []OutputRule{
	{
		Name: "edit-script-no-match", ErrorType: schema.ErrEditRejected,
		Doc: "the output is a line the agent's own editing script prints when the text it was to replace is not in the file: `pattern not found` (`start pattern not found`), `anchor not found` (`Patch anchor not found`), `Expected code block not found`, `old string not found`, `target not found`, `Code to replace not found`, `needle not found`, `target location not found` (`insertion point not found`), `could not find` or `unable to locate` one of these, `boundaries not found`, also written with underscores for spaces (`pattern_not_found`), optionally after a harness's `bash execution output:` line, alone or followed by the context it printed; when the call edits a file (a script that writes one), also with a word naming what was sought before it (`isproperty pattern not found`, `could not locate isproperty boundaries`), whatever the exit code",
		match: func(o *output) (string, bool) {
			if !mayNotFind(o.text) {
				return "", false
			}
			return "", reScriptNoMatch.MatchString(scriptNoMatchLine(o))
		},
	},
	{
		Name: "edit-helper-no-change", ErrorType: schema.ErrEditRejected, Final: true,
		Doc: "an editing helper's report (the mini-swe-agent research fork's `code_replace`: `Replaced L195-207 (13 lines) -> L195-207 (13 lines)`, then `Old:` and `New:` with the text) in which every replacement's new text is its old text, and nothing was inserted: the edit changed nothing, as an editor that refuses an old text equal to the new one says outright; not retryable (`retryable: false`): the same call changes nothing however often it is sent, as a text replaced by itself",
		match: func(o *output) (string, bool) {
			if !strings.Contains(o.text, "Replaced L") || !strings.Contains(o.text, "  New: ") {
				return "", false
			}
			return "", helperNoChange(o.text)
		},
	},
	{
		Name: "timeout", ErrorType: schema.ErrTimeout,
		Doc: "the first or last line says `timed out`, `timeout expired` or `time limit exceeded`",
		match: func(o *output) (string, bool) {
			return "", mentionsTime(o.first) && reTimedOut.MatchString(o.first) || mentionsTime(o.last) && reTimedOut.MatchString(o.last)
		},
	},
	{
		Name: "python-traceback", ErrorType: "<exception class>",
		Doc: "a line `Traceback (most recent call last):` followed by an exception line (`ValueError: ...`), or, when a filter cut the header off (`tail -3`), a frame `  File \"FILE\", line N` (indented two spaces, or three when a harness put one before the output, or after a short label of the script's own, `compile failed: File ...`), or opening an output whose logger trimmed its blank space and the frame's indentation with it (SWE-agent's and OpenHands' observations: Python reports a script that does not parse so, `File \"repro.py\", line 12`, the line, a caret, `SyntaxError: invalid syntax`) followed by one; or py_compile's line for code that does not parse, `Sorry: IndentationError: expected an indented block (python.py, line 1272)`; the error type is the exception's class name, also of a class whose name does not say it is one, read where Python writes it after a header: the first line under the last frame that is not indented (`django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, ...`), else EXCEPTION",
		match: func(o *output) (string, bool) {
			i := strings.Index(o.text, "Traceback (most recent call last):")
			header := i >= 0
			if !header {
				if strings.Contains(o.text, "Sorry: ") {
					// py_compile's one line for code that does not parse.
					if m := rePyCompileSorry.FindStringSubmatch(o.text); m != nil {
						return m[1], true
					}
				}
				// The tail of a traceback: a frame, then the exception.
				if !strings.Contains(o.text, "File \"") {
					return "", false
				}
				f := reTracebackFrame.FindStringIndex(o.text)
				if f == nil {
					// A logger that trims outputs took the frame's
					// indentation off when it opened the output.
					t := strings.TrimLeft(o.text, " \t\n")
					g := reTracebackFrameTrimmed.FindStringIndex(t)
					if g == nil {
						return "", false
					}
					f = []int{0, len(o.text) - len(t) + g[1]}
				}
				i = f[1]
			}
			m := reTracebackEnd.FindAllStringSubmatch(o.text[i:], -1)
			if len(m) == 0 {
				if !header {
					return "", false
				}
				// An exception whose class does not say it is one
				// (Django's ImproperlyConfigured) is named by the line
				// after the traceback's last frame all the same.
				if c := exceptionAfterFrames(o.text[i:]); c != "" {
					return c, true
				}
				// A header says a program died, whatever of.
				return errException, true
			}
			return m[len(m)-1][1], true
		},
	},
	{
		Name: "pytest-collection-error", ErrorType: "<exception class> or COLLECTION_ERROR",
		Doc: "pytest's `Interrupted: N error(s) during collection` (or `N error(s) during collection`), a header `___ ERROR collecting tests/test_a.py ___`, or `ERROR: found no collectors for` (a test named by its id in a module that does not import): no test ran, as when a compiler stops a build; the error type is the class of the last `E   ...Error: ...` line (`ModuleNotFoundError`), else COLLECTION_ERROR",
		match: func(o *output) (string, bool) {
			if !containsAny(o.text, " during collection", " ERROR collecting ", "ERROR: found no collectors") || !rePytestCollection.MatchString(o.text) {
				return "", false
			}
			if m := rePytestELine.FindAllStringSubmatch(o.text, -1); len(m) > 0 {
				return m[len(m)-1][1], true
			}
			return "COLLECTION_ERROR", true
		},
	},
	{
		Name: "pytest-not-found", ErrorType: "NO_SUCH_FILE",
		Doc: "pytest's own refusal of what it was asked to run: `ERROR: file or directory not found: tests/test_x.py`, or `ERROR: not found: tests/test_x.py::test_y` followed by `(no match in any of [...])`: no test ran",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "ERROR: ") && rePytestNotFound.MatchString(o.text)
		},
	},
	{
		Name: "search-pattern-error", ErrorType: "PATTERN_ERROR",
		Doc: "a line is grep's own complaint about the pattern it was given, which stops it before it searches: GNU grep's `grep: Unmatched ( or \\(`, `Unmatched [`, `Invalid regular expression`, `Invalid range end`, `Invalid back reference`, `Invalid preceding regular expression`, `Trailing backslash`, `Invalid content of \\{\\}`; BSD grep's `parentheses not balanced`, `brackets ([ ]) not balanced`; ripgrep's `regex parse error:`; what grep is piped into (sed, head, a `true` after it) hides its exit status, not its message",
		match: func(o *output) (string, bool) {
			if !containsAny(o.text, "grep: ", "regex parse error") {
				return "", false
			}
			return "", rePatternError.MatchString(o.text)
		},
	},
	{
		Name: "command-not-found", ErrorType: "COMMAND_NOT_FOUND",
		Doc: "a line ends with `command not found` (bash), or is a shell's `: not found` (`sh: 1: rg: not found`, `/bin/sh: rg: not found`: dash, busybox; a line ending `: not found` without a shell's name before it is a program's own answer, such as a lookup helper's `enums.py enums: not found`), either with the `...` of a logger that cut the output there; or Python's own `python3: No module named pytest` (a tool run with `python -m` that is not installed)",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "not found") && reNotFoundCmd.MatchString(o.text) ||
				strings.Contains(o.text, ": No module named ") && reNoModuleToRun.MatchString(o.text)
		},
	},
	{
		Name: "shell-syntax-error", ErrorType: schema.ErrShellSyntax,
		Doc: "a line in which the shell (bash, sh, dash, zsh) says the command line is not valid shell: `bash: -c: line 3: syntax error near unexpected token` (`/bin/bash: eval: line 1: ...` from a harness, such as Claude Code, that runs the command through `eval`) or `syntax error: unexpected end of file`, or its refusal of a `!` it took for history expansion (`bash: !,: event not found`, zsh's `zsh: event not found: x`: the shell drops the whole line), with nothing but the shell's own lines printed before it: nothing ran, as with a malformed call. The shell runs a command line one complete command at a time, so when something printed before the complaint (a script's `patched`, then the error on a stray `&&` after it), the commands before it ran and the call is not read as unparsed",
		match: func(o *output) (string, bool) {
			if !containsAny(o.text, "syntax error", "Syntax error", "event not found") {
				return "", false
			}
			at := reShellSyntax.FindStringIndex(o.text)
			if at == nil {
				at = reShellHistory.FindStringIndex(o.text)
			}
			return "", at != nil && ranNothingBefore(o.text[:at[0]])
		},
	},
	{
		Name: "script-syntax-error", ErrorType: schema.ErrScriptSyntax,
		Doc: "perl's `Execution of -e aborted due to compilation errors.` (or of a script's path) or its refusal of a regular expression (`Unmatched ( in regex; marked by <-- HERE in m/...`), or awk's `awk: line 5: syntax error at or near`, `runaway string constant`, `regular expression compile failed` (gawk's `awk: cmd. line:3:` too), or sed's `sed: -e expression #1, char 23: unterminated `s' command`: the program on the command line did not compile and nothing ran, whatever the command printed after it (`|| echo failed`)",
		match: func(o *output) (string, bool) {
			return "", (strings.Contains(o.text, "aborted due to compilation errors") || strings.Contains(o.text, "marked by <-- HERE") || strings.Contains(o.text, "awk: ") || strings.Contains(o.text, "sed: -e")) && reScriptSyntax.MatchString(o.text)
		},
	},
	{
		Name: "compiler-error", ErrorType: "COMPILE_ERROR",
		Doc: "a line `FILE:LINE[:COL]: error:` (gcc, clang, javac style); a header not found (`main.c:3:10: fatal error: foo.h: No such file or directory`) is a compile error too",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, " error:") && reCompilerError.MatchString(o.text)
		},
	},
	{
		Name: "no-such-file", ErrorType: "NO_SUCH_FILE",
		Doc: "a line ends with `No such file or directory` (or with it and a full stop, or the `...` of a logger that cut the output there), or is Python's message for it, `[Errno 2] No such file or directory: 'PATH'`, as a tool that caught the error prints it: alone or after a few words of the tool's own without a colon in them (`Failed to create draft: [Errno 2] No such file or directory: 'credentials.json'`, `Ran into [Errno 2] ...`); not after an exception's class (`FileNotFoundError: [Errno 2] ...`, a traceback's or a test report's line, which the rules for those read) nor inside a longer line (a logger's record, `WARNING: convert command 'convert' cannot be run, check the image_converter setting: [Errno 2] ...`)", ViewsToo: false,
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "No such file or directory") && (reNoSuchFile.MatchString(o.text) || caughtNoSuchFile(o.text))
		},
	},
	{
		Name: "permission-denied", ErrorType: "PERMISSION_DENIED",
		Doc: "a line ends with `Permission denied` (`bash: ./run.sh: Permission denied`, `awk: cannot open /etc/shadow (Permission denied)`, `mkdir: cannot create directory 'x': Permission denied`), except in a search's output, where find and grep report each directory they could not read and go on",
		match: func(o *output) (string, bool) {
			return "", !o.search && strings.Contains(o.text, "Permission denied") && rePermissionDenied.MatchString(o.text)
		},
	},
	{
		Name: "file-op-refused", ErrorType: "ERROR",
		Doc: "a line in which a file utility (mv, cp, rm, ln, mkdir, rmdir) says it could not do what it was asked, for a reason the two rules above do not read: `mv: cannot move 'lib/pt-br' to a subdirectory of itself, 'lib/pt-BR/pt-br'`, `rm: cannot remove 'dist': Directory not empty`, `mkdir: cannot create directory 'out': File exists`, `ln: failed to create symbolic link 'x': File exists`, or cp's, mv's or ln's refusal to copy a file onto itself (`cp: '/root/app' and './app' are the same file`); the utility exited non-zero, so a command chained after it with `&&` (`mv a b && yarn install`) did not run. Not in a search's output",
		match: func(o *output) (string, bool) {
			return "", !o.search && strings.Contains(o.text, ": ") && reFileOpRefused.MatchString(o.text)
		},
	},
	{
		Name: "viewer-no-such-file", ErrorType: "NO_SUCH_FILE", ViewsToo: true,
		Doc: "a file viewer's own complaint that the file it was to show is not there, on the output's first line, before any file was shown: `nl: tests/test_x.py: No such file or directory` (cat, nl, head, tail, less, more, bat)",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "No such file or directory") && reViewerNoSuchFile.MatchString(o.text)
		},
	},
	{
		Name: "is-a-directory", ErrorType: "IS_A_DIRECTORY", ViewsToo: true,
		Doc: "every line of the output is a program's complaint that a path it was to read or write is a directory (`grep: tests: Is a directory`, grep without `-r`; `nl: src/pkg: Is a directory`; `bash: out/models.py: Is a directory`): the program did nothing else, a search searched nothing, a viewer showed nothing",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, ": Is a directory") && onlyIsADirectory(o.text)
		},
	},
	{
		Name: "rust-error", ErrorType: "COMPILE_ERROR",
		Doc: "rustc's diagnostic, a line `error[E0308]: ...` or `error: ...` followed by ` --> FILE:LINE:COL`, or cargo's `error: could not compile`",
		match: func(o *output) (string, bool) {
			return "", (strings.Contains(o.text, "--> ") || strings.Contains(o.text, "could not compile")) && reRustError.MatchString(o.text)
		},
	},
	{
		Name: "typescript-error", ErrorType: "COMPILE_ERROR",
		Doc: "tsc's `error TS2322:` (`src/a.ts(3,5): error TS2322: ...`, `src/a.ts:3:5 - error TS2322: ...`)",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "error TS") && reTSError.MatchString(o.text)
		},
	},
	{
		Name: "bundler-error", ErrorType: "COMPILE_ERROR",
		Doc: "a JavaScript bundler that stopped on an error: webpack's `compiled with N error(s)`, esbuild's `✘ [ERROR] ...`, Vite's and Rollup's `error during build:`, Next.js's `Failed to compile.`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "\u2718 [ERROR] ") || strings.Contains(o.text, "compiled with ") && reWebpackErrors.MatchString(o.text) ||
				containsAny(o.text, "error during build:", "Failed to compile.") && reBundlerStopped.MatchString(o.text)
		},
	},
	{
		Name: "go-build-error", ErrorType: "COMPILE_ERROR",
		Doc: "the go tool's package header `# PACKAGE` and a line `FILE.go:LINE:COL: message` (go build, go run, go test, go vet), or go test's `FAIL PACKAGE [build failed]` (or `[setup failed]`)",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, ".go:") && reGoBuildError.MatchString(o.text) && reGoBuildHeader.MatchString(o.text) ||
				strings.Contains(o.text, " failed]") && reGoTestBuildFailed.MatchString(o.text)
		},
	},
	{
		Name: "jvm-build-error", ErrorType: "COMPILE_ERROR",
		Doc: "Maven's `[ERROR] COMPILATION ERROR`, `[ERROR] FILE.java:[LINE,COL] ...` or `[ERROR] Failed to execute goal ...:compile (...) on project P: Compilation failure`, kotlinc's `e: FILE.kt:LINE:COL`, Gradle's `> Compilation failed`, `Execution failed for task ':compileJava'` or `> Task :compileJava FAILED`",
		match: func(o *output) (string, bool) {
			return "", (containsAny(o.text, "[ERROR] ", "\ne: ", "> Compilation failed", "Execution failed for task", " FAILED") || strings.HasPrefix(o.text, "e: ")) && reJVMBuildError.MatchString(o.text)
		},
	},
	{
		Name: "build-failed", ErrorType: "BUILD_FAILED",
		Doc: "`CMake Error`, the linker's `collect2: error: ld returned 1 exit status` or `ld: error:`, Sphinx's `Warning, treated as error:` on a line of its own (`sphinx-build -W` stopped on a warning), or Maven's `[ERROR] Failed to execute goal` of a plugin other than the test runners (surefire, failsafe): failing tests are not a broken build; or Maven's refusal of the project itself, before any goal ran: `[ERROR] Some problems were encountered while processing the POMs:`, `[ERROR] The project G:A:V (pom.xml) has 1 error`, `The build could not read 1 project`, `Could not find the selected project in the reactor` (`-pl` naming no module); or, when a filter or a logger cut the goal line off, Maven's `[INFO] BUILD FAILURE` or Gradle's `BUILD FAILED` in an output that shows no test ran (no `Tests run:`, `There are test failures`, `tests completed`, `There were failing tests`)",
		match: func(o *output) (string, bool) {
			if strings.Contains(o.text, "Failed to execute goal") {
				if m := reMavenGoal.FindStringSubmatch(o.text); m != nil {
					return "", !strings.Contains(m[1], "surefire") && !strings.Contains(m[1], "failsafe")
				}
			}
			if containsAny(o.text, "BUILD FAILURE", "BUILD FAILED") && reJVMBuildFailure.MatchString(o.text) {
				return "", !containsAny(o.text, "Tests run:", "There are test failures", "tests completed", "There were failing tests", "surefire", "failsafe")
			}
			return "", containsAny(o.text, "CMake Error", "collect2: error", "ld: error", "Warning, treated as error:", "[ERROR] ") && reBuildFailed.MatchString(o.text)
		},
	},
	{
		Name: "package-manager-error", ErrorType: "NPM_<code>, PIP_<code> or ERROR",
		Doc: "npm's `npm ERR! code ECODE` (or `npm error code ECODE`: ENOTEMPTY, ERESOLVE, E404, ...; the error type is NPM_ECODE; ELIFECYCLE, a package script that exited non-zero, is left to what the script printed), npm's `Missing script: \"test\"` (ERROR), or, its code line cut off by a filter or a logger (`npm install 2>&1 | tail -20`), npm's own `npm error` (`npm ERR!`) lines, which it prints only when it gives up: NPM_ and the system error a line names (`npm error EEXIST: file already exists`), NPM_ERESOLVE for `Could not resolve dependency` or `Conflicting peer dependency`, else ERROR (not in a search's output, and not for a package script that failed: `Lifecycle script`, `command failed`), yarn's `error An unexpected error occurred:` or `error Couldn't find a package`, Yarn 2's (Berry's) closing `➤ YN0000: · Failed with errors in 8s` (ERROR); pip's diagnostic `error: metadata-generation-failed` (`subprocess-exited-with-error`, `failed-wheel-build-for-install`, `externally-managed-environment`, `resolution-too-deep`; the error type is PIP_ and the code, upper case), or its `ERROR: Could not find a version that satisfies the requirement`, `No matching distribution found for`, `Failed building wheel for`, `Cannot install ...` (PIP_ERROR), or, its code line cut off by a filter or a logger (`pip install -e . 2>&1 | tail -5`), pip's closing `× Encountered error while generating package metadata.` (PIP_METADATA_GENERATION_FAILED, the code it follows) or `× Encountered error while trying to install package.` (PIP_ERROR)",
		match: func(o *output) (string, bool) {
			if strings.Contains(o.text, "error: ") {
				// The last code: pip prints subprocess-exited-with-error
				// first, then what it stopped on.
				if m := rePipCode.FindAllStringSubmatch(o.text, -1); m != nil {
					return "PIP_" + strings.ToUpper(strings.ReplaceAll(m[len(m)-1][1], "-", "_")), true
				}
			}
			if strings.Contains(o.text, "ERROR: ") && rePipError.MatchString(o.text) {
				return "PIP_ERROR", true
			}
			// pip's closing report, its code line above cut off by a
			// filter or a logger (`pip install . 2>&1 | tail -5`).
			if strings.Contains(o.text, "Encountered error while ") {
				if m := rePipEncountered.FindStringSubmatch(o.text); m != nil {
					if strings.HasPrefix(m[1], "generating package metadata") {
						return "PIP_METADATA_GENERATION_FAILED", true
					}
					return "PIP_ERROR", true
				}
			}
			if containsAny(o.text, "npm ERR! Missing script: ", "npm error Missing script: ") {
				return "ERROR", true
			}
			if containsAny(o.text, "npm ERR! code E", "npm error code E") {
				if m := reNPMCode.FindStringSubmatch(o.text); m != nil && m[1] != "ELIFECYCLE" {
					return "NPM_" + m[1], true
				}
			}
			if containsAny(o.text, "error An unexpected error occurred: ", "error Couldn't find ", "error Package \"", "Failed with errors in ") && reYarnError.MatchString(o.text) {
				return "ERROR", true
			}
			if containsAny(o.text, "npm ERR! ", "npm error ") && !o.search {
				return npmFailed(o.text)
			}
			return "", false
		},
	},
	{
		Name: "make-failed", ErrorType: "EXIT_CODE",
		Doc: "make's `make: *** [TARGET] Error N` (a recipe exited non-zero, which says no more than an exit code) or `make: *** No rule to make target`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "***") && reMakeFailed.MatchString(o.text)
		},
	},
	{
		Name: "uncaught-exception", ErrorType: "<exception class> or PANIC",
		Doc: "a program died of an exception: Java's `Exception in thread \"main\" CLASS`, Node's `CLASS: message` and `    at ...` frames above a last line `Node.js vN.N.N`, or below the line of code it was thrown at and its caret `^` as Node prints it without that last line, the class with or without its code (`TypeError [ERR_IMPORT_ATTRIBUTE_MISSING]: ...`) and followed by its frames or, for a module it could not load, by its `Require stack:` (`Error: Cannot find module 'react'`, then `Require stack:` and `- /tmp/t.js`: a logger that cut the output short may leave no frame) (the error type is the class); Go's `panic:` with its `goroutine N [` dump, Rust's `thread '...' panicked at` (PANIC); not a panic inside a test run (Go's `--- FAIL:`, Rust's `test result: FAILED.`): a failing test is no crash; PHP's `PHP Fatal error:  Uncaught CLASS` or `PHP Parse error:` (the class, else FATAL_ERROR); Ruby's `FILE:LINE:in ...: message (CLASS)` (the class)",
		match: func(o *output) (string, bool) {
			if !containsAny(o.text, "Exception in thread", "Node.js v", "panic", "PHP ", ":in ", "    at ", "Require stack:") {
				return "", false
			}
			if strings.Contains(o.text, "PHP ") {
				if m := rePHPFatal.FindStringSubmatch(o.text); m != nil {
					if m[1] != "" {
						return m[1], true
					}
					return "FATAL_ERROR", true
				}
			}
			if strings.Contains(o.text, ":in ") {
				if m := reRubyUncaught.FindStringSubmatch(o.text); m != nil {
					return m[1], true
				}
			}
			if m := reJavaUncaught.FindStringSubmatch(o.text); m != nil {
				return m[1], true
			}
			if m := reNodeThrownAtCaret.FindStringSubmatch(o.text); m != nil {
				return m[1], true
			}
			if reNodeVersion.MatchString(o.last) {
				if m := reNodeThrown.FindStringSubmatch(o.text); m != nil {
					return m[1], true
				}
				return errException, true
			}
			if reGoPanic.MatchString(o.text) || reRustPanic.MatchString(o.text) {
				// A test that panicked is a failing test, as an assertion
				// is in pytest or JUnit: the run is an experiment's answer.
				if containsAny(o.text, "--- FAIL: ", "test result: FAILED.") {
					return "", false
				}
				return "PANIC", true
			}
			return "", false
		},
	},
	{
		Name: "crashed", ErrorType: schema.ErrCrashed,
		Doc: "a program killed by a signal, as the shell reports it on a line of its own: `Segmentation fault`, `Bus error`, `Illegal instruction`, `Floating point exception`, `Aborted`, `Killed` (the kernel's out-of-memory killer), each with or without `(core dumped)` and bash's `line 1: PID` before it; or the Go runtime's `fatal error: runtime: ...` (out of memory), `fatal error: all goroutines are asleep - deadlock!`, `fatal error: concurrent map writes`",
		match: func(o *output) (string, bool) {
			return "", containsAny(o.text, "Segmentation fault", "Bus error", "Illegal instruction", "Floating point exception", "Aborted", "Killed", "fatal error: ") && reCrashed.MatchString(o.text)
		},
	},
	{
		Name: "go-tool-error", ErrorType: "BUILD_FAILED",
		Doc: "the go command could not set the build up: `go: cannot find main module`, `go: go.mod file not found`, `go: errors parsing go.mod`, `go: updates to go.mod needed`, `go: inconsistent vendoring`, `no required module provides package P`, `package P is not in std`",
		match: func(o *output) (string, bool) {
			return "", containsAny(o.text, "go: ", "no required module", "is not in std") && reGoToolError.MatchString(o.text)
		},
	},
	{
		Name: "curl-error", ErrorType: "ERROR",
		Doc: "curl's own failure line `curl: (N) message` (`curl: (7) Failed to connect to localhost port 8080`), a request that never got an answer; one that timed out is the `timeout` rule's",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "curl: (") && reCurlError.MatchString(o.text)
		},
	},
	{
		Name: "prettier-error", ErrorType: "<error class>",
		Doc: "Prettier's report of an input it could not format, on a line of its own: `[error] stdin: SyntaxError: Unexpected token (1:5)`, `[error] src/a.ts: TypeError: ...`, the input's name (`stdin` or a file's path) and the error's class; Prettier exits non-zero and writes nothing for that input, whatever it printed for others (the error type is the class)",
		match: func(o *output) (string, bool) {
			return groupAfter(o.text, "[error] ", rePrettierError)
		},
	},
	{
		Name: "netcat-error", ErrorType: "ERROR",
		Doc: "a netcat-like client could not connect, on a line of its own: netcat's `HOST [IP] PORT (SERVICE) : Connection refused` (or `Connection timed out`, `No route to host`), OpenBSD nc's `nc: connect to HOST port PORT (tcp) failed: MESSAGE`, Ncat's `Ncat: Connection refused.`, telnet's `telnet: Unable to connect to remote host: MESSAGE`; not when a line says another port answered (`open`, `succeeded!`), a scan of several ports",
		match: func(o *output) (string, bool) {
			return "", containsAny(o.text, " : ", "nc: ", "Ncat: ", "telnet: ") && reNetcatError.MatchString(o.text) && !reNetcatOpen.MatchString(o.text)
		},
	},
	{
		Name: "apt-error", ErrorType: "ERROR",
		Doc: "apt's (apt-get's, dpkg's) own error line `E: MESSAGE` of a package it could not find, fetch or install, or a lock it could not take: `E: Unable to locate package P`, `E: Package 'P' has no installation candidate`, `E: Couldn't find any package by ...`, `E: Version 'V' for 'P' was not found`, `E: Unable to fetch some archives`, `E: Failed to fetch URL`, `E: Could not get lock FILE` (`E: Could not open lock file`, `E: Unable to acquire the dpkg frontend lock`), `E: Unable to correct problems, you have held broken packages.`, `E: Sub-process /usr/bin/dpkg returned an error code (N)`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "E: ") && reAptError.MatchString(o.text)
		},
	},
	{
		Name: "openssl-error", ErrorType: "ERROR",
		Doc: "OpenSSL could not do what it was asked, on a line of its own: an entry of its error queue (`C0BEC2ABAA2A0000:error:1608010C:STORE routines:...`, `140735:error:0909006C:PEM routines:get_name:no start line:...`), or the openssl command's own `Could not find private key from KEY`, `Could not read certificate from FILE`, `unable to load Private Key`, `pkeyutl: Error initializing context`",
		match: func(o *output) (string, bool) {
			return "", (strings.Contains(o.text, ":error:") || strings.Contains(o.text, "ould not ") || strings.Contains(o.text, "nable to load") || strings.Contains(o.text, "Error initializing")) && reOpenSSLError.MatchString(o.text)
		},
	},
	{
		Name: "tests-failed", ErrorType: schema.ErrTestsFailed,
		Doc: "a test runner's own summary says tests failed: pytest's `N failed` closing line (`=== 1 failed, 2 passed in 0.05s ===`) a line of its short summary (`FAILED tests/test_a.py::test_c - assert 4 == 5`, `ERROR tests/test_a.py::test_d`) or the header of its `FAILURES` or `ERRORS` section (a summary a logger cut off), or, cut off before any of these (by `head`, a timeout, a logger), a line of its progress with an `F` or an `E` (`..F.ss.. [ 62%]`) or a test's verbose result `tests/test_a.py::test_b FAILED [ 83%]`, or a JavaScript runner's report of one failing test (Mocha's numbered entry `  3) suite`, the test's title lines ending with `:`, then its `Error: ...`; Jest's `FAIL tests/a.spec.js` or its `● Test suite failed to run`, `● suite › test`), unittest's `FAILED (failures=N)`, go test's `--- FAIL:` or `FAIL PACKAGE 0.01s`, Jest's and Vitest's `Tests: N failed`, Mocha's `N failing` (also cut short by a logger, `N failing...`), Maven Surefire's and JUnit's `Tests run: N, Failures: N` with a failure or an error, `There are test failures`, JUnit 4's `FAILURES!!!`, the JUnit console launcher's `[ 1 tests failed ]`, Gradle's `N tests completed, N failed` or `There were failing tests`, cargo's `test result: FAILED.`, CTest's `tests failed out of`, RSpec's `N examples, N failures`, PHPUnit's `FAILURES!`, GoogleTest's `[  FAILED  ]`, Catch2's `test cases: N | N passed | N failed`, `dotnet test`'s `Failed!  - Failed: N`. The runner exited non-zero, as a log that keeps exit codes says: this reads it where the log keeps none. A failing test is an experiment's answer (the same failure after an edit that applied is the next experiment, docs/detectors/RA301.md); the type is generic, so two failing runs are the same failure only when their answers are alike",
		match: func(o *output) (string, bool) {
			return "", testsFailed(o.text) || strings.Contains(o.text, "%]") && rePytestProgressFailed.MatchString(o.text) ||
				(strings.Contains(o.text, ") ") || strings.Contains(o.text, "FAIL ") || strings.Contains(o.text, "● ")) && reJSFailureEntry.MatchString(o.text)
		},
	},
	{
		Name: "http-status", ErrorType: "HTTP_<code>",
		Doc: "a status line `HTTP/1.1 4xx` or `5xx`, or the message of Python requests' `HTTPError` (`404 Client Error: Not Found for url: URL`, `503 Server Error: ...`, as a web-reading tool prints it in its own failure); 429 is RATE_LIMIT, 408 and 504 TIMEOUT",
		match: func(o *output) (string, bool) {
			var m []string
			if strings.Contains(o.text, "HTTP/") {
				m = reHTTPStatus.FindStringSubmatch(o.text)
			}
			if m == nil && strings.Contains(o.text, " Error: ") {
				m = reHTTPError.FindStringSubmatch(o.text)
			}
			if m == nil {
				return "", false
			}
			switch m[1] {
			case "429":
				return schema.ErrRateLimit, true
			case "408", "504":
				return schema.ErrTimeout, true
			}
			return "HTTP_" + m[1], true
		},
	},
	{
		Name: "mcp-is-error", ErrorType: "ERROR",
		Doc: "an MCP tool result (a CallToolResult, as JSON or as the Python SDK prints it) that says `isError`, also when a proxy tool (a router executing the tool for the agent) wraps it in a result of its own that says its call went through",
		match: func(o *output) (string, bool) {
			return "", o.mcpFailed
		},
	},
	{
		Name: "json-error", ErrorType: "ERROR",
		Doc: "the output is a JSON object that reports a failure at its top level: a non-empty `\"error\"` (a message or an object), `\"success\": false` or `\"ok\": false`, or `\"status\": \"error\"`: `{\"error\": \"No presentation is currently loaded\"}`",
		match: func(o *output) (string, bool) {
			return "", jsonReportsError(o.text)
		},
	},
	{
		Name: "error-prefix", ErrorType: "ERROR",
		Doc: "the output's first line (past the warnings Python printed before it, the Java VM's own `OpenJDK 64-Bit Server VM warning:` lines, the shell's own warnings, `bash: line 11: warning: here-document at line 1 delimited by end-of-file`, a program's own warning lines in capitals, radare2's `WARN: Relocs has not been applied. ...`, and the `bash execution output:` label the mini-swe-agent research fork puts before every output) begins `Error:`, `ERROR:`, `error:`, `error[E0308]:`, `Exception:`, `FAILED`, `Failed`, `fatal:` (git's refusals: `fatal: not a git repository`) or `An error occurred` (`An error occurred while executing the command: ...`, a tool's own words for its failure)",
		match: func(o *output) (string, bool) {
			return "", reErrorPrefix.MatchString(o.first)
		},
	},
	{
		Name: "error-every-line", ErrorType: "<exception class> or ERROR",
		Doc: "every line of the output (two or more) is a case the program tried, each ending with the same error it caught and printed: a word saying so (`ERR`, `ERROR`, `Error`, `Exception`, `raised`, `FAILED`), then one same message of ten characters or more (`Sun, 06 Nov 94 08:49:37 GMT ERR name 'RFC822_DATE' is not defined` on every line): no case got through, as if the program had died of it, whatever the exit code; the error type is the class the message opens with (`NameError: ...`), else ERROR",
		match: func(o *output) (string, bool) {
			if o.search {
				return "", false
			}
			return everyLineCaught(o.text)
		},
	},
	{
		Name: "argparse-usage", ErrorType: schema.ErrUsage,
		Doc: "Python's argparse refused the command line it was given: a line `usage: PROG ...` (its wrapped lines indented under it) followed at once by the line `PROG: error: ...` naming the same program (`usage: manage.py test [-h] ...`, then `manage.py test: error: unrecognized arguments: --fast`); the program stopped before it did anything. Its help (`-h`) prints the usage without the error line and is not read so",
		match: func(o *output) (string, bool) {
			return "", argparseRefused(o.text)
		},
	},
	{
		Name: "option-refused", ErrorType: schema.ErrUsage,
		Doc: "a command-line utility refused the options it was given, as getopt reports it: a line `PROG: invalid option -- 'S'`, `PROG: unrecognized option '--no-color'`, `PROG: illegal option -- S` (BSD), `PROG: option requires an argument -- 'e'`, `PROG: missing operand` (`cp: missing destination file operand after 'a'`) or `PROG: extra operand 'x'`, followed at once by its `Usage: PROG ...` or `Try 'PROG --help' for more information.` naming the same program; or git's `error: unknown option` (`unknown switch`) followed by its `usage: git CMD`: the program stopped before it did anything (`grep -S` searched nothing), also in a search's output",
		match: func(o *output) (string, bool) {
			return "", containsAny(o.text, "invalid option", "unrecognized option", "illegal option", "option requires", " operand", "error: unknown ") && optionRefused(o.text)
		},
	},
	{
		Name: "no-tests-run",
		Doc:  "a test runner's own summary says it ran no test, the selection it was given matched none: pytest's `collected 0 items` with its closing `no tests ran in 0.12s` (not `collected 0 items / 1 error`, a collection that failed), unittest's `Ran 0 tests in 0.000s`, Mocha's (istanbul's) `No test files found`, Jest's `No tests found`: the check found nothing to run",
		match: func(o *output) (string, bool) {
			return "", containsAny(o.text, "collected 0 items", "Ran 0 tests", "No test files found", "No tests found") && noTestsRun(o.text)
		},
	},
	{
		Name: "empty-phrase", ViewsToo: true,
		Doc: "the first line says nothing was found: `No matches found`, `No results found`, `Found 0 matches`, `0 results found`, `no match for`, `Nothing found` and the like",
		match: func(o *output) (string, bool) {
			return "", reEmptyPhrase.MatchString(o.first)
		},
	},
	{
		Name: "empty-json-search",
		Doc:  "a search answered with a JSON object whose result lists (`results`, `items`, `hits`, `matches`, `rows`, `nodes`, `documents`, `records`, `entries`, `files`, a list under `data`), at any depth up to 3, are all empty: `{\"success\": true, \"data\": {\"results\": [], \"totalCount\": 0}}`",
		match: func(o *output) (string, bool) {
			return "", o.search && emptyJSONResults(o.text)
		},
	},
	{
		Name: "empty-search", ViewsToo: true,
		Doc: "a search (grep, rg, ag, ack, find, fd, git grep, a tool named *search*, *find*, *lookup*, *query*; a function of the mini-swe-agent research fork whose shell commands, handed to `exec_bash_cmd`, all search; not one that hands what it finds to a program that changes files and prints nothing when it works: `find -delete`, `find -exec rm`, `-exec sed -i`, piped into `xargs rm`) printed nothing, or only `[]`, `{}`, `null` or `None`, past the fork's label `bash execution output:`; also a file viewer's lines piped into grep (`cat package.json` into `grep engines`, `nl -ba f.py` into `grep -n \"def x\"`): the file does not hold what grep looked for",
		match: func(o *output) (string, bool) {
			if !o.search {
				return "", false
			}
			switch withoutHarnessLabel(o.text) {
			case "", "[]", "{}", "null", "None":
				return "", true
			}
			return "", false
		},
	},
}

// reNPMLine is a line of npm's own failure report, whose code line a
// filter or a logger cut off; reNPMErrno is one naming the system error
// (`npm error EEXIST: file already exists`).
var (
	reNPMLine  = regexp.MustCompile(`(?m)^npm (?:ERR!|error) `)
	reNPMErrno = regexp.MustCompile(`(?m)^npm (?:ERR!|error) (E[A-Z]{3,}): `)
)

// npmFailed reads npm's failure report without its `code` line: npm
// prints `npm error` (`npm ERR!` before npm 10) lines only when it gives
// up. A package script that exited non-zero (ELIFECYCLE, `Lifecycle script
// ... failed`, `command failed`) is left to what the script printed, as
// with the code line.
func npmFailed(text string) (string, bool) {
	if !reNPMLine.MatchString(text) || containsAny(text, "ELIFECYCLE", "Lifecycle script", "command failed", "Exit status", "Failed at the", "Test failed.") {
		return "", false
	}
	if m := reNPMErrno.FindStringSubmatch(text); m != nil && m[1] != "ERROR" {
		return "NPM_" + m[1], true
	}
	if containsAny(text, "Could not resolve dependency", "Conflicting peer dependency", "ERESOLVE") {
		return "NPM_ERESOLVE", true
	}
	return "ERROR", true
}

// reOptionRefused is getopt's refusal of a command line (GNU's and BSD's
// wording), the program's name in its group; reOptionUsage is the line
// that follows it, its usage or its hint, naming the program again;
// reGitOptionRefused is git's parse-options refusal, its usage after it.
var (
	reOptionRefused    = regexp.MustCompile(`(?m)^(?:\S*/)?([a-z][\w.+-]*): (?:invalid option -- '?.'?|unrecognized option '[^'\n]*'|illegal option -- .|option requires an argument -- '?.'?|missing (?:[\w ]+ )?operand(?: after '[^'\n]*')?|extra operand '[^'\n]*')\n(.*)`)
	reOptionUsage      = regexp.MustCompile(`^(?:[Uu]sage: (?:\S*/)?([a-z][\w.+-]*)|Try '(?:\S*/)?([a-z][\w.+-]*) --help')`)
	reGitOptionRefused = regexp.MustCompile(`(?m)^error: (?:unknown option|unknown switch) .*\nusage: git \w`)
)

// optionRefused reports whether text holds a utility's refusal of its
// options (the option-refused rule): the refusal and, on the next line, the
// usage or the hint naming the same program.
func optionRefused(text string) bool {
	for _, m := range reOptionRefused.FindAllStringSubmatch(text, -1) {
		if u := reOptionUsage.FindStringSubmatch(m[2]); u != nil && (u[1] == m[1] || u[2] == m[1]) {
			return true
		}
	}
	return strings.Contains(text, "error: unknown ") && reGitOptionRefused.MatchString(text)
}

// reIsADirectory is a program's complaint (`PROG: PATH: Is a directory`,
// bash's with its `line N:`) that a path it was given is a directory.
var reIsADirectory = regexp.MustCompile(`^(?:\S*/)?[a-z][\w.+-]*: (?:line \d+: )?\S.*: Is a directory$`)

// onlyIsADirectory reports whether every non-blank line of text is such a
// complaint.
func onlyIsADirectory(text string) bool {
	n := 0
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !reIsADirectory.MatchString(line) {
			return false
		}
		n++
	}
	return n > 0
}

// argparseRefused reports whether text holds argparse's refusal of a
// command line: `usage: PROG ...`, the usage's wrapped lines (indented),
// then `PROG: error: ...` with PROG the start of the usage (a subcommand's
// parser names it after its parent's: `manage.py test: error:`).
func argparseRefused(text string) bool {
	if !strings.Contains(text, ": error: ") || !strings.Contains(text, "usage: ") {
		return false
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		u, ok := strings.CutPrefix(strings.TrimRight(lines[i], " \r"), "usage: ")
		if !ok || u == "" {
			continue
		}
		j := i + 1
		for j < len(lines) && (strings.HasPrefix(lines[j], " ") || strings.HasPrefix(lines[j], "\t")) {
			j++
		}
		if j == len(lines) {
			return false
		}
		e := lines[j]
		k := strings.Index(e, ": error: ")
		if k > 0 && strings.HasPrefix(u, e[:k]) && (len(u) == k || u[k] == ' ') {
			return true
		}
		i = j - 1
	}
	return false
}

// jsonReportsError reports whether text is a JSON object whose top-level
// members say the call failed (the json-error rule).
func jsonReportsError(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) > maxJSONSearch || !strings.HasPrefix(t, "{") || !containsAny(t, `"error"`, `"success"`, `"ok"`, `"status"`) {
		return false
	}
	var v map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &v) != nil {
		return false
	}
	if e, ok := v["error"]; ok {
		switch s := strings.TrimSpace(string(e)); {
		case s == "null", s == `""`, s == "{}", s == "false", s == "[]":
		default:
			return true
		}
	}
	for _, k := range []string{"success", "ok"} {
		if strings.TrimSpace(string(v[k])) == "false" {
			return true
		}
	}
	return strings.EqualFold(strings.TrimSpace(string(v["status"])), `"error"`)
}

// maxJSONSearch bounds the output a search's JSON is parsed from: an
// answer with nothing in it is short.
const maxJSONSearch = 64 << 10

// resultKeys name the members that hold a search's results.
var resultKeys = map[string]bool{
	"results": true, "items": true, "hits": true, "matches": true, "rows": true, "nodes": true,
	"documents": true, "records": true, "entries": true, "files": true, "data": true,
}

// emptyJSONResults reports whether text is a JSON object in which at least
// one result list is found (resultKeys, at depth up to 3) and every one
// found is empty.
func emptyJSONResults(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) > maxJSONSearch || !strings.HasPrefix(t, "{") {
		return false
	}
	var v map[string]any
	if json.Unmarshal([]byte(t), &v) != nil {
		return false
	}
	found, nonEmpty := 0, false
	var walk func(m map[string]any, depth int)
	walk = func(m map[string]any, depth int) {
		for k, x := range m {
			switch x := x.(type) {
			case []any:
				if resultKeys[strings.ToLower(k)] {
					found++
					nonEmpty = nonEmpty || len(x) > 0
				}
			case map[string]any:
				if depth < 3 {
					walk(x, depth+1)
				}
			}
		}
	}
	walk(v, 1)
	return found > 0 && !nonEmpty
}

// classify applies the format's rules, then the generic ones, to a tool's
// output, without its terminal escapes (as the result keeps it). view says
// the tool shows file content, where only rules marked ViewsToo apply.
func classify(text string, search, view bool, formatRules []OutputRule) (errType string, empty bool) {
	errType, empty, _, _ = classifyRule(text, search, view, false, formatRules)
	return errType, empty
}

// classifyRule is classify, also naming the rule that decided ("" when
// none did). harnessOnly tries only the format's rules that read the
// harness's own message (OutputRule.Harness): all that can be read of an
// output that was stripped.
func classifyRule(text string, search, view, harnessOnly bool, formatRules []OutputRule) (errType string, empty bool, rule string, final bool) {
	text = stripANSI(text)
	if strings.Contains(text, "\r\n") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	inner, failed, isMCP := mcpUnwrap(text)
	if isMCP {
		text = inner
	}
	o := newOutput(text, search)
	o.mcpFailed = failed
	lists := [][]OutputRule{formatRules, OutputRules}
	if harnessOnly {
		lists = lists[:1] // no generic rule reads a harness's message
	}
	for _, rules := range lists {
		for i := range rules {
			r := &rules[i]
			if (view && !r.ViewsToo) || (harnessOnly && !r.Harness) {
				continue
			}
			t, ok := r.match(o)
			if !ok {
				continue
			}
			if r.ErrorType == "" {
				return "", true, r.Name, false
			}
			if t == "" {
				t = r.ErrorType
			}
			return t, false, r.Name, r.Final
		}
	}
	return "", false, "", false
}

// firstError is the error type of the first of rules that says o is a
// failure (rules that say it is empty are passed over), "" when none does.
func firstError(o *output, rules []OutputRule) string {
	for i := range rules {
		if rules[i].ErrorType == "" {
			continue
		}
		if t, ok := rules[i].match(o); ok {
			return cmpOr(t, rules[i].ErrorType)
		}
	}
	return ""
}

// searchTools are programs and tool names whose blank output means "found
// nothing".
var searchTools = map[string]bool{
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true,
	"find": true, "fd": true, "locate": true, "git grep": true,
}

// isSearch reports whether a tool (or the program a shell command runs)
// searches.
func isSearch(name string) bool {
	n := strings.ToLower(name)
	if searchTools[n] {
		return true
	}
	for _, w := range []string{"search", "find", "lookup", "query", "grep"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// reHelperReplaced is the head of one replacement in an editing helper's
// report: the lines it replaced and the lines it wrote, each with their
// count, before the old text.
var reHelperReplaced = regexp.MustCompile(`(?m)^Replaced L\d+-\d+ \((\d+) lines?\) -> L\d+-\d+ \((\d+) lines?\)\n  Old: `)

// helperNoChange reports whether an editing helper's report holds at
// least one replacement, every one of them writing back as many lines as
// it replaced, the same text, and no insertion.
func helperNoChange(text string) bool {
	if strings.Contains(text, "\nInserted ") || strings.HasPrefix(text, "Inserted ") {
		return false
	}
	heads := reHelperReplaced.FindAllStringSubmatchIndex(text, -1)
	if len(heads) == 0 {
		return false
	}
	for k, h := range heads {
		if text[h[2]:h[3]] != text[h[4]:h[5]] {
			return false // another number of lines
		}
		n, _ := strconv.Atoi(text[h[2]:h[3]])
		end := len(text)
		if k+1 < len(heads) {
			end = heads[k+1][0]
		}
		old, new, ok := strings.Cut(text[h[1]:end], "\n  New: ")
		if !ok {
			return false
		}
		// The new text is its n lines; what follows is the harness's.
		lines := strings.SplitN(new, "\n", n+1)
		if len(lines) < n {
			return false
		}
		if strings.TrimRight(old, " \n") != strings.TrimRight(strings.Join(lines[:n], "\n"), " \n") {
			return false
		}
	}
	return true
}

// ranNothingBefore reports whether an output holds nothing before a
// shell's complaint but a harness's label of it and the shell's own
// diagnostics (a here-document left open, an unmatched quote): no command
// before the broken line printed anything.
func ranNothingBefore(head string) bool {
	for line := range strings.Lines(withoutHarnessLabel(head)) {
		if strings.TrimSpace(line) != "" && !reShellSays.MatchString(line) {
			return false
		}
	}
	return true
}

// reShellSays matches a line the shell itself writes: `bash: ...`,
// `/bin/bash: -c: line 25: ...`, `sh: 1: ...`.
var reShellSays = regexp.MustCompile(`^\s*(?:\S*/)?(?:ba|da|z)?sh: `)

// withoutCommandEcho is a shell command's output without the command line
// itself when the terminal echoed it as the output's first line (OpenHands'
// interactive bash does so for a `find ... -exec ... \;`): the echo is the
// agent's words, not the program's, and a search that found nothing
// printed nothing after it.
func withoutCommandEcho(out, cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if cmd == "" || strings.ContainsRune(cmd, '\n') {
		return out
	}
	t := strings.TrimLeft(out, " \t\r\n")
	first, rest, _ := strings.Cut(t, "\n")
	if strings.TrimSpace(first) != cmd {
		return out
	}
	return rest
}

// harnessLabel is the line the mini-swe-agent research fork puts before a
// command's output.
const harnessLabel = "bash execution output:"

// withoutHarnessLabel is an output with the harness's label before it
// taken off, and white space around it trimmed. An action that runs
// several commands gets a label before each one's output, so the labels of
// the commands before it that printed nothing (a `git checkout` before the
// script) are taken off too: what the action said first is the first
// command's output that says anything.
func withoutHarnessLabel(text string) string {
	t := strings.TrimSpace(text)
	for strings.HasPrefix(t, harnessLabel) {
		t = strings.TrimSpace(t[len(harnessLabel):])
	}
	return t
}

// reOpenSSLError is a line of OpenSSL's error queue (`PID:error:CODE:LIB
// routines:...`, the code eight hex digits) or a refusal of the openssl
// command's own.
var reOpenSSLError = regexp.MustCompile(`(?m)^(?:[0-9A-Fa-f]+:error:[0-9A-Fa-f]{8}:[^:\n]*:|Could not (?:find|read|open) (?:private key|public key|key|certificate|certificates|CSR|file or uri)\b.* (?:from|for) \S|unable to load (?:Private Key|Public Key|key|certificate)\b|[a-z0-9]+: Error initializing context\s*$)`)

// createExistsRule reads the refusal of the file editor SWE-agent,
// OpenHands and Trae Agent share to create a file that is already there.
var createExistsRule = OutputRule{
	Name: "create-exists", ErrorType: schema.ErrEditRejected, Final: true,
	Doc: "the editor refused a `create` of a file that is already there: `File already exists at: PATH. Cannot overwrite files using command` (then `create`); not retryable (`retryable: false`): the editor refuses the same create for as long as the file is there, so sending it again is a retry loop, not a failure that may pass",
	match: func(o *output) (string, bool) {
		return "", strings.Contains(o.text, "Cannot overwrite files using command `create`")
	},
}

// missingPathRule reads the refusal of the file editor OpenHands, Trae
// Agent and Anthropic's text editor tool share (SWE-agent's copy has its
// own rule) of a path that is not there: the file it was to view or edit,
// or the directory a create was to write in. A missing file, not a call
// made wrongly: OpenHands words it as an invalid parameter.
var missingPathRule = OutputRule{
	Name: "editor-no-such-path", ErrorType: "NO_SUCH_FILE", ViewsToo: true,
	Doc: "the file editor refused a path that is not there, at the start of its answer: `The path PATH does not exist. Please provide a valid path.`, `The parent directory PATH does not exist. Please create it first.`, also after OpenHands' `ERROR:` and `` Invalid `path` parameter: PATH. ``; nothing was shown or changed",
	match: func(o *output) (string, bool) {
		return "", editorNoSuchPath(o.text)
	},
}

// reEditorNoPath is the file editor's message for a path that is not
// there, at the start of its answer.
var reEditorNoPath = regexp.MustCompile("^(?:ERROR:\\s*)?(?:Invalid `path` parameter: [^\\n]*?\\. )?The (?:path|parent directory) [^\\n]+? does not exist\\. Please (?:provide a valid path|create it first)")

// editorNoSuchPath reports whether text, a file editor's answer or the
// error field a harness keeps it in, is its refusal of a path that is not
// there.
func editorNoSuchPath(text string) bool {
	return strings.Contains(text, "does not exist. Please") && reEditorNoPath.MatchString(withoutHarnessLabel(text))
}

// reCaughtLine is a line that ends with an error a program caught and
// printed: the word saying so, then the message.
var reCaughtLine = regexp.MustCompile(`^\S.*?\s(?:ERR|ERROR|Error|Exception|raised|FAILED)[:!]?\s+(\S.{9,})$`)

// reMessageClass is an exception's class opening its message.
var reMessageClass = regexp.MustCompile(`^([A-Z]\w*(?:Error|Exception))\b`)

// everyLineCaught reports whether every non-blank line of text (two or
// more) ends with one same caught error, and its error type.
func everyLineCaught(text string) (string, bool) {
	if !containsAny(text, "ERR", "Error", "Exception", "raised", "FAILED") {
		return "", false
	}
	var msg string
	n := 0
	for _, line := range strings.Split(withoutHarnessLabel(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		n++
		if n == 1 {
			m := reCaughtLine.FindStringSubmatch(line)
			if m == nil {
				return "", false
			}
			msg = m[1]
			continue
		}
		if !strings.HasSuffix(line, msg) {
			return "", false
		}
		if m := reCaughtLine.FindStringSubmatch(line); m == nil || m[1] != msg {
			return "", false
		}
	}
	if n < 2 {
		return "", false
	}
	if m := reMessageClass.FindStringSubmatch(msg); m != nil {
		return m[1], true
	}
	return "ERROR", true
}

// reNoTestsRun is a test runner's summary of a run that selected no test;
// reNoTestsCollected is pytest's, which needs its closing line too.
var (
	reNoTestsRun       = regexp.MustCompile(`(?m)^(?:Ran 0 tests in |No test files found|No tests found)`)
	reNoTestsCollected = regexp.MustCompile(`(?m)collected 0 items\s*$`)
	reNoTestsRan       = regexp.MustCompile(`(?m)=+ no tests ran in `)
)

// noTestsRun reports whether text is a test run that selected no test
// (the no-tests-run rule).
func noTestsRun(text string) bool {
	return reNoTestsRun.MatchString(text) || reNoTestsCollected.MatchString(text) && reNoTestsRan.MatchString(text)
}

// groupAfter returns re's first group in text, the error class a rule
// reads, when text holds needle (the cheap test that spares the
// expression most outputs) and re matches.
func groupAfter(text, needle string, re *regexp.Regexp) (string, bool) {
	if !strings.Contains(text, needle) {
		return "", false
	}
	if m := re.FindStringSubmatch(text); m != nil {
		return m[1], true
	}
	return "", false
}
