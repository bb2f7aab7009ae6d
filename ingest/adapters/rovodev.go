package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/runawayhq/runaway/schema"
)

// RovoDev reads the plain-text transcripts Atlassian's Rovo Dev agent
// writes of a run: sections separated by lines of '=', each headed
// `AGENT:`, `USER PROMPT:`, `TOOL CALL (tool)` (the arguments, as YAML) or
// `TOOL RETURN (tool)` (the output, fenced with ```), after a banner of
// '#' lines naming the phase. One file is one run; the file has no id of
// its own, so the run is named by its path.
var RovoDev = &Format{
	Name:      "rovo-dev",
	Title:     "Rovo Dev text transcripts",
	Recognize: recognizeRovo,
	Convert:   convertRovo,
	Text:      rovoHead,
}

var (
	// reRovoSeparator is the line between sections (120 '=' in the files
	// seen; 80 or more taken, so a line of '=' a tool printed, shorter as
	// a rule, is rarely one).
	reRovoSeparator = regexp.MustCompile(`^={80,}\s*$`)
	reRovoBanner    = regexp.MustCompile(`^#{80,}\s*$`)
	reRovoPhase     = regexp.MustCompile(`^PHASE \d+\s*$`)
	reRovoHeader    = regexp.MustCompile(`^(AGENT:|USER PROMPT:|TOOL CALL \(([^()\n]*)\)|TOOL RETURN \(([^()\n]*)\))\s*$`)
	// reRovoHeaderLike is a line a later version may head a section with
	// (`SYSTEM:`, `TOOL ERROR (bash)`), or a header the logger garbled
	// (`TOOL CALL (exinspect_code`, its parenthesis lost): a section this
	// adapter cannot read is a reject of its own, not text glued to the
	// one before.
	reRovoHeaderLike = regexp.MustCompile(`^(?:[A-Z][A-Z ]{2,30}(?: \([^()\n]*\))?:?|TOOL (?:CALL|RETURN) \(.*)\s*$`)
)

// rovoHead reports whether a file opening with head is a Rovo Dev
// transcript: its first line that is not blank is the phase banner or a
// separator, and the next is `PHASE n` or a section header.
func rovoHead(head []byte) bool {
	lines := firstLines(head, 2)
	if len(lines) < 2 {
		return false
	}
	switch {
	case reRovoBanner.Match(lines[0]):
		return reRovoPhase.Match(lines[1])
	case reRovoSeparator.Match(lines[0]):
		return reRovoHeader.Match(lines[1])
	}
	return false
}

// firstLines returns up to n of b's first lines that are not blank,
// without their line breaks.
func firstLines(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > 0 && len(out) < n {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if line = bytes.TrimRight(line, " \t\r"); len(bytes.TrimLeft(line, " \t\ufeff")) > 0 {
			out = append(out, bytes.TrimLeft(line, "\ufeff"))
		}
	}
	return out
}

func recognizeRovo(d *Doc) error {
	if !d.text {
		return errors.New("a JSON document, not a text transcript")
	}
	if !rovoHead(d.Raw) {
		return errors.New("does not open with a '#' banner and `PHASE n`, or a line of '=' and a section header")
	}
	return nil
}

// rovoSection is one section of a transcript.
type rovoSection struct {
	kind string // "AGENT", "USER", "CALL", "RETURN"; "" for one rejected
	tool string // CALL and RETURN
	body string
	line int64 // the header's line in the file
}

