package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// OpenHands reads OpenHands (formerly OpenDevin) event histories in every
// shape its versions write: the evaluation harness's output.jsonl (one task
// per line, its events under "history": flat events whose observations
// name their action in "cause", [action, observation] pairs in OpenDevin,
// flattened events in the resolver, typed events with "kind" in the V1
// SDK), and an event stream saved as a JSON array of events (an export, or
// a session's events/ directory, which ingest reads as one array).
var OpenHands = &Format{
	Name:      "openhands",
	Title:     "OpenHands event histories (evaluation output.jsonl, event stream exports, session event directories, V1 SDK)",
	Recognize: recognizeOpenHands,
	Convert:   convertOpenHands,
}

func recognizeOpenHands(d *Doc) error {
	switch {
	case d.IsObject():
		raw, ok := d.obj["history"]
		if !ok {
			if _, ok := d.obj["trajectory"]; !ok {
				return errors.New(`no "history" list`)
			}
			if _, err := ohTrajectory(d.obj); err != nil {
				return fmt.Errorf(`no "history" list, and %v`, err)
			}
			return nil
		}
		var h []json.RawMessage
		if json.Unmarshal(raw, &h) != nil {
			return errors.New(`"history" is not a list`)
		}
		if len(h) > 0 && ohShape(h[0]) == "" {
			return errors.New(`"history" holds neither events ({"action"|"observation"|"kind": ...}) nor [action, observation] pairs`)
		}
		return nil
	case d.IsArray():
		if len(d.arr) == 0 {
			return errors.New("an empty list")
		}
		if s := ohShape(d.arr[0]); s != "event" && s != "v1" {
			return errors.New(`not a list of events with "action", "observation" or "kind"`)
		}
		return nil
	}
	return errors.New("not a JSON object or array")
}

// ohTrajectory is the event list of a document that keeps it under
// "trajectory": the OpenHands server's answer to GET
// /api/conversations/{id}/trajectory ({"trajectory": [events]}, as a user
// saves it), and the records of OpenHands' shared feedback ({"version",
// "feedback", "trajectory"}). SWE-agent's trajectories use the key too,
// their entries holding both an action and its observation; an OpenHands
// event is one or the other (the other absent or null) and says its
// source, or is a V1 event typed by "kind".
func ohTrajectory(obj map[string]json.RawMessage) ([]json.RawMessage, error) {
	var t []json.RawMessage
	raw := obj["trajectory"]
	if json.Unmarshal(raw, &t) != nil || len(t) == 0 {
		return nil, errors.New(`"trajectory" is not a list of events`)
	}
	switch ohShape(t[0]) {
	case "v1":
		return t, nil
	case "event":
		var e struct {
			Action      json.RawMessage `json:"action"`
			Observation json.RawMessage `json:"observation"`
			Source      json.RawMessage `json:"source"`
		}
		if json.Unmarshal(t[0], &e) == nil && isJSONString(e.Action) != isJSONString(e.Observation) && isJSONString(e.Source) {
			return t, nil
		}
	}
	return nil, errors.New(`"trajectory" does not start with an OpenHands event (an "action" or an "observation" with its "source")`)
}

