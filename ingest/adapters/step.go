package adapters

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/runawayhq/runaway/schema"
)

// run collects the steps of one run before they are emitted, so that
// run-level figures (a total cost, the final exit status) can be spread over
// or attached to them.
type run struct {
	id    string
	steps []*schema.Step
	strip bool       // Doc.StripOutput
	shown shownLines // what the run's outputs have shown, for tool_result.seen
	// cut holds the calls whose output the source's logger cut short,
	// and what the kept part says (narrated.go): the end the agent saw is
	// missing, and its next words witness it.
	cut map[*schema.Step]cutKind
	// views holds the calls that show a window of a file (lookups.go).
	views map[*schema.Step]bool
	// viewCut holds the views whose output the logger cut short: what it
	// did not keep may hold what the agent looked for (lookups.go).
	viewCut map[*schema.Step]bool
	// blank holds the calls answered with a logged output that is blank.
	blank map[*schema.Step]bool
	// ruled is the last output the output rules decided (classify).
	ruled ruling
}

// cutKind is what the kept part of an output cut short says.
type cutKind uint8

const (
	// cutQuiet: no rule read a failure in it; the words may say one.
	cutQuiet cutKind = iota + 1
	// cutTraceback: a traceback's header whose exception line was cut; the
	// failure stands until the words say the call worked.
	cutTraceback
)

// markCut records that the source's logger kept only the beginning of the
// call's output, and what that beginning says.
func (r *run) markCut(s *schema.Step, kind cutKind) {
	if r.cut == nil {
		r.cut = map[*schema.Step]cutKind{}
	}
	r.cut[s] = kind
}

func (d *Doc) newRun(id string) *run { return &run{id: id, strip: d.StripOutput} }

// classify applies the output rules (output.go). When the output is
// stripped, only a rule that reads the harness's own message in place of
// the output (OutputRule.Harness) is kept: nothing else can be read.
func (r *run) classify(text string, search, view bool, formatRules []OutputRule) (errType string, empty bool) {
	errType, empty, rule, final := classifyRule(text, search, view, r.strip, formatRules)
	r.ruled = ruling{text: text, errType: errType, empty: empty, rule: rule, final: final}
	return errType, empty
}

// ruling is the last output an output rule decided: setResult names the
// rule as the result's reason when the result it sets is that one.
type ruling struct {
	text, errType, rule string
	empty               bool
	final               bool // OutputRule.Final: not retryable
}

// setResult is setResult without the text when the output is stripped,
// and marks an output that only repeats what the run was shown before.
func (r *run) setResult(s *schema.Step, text, errType string, empty bool) {
	// The rule that read this very output into this very result is its
	// reason; an output typed otherwise after it (an exit code, the
	// format's own error field) keeps none.
	rd := r.ruled
	ruled := rd.rule != "" && rd.errType == errType && rd.empty == empty && rd.text == text
	r.ruled = ruling{}
	if inner, _, ok := mcpUnwrap(text); ok && strings.TrimSpace(inner) != "" {
		// What the tool said, not how a proxy or the SDK wrapped it: the
		// wrapper's boilerplate would make any two answers look alike.
		text = inner
	}
	if r.strip {
		text = ""
	} else if errType == "" && !empty && strings.TrimSpace(stripANSI(text)) == "" {
		// Blank as the agent saw it: a terminal's bracketed-paste
		// toggles around nothing are no text.
		if r.blank == nil {
			r.blank = map[*schema.Step]bool{}
		}
		r.blank[s] = true
	}
	setResult(s, text, errType, empty)
	if ruled {
		s.ToolResult.Reason = "output rule " + rd.rule
		if rd.final {
			retryable := false
			s.ToolResult.Retryable = &retryable
		}
	}
	if text != "" && errType == "" && !empty && r.shown.repeats(text) {
		seen := true
		s.ToolResult.Seen = &seen
	}
	if text != "" && errType == "" && !empty && reportsFailure(text) {
		reports := true
		s.ToolResult.ReportsFailure = &reports
	}
}

// setBlank records a call whose output the harness's own message says was
// blank: read as a logged blank output is, even when the output is
// stripped, since the message is the harness's and not the tool's.
func (r *run) setBlank(s *schema.Step, search, view bool, rules []OutputRule) {
	errType, empty, _, _ := classifyRule("", search, view, false, rules)
	r.ruled = ruling{}
	if errType == "" && !empty {
		if r.blank == nil {
			r.blank = map[*schema.Step]bool{}
		}
		r.blank[s] = true
	}
	setResult(s, "", errType, empty)
}

