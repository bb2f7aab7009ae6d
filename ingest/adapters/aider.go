package adapters

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Aider reads the chat history Aider appends to `.aider.chat.history.md`
// in the repository it works on: one session after another, each opened by
// `# aider chat started at DATE TIME`. In a session the user's input is
// written as lines `#### text`, Aider's own messages (edits applied, edits
// that failed, lint and test results, token counts, confirmations) as lines
// `> text`, and the model's replies as plain text between them. Aider's
// io.py writes the first two with two trailing spaces (a Markdown line
// break), which is how they are told from a reply's own quotes and
// headings. A session is a run; its entries (an input, a reply, a block of
// Aider's messages) are numbered from 0 in the order written.
var Aider = &Format{
	Name:      "aider",
	Title:     "Aider chat histories",
	Recognize: recognizeAider,
	Convert:   convertAider,
	Text:      aiderHead,
}

var reAiderStart = regexp.MustCompile(`^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$`)

// aiderHead reports whether a file opening with head is an Aider chat
// history: its first line that is not blank opens a session.
func aiderHead(head []byte) bool {
	lines := firstLines(head, 1)
	return len(lines) == 1 && reAiderStart.Match(lines[0])
}

func recognizeAider(d *Doc) error {
	if !d.text {
		return errors.New("a JSON document, not a text transcript")
	}
	if !aiderHead(d.Raw) {
		return errors.New("does not open with `# aider chat started at DATE TIME`")
	}
	return nil
}

// aiderEntry is one entry of a session: the user's input ('u'), a reply of
// the model ('a'), or a block of Aider's own messages ('o'), its lines
// without the `#### ` or `> ` marks.
type aiderEntry struct {
	kind  byte
	lines []string
	line  int64 // the entry's first line in the file
}

func (e *aiderEntry) text() string { return strings.Trim(strings.Join(e.lines, "\n"), "\n") }

// aiderSession is one session: its start as written, and its entries.
type aiderSession struct {
	start   string
	entries []aiderEntry
}

// aiderHardBreak: Aider ends each line of input and each of its messages
// with two spaces, after the text (it strips the text first); the model's
// replies are written as they came. A line of white space alone is none:
// an indented blank line of code that a message echoes (a SEARCH block
// that failed to match) does not end the message.
func aiderHardBreak(line string) bool {
	return strings.HasSuffix(line, "  ") && strings.TrimSpace(line) != ""
}

func aiderIO(line string) bool   { return line == ">" || strings.HasPrefix(line, "> ") }
func aiderUser(line string) bool { return line == "####" || strings.HasPrefix(line, "#### ") }

// aiderSessions cuts a chat history into sessions and entries. A reply is
// written after a blank line (io.py's ai_output opens with one) and runs
// until a line of input or of Aider's, two spaces at its end. A message of
// Aider's written on several lines at once (the error a failed edit sends
// back, a shell command offered to run) is marked on its first line only
// and ends with the line that ends in two spaces, blank lines and all; a
// line of neither kind right after one of Aider's, with no blank line
// between, is that message going on too (a command whose own lines end in
// spaces). Older versions ended only some lines so (a question and its
// answer, not a message): a line of Aider's without the spaces opens a
// message on several lines only when its closing line comes before the
// next marked line (aiderCloses). A file with no line ending in two
// spaces lost them on the way (trimmed): there a reply ends at a line of
// Aider's after a blank line, outside a fence.
func aiderSessions(d *Doc) []aiderSession {
	var (
		sessions []aiderSession
		cur      *aiderSession
		inReply  bool // the last entry is a reply still being written
		open     bool // a message of Aider's on several lines is still being written
		blank    bool // a blank line since the last line of an entry
		fenced   bool // the reply being written is inside a code fence
		// trimmed: no line ends in two spaces, as when the file was
		// committed through a hook or editor that strips trailing
		// blanks. A line `> ` after a blank line and outside a fence then
		// ends a reply: it is Aider's answer to it.
		trimmed = !reAiderHardBreakAnywhere.Match(d.Raw)
	)
	add := func(kind byte, line string, n int64) {
		e := &cur.entries
		if len(*e) == 0 || (*e)[len(*e)-1].kind != kind || (kind == 'u' && blank) {
			*e = append(*e, aiderEntry{kind: kind, line: n})
		}
		last := &(*e)[len(*e)-1]
		last.lines = append(last.lines, line)
		blank = false
	}
	lines := strings.Split(strings.ReplaceAll(string(d.Raw), "\r\n", "\n"), "\n")
	n := d.Line - 1
	for li, line := range lines {
		n++
		if m := reAiderStart.FindStringSubmatch(line); m != nil {
			sessions = append(sessions, aiderSession{start: m[1]})
			cur = &sessions[len(sessions)-1]
			inReply, open, blank, fenced = false, false, true, false
			continue
		}
		if cur == nil {
			continue // a byte order mark or blank lines before the first session
		}
		if open {
			add('o', strings.TrimRight(line, " "), n)
			open = !aiderHardBreak(line)
			continue
		}
		if inReply && strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		marked := (aiderIO(line) || aiderUser(line)) && (!inReply || aiderHardBreak(line) ||
			(trimmed && li > 0 && strings.TrimSpace(lines[li-1]) == "" && !fenced && aiderIO(line)))
		switch {
		case inReply && !marked:
			add('a', line, n)
		case marked && aiderIO(line):
			inReply = false
			add('o', strings.TrimSpace(strings.TrimPrefix(line, ">")), n)
			open = !aiderHardBreak(line) && aiderCloses(lines[li+1:])
		case marked:
			inReply = false
			add('u', strings.TrimSpace(strings.TrimPrefix(line, "####")), n)
		case strings.TrimSpace(line) == "":
			blank = true
		case !blank && len(cur.entries) > 0 && cur.entries[len(cur.entries)-1].kind == 'o':
			add('o', strings.TrimSpace(line), n)
		default:
			if !inReply {
				fenced = strings.HasPrefix(strings.TrimSpace(line), "```")
			}
			inReply = true
			add('a', line, n)
		}
	}
	for i := range sessions {
		for k := range sessions[i].entries {
			e := &sessions[i].entries[k]
			for len(e.lines) > 0 && strings.TrimSpace(e.lines[len(e.lines)-1]) == "" {
				e.lines = e.lines[:len(e.lines)-1]
			}
		}
	}
	return sessions
}

