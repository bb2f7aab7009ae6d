package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Codex reads OpenAI Codex CLI's event stream, the JSON Lines that
// `codex exec --json` prints: an event a line ({"type": "thread.started",
// "thread_id": ...}, "turn.started", "item.started", "item.updated",
// "item.completed", "turn.completed" with the turn's usage, "turn.failed",
// "error"), the agent's work in the items (reasoning, command_execution,
// mcp_tool_call, file_change, web_search, todo_list, agent_message, error).
// A file is one run, read whole (Format.Transcript); a step's number is the
// 0-based line of the event that began its item (the call made; its result
// comes with the completion). It also reads the session files Codex keeps
// (codexrollout.go).
var Codex = &Format{
	Name:       "codex",
	Title:      "OpenAI Codex CLI runs: the JSON Lines events of codex exec --json, and the session files under ~/.codex/sessions",
	Recognize:  recognizeCodex,
	Convert:    convertCodex,
	Transcript: isCodex,
}

// codexItemTypes are the item types of the event stream.
var codexItemTypes = map[string]bool{
	"reasoning": true, "command_execution": true, "mcp_tool_call": true, "file_change": true,
	"web_search": true, "todo_list": true, "agent_message": true, "error": true,
}

// codexEvent reports whether obj is an event of the stream: a thread's
// start with its id, a turn's start, end (with usage) or failure (with its
// error), or an item event whose item has an id and a known type. A bare
// {"type": "error"} is too common a shape to say Codex by itself.
func codexEvent(obj map[string]json.RawMessage) bool {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch scalar(obj["type"]) {
	case "thread.started":
		return has("thread_id")
	case "turn.started":
		return len(obj) == 1
	case "turn.completed":
		return has("usage")
	case "turn.failed":
		return has("error")
	case "item.started", "item.updated", "item.completed":
		var it struct {
			ID   json.RawMessage `json:"id"`
			Type string          `json:"type"`
		}
		return json.Unmarshal(obj["item"], &it) == nil && len(it.ID) > 0 && codexItemTypes[it.Type]
	}
	return false
}

// isCodex reports whether d is an event of the stream, or a stream read
// whole whose first line is one.
func isCodex(d *Doc) bool {
	return d.eventOrFirst(func(obj map[string]json.RawMessage) bool { return codexEvent(obj) || rolloutRecord(obj) })
}

// isRollout reports whether d is a rollout file (codexrollout.go), not an
// exec stream.
func isRollout(d *Doc) bool { return d.eventOrFirst(rolloutRecord) }

func recognizeCodex(d *Doc) error {
	if isCodex(d) {
		return nil
	}
	return errors.New(`neither a Codex event ("type": "thread.started" with "thread_id", "item.completed" with an "item", ...) nor a Codex session record ("timestamp", "type": "session_meta", "response_item", ... with a "payload")`)
}

// codexLine is one line of the stream: the fields read.
type codexLine struct {
	Type     looseString     `json:"type"`
	ThreadID looseString     `json:"thread_id"`
	Item     json.RawMessage `json:"item"`
	Usage    *struct {
		Input  looseCount `json:"input_tokens"`
		Cached looseCount `json:"cached_input_tokens"`
		Output looseCount `json:"output_tokens"`
	} `json:"usage"`
	Error   json.RawMessage `json:"error"`   // turn.failed: {"message": ...}
	Message looseString     `json:"message"` // error
}