// rovoSections cuts a transcript into its sections. A block between
// separators that opens with no header is the section before it going on
// (a tool printed a line of '='); one that opens with a header this
// adapter does not know, or that comes before the first section and is
// not the banner, is a reject of its own.
func rovoSections(d *Doc) []rovoSection {
	var secs []rovoSection
	// flush takes the block of lines between two separators, its first
	// line at blockLine.
	flush := func(block []byte, blockLine int64) {
		for len(block) > 0 {
			nl := bytes.IndexByte(block, '\n')
			if nl < 0 || len(bytes.TrimSpace(block[:nl])) > 0 {
				break
			}
			block, blockLine = block[nl+1:], blockLine+1
		}
		block = bytes.TrimRight(block, "\r\n")
		if len(bytes.TrimSpace(block)) == 0 {
			return
		}
		first, rest := block, []byte(nil)
		if nl := bytes.IndexByte(block, '\n'); nl >= 0 {
			first, rest = block[:nl], block[nl+1:]
		}
		head := string(bytes.TrimRight(first, " \t\r"))
		if m := reRovoHeader.FindStringSubmatch(head); m != nil {
			s := rovoSection{body: strings.Trim(strings.ReplaceAll(string(rest), "\r\n", "\n"), "\n"), line: blockLine}
			switch {
			case m[1] == "AGENT:":
				s.kind = "AGENT"
			case m[1] == "USER PROMPT:":
				s.kind = "USER"
			case strings.HasPrefix(m[1], "TOOL CALL"):
				s.kind, s.tool = "CALL", strings.TrimSpace(m[2])
			default:
				s.kind, s.tool = "RETURN", strings.TrimSpace(m[3])
			}
			secs = append(secs, s)
			return
		}
		if rovoBannerBlock(block) {
			return
		}
		if len(secs) > 0 && !reRovoHeaderLike.MatchString(head) {
			last := &secs[len(secs)-1]
			last.body += "\n" + strings.Repeat("=", 120) + "\n" + strings.ReplaceAll(string(block), "\r\n", "\n")
			return
		}
		why := "text before the first section that is not the phase banner"
		if reRovoHeaderLike.MatchString(head) {
			// A section all the same: it keeps its place, so the
			// sections after it keep their numbers.
			why = fmt.Sprintf("a section headed %q, which is none of AGENT:, USER PROMPT:, TOOL CALL (tool), TOOL RETURN (tool)", clip(head, 60))
			secs = append(secs, rovoSection{line: blockLine})
		}
		d.Skipped = append(d.Skipped, BadLine{Line: blockLine, Raw: bytes.Clone(block), Reason: why})
	}
	raw := d.Raw
	start, startLine := 0, d.Line // the block being read
	n := d.Line
	for pos := 0; pos < len(raw); n++ {
		end := len(raw)
		if i := bytes.IndexByte(raw[pos:], '\n'); i >= 0 {
			end = pos + i
		}
		if raw[pos] == '=' && reRovoSeparator.Match(raw[pos:end]) {
			flush(raw[start:pos], startLine)
			start, startLine = min(end+1, len(raw)), n+1
		}
		pos = end + 1
	}
	flush(raw[start:], startLine)
	return secs
}

// rovoBannerBlock: a block of '#' lines and `PHASE n` only, a heading.
func rovoBannerBlock(block []byte) bool {
	for l := range bytes.SplitSeq(block, []byte("\n")) {
		l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\ufeff")))
		if len(l) > 0 && !reRovoBanner.Match(l) && !reRovoPhase.Match(l) {
			return false
		}
	}
	return true
}

// rovoNudge is the harness's answer to a turn without a tool call.
func rovoNudge(prompt string) bool {
	return strings.HasPrefix(strings.TrimSpace(prompt), "If you have fully completed the task, call the status function")
}

// rovoArgsDropped are arguments that say how to run a call, not what it
// asks: two commands that differ only in their timeout ask the same thing.
var rovoArgsDropped = map[string]bool{"timeout": true}

// rovoViewTools show code or folders; rovoSearchTools search.
var (
	rovoViewTools   = map[string]bool{"open_files": true, "inspect_code": true, "expand_code_chunks": true, "expand_folder": true}
	rovoSearchTools = map[string]bool{"grep": true}
)

// rovoRules are read before the shared output rules.
var rovoRules = []OutputRule{
	{
		Name: "rovo-timeout", ErrorType: schema.ErrTimeout, Harness: true,
		Doc: "the output is only `Timeout...`: the harness stopped a command at its `timeout`; or it begins `Timed out while waiting for response to ClientRequest. Waited 300.0 seconds`: the harness gave up waiting for the tool's answer",
		match: func(o *output) (string, bool) {
			return "", strings.TrimSpace(o.text) == "Timeout..." ||
				strings.HasPrefix(o.first, "Timed out while waiting for response to ClientRequest.")
		},
	},
	{
		Name: "rovo-background-refused", ErrorType: "ERROR", Harness: true,
		Doc: "the output is the harness's refusal of a command sent to the background: `Error: background execution not supported in this environment`; nothing ran",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "Error: background execution not supported in this environment")
		},
	},
	{
		Name: "rovo-tool-error", ErrorType: "TOOL_ERROR", Harness: true, ViewsToo: true,
		Doc: "the output begins `Error executing tool NAME:` (a replacement that matched nothing or several places, a path that does not exist), the harness's words in place of the tool's output, so a viewer's too (`Error executing tool open_files: Error opening src/a.ts: File src/a.ts not found in workspace`)",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "Error executing tool ")
		},
	},
}