// aiderCloses reports whether the message of Aider's whose first line
// came just before lines ends in them: a line ending in two spaces comes
// before any line of input, of Aider's, or a session's start. Looked for
// over a bounded number of lines.
func aiderCloses(lines []string) bool {
	for i, l := range lines {
		switch {
		case i == maxAiderMessageLines, reAiderStart.MatchString(l), aiderIO(l), aiderUser(l):
			return false
		case aiderHardBreak(l):
			return true
		}
	}
	return false
}

// maxAiderMessageLines bounds one message of Aider's on several lines (an
// edit's error echoes the block it failed on).
const maxAiderMessageLines = 2000

var (
	// reAiderHardBreakAnywhere finds a line that ends in two spaces after
	// its text (aiderHardBreak).
	reAiderHardBreakAnywhere = regexp.MustCompile(`(?m)\S {2,}\r?$`)
	// reAiderTokens is Aider's report after each reply: `Tokens: 3.7k
	// sent, 1.5k received. Cost: $0.0020 message, $0.0029 session.`, with
	// cache figures between sent and received when the provider caches.
	reAiderTokens  = regexp.MustCompile(`^Tokens: ([\d.]+[kKmM]?) sent, (?:.*, )?([\d.]+[kKmM]?) received\.(?: Cost: \$([\d.]+) message)?`)
	reAiderModel   = regexp.MustCompile(`^(?:Main model|Model): (\S+) with `)
	reAiderApplied = regexp.MustCompile(`(?m)^Applied edit to (.+)$`)
)

// aiderRules read Aider's own messages after a reply. They are the
// harness speaking, not a tool's output, so they are read with the output
// stripped too; the shared rules read what commands printed, and are not.
// A failed match is reported after "did not conform to the edit format",
// so it is looked for first.
var aiderRules = []OutputRule{aiderNoMatchRule, aiderFormatRule, aiderCheckRule, aiderAPIRule, aiderTokenLimitRule}

// aiderModelRules read Aider's messages after the user's input when no
// reply came: the model call failed.
var aiderModelRules = []OutputRule{aiderAPIRule, aiderTokenLimitRule}