// codexItem is an item: the fields of every type, each type filling its own.
type codexItem struct {
	ID     looseString `json:"id"`
	Type   looseString `json:"type"`
	Status looseString `json:"status"`
	Text   looseString `json:"text"` // reasoning, agent_message

	Command          looseString `json:"command"`
	AggregatedOutput looseString `json:"aggregated_output"`
	ExitCode         *float64    `json:"exit_code"`

	Server    looseString     `json:"server"`
	Tool      looseString     `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    *struct {
		Content json.RawMessage `json:"content"`
	} `json:"result"`
	Error json.RawMessage `json:"error"` // mcp_tool_call: {"message": ...}

	Changes []struct {
		Path looseString `json:"path"`
		Kind looseString `json:"kind"`
	} `json:"changes"`

	Query looseString `json:"query"`
	Items []struct {
		Text      looseString `json:"text"`
		Completed looseBool   `json:"completed"`
	} `json:"items"`
	Message looseString `json:"message"` // error
}

// codexRun is a thread being read: its steps, the item each step is (an
// item started and not yet completed keeps its step, its result filled in
// when it completes), the reasoning not yet given to a step, the command
// the agent is waiting on, and the usage.
type codexRun struct {
	r       *run
	at      map[string]*schema.Step // item id -> its step
	thought []string
	input   int64
	output  int64
	last    *schema.Step // the last agent message, the answer when nothing follows
	waiting *codexWait
}

// codexWait is a command still running with nothing started since: the
// reasoning logged meanwhile is the agent's turns while it waited, each
// between two polls of the command (write_stdin) that the stream does not
// log.
type codexWait struct {
	step  *schema.Step
	cmd   string
	turns []codexTurn
}

type codexTurn struct {
	pos  int
	text string
}

// convertCodex reads a stream: every line's event in file order. A
// thread.started after steps begins another run (a file that appends the
// output of several runs).
func convertCodex(d *Doc, emit func(*schema.Step) error) error {
	if isRollout(d) {
		return convertRollout(d, emit)
	}
	els, lines := d.arr, d.lines
	if d.IsObject() {
		els, lines = []json.RawMessage{d.Raw}, []int64{d.Line}
	}
	var runs []*codexRun
	var cur *codexRun
	begin := func(thread string) {
		cur = &codexRun{r: d.newRun(runName(d, 0, false, thread)), at: map[string]*schema.Step{}}
		runs = append(runs, cur)
	}
	for i, el := range els {
		pos := i
		if i < len(lines) {
			pos = int(lines[i] - 1)
		}
		var ev codexLine
		if err := decodeObject(el, &ev); err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		if ev.Type == "thread.started" && (cur == nil || len(cur.r.steps) > 0) {
			begin(string(ev.ThreadID))
			continue
		}
		if cur == nil {
			begin(string(ev.ThreadID))
		}
		if ev.Type == "thread.started" {
			cur.r.id = runName(d, 0, false, string(ev.ThreadID))
			continue
		}
		if err := cur.event(&ev, pos); err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
	}
	for _, c := range runs {
		c.finish()
		if err := c.r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// event reads one event at line pos.
func (c *codexRun) event(ev *codexLine, pos int) error {
	switch ev.Type {
	case "turn.completed":
		if ev.Usage != nil {
			c.input += int64(ev.Usage.Input)
			c.output += int64(ev.Usage.Output)
		}
	case "turn.failed":
		var e struct {
			Message looseString `json:"message"`
		}
		json.Unmarshal(ev.Error, &e)
		c.failure(pos, cmpOr(string(e.Message), "turn failed"))
	case "error":
		c.failure(pos, cmpOr(string(ev.Message), "error"))
	case "item.started", "item.updated", "item.completed":
		var it codexItem
		if err := decodeObject(ev.Item, &it); err != nil {
			return fmt.Errorf("\"item\": %v", err)
		}
		c.item(&it, pos, ev.Type == "item.completed")
	}
	return nil
}

// item makes the step of an item at its first event, and fills in what its
// completion tells. Reasoning is no step: it is the thought of the step
// that follows, or a turn of the agent waiting on a command.
func (c *codexRun) item(it *codexItem, pos int, completed bool) {
	if it.Type == "error" && reCodexWarning.MatchString(string(it.Message)) {
		return // a warning the CLI sends as an error item: the run goes on
	}
	switch it.Type {
	case "reasoning":
		if !completed || strings.TrimSpace(string(it.Text)) == "" {
			return
		}
		if c.waiting != nil {
			c.waiting.turns = append(c.waiting.turns, codexTurn{pos, string(it.Text)})
		} else {
			c.thought = append(c.thought, string(it.Text))
		}
		return
	case "agent_message", "todo_list":
		if !completed {
			return // streamed text and plan updates: the completed one says it all
		}
	}
	s := c.at[string(it.ID)]
	if s == nil {
		c.endWait(nil)
		s = c.r.add(pos, schema.StateAct.String())
		if it.ID != "" {
			c.at[string(it.ID)] = s
		}
		if len(c.thought) > 0 {
			setReason(s, strings.Join(c.thought, "\n\n"))
			c.thought = c.thought[:0]
		}
		if it.Type == "command_execution" && !completed {
			c.waiting = &codexWait{step: s, cmd: unwrapShell(string(it.Command))}
		}
	}
	switch it.Type {
	case "command_execution":
		cmd := unwrapShell(string(it.Command))
		setCall(s, "shell", map[string]string{"command": cmd})
		if completed {
			c.commandResult(s, it, cmd)
			if c.waiting != nil && c.waiting.step == s {
				c.endWait(it.ExitCode)
			}
		}
	case "mcp_tool_call":
		args := it.Arguments
		if !filled(args) {
			args = json.RawMessage("{}")
		}
		setRawCall(s, cmpOr(string(it.Tool), "mcp"), args)
		if completed {
			c.toolResult(s, it)
		}
	case "file_change":
		c.fileChange(s, it, completed)
	case "web_search":
		s.Intent = searchIntent
		setCall(s, "web_search", map[string]string{"query": string(it.Query)})
	case "todo_list":
		s.State = schema.StatePlan.String()
		var b strings.Builder
		for _, t := range it.Items {
			mark := "[ ] "
			if t.Completed {
				mark = "[x] "
			}
			b.WriteString(mark + string(t.Text) + "\n")
		}
		setReason(s, b.String())
	case "agent_message":
		s.State = ""
		setReason(s, string(it.Text))
		c.last = s
	case "error":
		c.setFailure(s, string(it.Message))
	}
}

// reCodexWarning is what Codex sends as an error item and is none: its
// configuration settings it ignores, a model it has no metadata for (any
// model of an open-weights or local provider) and its fallback.
var reCodexWarning = regexp.MustCompile(`(?i)\bis ignoring \d+ unrecognized configuration setting|\bmodel metadata for .* not found\b|\bdefaulting to fallback\b`)

// commandResult is a finished command's: its output read by the rules,
// else its exit code; a command the sandbox or the user declined is
// REJECTED.
func (c *codexRun) commandResult(s *schema.Step, it *codexItem, cmd string) {
	out := string(it.AggregatedOutput)
	search, view := commandSearches(cmd), viewsFiles(cmd)
	if search {
		s.Intent = searchIntent
	}
	c.r.noteView(s, view)
	errType, empty := c.r.classify(out, search, view, nil)
	switch {
	case it.Status == "declined":
		errType, empty = "REJECTED", false
	case errType != "" || empty:
	case it.ExitCode != nil && foundNothing(cmd, int(*it.ExitCode)):
		empty = true
	case it.ExitCode != nil && *it.ExitCode != 0:
		errType = "EXIT_CODE"
	case it.Status == "failed":
		errType = "ERROR"
	}
	c.r.setResult(s, out, errType, empty)
}

// toolResult is an MCP tool's: the text of its content blocks, or its error.
func (c *codexRun) toolResult(s *schema.Step, it *codexItem) {
	var e struct {
		Message looseString `json:"message"`
	}
	if filled(it.Error) {
		json.Unmarshal(it.Error, &e)
		c.setFailure(s, cmpOr(string(e.Message), string(it.Error)))
		return
	}
	out := ""
	if it.Result != nil {
		out = text(it.Result.Content)
	}
	search := isSearch(string(it.Tool))
	if search {
		s.Intent = searchIntent
	}
	errType, empty := c.r.classify(out, search, false, nil)
	if errType == "" && !empty && it.Status == "failed" {
		errType = "ERROR"
	}
	c.r.setResult(s, out, errType, empty)
}

// fileChange is an applied patch. The stream says which files it changed,
// not how, so two patches of one file cannot be told apart: each is its
// own call (its item id among the args) and new work (its item id an
// artifact). A patch that did not apply is EDIT_REJECTED.
func (c *codexRun) fileChange(s *schema.Step, it *codexItem, completed bool) {
	changes := make([]map[string]string, 0, len(it.Changes))
	var b strings.Builder
	for _, ch := range it.Changes {
		changes = append(changes, map[string]string{"path": string(ch.Path), "kind": string(ch.Kind)})
		b.WriteString(string(ch.Kind) + " " + string(ch.Path) + "\n")
	}
	setCall(s, "apply_patch", map[string]any{"changes": changes, "item": string(it.ID)})
	if !completed {
		return
	}
	if it.Status == "failed" {
		c.r.setResult(s, b.String(), schema.ErrEditRejected, false)
		return
	}
	c.r.setResult(s, b.String(), "", false)
	if it.ID != "" {
		s.Artifacts = []string{"codex-item:" + string(it.ID)}
	}
}

// failure is a step of its own for an error the stream reports outside any
// item (a failed turn, a dropped stream being retried): a failed request
// to the model.
func (c *codexRun) failure(pos int, msg string) {
	s := c.r.add(pos, schema.StateAct.String())
	c.setFailure(s, msg)
}

// setFailure makes s a failed request to the model with message msg:
// RATE_LIMIT or TIMEOUT when the message says so, else ERROR.
func (c *codexRun) setFailure(s *schema.Step, msg string) {
	if s.ToolCall == nil {
		setCall(s, "model", map[string]string{})
	}
	c.r.setResult(s, msg, codexFailureType(msg), false)
}

// codexFailureType is the error type of a failed request to the model with
// message msg: RATE_LIMIT or TIMEOUT when the message says so, else ERROR.
func codexFailureType(msg string) string {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "rate limit") || strings.Contains(low, "429") || strings.Contains(low, "too many requests"):
		return schema.ErrRateLimit
	case reTimedOut.MatchString(msg):
		return schema.ErrTimeout
	}
	return "ERROR"
}

// endWait ends the wait on a command: when the command finished (exitCode
// set), the agent's turns while it ran are part of the wait, their
// reasoning that of the step that follows; when it was given up on (it never finished by
// itself: completed without an exit code, never completed, or the agent
// moved on first: exitCode nil), each turn is a poll that brought nothing,
// a step of its own.
func (c *codexRun) endWait(exitCode *float64) {
	w := c.waiting
	if w == nil {
		return
	}
	c.waiting = nil
	if exitCode != nil || len(w.turns) == 0 {
		for _, t := range w.turns {
			c.thought = append(c.thought, t.text)
		}
		return
	}
	for _, t := range w.turns {
		s := c.r.add(t.pos, schema.StateAct.String())
		setReason(s, t.text)
		setCall(s, "write_stdin", map[string]string{"command": w.cmd})
		c.r.setResult(s, "", "", false)
	}
}

// finish orders the steps by their lines, makes the last agent message the
// answer (STOP) when no action follows it, and shares the turns' usage
// among the steps (the stream gives it per turn, not per call).
func (c *codexRun) finish() {
	c.endWait(nil)
	slices.SortStableFunc(c.r.steps, func(a, b *schema.Step) int { return int(*a.Step - *b.Step) })
	if n := len(c.r.steps); n > 0 && c.last != nil && c.r.steps[n-1] == c.last {
		c.last.State = schema.StateStop.String()
	}
	c.r.spreadUsage(c.input, c.output, 0)
}

// unwrapShell returns the command a shell was asked to run, as Codex logs
// it wrapped (`/bin/bash -lc "..."`, `bash -lc '...'`, `zsh -c ...`), so
// that the program is the one that ran and one command is one call however
// it was quoted. Anything else is returned as written.
func unwrapShell(cmd string) string {
	rest := strings.TrimSpace(cmd)
	sh, rest, ok := strings.Cut(rest, " ")
	if !ok || !shells[sh[strings.LastIndexByte(sh, '/')+1:]] {
		return cmd
	}
	flag, rest, ok := strings.Cut(strings.TrimLeft(rest, " "), " ")
	if !ok || (flag != "-c" && flag != "-lc") {
		return cmd
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 2 {
		return cmd
	}
	switch q := rest[0]; {
	case q == '\'' && rest[len(rest)-1] == '\'':
		return strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, `'`)
	case q == '"' && rest[len(rest)-1] == '"':
		var b strings.Builder
		in := rest[1 : len(rest)-1]
		for i := 0; i < len(in); i++ {
			if in[i] == '\\' && i+1 < len(in) && strings.IndexByte("\"\\$`", in[i+1]) >= 0 {
				i++
			}
			b.WriteByte(in[i])
		}
		return b.String()
	}
	return cmd
}

var shells = map[string]bool{"bash": true, "sh": true, "zsh": true}

func cmpOr(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
