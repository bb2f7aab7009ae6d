package adapters

import (
	"regexp"
	"strconv"
	"strings"
)

// OpenHands runs kept as the conversation its model had (SWE-Gym's and
// other datasets of its runs, in OpenAI's messages) carry OpenHands'
// rendering of each observation: a command's output ends with the shell's
// state and its exit code, `[Current working directory: /workspace]`,
// `[Python interpreter: /usr/bin/python]`, `[Command finished with exit
// code 1]`; an observation for a model without tool calls opens with
// `OBSERVATION:` or `EXECUTION RESULT of [execute_bash]:`; an error
// observation ends `[Error occurred in processing last action]`; a command
// the runtime stopped ends `[The command timed out after 120 seconds. ...]`
// or `[The command has no new output after 30 seconds. ...]`. The exit
// code is the command's own account of how it went, as the openhands
// adapter reads it from the event; the rest is the harness's frame.

// reOHShellEnd is the shell's state and exit code OpenHands adds after a
// command's output; its releases of 2024 put the shell's prompt
// (`root@openhands-workspace:/workspace # `) before the exit code, and
// wrote `[Python Interpreter: ...]`.
var reOHShellEnd = regexp.MustCompile(`(?:\n?\[(?i:Current working directory|Python interpreter|Jupyter Python interpreter): [^\]\n]*\])*(?:\n?[\w.-]+@[^\n]*[#$][ \t]*)?\n?\[Command finished with exit code (-?\d+)\]\s*$`)

// reOHLabel is the label OpenHands opens an observation with for a model
// without tool calls.
var reOHLabel = regexp.MustCompile(`^(?:OBSERVATION:|EXECUTION RESULT of \[[\w.-]+\]:)[ \t]*\r?\n`)

// openHandsShellEnd is a command's output without the state and exit code
// OpenHands adds after it, and the exit code; out as it is when it has
// none.
func openHandsShellEnd(out string) (string, *int) {
	if !strings.Contains(out, "[Command finished with exit code ") {
		return out, nil // most outputs: no regexp run over them
	}
	m := reOHShellEnd.FindStringSubmatchIndex(out)
	if m == nil {
		return out, nil
	}
	code, err := strconv.Atoi(out[m[2]:m[3]])
	if err != nil {
		return out, nil
	}
	return out[:m[0]], &code
}

// openAIObservation is a tool message's text as the agent's output: what
// the tool printed, and its exit code when OpenHands' rendering says it.
func openAIObservation(content string) (string, *int) {
	t := strings.TrimLeft(content, " \t\r\n")
	if loc := reOHLabel.FindStringIndex(t); loc != nil {
		content = t[loc[1]:]
	}
	return openHandsShellEnd(content)
}

// ohMarkRules read the marks OpenHands' rendering puts after an
// observation it made of a failure.
var ohMarkRules = []OutputRule{
	{
		Name: "openhands-error-mark", ErrorType: "ERROR", ViewsToo: true, Harness: true,
		Doc: "OpenHands' rendering of an error observation for its model ends `[Error occurred in processing last action]`",
		match: func(o *output) (string, bool) {
			return "", o.last == "[Error occurred in processing last action]"
		},
	},
	{
		Name: "openhands-command-stopped", ErrorType: "TIMEOUT", Harness: true,
		Doc: "OpenHands' runtime stopped waiting for a command, and says so after its output: `[The command timed out after N seconds.` or `[The command has no new output after N seconds.`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "[The command ") && reOHStopped.MatchString(o.text)
		},
	},
}

var reOHStopped = regexp.MustCompile(`(?m)^\[The command (?:timed out|has no new output) after [\d.]+ seconds\.`)