// add appends the step at position pos of the source's list.
func (r *run) add(pos int, state string) *schema.Step {
	n := int64(pos)
	s := &schema.Step{RunID: r.id, Step: &n, State: state}
	r.steps = append(r.steps, s)
	return s
}

// emit hands the steps on in order.
func (r *run) emit(emit func(*schema.Step) error) error {
	r.readCommentCommands()
	markEdits(r.steps)
	markEditScriptMisses(r.steps)
	markEditScriptCrashes(r.steps)
	r.markBlankAnswers()
	r.markTextlessFailures()
	r.markSelfReplacements()
	r.readAskedExactText()
	r.markUnlandedRetargets()
	r.markUnheldReplacements()
	r.markRewrites()
	r.readAskedExactScripts()
	r.readSaidEditMisses()
	absent := r.absentOutputs()
	r.readRepairsAnnounced()
	r.readSaidOutcomes()
	r.markSaidFailedEdits()
	r.carryCutFailures()
	r.carryRerunOutcomes(absent)
	r.markMissedLookups()
	for _, s := range r.steps {
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
}

// calls counts the steps that made a tool call.
func (r *run) calls() int {
	n := 0
	for _, s := range r.steps {
		if s.ToolCall != nil {
			n++
		}
	}
	return n
}

// spreadUsage shares a run's total tokens and cost evenly among its steps
// that made a call (all steps when none did): trajectories that log only
// totals still say what a loop's steps cost, as an estimate.
func (r *run) spreadUsage(prompt, completion int64, cost float64) {
	spreadUsageOver(r.callSteps(), prompt, completion, cost)
}

// spreadUsageOver shares the tokens and cost evenly among the steps on.
func spreadUsageOver(on []*schema.Step, prompt, completion int64, cost float64) {
	if prompt <= 0 && completion <= 0 && cost <= 0 {
		return
	}
	if len(on) == 0 {
		return
	}
	n := int64(len(on))
	for i, s := range on {
		u := &schema.Usage{
			PromptTokens:     share(prompt, n, int64(i)),
			CompletionTokens: share(completion, n, int64(i)),
			CostUSD:          max(cost, 0) / float64(n),
		}
		if u.PromptTokens != 0 || u.CompletionTokens != 0 || u.CostUSD != 0 {
			s.Usage = u
		}
	}
}

// spreadCost shares a run's total cost evenly among its steps that made a
// call (all steps when none did), keeping the tokens each step logged.
func (r *run) spreadCost(cost float64) {
	on := r.callSteps()
	for _, s := range on {
		if s.Usage == nil {
			s.Usage = &schema.Usage{}
		}
		s.Usage.CostUSD = cost / float64(len(on))
	}
}

// callSteps are the steps a run's totals are shared among: those that
// made a call, or all of them when none did.
func (r *run) callSteps() []*schema.Step {
	var on []*schema.Step
	for _, s := range r.steps {
		if s.ToolCall != nil {
			on = append(on, s)
		}
	}
	if len(on) == 0 {
		return r.steps
	}
	return on
}

// share is the i-th of n integer shares of total, the remainder going to
// the first shares, so the shares add up to total.
func share(total, n, i int64) int64 {
	if total <= 0 {
		return 0
	}
	q, r := total/n, total%n
	if i < r {
		return q + 1
	}
	return q
}

// searchIntent is the intent of every call that searches (grep, find, a
// search tool): a run of them that keeps coming back empty is one search
// rephrased, whatever its words.
const searchIntent = schema.IntentSearch

// setCall records a tool call; args is any value that marshals to JSON.
func setCall(s *schema.Step, tool string, args any) {
	raw, err := json.Marshal(args)
	if err != nil {
		raw = []byte("null")
	}
	s.ToolCall = &schema.ToolCall{Name: tool, Args: raw}
}

// thinkTool reports whether a tool only lets the model reason: a tool named
// think (tau-bench's and Anthropic's, which say of it "it will not obtain
// new information or change the database"). Its call is the agent
// planning, as OpenHands' think action is.
func thinkTool(tool string) bool { return strings.EqualFold(strings.TrimSpace(tool), "think") }

// setThought makes s the PLAN step a think tool's call is, its thought the
// step's reason: no call, no result, and so never progress. Args that are
// not JSON (tau-bench logs some as a Python repr) are the thought as
// written.
func setThought(s *schema.Step, args json.RawMessage) {
	s.State = schema.StatePlan.String()
	var a struct {
		Thought string `json:"thought"`
	}
	switch {
	case json.Unmarshal(args, &a) == nil && strings.TrimSpace(a.Thought) != "":
		setReason(s, a.Thought)
	case !json.Valid(args):
		setReason(s, string(args))
	}
}

// setRawCall records a tool call whose args are already JSON. Args that do
// not parse (models write broken JSON) are kept as a string, so the call is
// still compared by what was asked.
func setRawCall(s *schema.Step, tool string, args json.RawMessage) {
	if len(args) == 0 || !json.Valid(args) {
		setCall(s, tool, map[string]string{"raw": string(args)})
		return
	}
	s.ToolCall = &schema.ToolCall{Name: tool, Args: args}
}

// setResult records a tool's output: an error when errType is set, empty
// when the output says nothing was found. The text goes into the result as
// data, so results are compared by what the agent saw.
func setResult(s *schema.Step, text, errType string, empty bool) {
	text = clipOutput(stripANSI(text))
	ok := errType == ""
	r := &schema.ToolResult{OK: &ok, ErrorType: errType}
	if empty {
		t := true
		r.Empty = &t
	}
	if strings.TrimSpace(text) != "" || empty {
		r.Data = jsonString(text)
	}
	s.ToolResult = r
}

// MessageTool is the tool name of a message the agent sent to the user (or
// to a simulated one, or another agent) and got an answer to.
const MessageTool = schema.ToolMessage

// setMessage records a message to the user as a call whose result is the
// user's reply; errType, when set, says the reply rejected the turn (a
// harness's nudge after a turn without a tool call).
func setMessage(s *schema.Step, content, reply, errType string) {
	if s.State == "" {
		s.State = schema.StateAct.String()
	}
	setCall(s, MessageTool, map[string]string{"text": content})
	setResult(s, reply, errType, false)
}

// setMessage is setMessage without the reply when the output is stripped.
func (r *run) setMessage(s *schema.Step, content, reply, errType string) {
	if r.strip {
		reply = ""
	}
	setMessage(s, content, reply, errType)
}

// replyError is what a format's own rules read in another speaker's
// answer to a message (an agent that runs the code it was sent and says
// how it went): the shared rules are not applied, as prose quotes errors.
// Nothing is read when the output is stripped.
func (r *run) replyError(reply string, rules []OutputRule) string {
	if r.strip || len(rules) == 0 {
		return ""
	}
	return firstError(newOutput(stripANSI(reply), false), rules)
}

// setReason keeps the agent's words for the step (a thought, a message),
// shortened: they show in explain, and steps without a call that say the
// same thing again are a monologue.
func setReason(s *schema.Step, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	s.Decision = &schema.Decision{Reason: clip(text, maxReason)}
}

const maxReason = 2000

// clip shortens s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func jsonString(s string) json.RawMessage {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b, _ := json.Marshal(s)
	return b
}

// text decodes a JSON value that should be a string. Chat formats also
// write a list of parts ([{"type":"text","text":...}]): their texts are
// joined. Anything else is returned as its JSON.
func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case 'n':
		if string(raw) == "null" {
			return ""
		}
	case '[':
		var parts []struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &parts) == nil {
			var b strings.Builder
			for _, p := range parts {
				t := p.Text
				if t == "" && len(p.Content) > 0 {
					t = text(p.Content)
				}
				if t == "" {
					continue
				}
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(t)
			}
			return b.String()
		}
	}
	return string(raw)
}

// maxOutput bounds the tool output kept of one step: its head and tail,
// where outputs say what happened. A step is one line of JSON to the
// decoder, and a gigantic output says no more about a loop than its ends.
const maxOutput = 1 << 20

func clipOutput(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	return clip(s, maxOutput/2) + "\n[...]\n" + s[len(s)-maxOutput/2+runeTail(s[len(s)-maxOutput/2:]):]
}

// runeTail is how many bytes at the start of s continue a rune begun before it.
func runeTail(s string) int {
	n := 0
	for n < len(s) && n < 3 && !utf8.RuneStart(s[n]) {
		n++
	}
	return n
}

// stripANSI removes terminal escape sequences (colours, bracketed-paste
// toggles) from tool output: they are how a terminal drew the text, not
// what it said.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	return reANSI.ReplaceAllString(s, "")
}

var reANSI = regexp.MustCompile(`\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])`)

// epochTS reads a time given as a number since the epoch, in seconds (with
// a fraction) or in milliseconds, told apart by size as
// schema.EpochToMilli does; nil when absent (0), negative, not a number or
// implausibly far.
func epochTS(f float64) *schema.Timestamp {
	if !(f > 0) || f > 1e14 {
		return nil
	}
	return &schema.Timestamp{UnixMilli: schema.EpochToMilli(f)}
}
