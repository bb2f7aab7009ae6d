package schema

import "strings"

// State is an agent state from guide B's state machine. Unknown strings are
// kept as-is in the Arrow column; StateCode maps them to StateOther.
type State uint8

const (
	StateNone    State = iota // no state logged
	StatePlan                 // PLAN: decompose the goal
	StateAct                  // ACT: call a tool or do work
	StateEval                 // EVAL: judge results, decide completion
	StateRecover              // RECOVER: backoff, alternative tool, ask the user
	StateStop                 // STOP: terminal
	StateOther                // any other string
)

var stateNames = [...]string{"", "PLAN", "ACT", "EVAL", "RECOVER", "STOP", "OTHER"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "OTHER"
}

// StateCode maps a logged state string to its code. Matching ignores case and
// surrounding space because frameworks disagree on spelling ("plan", "Plan").
func StateCode(s string) State {
	if s == "" {
		return StateNone
	}
	switch s {
	case "PLAN":
		return StatePlan
	case "ACT":
		return StateAct
	case "EVAL":
		return StateEval
	case "RECOVER":
		return StateRecover
	case "STOP":
		return StateStop
	}
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "":
		return StateNone
	case "PLAN":
		return StatePlan
	case "ACT":
		return StateAct
	case "EVAL":
		return StateEval
	case "RECOVER":
		return StateRecover
	case "STOP":
		return StateStop
	}
	return StateOther
}

// Error types named by guide B's policyFor. Other strings are kept as logged.
const (
	ErrRateLimit   = "RATE_LIMIT"
	ErrTimeout     = "TIMEOUT"
	ErrSchemaError = "SCHEMA_ERROR"
	ErrUnknown     = "UNKNOWN"
)

// Error types of a call whose output was not logged, read from what the
// agent said next (the adapters' said-* rules): ErrSaidFailed that it
// failed, not how; ErrSaidAgain that the failure before it came back ("the
// error persists"), the agent's own word that it is the same failure.
const (
	ErrSaidFailed = "SAID_FAILED"
	ErrSaidAgain  = "SAID_FAILED_AGAIN"
)

// Error types the adapters give a change that did not land: the editor
// refused it (the text to replace not found, a bad argument), or the
// command or script making it did not parse. An edit answered with one of
// these, or with a compile error of the file it changed, left no working
// change behind.
const (
	ErrEditRejected = "EDIT_REJECTED"
	ErrUsage        = "USAGE_ERROR"
	ErrShellSyntax  = "SHELL_SYNTAX_ERROR"
	ErrScriptSyntax = "SCRIPT_SYNTAX_ERROR"
	// ErrEditFailed is an edit whose command failed (a non-zero exit) and
	// ran nothing else, its output not logged: the change was not made,
	// but nothing says how, so two of them are not known to be the same
	// failure.
	ErrEditFailed = "EDIT_FAILED"
	// ErrEditCrashed is an edit made by a script of the agent's own that
	// died of an exception in its own code or in Python's standard library
	// (the file read with the wrong codec, a regular expression that does
	// not compile, a match that found nothing): it stopped before it made
	// its change.
	ErrEditCrashed = "EDIT_CRASHED"
)

// ErrTestsFailed is the error type of a test run whose runner's summary
// says tests failed (pytest's "1 failed", go test's "--- FAIL:"): what its
// non-zero exit code says, read where the log keeps no exit code. Like an
// exit code it says nothing of which failure it is.
const ErrTestsFailed = "TESTS_FAILED"

// ErrCrashed is the error type of a program killed by a signal
// (`Segmentation fault (core dumped)`, `Killed`) or by its runtime's fatal
// error: like an exit code it does not say which fault.
const ErrCrashed = "CRASHED"

// ErrNoOutput is the error type of a shell command that prints whatever
// happens (an echo of some text, pwd) answered with a blank output: it did
// not run as written, or its output was lost.
const ErrNoOutput = "NO_OUTPUT"

// ErrFormatError is the error type of a turn the harness could not read as
// a call (no action, or two where one was wanted): the model's malformed
// output, answered by the harness, not a call the agent chose to make.
const ErrFormatError = "FORMAT_ERROR"