var (
	aiderFormatRule = OutputRule{Name: "aider-edit-format", ErrorType: "FORMAT_ERROR", ViewsToo: true,
		Doc: "`The LLM did not conform to the edit format.`: Aider could not read the reply's edits, and sends the error back",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "The LLM did not conform to the edit format.")
		}}
	aiderNoMatchRule = OutputRule{Name: "aider-edit-no-match", ErrorType: schema.ErrEditRejected, ViewsToo: true,
		Doc: "`SEARCH/REPLACE block failed to match` (or `blocks failed to match`): an edit whose search text is not in the file, sent back to the model",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "SEARCH/REPLACE block failed to match") || strings.Contains(o.text, "SEARCH/REPLACE blocks failed to match")
		}}
	aiderCheckRule = OutputRule{Name: "aider-lint-or-test", ErrorType: "EXIT_CODE", ViewsToo: true,
		Doc: "`Attempt to fix lint errors?` or `Attempt to fix test errors?`: the linter or the tests Aider runs after an edit failed (which, like an exit code, says no more)",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "Attempt to fix lint errors?") || strings.Contains(o.text, "Attempt to fix test errors?")
		}}
	aiderAPIRule = OutputRule{Name: "aider-api-error", ErrorType: "ERROR", ViewsToo: true,
		Doc: "a model API error Aider reports, `litellm.SomethingError:` (RATE_LIMIT for `RateLimitError`): the model call failed",
		match: func(o *output) (string, bool) {
			i := strings.Index(o.text, "litellm.")
			if i < 0 {
				return "", false
			}
			rest := o.text[i+len("litellm."):]
			j := strings.IndexAny(rest, ": \n")
			if j <= 0 || !strings.HasSuffix(rest[:j], "Error") {
				return "", false
			}
			if rest[:j] == "RateLimitError" {
				return schema.ErrRateLimit, true
			}
			return "", true
		}}
)

// aiderTokenLimitRule: the request or the reply did not fit the model's
// context or output limit, and no reply came (Aider still reports what
// the call cost).
var aiderTokenLimitRule = OutputRule{Name: "aider-token-limit", ErrorType: "TOKEN_LIMIT", ViewsToo: true,
	Doc: "`Model NAME has hit a token limit!`: the request or the reply exceeded the model's context or output limit",
	match: func(o *output) (string, bool) {
		return "", strings.Contains(o.text, " has hit a token limit!")
	}}

// aiderOutcome reads Aider's messages with its own rules (own), then,
// when shared and the output is not stripped, with the shared rules.
func (r *run) aiderOutcome(text string, own []OutputRule, shared bool) (errType string, empty bool) {
	if t := firstError(newOutput(text, false), own); t != "" || !shared {
		return t, false
	}
	return r.classify(text, false, false, nil)
}

