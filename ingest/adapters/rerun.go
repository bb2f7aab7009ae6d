package adapters

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// carryRerunOutcomes gives a command run again under another filter the
// outcome the agent's words gave the same command. With the output not
// logged, an agent that runs one program again and again, changing only
// what its output is piped into (`mvn compile 2>&1 | tail -20`, then
// `mvn compile 2>&1 | grep -A 5 error:`) or its verbosity (`-q`, `-X`),
// with no other call between, looks again at the same output: nothing
// changed between, so the program answered as it did before. When the
// agent's words after one of those calls say it failed, every call of the
// stretch whose output is absent and of which the words said nothing
// failed the same way. A stretch some call of which the words say worked,
// or whose calls the words gave different outcomes, is left alone.
func (r *run) carryRerunOutcomes(absent []bool) {
	if absent == nil {
		return
	}
	var stretch []int // indices into r.steps
	key := ""
	flush := func() {
		defer func() { stretch = stretch[:0] }()
		if len(stretch) < minRerunStretch {
			return
		}
		var donor *schema.Step
		for _, i := range stretch {
			s, res := r.steps[i], r.steps[i].ToolResult
			if !absent[i] || res == nil || !strings.HasPrefix(res.Reason, saidReasonPrefix) {
				continue
			}
			if res.ErrorType == "" || (donor != nil && donor.ToolResult.ErrorType != res.ErrorType) {
				return // worked, or failed otherwise: not one answer
			}
			if donor == nil {
				donor = s
			}
		}
		if donor == nil || donor.Step == nil || !reNotShown.MatchString(donor.ToolResult.Reason) {
			return
		}
		said := donor.ToolResult.ErrorType
		again := said == schema.ErrSaidFailed || said == schema.ErrSaidAgain
		first := true
		for _, i := range stretch {
			s := r.steps[i]
			if !absent[i] {
				first = false
				continue
			}
			errType := said
			if again && !first {
				// The same command failing again, nothing changed
				// since: the failure before it came back.
				errType = schema.ErrSaidAgain
			}
			first = false
			if s == donor || (s.ToolResult != nil && strings.HasPrefix(s.ToolResult.Reason, saidReasonPrefix)) {
				s.ToolResult.ErrorType = errType
				continue
			}
			if !r.outputAbsent(s) {
				continue
			}
			setResult(s, "", errType, false)
			s.ToolResult.Reason = fmt.Sprintf("the same command as step %d, run again with its output filtered otherwise: %s",
				*donor.Step, strings.TrimPrefix(donor.ToolResult.Reason, saidReasonPrefix))
		}
	}
	for i, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		k := ""
		if cmd, ok := shellCallCommand(s.ToolCall.Name, s.ToolCall.Args); ok {
			if p := rerunKey(cmd); p != "" {
				k = s.ToolCall.Name + "\x00" + p
			}
		}
		if k == "" || k != key {
			flush()
		}
		key = k
		if k != "" {
			stretch = append(stretch, i)
		}
	}
	flush()
}

const saidReasonPrefix = "the agent's next words: "

// outputFilters are programs a command's output is piped into to choose
// what of it to show.
var outputFilters = map[string]bool{
	"grep": true, "egrep": true, "fgrep": true, "head": true, "tail": true, "sed": true, "awk": true,
	"wc": true, "sort": true, "uniq": true, "cut": true, "cat": true, "less": true, "more": true,
	"tee": true, "tr": true, "column": true, "nl": true,
}

// reStreamRedirect is a redirect of a stream into another or to /dev/null.
var reStreamRedirect = regexp.MustCompile(`(?:^|\s)(?:\d?>&\d|&?\d?>\s*/dev/null)(?:\s|$)`)

// verbosity are flags that only say how much a program prints.
var verbosity = map[string]bool{"-q": true, "-qq": true, "-v": true, "-vv": true, "-X": true, "--quiet": true, "--verbose": true}

// rerunKey is a shell command line without what only filters its output:
// the stages its output is piped into when they are filters, redirects of
// its streams, `|| true`, and verbosity flags; "" when it runs nothing.
func rerunKey(cmd string) string {
	cmd = unwrapShell(cmd)
	var piped []bool
	var seps []byte
	segs := splitSegs(cmd, &piped, &seps)
	var b strings.Builder
	for i, seg := range segs {
		if piped[i] && outputFilters[segmentProgram(seg)] {
			continue
		}
		if i > 0 && seps[i-1] == '|' && !piped[i] && strings.TrimSpace(seg) == "true" {
			continue // || true
		}
		seg = reStreamRedirect.ReplaceAllString(seg, " ")
		for _, w := range strings.Fields(seg) {
			if verbosity[w] {
				continue
			}
			b.WriteString(w)
			b.WriteByte(' ')
		}
		if i < len(seps) && seps[i] != 0 && seps[i] != '|' {
			b.WriteByte(seps[i])
			b.WriteByte(' ')
		}
	}
	if firstProgram(cmd) == "" {
		return ""
	}
	return strings.TrimSpace(b.String())
}

// absentOutputs marks, by position in r.steps, the calls whose output is
// absent (outputAbsent), before the agent's words are read for them; nil
// when there is none.
func (r *run) absentOutputs() []bool {
	var absent []bool
	for i, s := range r.steps {
		if s.ToolCall == nil || s.ToolCall.Name == MessageTool || !r.outputAbsent(s) {
			continue
		}
		if absent == nil {
			absent = make([]bool, len(r.steps))
		}
		absent[i] = true
	}
	return absent
}

// minRerunStretch is the calls in a row of one command, filtered
// otherwise, that make it looked at again and again rather than read in
// two or three ways: the labelling rubric's stuck stretch of about four
// actions.
const minRerunStretch = 4

// reNotShown is the agent saying the output did not show what it looked
// for: "the error message isn't clear", "I'm not seeing the actual
// error", "the commands are not returning output".
var reNotShown = regexp.MustCompile(`(?i)\b(?:not|n't|never)\s+(?:being\s+)?(?:seeing|see|showing|shown|show|clear|returning|producing|displaying|displayed|printing|getting)\b|\bno output\b`)