// ohShape says what one history element is: "event" (V0), "v1" (typed by
// "kind"), "pair", or "" (none of them).
func ohShape(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '[' {
		var p []json.RawMessage
		if json.Unmarshal(raw, &p) == nil && len(p) == 2 && ohShape(p[0]) == "event" {
			return "pair"
		}
		return ""
	}
	var e struct {
		Action      json.RawMessage `json:"action"`
		Observation json.RawMessage `json:"observation"`
		Kind        string          `json:"kind"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	switch {
	case strings.HasSuffix(e.Kind, "Event") || strings.HasSuffix(e.Kind, "Observation"):
		return "v1"
	case isJSONString(e.Action) || isJSONString(e.Observation):
		return "event"
	}
	return ""
}

func isJSONString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// ohEvent is one event of any version, brought to one shape.
type ohEvent struct {
	pos     int    // position in the history
	action  string // the action's name (run, edit, ...); "" for an observation
	obs     string // the observation's name (run, error, ...); "" for an action
	source  string
	id      string // own id, to match observations to actions
	cause   string // the action an observation answers
	ts      string
	args    map[string]json.RawMessage
	thought string
	summary string // V1: the model's few words on what the action does (ohSummary)
	content string // an observation's output, an agent message's text
	exit    *int
	failed  bool   // an observation flagged as an error by the harness
	errMsg  string // V1: the observation's error message, kept apart from its output
	noDiff  bool   // an edit observation whose diff, the harness's own record of the change, is empty
	timeout bool
	tool    string // V1: the tool's name
}

type ohRun struct {
	InstanceID json.RawMessage `json:"instance_id"`
	ID         json.RawMessage `json:"id"`
	Issue      *struct {
		Number json.RawMessage `json:"number"`
	} `json:"issue"`
	History    []json.RawMessage `json:"history"`
	Trajectory []json.RawMessage `json:"trajectory"`
	Metrics    *struct {
		AccumulatedCost float64 `json:"accumulated_cost"`
	} `json:"metrics"`
}

func convertOpenHands(d *Doc, emit func(*schema.Step) error) error {
	var history []json.RawMessage
	var cost float64
	id := ""
	if d.IsObject() {
		var or ohRun
		if err := json.Unmarshal(d.Raw, &or); err != nil {
			return jsonError(err)
		}
		history = or.History
		if _, ok := d.obj["history"]; !ok {
			history = or.Trajectory
		}
		if or.Metrics != nil {
			cost = or.Metrics.AccumulatedCost
		}
		id = scalar(or.InstanceID)
		if id == "" && or.Issue != nil {
			id = "issue-" + scalar(or.Issue.Number)
		}
		if id == "" {
			id = scalar(or.ID)
		}
	} else {
		history = d.arr
	}
	events, pairObs, err := ohEvents(history)
	if err != nil {
		return err
	}
	r := d.newRun(runName(d, 0, false, id))
	answers := ohAnswers(events, pairObs)
	for i := range events {
		ohStep(r, &events[i], answers[i])
	}
	r.spreadUsage(0, 0, cost)
	// A history without an action of the agent (an instance whose runtime
	// failed before the first turn) emits nothing: ingest rejects the
	// document as no_steps, as it does a conversation of the user alone.
	return r.emit(emit)
}

// ohEvents reads the history's elements; for pairs, the observations come
// back apart, by the pair's position.
func ohEvents(history []json.RawMessage) ([]ohEvent, map[int]*ohEvent, error) {
	events := make([]ohEvent, 0, len(history))
	pairObs := map[int]*ohEvent{}
	for i, raw := range history {
		switch ohShape(raw) {
		case "pair":
			var p []json.RawMessage
			json.Unmarshal(raw, &p)
			a, err := ohV0Event(i, p[0])
			if err != nil {
				return nil, nil, fmt.Errorf("history[%d]: %v", i, err)
			}
			o, err := ohV0Event(i, p[1])
			if err != nil {
				return nil, nil, fmt.Errorf("history[%d]: %v", i, err)
			}
			events = append(events, a)
			pairObs[i] = &o
		case "v1":
			e, err := ohV1Event(i, raw)
			if err != nil {
				return nil, nil, fmt.Errorf("history[%d]: %v", i, err)
			}
			events = append(events, e)
		default:
			e, err := ohV0Event(i, raw)
			if err != nil {
				return nil, nil, fmt.Errorf("history[%d]: %v", i, err)
			}
			events = append(events, e)
		}
	}
	return events, pairObs, nil
}

// ohV0Event reads an event of OpenHands before V1: flat fields, args and
// extras, or (the resolver's output) everything merged at the top.
func ohV0Event(pos int, raw json.RawMessage) (ohEvent, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return ohEvent{}, jsonError(err)
	}
	e := ohEvent{pos: pos, action: scalar(m["action"]), obs: scalar(m["observation"]), source: scalar(m["source"]),
		id: scalar(m["id"]), cause: scalar(m["cause"]), ts: scalar(m["timestamp"])}
	if e.action != "" {
		if a, ok := m["args"]; ok {
			json.Unmarshal(a, &e.args)
		} else if x := m["extras"]; len(x) > 0 && x[0] == '{' {
			json.Unmarshal(x, &e.args) // shared feedback keeps an action's args under "extras"
		} else {
			e.args = m // the resolver merges the args into the event
		}
		e.thought = text(e.args["thought"])
		if e.action == "message" {
			e.content = firstNonEmpty(text(e.args["content"]), scalar(m["message"]))
		}
		return e, nil
	}
	e.content = text(m["content"])
	var extras map[string]json.RawMessage
	json.Unmarshal(m["extras"], &extras)
	var meta map[string]json.RawMessage
	json.Unmarshal(extras["metadata"], &meta)
	for _, raw := range []json.RawMessage{meta["exit_code"], extras["exit_code"], m["exit_code"]} {
		if n, err := strconv.Atoi(scalar(raw)); err == nil {
			e.exit = &n
			break
		}
	}
	e.failed = string(extras["error"]) == "true"
	if d, ok := extras["diff"]; ok {
		var diff string
		e.noDiff = json.Unmarshal(d, &diff) == nil && diff == ""
	}
	return e, nil
}

// ohV1Event reads an event of the V1 SDK, typed by "kind".
func ohV1Event(pos int, raw json.RawMessage) (ohEvent, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return ohEvent{}, jsonError(err)
	}
	kind := scalar(m["kind"])
	e := ohEvent{pos: pos, source: scalar(m["source"]), id: scalar(m["id"]), ts: scalar(m["timestamp"]), tool: scalar(m["tool_name"])}
	switch kind {
	case "ActionEvent":
		var act map[string]json.RawMessage
		json.Unmarshal(m["action"], &act)
		e.thought = text(m["thought"])
		e.summary = ohSummary(m["summary"], e.tool, act)
		switch ak := scalar(act["kind"]); {
		case ak == "ThinkAction":
			e.action, e.thought = "think", firstNonEmpty(text(act["thought"]), e.thought)
		case ak == "FinishAction":
			e.action, e.content = "finish", text(act["message"])
		default:
			e.action = firstNonEmpty(e.tool, strings.TrimSuffix(ak, "Action"))
			delete(act, "kind")
			e.args = act
		}
	case "ObservationEvent":
		e.cause = firstNonEmpty(scalar(m["action_id"]), scalar(m["tool_call_id"]))
		var obs map[string]json.RawMessage
		json.Unmarshal(m["observation"], &obs)
		e.obs = strings.TrimSuffix(scalar(obs["kind"]), "Observation")
		if e.obs == "" {
			e.obs = "observation"
		}
		e.content = firstNonEmpty(text(obs["output"]), text(obs["content"]))
		// SDK releases of late 2025 keep the code in the observation's
		// metadata only (exit_code null), as the SDK reads it back.
		var obsMeta map[string]json.RawMessage
		json.Unmarshal(obs["metadata"], &obsMeta)
		for _, raw := range []json.RawMessage{obs["exit_code"], obsMeta["exit_code"]} {
			if n, err := strconv.Atoi(scalar(raw)); err == nil {
				e.exit = &n
				break
			}
		}
		e.failed = string(obs["error"]) == "true"
		// The file editor and the browser put their failure in "error",
		// a message, and print nothing: the call failed, and the
		// message is what it answered.
		if msg := text(obs["error"]); msg != "" && string(obs["error"]) != "true" && string(obs["error"]) != "false" {
			e.failed, e.errMsg = true, msg
			if strings.TrimSpace(e.content) == "" {
				e.content = msg
			}
		}
		e.timeout = string(obs["timeout"]) == "true"
	case "AgentErrorEvent":
		e.obs, e.content = "error", firstNonEmpty(text(m["error"]), text(m["message"]))
		e.cause = scalar(m["tool_call_id"])
	case "MessageEvent":
		var msg struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m["llm_message"], &msg)
		e.action, e.content = "message", text(msg.Content)
		if msg.Role == "user" {
			e.source = "user"
		}
	default:
		e.action = "" // state updates, condensations, system prompts: bookkeeping
	}
	return e, nil
}

// ohSummary is an ActionEvent's "summary" when the model wrote it: the SDK
// (since January 2026) asks the model for a "summary" argument of every
// tool call, about ten words on what the call does, and keeps it on the
// event. When the model gave none, the SDK writes one of its own, the
// tool's name and the arguments as JSON ("terminal: {\"command\": ...}"),
// which says nothing the call does not; and a tool whose own parameter is
// named summary (a ticket's title) keeps it in the action too, where it is
// an argument, not the agent's account of the call. Both give "".
func ohSummary(raw json.RawMessage, tool string, act map[string]json.RawMessage) string {
	s := strings.TrimSpace(text(raw))
	if s == "" || len(act["summary"]) > 0 {
		return ""
	}
	if tool != "" && strings.HasPrefix(s, tool+": {") && strings.HasSuffix(s, "}") {
		return ""
	}
	return s
}

// ohAnswers finds each action's observation: the one whose cause is the
// action's id; without one, the next observation after the action. In the
// pairs form, the pair's own observation.
func ohAnswers(events []ohEvent, pairObs map[int]*ohEvent) []*ohEvent {
	answers := make([]*ohEvent, len(events))
	byID := map[string]int{}
	for i := range events {
		if events[i].id != "" && events[i].action != "" {
			byID[events[i].id] = i
		}
		if o := pairObs[events[i].pos]; o != nil {
			answers[i] = o
		}
	}
	// An agent's message is answered by the user's next message (in
	// evaluation, an automatic "please continue").
	for i := range events {
		if events[i].action != "message" || events[i].source == "user" {
			continue
		}
		for j := i + 1; j < len(events); j++ {
			if events[j].action == "" || ohSkipped[events[j].action] {
				continue
			}
			if events[j].action == "message" && events[j].source == "user" {
				answers[i] = &events[j]
			}
			break
		}
	}
	for i := range events {
		e := &events[i]
		if e.obs == "" || e.obs == "null" || e.obs == "agent_state_changed" {
			continue
		}
		if e.cause != "" {
			if a, ok := byID[e.cause]; ok {
				if answers[a] == nil {
					answers[a] = e
				}
				continue
			}
		}
		for a := i - 1; a >= 0; a-- {
			if events[a].action != "" {
				if answers[a] == nil && events[a].source != "user" && !ohNoCall[events[a].action] {
					answers[a] = e
				}
				break
			}
		}
	}
	return answers
}

// ohSkipped actions are bookkeeping, not the agent's moves.
var ohSkipped = map[string]bool{
	"recall": true, "system": true, "condensation": true, "condensation_request": true,
	"change_agent_state": true, "null": true,
}

// ohContinueNudge recognises the automatic answer of OpenHands'
// evaluation harness to an agent turn without a tool call (its fake user,
// codeact_user_response): the agent is told to go on with the task.
func ohContinueNudge(reply string) bool {
	return strings.HasPrefix(strings.TrimSpace(reply), "Please continue working on the task")
}

// reOHTextFunction is a call written as text in the XML form OpenHands
// prompts models without function calling to use, `<function=NAME>`, or
// as GLM models misspell it, `<function>NAME>`; reOHTextParameter is one
// of its `<parameter=KEY>VALUE</parameter>`.
var (
	reOHTextFunction  = regexp.MustCompile(`(?s)<function(?:=|>)([A-Za-z_][\w.:-]*)>(.*?)(?:</function>|$)`)
	reOHTextParameter = regexp.MustCompile(`(?s)<parameter=([A-Za-z_][\w.:-]*)>\n?(.*?)\n?</parameter>`)
)

// ohTextCall reads the call a turn wrote as text (reOHTextFunction): the
// function and its parameters, those that say how to run it dropped
// (ohArgsDropped). ok is false for a turn that holds none.
func ohTextCall(content string) (fn string, args map[string]string, ok bool) {
	m := reOHTextFunction.FindStringSubmatch(content)
	if m == nil {
		return "", nil, false
	}
	args = map[string]string{}
	for _, p := range reOHTextParameter.FindAllStringSubmatch(m[2], -1) {
		if !ohArgsDropped[p[1]] {
			args[p[1]] = p[2]
		}
	}
	return m[1], args, true
}

// ohNoCall actions are steps without a tool call.
var ohNoCall = map[string]bool{"message": true, "think": true, "finish": true, "reject": true}

// ohArgsDropped are args keys that say how to run the call, not what it
// asks: two calls that differ only in them ask the same thing.
var ohArgsDropped = map[string]bool{
	"thought": true, "blocking": true, "security_risk": true, "confirmation_state": true, "hidden": true,
	"is_static": true, "cwd": true, "keep_prompt": true, "is_confirmed": true, "action": true,
	"kernel_init_code": true, "timeout": true, "include_extra": true, "impl_source": true, "reset": true,
	"id": true, "timestamp": true, "source": true, "message": true, "tool_call_metadata": true, "llm_metrics": true,
}

// reOHToolCall and reOHFunction find the function a malformed tool call's
// error names: "in tool call task_tracker" says which tool outright (the
// `for "plan"` before it names the tool's command), else "for function 'X'".
var (
	reOHToolCall = regexp.MustCompile(`in tool call ['"]?([A-Za-z_][\w.]*)`)
	reOHFunction = regexp.MustCompile(`for (?:function |tool )?['"]?([A-Za-z_][\w.]*)['"]?`)
)

// ohStep turns one event into a step, or into nothing (observations,
// bookkeeping, the user's turns). An error observation that answers no
// action is a step of its own: the model's tool call was malformed and
// never ran, a failed turn all the same.
func ohStep(r *run, e *ohEvent, obs *ohEvent) {
	if e.action == "" {
		if e.obs == "error" && e.cause == "" {
			s := r.add(e.pos, schema.StateAct.String())
			s.TS = ohTS(e.ts)
			fn := "invalid_tool_call"
			if m := reOHToolCall.FindStringSubmatch(e.content); m != nil {
				fn = m[1]
			} else if m := reOHFunction.FindStringSubmatch(e.content); m != nil {
				fn = m[1]
			}
			setCall(s, fn, map[string]string{"invalid": "malformed call"})
			r.setResult(s, e.content, schema.ErrInvalidCall, false)
		}
		return
	}
	if ohSkipped[e.action] || e.source == "user" || e.source == "environment" {
		return
	}
	s := r.add(e.pos, "")
	s.TS = ohTS(e.ts)
	switch e.action {
	case "message":
		setReason(s, e.content)
		if obs != nil {
			errType := ""
			if ohContinueNudge(obs.content) {
				// The turn had no tool call, and the harness said so: a
				// format error, as mini-swe-agent's "No tool calls found".
				errType = schema.ErrFormatError
				if fn, args, ok := ohTextCall(e.content); ok {
					// A call written as text: the call meant, refused.
					s.State = schema.StateAct.String()
					setCall(s, fn, args)
					r.setResult(s, obs.content, errType, false)
					return
				}
			}
			r.setMessage(s, e.content, obs.content, errType)
		}
		return
	case "think":
		s.State = schema.StatePlan.String()
		setReason(s, firstNonEmpty(e.thought, text(e.args["thought"]), e.summary))
		return
	case "finish", "reject":
		s.State = schema.StateStop.String()
		setReason(s, firstNonEmpty(e.thought, text(e.args["final_thought"]), text(e.args["outputs"]), e.content, e.summary))
		return
	}
	setReason(s, firstNonEmpty(e.thought, e.summary))
	s.State = schema.StateAct.String()
	callArgs := map[string]json.RawMessage{}
	for k, v := range e.args {
		if !ohArgsDropped[k] && string(v) != "null" {
			callArgs[k] = v
		}
	}
	setCall(s, e.action, callArgs)
	if obs == nil {
		return
	}
	out := obs.content
	search, view := false, false
	cmd := text(e.args["command"])
	switch {
	case e.action == "run" || e.action == "execute_bash" || e.action == "terminal":
		search, view = commandSearches(cmd), viewsFiles(cmd)
	case e.action == "read":
		view = true
	case e.action == "edit" || e.action == "str_replace_editor" || e.action == "file_editor":
		view = cmd == "view"
	}
	if search {
		s.Intent = searchIntent
	}
	r.noteView(s, view)
	errType, empty := r.classify(withoutCommandEcho(out, cmd), search, view, ohRules)
	r.ruled.text = out // the rule read this output, past the terminal's echo
	switch {
	case obs.obs == "error":
		errType, empty = "ERROR", false
		if reTimedOut.MatchString(out) {
			errType = schema.ErrTimeout
		}
	case obs.timeout:
		errType, empty = schema.ErrTimeout, false
	case errType != "" || empty:
	case obs.exit != nil && *obs.exit == -1:
		errType = schema.ErrTimeout // no exit: the command was stopped, or still runs
	case obs.exit != nil && foundNothing(cmd, *obs.exit):
		empty = true
	case obs.exit != nil && *obs.exit != 0:
		errType = "EXIT_CODE"
	case obs.failed:
		errType = "ERROR"
		if editorNoSuchPath(obs.errMsg) {
			// The editor's message is in the observation's error field,
			// not its output: read with the output stripped too.
			errType = "NO_SUCH_FILE"
		}
	case obs.noDiff && (cmd == "str_replace" || cmd == "insert") && (r.strip || strings.TrimSpace(out) == ""):
		// The harness's own record of the change, read when the
		// editor's answer was not logged: a logged answer says itself
		// whether the text was replaced.
		errType = schema.ErrEditRejected
	}
	r.setResult(s, out, errType, empty)
	if errType == schema.ErrEditRejected && s.ToolResult.Reason == "" && obs.noDiff {
		s.ToolResult.Reason = "the edit's diff is empty: it changed nothing"
	}
}

// ohRules come before the generic rules for OpenHands' outputs.
var ohRules = []OutputRule{
	{
		Name: "not-executed", ErrorType: "NOT_EXECUTED", ViewsToo: true, Harness: true,
		Doc: "the runtime did not run the action: `The action has not been executed`",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "The action has not been executed")
		},
	},
	{
		Name: "edit-rejected", ErrorType: schema.ErrEditRejected,
		Doc: "the editor refused the edit: `No replacement was performed`, `Your proposed edit has introduced new syntax error(s)`, `No exact match found`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "No replacement was performed") ||
				strings.Contains(o.text, "Your proposed edit has introduced new syntax error") ||
				strings.Contains(o.text, "No exact match found in")
		},
	},
	{
		Name: "ipython-traceback", ErrorType: "<exception class>",
		Doc: "the IPython kernel behind `run_ipython` (`execute_ipython_cell`) reports an exception its own way: a line of dashes, then the exception's class and, to the right, `Traceback (most recent call last)` without Python's colon (`FileExistsError                           Traceback (most recent call last)`), the cell's frames (`Cell In[1], line 1`) and the exception's line; the error type is the class",
		match: func(o *output) (string, bool) {
			return groupAfter(o.text, "Traceback (most recent call last)", reIPythonTraceback)
		},
	},
	createExistsRule,
	missingPathRule,
	{
		Name: "invalid-parameter", ErrorType: schema.ErrUsage, ViewsToo: true,
		Doc: "the tool was called wrongly: the output begins `ERROR:` followed by `Invalid`, `Parameter` or `Cannot execute multiple commands`",
		match: func(o *output) (string, bool) {
			t := strings.TrimSpace(strings.TrimPrefix(o.first, "ERROR:"))
			return "", strings.HasPrefix(o.first, "ERROR:") && (t == "" || strings.HasPrefix(t, "Invalid") ||
				strings.HasPrefix(t, "Parameter") || strings.HasPrefix(t, "Cannot execute multiple commands"))
		},
	},
}

// reIPythonTraceback is the header IPython writes over a traceback, the
// exception's class at the left of the dashes' width, then `Traceback
// (most recent call last)` without Python's colon.
var reIPythonTraceback = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*)[ \t]{2,}Traceback \(most recent call last\)\r?$`)

func ohTS(ts string) *schema.Timestamp {
	if ts == "" {
		return nil
	}
	// OpenHands writes ISO 8601 without a zone: taken as UTC.
	ts = isoDateTime(ts)
	if !strings.HasSuffix(ts, "Z") && strings.LastIndexAny(ts, "+-") < strings.IndexByte(ts, 'T') {
		ts += "Z"
	}
	ms, err := schema.ParseTimestamp(ts)
	if err != nil {
		return nil
	}
	return &schema.Timestamp{UnixMilli: ms}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