// aiderOutput is Aider's messages after a reply as the result's text:
// without the token report, whose running session total differs every
// time.
func aiderOutput(e *aiderEntry) string {
	var keep []string
	for _, l := range e.lines {
		if !reAiderTokens.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return strings.Trim(strings.Join(keep, "\n"), "\n")
}

// aiderUsage reads the token report in Aider's messages after a reply.
func aiderUsage(e *aiderEntry, model string) *schema.Usage {
	for _, l := range e.lines {
		m := reAiderTokens.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		u := &schema.Usage{PromptTokens: aiderCount(m[1]), CompletionTokens: aiderCount(m[2]), Model: model}
		if m[3] != "" {
			u.CostUSD, _ = strconv.ParseFloat(m[3], 64)
		}
		return u
	}
	return nil
}

// aiderCount reads Aider's token counts: 310, 3.7k, 1.2M.
func aiderCount(s string) int64 {
	mult := 1.0
	switch s[len(s)-1] {
	case 'k', 'K':
		mult, s = 1e3, s[:len(s)-1]
	case 'm', 'M':
		mult, s = 1e6, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int64(f*mult + 0.5)
}

// aiderBlocks reads a reply's SEARCH/REPLACE blocks: the file each edits
// (the line before the block's opening fence, or after it in the
// diff-fenced format), what it searches and what it puts instead. What is
// left, the reply's prose, is returned apart. A block the reply does not
// close is prose.
func aiderBlocks(reply string) (edits []map[string]string, prose string) {
	lines := strings.Split(reply, "\n")
	var rest []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "<<<<<<< SEARCH" {
			rest = append(rest, lines[i])
			continue
		}
		mid, end := -1, -1
		for k := i + 1; k < len(lines) && end < 0; k++ {
			switch strings.TrimSpace(lines[k]) {
			case "=======":
				if mid < 0 {
					mid = k
				}
			case ">>>>>>> REPLACE":
				if mid >= 0 {
					end = k
				}
			}
		}
		if end < 0 {
			rest = append(rest, lines[i])
			continue
		}
		file := ""
		for k := len(rest) - 1; k >= 0 && k >= len(rest)-2; k-- {
			l := strings.TrimSpace(rest[k])
			if strings.HasPrefix(l, "```") || l == "" {
				continue
			}
			file, rest = l, append(rest[:k], rest[k+1:]...)
			break
		}
		edits = append(edits, map[string]string{"file": file,
			"search":  strings.Join(lines[i+1:mid], "\n"),
			"replace": strings.Join(lines[mid+1:end], "\n")})
		i = end
	}
	return edits, strings.Join(rest, "\n")
}

// aiderEdits reads the edits a reply asks for: its SEARCH/REPLACE blocks,
// else, when Aider applied edits after it (the whole-file and unified
// diff formats), the files it names, the reply standing for what was
// written. The prose around the blocks is returned apart, as the agent's
// words.
func aiderEdits(reply, out string) (edits []map[string]string, prose string) {
	if edits, prose = aiderBlocks(reply); len(edits) > 0 {
		return edits, prose
	}
	files := reAiderApplied.FindAllStringSubmatch(out, -1)
	for _, f := range files {
		edits = append(edits, map[string]string{"file": strings.TrimSpace(f[1])})
	}
	if len(edits) > 0 {
		edits[0]["text"] = reply
	}
	return edits, reply
}

// convertAider turns each session into a run. A reply of the model is a
// step: a call of `edit` when it asks for edits (its SEARCH/REPLACE
// blocks, or the files Aider says it applied an edit to), answered by
// Aider's messages after it; otherwise a message to the user, answered by
// the user's next input. A block of Aider's messages right after the
// user's input that reports a model call but no reply came (an API
// error, a token limit, a token report) is a step of its own, a call of
// `model`, failed or empty. Token counts and cost come from Aider's report after
// each reply; the model from the session's banner.
func convertAider(d *Doc, emit func(*schema.Step) error) error {
	sessions := aiderSessions(d)
	for si := range sessions {
		sess := &sessions[si]
		r := d.newRun(runName(d, si, len(sessions) > 1, sess.start))
		model := ""
		for k := range sess.entries {
			e := &sess.entries[k]
			if e.kind == 'o' && model == "" {
				for _, l := range e.lines {
					if m := reAiderModel.FindStringSubmatch(l); m != nil {
						model = m[1]
						break
					}
				}
			}
			switch e.kind {
			case 'a':
				var out *aiderEntry
				if k+1 < len(sess.entries) && sess.entries[k+1].kind == 'o' {
					out = &sess.entries[k+1]
				}
				r.aiderReply(sess.entries, k, out, model)
			case 'o':
				if k > 0 && sess.entries[k-1].kind == 'a' {
					continue // the answer to the reply before it
				}
				text := aiderOutput(e)
				errType, _ := r.aiderOutcome(text, aiderModelRules, false)
				usage := aiderUsage(e, model)
				if errType == "" && usage == nil {
					continue // Aider's banner, a command's report
				}
				// A model call that brought no reply: it failed, or it
				// answered nothing.
				s := r.add(k, schema.StateAct.String())
				setCall(s, "model", map[string]string{"model": model})
				s.Usage = usage
				r.setResult(s, text, errType, errType == "")
			}
		}
		if len(r.steps) > 0 {
			if err := r.emit(emit); err != nil {
				return err
			}
		}
	}
	return nil
}

// aiderReply makes the step of reply entries[k], out being Aider's
// messages after it (or nil).
func (r *run) aiderReply(entries []aiderEntry, k int, out *aiderEntry, model string) {
	reply := entries[k].text()
	// input is the user's input after the reply (and Aider's messages).
	next, input := k+1, ""
	if out != nil {
		next++
	}
	if next < len(entries) && entries[next].kind == 'u' {
		input = entries[next].text()
	}
	s := r.add(k, schema.StateAct.String())
	if input != "" && slices.Equal(strings.Fields(input), strings.Fields(reply)) {
		// Architect mode: Aider runs its editor model with the architect's
		// reply as the editor's input, which the history writes as the
		// user's. The reply is the plan; the editor's reply after it acts,
		// and nobody answered the plan.
		s.State = schema.StatePlan.String()
		setReason(s, reply)
		if out != nil {
			s.Usage = aiderUsage(out, model)
		}
		return
	}
	outText := ""
	if out != nil {
		outText = aiderOutput(out)
		s.Usage = aiderUsage(out, model)
	}
	edits, prose := aiderEdits(reply, outText)
	if len(edits) > 0 {
		setCall(s, "edit", map[string]any{"edits": edits})
		setReason(s, prose)
		if out != nil {
			errType, empty := r.aiderOutcome(outText, aiderRules, true)
			r.setResult(s, outText, errType, empty)
		}
		return
	}
	setReason(s, reply)
	s.Intent = schema.IntentUser
	errType := ""
	if out != nil {
		// A reply Aider could not read as edits is sent back to the model.
		errType, _ = r.aiderOutcome(outText, []OutputRule{aiderNoMatchRule, aiderFormatRule, aiderAPIRule}, false)
	}
	switch {
	case errType != "":
		setCall(s, MessageTool, map[string]string{"text": reply})
		r.setResult(s, outText, errType, false)
	case next < len(entries) && entries[next].kind == 'u':
		r.setMessage(s, reply, input, "")
	default:
		setCall(s, MessageTool, map[string]string{"text": reply})
	}
}