// ErrInvalidCall is the error type of a call the harness refused before
// running it, its arguments malformed (OpenHands' "Missing required
// argument"): like a format error, no attempt at what the tool does.
const ErrInvalidCall = "INVALID_CALL"

// ErrRejected is the error type of a call refused before it ran by a person
// or by the harness: a permission denied, a hook's veto, CrewAI refusing an
// input it was given before.
const ErrRejected = "REJECTED"

// ErrTurnLimit is the error type of the last turn of a discussion between
// agents that the framework ended at its turn limit before the agents
// concluded it (ChatDev's chat_turn_limit used up with no `<INFO>`
// conclusion): the talk did not end, it was cut.
const ErrTurnLimit = "TURN_LIMIT"

// IntentEdit is the intent of a call that changes a file (an editor's
// write, a patch, a shell command that writes one): an error storm does not
// run through such a call that worked, as a check re-run after a change is
// an experiment. The adapters set it; runaway's own steps may too.
const IntentEdit = "edit"

// IntentRestart is the intent of a call that restarts its tool (a shell
// tool called with {"restart": true}, as Anthropic's bash tool and Trae
// Agent's take it): upkeep of the tool, not a step of the task. Its answer
// ("tool has been restarted") is no new information, so it is no
// progress, and a storm of the same call failing goes on through it.
const IntentRestart = "restart"

// IntentSearch is the intent the adapters give every call that searches
// (grep, find, a search tool): a run of them that keeps coming back empty
// is one search rephrased, whatever its words.
const IntentSearch = "search"

// IntentUser is the intent of a turn of conversation addressed to the
// user (a person, or a simulated customer), who answers from outside the
// run: the same turn said again word for word got the same answer
// whatever the user replied (docs/indicators.md, "same answer"). A turn
// between agents of the run has none: each agent's words are steps of
// their own.
const IntentUser = "user"

// IntentInstall is the intent of a call that installs a package (pip, npm,
// apt, ...): it changes what the next command runs with, and says little
// in its output. The adapters write "install: " and the install command
// (`install: pip install pyyaml`), so that installs of one thing share an
// intent; "install" alone is an install too (IsInstall). A storm ends at
// an install of what was not installed before in the run.
const IntentInstall = "install"

// ToolMessage is the tool name of a turn of conversation: a message the
// agent sent to the user, or to another agent, whose result is the reply.
// The adapters write it; runaway's own steps may too. Such a turn that
// went through changes nothing a failing call depends on: it neither ends
// an error storm nor counts as progress inside one; and the same turn to
// the user (IntentUser) said again word for word is the same answer
// whatever the reply (docs/indicators.md, "same answer").
const ToolMessage = "message"

// EditorTools are the file editors agents call with a command (view,
// create, str_replace, insert): SWE-agent's and OpenHands'
// str_replace_editor, OpenHands' file_editor, Anthropic's and Trae
// Agent's str_replace_based_edit_tool, Inspect AI's text_editor. The
// adapters give their calls
// that change a file the edit intent; their other calls view.
var EditorTools = map[string]bool{"str_replace_editor": true, "file_editor": true, "str_replace_based_edit_tool": true, "text_editor": true}

// IsShellTool reports whether a tool runs shell commands (bash, shell,
// execute_bash, run; Harbor's bash_command, the keys an agent types into
// its terminal; Gemini CLI's run_shell_command, Continue's
// run_terminal_command; any case): its calls' args hold the command line.
func IsShellTool(tool string) bool {
	for _, name := range shellTools {
		if strings.EqualFold(tool, name) {
			return true
		}
	}
	return false
}

// shellTools are the tool names IsShellTool knows, in lower case.
var shellTools = [...]string{"bash", "shell", "execute_bash", "run", "bash_command", "run_shell_command", "run_terminal_command"}

// IsInstall reports whether intent is an install's.
func IsInstall(intent string) bool {
	return intent == IntentInstall || strings.HasPrefix(intent, IntentInstall+": ")
}

// Memory tags and entry types (guide B).
const (
	MemObservation = "observation"
	MemDecision    = "decision"
	MemConstraint  = "constraint"
	MemInference   = "inference"
	MemToolError   = "tool_error"
	MemPlan        = "plan"
)
