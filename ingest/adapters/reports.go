package adapters

import (
	"regexp"
	"strings"
)

// An output that is no error can still report one: the agent's own script
// catches the exception and prints it, a check prints FAILED and exits 0.
// Such an output is still an answer (the experiment ran), but the same
// failure reported again after each edit says the edits do not change it.

// reportOpeners open a line that reports a failure. "ERR" must be a word
// of its own (`ERR name 'X' is not defined`), the others may go on
// (`FAILED`, `Failed to import`). cargo test writes its failing tests as
// `test NAME ... FAILED`; its summary `test result: FAILED.` opens a line.
var reportOpeners = []string{"ERROR", "Error", "FAIL", "Fail", "Traceback (most recent call last)", "test result: FAILED"}

// reReportWords are words anywhere in a line that say the failure the
// agent is fixing is still there: "ISSUE CONFIRMED", "BUG STILL EXISTS",
// "the error persists".
var reReportWords = regexp.MustCompile(`(?i)\b(?:issue|bug|problem|error)s?:?\s+(?:still|is still|confirmed|reproduced|persists|exists)\b|\bstill (?:fails|failing|broken|present|exists|happens)\b`)

// reportWordParts are parts of the words reReportWords needs: a text with
// none of them is not matched against it.
var reportWordParts = []string{"still", "STILL", "Still", "onfirmed", "ONFIRMED", "eproduced", "EPRODUCED", "ersists", "ERSISTS"}

// reportsFailure reports whether one of text's lines reports a failure: it
// opens (after blank space and bullets) with an error or failure word or
// an exception name, or it says the failure is still there.
func reportsFailure(text string) bool {
	words := containsAny(text, reportWordParts...)
	for line := range strings.Lines(text) {
		line = strings.TrimLeft(line, " \t-*•>✗❌×!#:[")
		if opensReport(line) || (words && reReportWords.MatchString(line)) {
			return true
		}
	}
	return false
}

// opensReport reports whether line opens with a failure word or an
// exception name: a dotted name whose last part is CamelCase and ends in
// Error or Exception (`ValueError`, `django.core.exceptions.FieldError:`).
func opensReport(line string) bool {
	if line == "" {
		return false
	}
	if c := line[0]; c != 'E' && c != 'F' && c != 'T' && !isNameStart(c) {
		return false
	}
	for _, p := range reportOpeners {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	if strings.HasPrefix(line, "ERR") && (len(line) == 3 || !isNameByte(line[3])) {
		return true
	}
	end := 0
	for end < len(line) && (isNameByte(line[end]) || line[end] == '.') {
		end++
	}
	name := line[:end]
	if end < len(line) && line[end] != ':' && line[end] != ' ' && line[end] != '\n' && line[end] != '\r' {
		return false
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	return last != "" && last[0] >= 'A' && last[0] <= 'Z' &&
		(strings.HasSuffix(last, "Error") || strings.HasSuffix(last, "Exception"))
}

func isNameStart(c byte) bool { return c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }
