package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// BrowserUse reads the agent histories browser-use writes
// (AgentHistoryList.save_to_file, or agent.history dumped): one JSON object
// {"history": [AgentHistory, ...]}. Each entry is one step of the agent:
// "model_output" (null when the model's turn failed; else its thoughts,
// under "current_state" up to 0.3.1 and at its top level since, and
// "action", a list of one-key objects {"click_element_by_index": {...}}),
// "result" (the ActionResults, aligned with the actions: "extracted_content",
// "error", "is_done", ...), "state" (the page the model saw: "url", "title",
// "tabs", "interacted_element" aligned with the actions, a screenshot or its
// path) and "metadata" ("step_start_time", "input_tokens" from 0.1.40 to
// 0.3.2, ...). Releases 0.1.12 to 0.1.16 wrote one action, one result and
// one element, as objects.
var BrowserUse = &Format{
	Name:      "browser-use",
	Title:     "browser-use agent histories (AgentHistoryList.save_to_file: a step's actions, their results and the page)",
	Recognize: recognizeBrowserUse,
	Convert:   convertBrowserUse,
}

func recognizeBrowserUse(d *Doc) error {
	if !d.IsObject() {
		return errors.New(`not a JSON object with a "history" list`)
	}
	raw, ok := d.obj["history"]
	if !ok {
		return errors.New(`no "history" list`)
	}
	first, ok := firstElement(raw)
	switch {
	case !ok:
		return errors.New(`"history" is not a list`)
	case first == nil:
		return errors.New(`"history" is empty: no step to read`)
	}
	var entry map[string]json.RawMessage
	if json.Unmarshal(first, &entry) != nil {
		return errors.New(`"history" does not hold objects`)
	}
	_, out := entry["model_output"]
	_, res := entry["result"]
	_, state := entry["state"]
	if !out || !res && !state {
		return errors.New(`"history" holds no browser-use step ("model_output" with "result" or "state")`)
	}
	return nil
}

// buEntry is one AgentHistory: the fields read. The screenshot (base64,
// or a path) and the tabs are never decoded.
type buEntry struct {
	ModelOutput json.RawMessage `json:"model_output"`
	Result      json.RawMessage `json:"result"`
	State       *struct {
		URL               looseString     `json:"url"`
		Title             looseString     `json:"title"`
		InteractedElement json.RawMessage `json:"interacted_element"`
	} `json:"state"`
	Metadata *struct {
		StepStartTime json.RawMessage `json:"step_start_time"`
		InputTokens   looseCount      `json:"input_tokens"`
	} `json:"metadata"`
}

// buBrain holds the model's thoughts, as AgentBrain names them.
type buBrain struct {
	Thinking               looseString `json:"thinking"`
	EvaluationPreviousGoal looseString `json:"evaluation_previous_goal"`
	ValuationPreviousGoal  looseString `json:"valuation_previous_goal"` // 0.1.12-0.1.16's spelling
	PageSummary            looseString `json:"page_summary"`            // 0.1.35-0.1.37
	Memory                 looseString `json:"memory"`
	NextGoal               looseString `json:"next_goal"`
}