// rovoArgs parses a call's YAML arguments into JSON, without the ones that
// say how to run it. Arguments that are not YAML keep their text.
func rovoArgs(body string) json.RawMessage {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(body), &m); err != nil || m == nil {
		if strings.TrimSpace(body) == "" {
			return json.RawMessage("{}")
		}
		return mustJSON(map[string]string{"input": body})
	}
	for k := range m {
		if rovoArgsDropped[k] {
			delete(m, k)
		}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return mustJSON(map[string]string{"input": body})
	}
	return raw
}

// rovoOutput is a tool return's text without its fence. A return of `...`
// alone is an empty output: the logger ends every output with `...`, so a
// command that printed nothing (rm, mkdir, a grep that matched nothing)
// leaves only that.
func rovoOutput(body string) string {
	if t := rovoFenced(body); t != "..." {
		return t
	}
	return ""
}

// rovoCutAt is how many characters of an output the logger keeps before
// its `...`; outputs within rovoCutSlack of it are taken as cut (the
// logger trims the white space at the cut, and counts characters its own
// way).
const (
	rovoCutAt    = 500
	rovoCutSlack = 10
)

// rovoCut reports whether the logger cut the output short.
func rovoCut(out string) bool {
	t, ok := strings.CutSuffix(out, "...")
	return ok && utf8.RuneCountInString(t) >= rovoCutAt-rovoCutSlack
}

// rovoFenced is a tool return's text without its fence.
func rovoFenced(body string) string {
	t := strings.TrimSpace(body)
	if strings.HasPrefix(t, "```") {
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		} else {
			t = ""
		}
		t = strings.TrimSuffix(strings.TrimRight(t, " \n"), "```")
	}
	return strings.Trim(t, "\n")
}

// convertRovo turns the sections into steps. A step's number is its
// section's position in the file (0-based, the banner not counted): a tool
// call is the step of its TOOL CALL section, answered by the TOOL RETURN
// after it; the agent's text before a call is the call's reason; the
// agent's text after which no call comes before the user's next prompt
// (or the end) is a step of its own, a message, answered by that prompt:
// when the prompt is the harness's nudge to call a tool, the turn failed
// as a format error. The last such message of the run is its STOP.
func convertRovo(d *Doc, emit func(*schema.Step) error) error {
	secs := rovoSections(d)
	r := d.newRun(runName(d, 0, false, ""))
	lastCall := -1
	for i := range secs {
		if secs[i].kind == "CALL" {
			lastCall = i
		}
	}
	var reason []string
	for i := 0; i < len(secs); i++ {
		sec := &secs[i]
		switch sec.kind {
		case "AGENT":
			next := i + 1
			for next < len(secs) && secs[next].kind == "AGENT" {
				next++
			}
			if next < len(secs) && secs[next].kind == "CALL" {
				reason = append(reason, sec.body)
				continue
			}
			// The agent's last words before the user speaks or the run
			// ends: one message, numbered by its last section.
			words := reason
			for _, w := range secs[i:next] {
				words = append(words, w.body)
			}
			reason = nil
			i = next - 1
			state := ""
			if i > lastCall && !rovoPromptAfter(secs, next) {
				state = schema.StateStop.String()
			}
			s := r.add(i, state)
			text := strings.Join(words, "\n\n")
			setReason(s, text)
			// The user's prompts after it answer it: the harness may
			// restate the task (restarting the agent's context) and then
			// nudge it to call a tool.
			var reply []string
			errType := ""
			for k := next; k < len(secs) && secs[k].kind == "USER"; k++ {
				reply = append(reply, secs[k].body)
				if rovoNudge(secs[k].body) {
					errType = schema.ErrFormatError
				}
			}
			if len(reply) > 0 {
				r.setMessage(s, text, strings.Join(reply, "\n\n"), errType)
			}
		case "USER":
			reason = nil // a prompt restating the task restarts the agent's context
		case "CALL":
			// Calls made together are logged one after another, then
			// their returns, in the same order.
			calls := i
			for calls < len(secs) && secs[calls].kind == "CALL" {
				calls++
			}
			returns := calls
			for returns < len(secs) && secs[returns].kind == "RETURN" {
				returns++
			}
			answer := rovoPair(secs, i, calls, returns)
			for c := i; c < calls; c++ {
				s := r.add(c, schema.StateAct.String())
				if c == i {
					setReason(s, strings.Join(reason, "\n\n"))
				}
				var ret *rovoSection
				if k := answer[c-i]; k >= 0 {
					ret = &secs[k]
				}
				r.rovoCall(s, &secs[c], ret)
			}
			reason = nil
			for k := calls; k < returns; k++ {
				if !slices.Contains(answer, k) {
					rovoOrphan(d, &secs[k])
				}
			}
			i = returns - 1
		case "RETURN":
			rovoOrphan(d, sec)
		}
	}
	if len(r.steps) == 0 {
		return nil
	}
	return r.emit(emit)
}