// words are the thoughts as the step's reason: the evaluation of the last
// action first, since it is the agent's word on what that action did
// ("Failed - the page did not change"), which the rules on the agent's
// next words read in its first sentences.
func (b *buBrain) words() string {
	var parts []string
	for _, s := range []looseString{b.EvaluationPreviousGoal, b.ValuationPreviousGoal, b.Thinking, b.PageSummary, b.Memory, b.NextGoal} {
		if t := strings.TrimSpace(string(s)); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

type buOutput struct {
	CurrentState *buBrain `json:"current_state"`
	buBrain
	Action json.RawMessage `json:"action"`
}

// buResult is one ActionResult.
type buResult struct {
	IsDone looseBool `json:"is_done"`
	// Success false on an action that is not done says it failed (0.2's
	// click on a missing index answers so, without an error); on done it
	// is the agent's own verdict on the task.
	Success          json.RawMessage `json:"success"`
	Error            json.RawMessage `json:"error"`
	ExtractedContent json.RawMessage `json:"extracted_content"`
}

// buElement is a DOM element an action named: DOMInteractedElement since
// 0.6 (node_name, x_path, ax_name from 0.11.3), DOMHistoryElement before
// (tag_name, xpath).
type buElement struct {
	NodeName   looseString     `json:"node_name"`
	TagName    looseString     `json:"tag_name"`
	XPath      looseString     `json:"x_path"`
	OldXPath   looseString     `json:"xpath"`
	AXName     looseString     `json:"ax_name"`
	Attributes json.RawMessage `json:"attributes"`
}

// buTarget is what a call on an element names in place of its index: the
// index is the element's number in one rendering of the page, so the same
// button has another after a re-render, and the same number is another
// element on another page.
type buTarget struct {
	Page       string            `json:"page,omitempty"`
	XPath      string            `json:"xpath,omitempty"`
	Tag        string            `json:"tag,omitempty"`
	Name       string            `json:"name,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// buIdentityAttributes are the attributes that name an element when its
// xpath was not logged; class and style change with its state (hover,
// active) and are not among them.
var buIdentityAttributes = []string{"id", "name", "type", "role", "href", "aria-label", "placeholder", "title", "alt"}

// target is the element's identity on page: its xpath and tag when
// logged, else its tag, accessible name and identifying attributes.
func (e *buElement) target(page string) buTarget {
	t := buTarget{Page: page, XPath: firstNonEmpty(string(e.XPath), string(e.OldXPath)), Tag: strings.ToLower(firstNonEmpty(string(e.NodeName), string(e.TagName)))}
	if t.XPath != "" {
		return t
	}
	t.Name = strings.TrimSpace(string(e.AXName))
	var attrs map[string]json.RawMessage
	json.Unmarshal(e.Attributes, &attrs) // attributes that are not an object name nothing
	for _, k := range buIdentityAttributes {
		if v := strings.TrimSpace(scalar(attrs[k])); v != "" {
			if t.Attributes == nil {
				t.Attributes = map[string]string{}
			}
			t.Attributes[k] = v
		}
	}
	return t
}

// buAction is one action of a model output: its name and params.
type buAction struct {
	name   string
	params json.RawMessage
}

// buActions reads model_output's "action": a list of one-key objects, or
// (0.1.12-0.1.16) one such object. An object with several keys (a dump
// that kept the actions not taken, as null) is the first key whose value
// is set.
func buActions(raw json.RawMessage) ([]buAction, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var els []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &els); err != nil {
			return nil, err
		}
	} else {
		els = []json.RawMessage{raw}
	}
	out := make([]buAction, 0, len(els))
	for _, el := range els {
		members, err := orderedMembers(el)
		if err != nil {
			return nil, fmt.Errorf("an action is not an object: %v", err)
		}
		a := buAction{name: "action"}
		for i, m := range members {
			if i == 0 || filled(m.value) && !filled(a.params) {
				a.name, a.params = m.key, m.value
			}
		}
		out = append(out, a)
	}
	return out, nil
}

type member struct {
	key   string
	value json.RawMessage
}

// orderedMembers lists a JSON object's members in the order written: which
// action an object names must not depend on map order.
func orderedMembers(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key, v})
	}
	return out, nil
}

// listOf reads a field that is a list, or (0.1.12-0.1.16) one object
// standing for a list of one; null is an empty list.
func listOf(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case raw[0] == '[':
		var els []json.RawMessage
		err := json.Unmarshal(raw, &els)
		return els, err
	}
	return []json.RawMessage{raw}, nil
}

// buSkipped is the result multi_act adds in place of an action it did not
// run, because the page changed under the actions before it (0.1.39 to
// 0.8.0): that action and the ones after it never ran.
var buSkipped = regexp.MustCompile(`^(?:Something new appeared after action \d+|Element index changed after action \d+)`)

// buExecError is the registry's wrapper of an exception an action raised,
// naming the action: up to 0.12.6 such an exception ended the step, its
// message the step's only result, the results of the actions before it
// lost.
var buExecError = regexp.MustCompile(`^Error executing action (\w+):`)

// buPair says which of an entry's actions ran and the result of each:
// results are aligned with the actions, and stop where multi_act stopped
// (an error, done, a changed page). ran counts the actions that ran; a nil
// result is one that ran but whose result the history did not keep.
func buPair(actions []buAction, results []buResult) (ran int, res []*buResult) {
	res = make([]*buResult, len(actions))
	if len(results) == 1 && len(actions) > 1 && text(results[0].Error) != "" {
		if m := buExecError.FindStringSubmatch(text(results[0].Error)); m != nil {
			for j := range actions {
				if actions[j].name == m[1] {
					res[j] = &results[0]
					return j + 1, res
				}
			}
		}
	}
	for k := range actions {
		if k >= len(results) || buSkipped.MatchString(text(results[k].ExtractedContent)) {
			return k, res
		}
		res[k] = &results[k]
	}
	return len(actions), res
}

// buRules are browser-use's own output rules, before the shared ones.
var buRules = []OutputRule{{
	Name: "browser-use-no-element", ErrorType: "NO_SUCH_ELEMENT",
	Doc: "the controller found no element at the index the action named, at the start of the output (after an emoji at most): `Element with index 12 does not exist - retry or use alternative actions`, `Element index 12 does not exist`, `Element index 12 not available - page may have changed`, `Element index 12 not found in browser state` (or in the DOM, or in the selector map), `Element not clickable with index 12`, `Element no longer available with index 12`, also after the registry's `Error executing action click_element: ` or an exception's name (`RuntimeError: `), whether the result gives it as its `error` or, as 0.2 and 0.9 on do, as its text: the action did nothing",
	match: func(o *output) (string, bool) {
		return "", strings.Contains(o.first, "ndex ") && reBUNoElement.MatchString(o.first)
	},
}, {
	Name: "browser-use-timeout", ErrorType: schema.ErrTimeout,
	Doc: "a page that did not answer in time, on the output's first line: Playwright's `Timeout 30000ms exceeded.` at the start or after a `: ` (`Error executing action go_to_url: Page.goto: Timeout 30000ms exceeded.`), or Chromium's `net::ERR_TIMED_OUT` or `net::ERR_CONNECTION_TIMED_OUT`",
	match: func(o *output) (string, bool) {
		return "", (strings.Contains(o.first, "imeout") || strings.Contains(o.first, "TIMED_OUT")) && reBUTimeout.MatchString(o.first)
	},
}}

var (
	// The controller's message opens the text (after an emoji), the
	// registry's wrapper or an exception's name before it at most.
	reBUNoElement = regexp.MustCompile(`^\W*(?:(?:Error executing action \w+|[\w.]*(?:Error|Exception)): ){0,2}(?i:element (?:(?:with )?index \d+ (?:does not exist|not available|not found)|(?:not clickable|no longer available) with index \d+))`)
	reBUTimeout   = regexp.MustCompile(`(?:^|: )Timeout \d+(?:\.\d+)?ms exceeded\b|\bnet::ERR_(?:CONNECTION_)?TIMED_OUT\b`)
)

// reBUModelFormat is the agent's message for a model output it could not
// read as actions (a schema validation error, JSON that does not parse, no
// action): the harness rejected the turn.
var reBUModelFormat = regexp.MustCompile(`Invalid model output format|validation errors? for AgentOutput|Could not parse response|could not be parsed|Failed to parse model output|LLM response missing required fields|Expected format: AgentOutput|invalid output structure|output format was invalid|No valid action found|responded with invalid JSON`)

// reBURateLimit is a provider's refusal for too many requests, as the
// agent reports it ("Rate limit reached. Waiting before retry.", an SDK's
// "Error code: 429").
var reBURateLimit = regexp.MustCompile(`(?i)rate[ _-]?limit|too many requests|\b(?:error code|status(?: code)?|http/\d(?:\.\d)?)[: ]+429\b|resource[ _]?exhausted`)

// buErrorType is the kind of failure the result's own "error" field
// reports, when no output rule read it: the error is browser-use's event,
// not the page's text, so it is read with --strip-output too. A bare
// number is no status here: element indices run into the hundreds.
func buErrorType(msg string) string {
	if t := firstError(newOutput(msg, false), buRules); t != "" {
		return t
	}
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "timed out") || strings.Contains(low, "timeout"):
		return schema.ErrTimeout
	case reBURateLimit.MatchString(msg):
		return schema.ErrRateLimit
	}
	return "ERROR"
}

// buViewAction reports whether an action shows content (the page's text,
// a file) rather than doing something: what error-like text it returns is
// as likely the content's.
func buViewAction(name string) bool {
	return strings.Contains(name, "extract") || name == "read_file" || name == "get_dropdown_options" || name == "dropdown_options"
}

// buPage is a page as a result shows it: the page an action led to.
func buPage(url, title string) string {
	url, title = strings.TrimSpace(url), strings.TrimSpace(title)
	switch {
	case url == "" && title == "":
		return ""
	case title == "":
		return "page: " + url
	}
	return "page: " + url + "\ntitle: " + title
}

func convertBrowserUse(d *Doc, emit func(*schema.Step) error) error {
	var entries []json.RawMessage
	if err := json.Unmarshal(d.obj["history"], &entries); err != nil {
		return fmt.Errorf(`"history": %v`, jsonError(err))
	}
	hist := make([]buEntry, len(entries))
	for i, el := range entries {
		if err := json.Unmarshal(el, &hist[i]); err != nil {
			return fmt.Errorf("history entry %d: %v", i, buDecodeError(err))
		}
	}
	r := d.newRun(runName(d, 0, false, ""))
	pos := 0
	scrolled := map[string]float64{} // per page (and element scrolled in), where the scrolls reached, in pages
	for i := range hist {
		h := &hist[i]
		at := pos
		var url string // the page the model saw, whose elements its indices number
		var elements []json.RawMessage
		if h.State != nil {
			url = string(h.State.URL)
			elements, _ = listOf(h.State.InteractedElement)
		}
		// The page this entry's actions led to is the page the next entry
		// was decided on: browser-use takes the state before the model.
		next := ""
		if i+1 < len(hist) && hist[i+1].State != nil {
			next = buPage(string(hist[i+1].State.URL), string(hist[i+1].State.Title))
		}
		var ts *schema.Timestamp
		var usage *schema.Usage
		if m := h.Metadata; m != nil {
			if f, err := strconv.ParseFloat(string(bytes.TrimSpace(m.StepStartTime)), 64); err == nil {
				ts = epochTS(f)
			}
			if m.InputTokens > 0 {
				usage = &schema.Usage{PromptTokens: int64(m.InputTokens)}
			}
		}
		rawResults, err := listOf(h.Result)
		if err != nil {
			return fmt.Errorf(`history entry %d: "result": %v`, i, jsonError(err))
		}
		results := make([]buResult, len(rawResults))
		for k, el := range rawResults {
			if err := json.Unmarshal(el, &results[k]); err != nil {
				return fmt.Errorf(`history entry %d: result %d: %v`, i, k, buDecodeError(err))
			}
		}
		var out buOutput
		var actions []buAction
		if filled(h.ModelOutput) {
			if err := json.Unmarshal(h.ModelOutput, &out); err != nil {
				return fmt.Errorf(`history entry %d: "model_output": %v`, i, buDecodeError(err))
			}
			if actions, err = buActions(out.Action); err != nil {
				return fmt.Errorf(`history entry %d: "action": %v`, i, err)
			}
		}
		pos += max(len(actions), 1)
		reason := out.words()
		if out.CurrentState != nil {
			reason = joinLine(out.CurrentState.words(), reason)
		}
		if len(actions) == 0 {
			msg := ""
			for _, res := range results {
				msg = joinLine(msg, strings.TrimSpace(text(res.Error)))
			}
			if msg == "" && !filled(h.ModelOutput) {
				continue // no turn of the model's, and nothing failed
			}
			s := r.add(at, schema.StateAct.String())
			s.TS, s.Usage = ts, usage
			setReason(s, reason)
			if msg != "" {
				// The model's turn failed: its output did not read as
				// actions (the harness rejected it), or the model call
				// itself failed (a rate limit, a timeout).
				if reBUModelFormat.MatchString(msg) {
					setCall(s, "format_error", map[string]string{"invalid": "no valid action"})
					r.setResult(s, msg, schema.ErrFormatError, false)
				} else {
					setCall(s, "model", map[string]string{})
					r.setResult(s, msg, buErrorType(msg), false)
				}
			}
			continue
		}
		ran, res := buPair(actions, results)
		for k := range ran {
			a := &actions[k]
			s := r.add(at+k, schema.StateAct.String())
			s.TS = ts
			if k == 0 {
				setReason(s, reason)
				s.Usage = usage
			}
			var el *buElement
			if k < len(elements) && filled(elements[k]) {
				el = new(buElement)
				if json.Unmarshal(elements[k], el) != nil {
					el = nil
				}
			}
			buSetCall(s, a, el, url, scrolled)
			search, view := isSearch(a.name), buViewAction(a.name)
			if search {
				s.Intent = searchIntent
			}
			rs := res[k]
			if rs == nil {
				continue // it ran, but its result was not kept
			}
			done := a.name == "done" || bool(rs.IsDone)
			if done {
				s.State = schema.StateStop.String()
			}
			errText := strings.TrimSpace(text(rs.Error))
			out := joinLine(errText, text(rs.ExtractedContent))
			var et string
			var empty bool
			if !done {
				// The final answer is the agent's words, not a page's: it is
				// not read for failures.
				et, empty = r.classify(out, search, view, buRules)
			}
			if failed := errText != "" || !done && string(bytes.TrimSpace(rs.Success)) == "false"; et == "" && failed {
				// browser-use's own word that the action failed stands
				// when no rule named the failure (or the output is
				// stripped): its error names the kind, when it gives one.
				et, empty = buErrorType(errText), false
			}
			if k == ran-1 && !done && next != "" {
				// The page the entry's actions led to is part of the last
				// one's answer (the pages between them were not taken): a
				// click that left the page as it was answers as the last
				// one did. The rules read the action's own text above.
				out = strings.TrimRight(out, "\n") + "\n\n" + next
				r.ruled.text = out
			}
			r.setResult(s, out, et, empty)
		}
	}
	if len(r.steps) == 0 {
		return errors.New("no step with an action or a failed model turn")
	}
	if !buHasUsage(r) {
		buSpreadTotals(r, d.obj["usage"])
	}
	return r.emit(emit)
}

// buDecodeError says which member had the wrong type, or that the value
// is not an object, without Go's names for them.
func buDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case !errors.As(err, &te):
		return jsonError(err)
	case te.Field != "":
		return fmt.Errorf("%q is a JSON %s, not what browser-use writes there", te.Field, te.Value)
	}
	return fmt.Errorf("a JSON %s, not an object", te.Value)
}

// buSetCall records an action as a call: its name and params, the element
// it named identified by its place on the page rather than its index when
// the history logged the element, and a scroll's place on the page
// (scrolled: per page and element scrolled in, where the scrolls reached).
func buSetCall(s *schema.Step, a *buAction, el *buElement, page string, scrolled map[string]float64) {
	args := map[string]json.RawMessage{}
	if filled(a.params) && json.Unmarshal(a.params, &args) != nil {
		args = map[string]json.RawMessage{"value": a.params}
	}
	if delta, ok := buScrollDelta(a.name, args); ok {
		// A scroll's target is a place on the page: the same scroll from
		// the next place is the next page of it, as a view of the next
		// lines of a file is (docs/adapters/browser-use.md).
		key := page + "\x00" + string(bytes.TrimSpace(args["index"]))
		scrolled[key] = max(scrolled[key]+delta, 0)
		args["position"] = json.RawMessage(strconv.FormatFloat(math.Round(scrolled[key]*100)/100, 'f', -1, 64))
	}
	_, indexed := args["index"]
	if el == nil && !indexed {
		setCall(s, a.name, args)
		return
	}
	t := buTarget{Page: page}
	if el != nil {
		t = el.target(page)
		if t.XPath != "" || t.Name != "" || len(t.Attributes) > 0 {
			delete(args, "index")
		}
	}
	raw, _ := json.Marshal(t)
	args["target"] = raw
	setCall(s, a.name, args)
}

// buHasUsage reports whether a step of the run has its usage.
func buHasUsage(r *run) bool {
	for _, s := range r.steps {
		if s.Usage != nil {
			return true
		}
	}
	return false
}

// buSpreadTotals spreads a history's UsageSummary (newer AgentHistoryLists
// carry one beside "history") over the run's calls, when no step logged
// its tokens.
func buSpreadTotals(r *run, raw json.RawMessage) {
	if !filled(raw) {
		return
	}
	var u struct {
		Prompt     looseCount      `json:"total_prompt_tokens"`
		Completion looseCount      `json:"total_completion_tokens"`
		Cost       json.RawMessage `json:"total_cost"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return
	}
	cost, err := strconv.ParseFloat(string(bytes.TrimSpace(u.Cost)), 64)
	if err != nil || !(cost > 0) || cost > 1e9 {
		cost = 0
	}
	r.spreadUsage(int64(u.Prompt), int64(u.Completion), cost)
}

// buScrollDelta is how far a scroll action moved, in pages (down
// positive): `scroll_down` and `scroll_up` with `amount` in pixels (a page
// when none; a page taken as 1000 pixels), `scroll` with `down` and
// `num_pages` or `pages` (0.5 on). Other actions report false.
func buScrollDelta(name string, params map[string]json.RawMessage) (float64, bool) {
	number := func(key string, limit float64) (float64, bool) {
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(params[key])), 64)
		return f, err == nil && f > 0 && f < limit
	}
	sign := 1.0
	switch name {
	case "scroll_down":
	case "scroll_up":
		sign = -1
	case "scroll":
		if string(bytes.TrimSpace(params["down"])) == "false" {
			sign = -1
		}
	default:
		return 0, false
	}
	size := 1.0
	for _, k := range []string{"num_pages", "pages"} {
		if f, ok := number(k, 1e6); ok {
			size = f
		}
	}
	if f, ok := number("amount", 1e9); ok {
		size = f / 1000
	}
	return sign * size, true
}