// rovoPair matches the calls in secs[first:calls] with the returns in
// secs[calls:returns]: each call, in order, takes the first return not yet
// taken of its own tool, else the first not yet taken. -1: no return.
func rovoPair(secs []rovoSection, first, calls, returns int) []int {
	answer := make([]int, calls-first)
	taken := make([]bool, returns-calls)
	for c := first; c < calls; c++ {
		answer[c-first] = -1
		for pass := 0; pass < 2 && answer[c-first] < 0; pass++ {
			for k := calls; k < returns; k++ {
				if !taken[k-calls] && (pass == 1 || secs[k].tool == secs[c].tool) {
					answer[c-first], taken[k-calls] = k, true
					break
				}
			}
		}
	}
	return answer
}

// rovoOrphan rejects a tool return that answers no call.
func rovoOrphan(d *Doc, sec *rovoSection) {
	d.Skipped = append(d.Skipped, BadLine{Line: sec.line, Raw: []byte("TOOL RETURN (" + sec.tool + ")\n" + sec.body), Reason: "a tool return that answers no call"})
}

// rovoPromptAfter reports whether the user speaks at or after section i.
func rovoPromptAfter(secs []rovoSection, i int) bool {
	for ; i < len(secs); i++ {
		if secs[i].kind == "USER" {
			return true
		}
	}
	return false
}

// rovoCall fills the call of section sec and, when ret (a return section,
// or nil) answers it, its result.
func (r *run) rovoCall(s *schema.Step, sec, ret *rovoSection) {
	args := rovoArgs(sec.body)
	setRawCall(s, sec.tool, args)
	search, view := rovoSearchTools[sec.tool], rovoViewTools[sec.tool]
	if sec.tool == "bash" {
		search, view = chatToolKind(sec.tool, args)
	}
	if search {
		s.Intent = searchIntent
	}
	if ret == nil {
		return // the transcript ends before the call returned
	}
	out := rovoOutput(ret.body)
	// A view the logger cut short kept its first lines only: the name the
	// agent looked for may be in the part it saw and the log did not keep,
	// so the kept part cannot say the lookup missed (lookups.go).
	r.noteView(s, view)
	if view && rovoCut(out) {
		r.noteViewCut(s)
	}
	errType, empty := r.classify(out, search, view, rovoRules)
	// Only a command prints its failure at the end; what a search or a
	// view cut short holds is content, and the agent's words about it
	// ("the error is raised in ...") speak of the code it read.
	cmdCut := sec.tool == "bash" && !view && !r.strip && rovoCut(out) && !programSearches(args)
	headerCut := cmdCut && errType == "" && !empty && rovoCutInHeader(out)
	if headerCut {
		// The logger cut the output inside a traceback's header (a
		// long preamble, pip's warnings, before it): a program died.
		errType = errException
	}
	r.setResult(s, out, errType, empty)
	if headerCut {
		s.ToolResult.Reason = "output cut inside a traceback's header"
	}
	if cmdCut {
		switch {
		case errType == "" && !empty:
			r.markCut(s, cutQuiet)
		case errType == errException && (headerCut || strings.Contains(out, "Traceback (most recent call last):")):
			// A traceback's header kept, its exception line cut: whether
			// the program died is in the part cut off.
			r.markCut(s, cutTraceback)
		}
	}
}

// rovoCutInHeader reports whether the logger cut the output inside a
// traceback's header: its last line before the `...` is the start of
// `Traceback (most recent call last):`, at least `Traceback (`.
func rovoCutInHeader(out string) bool {
	t, _ := strings.CutSuffix(strings.TrimRight(out, " \n"), "...")
	t = strings.TrimRight(t, " ")
	last := t[strings.LastIndexByte(t, '\n')+1:]
	const header = "Traceback (most recent call last):"
	return len(last) >= len("Traceback (") && len(last) < len(header) && strings.HasPrefix(header, last)
}

// programSearches reports whether a bash call's own program searches (grep,
// find), not a build or a test whose output is filtered (`mvn compile 2>&1
// | grep -v INFO`): what a search cut short holds is content; a filtered
// build's output is still the build's.
func programSearches(args json.RawMessage) bool {
	var a struct {
		Command string `json:"command"`
	}
	json.Unmarshal(args, &a)
	return isSearch(firstProgram(unwrapShell(a.Command)))
}
