package adapters

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Codex CLI also keeps every session it runs, interactive or not, as a
// rollout file, ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl: a
// record a line, {"timestamp", "type", "payload"}. "session_meta" opens it
// (the session id); "turn_context" says the model; "response_item" holds
// what went to and came from the model in the Responses API's shape
// (message, reasoning, function_call and function_call_output,
// custom_tool_call and its output for patches, local_shell_call,
// web_search_call); "event_msg" repeats much of it as UI events, of which
// token_count is read, and error, a request to the model that failed
// (written since Codex logs more than it used to). A step's number is the
// 0-based line of the record of its call.

// rolloutTypes are the record types of a rollout file.
var rolloutTypes = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true,
}

// rolloutRecord reports whether obj is a record of a rollout file: one of
// rolloutTypes with an object payload.
func rolloutRecord(obj map[string]json.RawMessage) bool {
	p := obj["payload"]
	return rolloutTypes[scalar(obj["type"])] && len(p) > 0 && p[0] == '{' && len(obj["timestamp"]) > 0
}

// rolloutLine is one record: the fields read.
type rolloutLine struct {
	Timestamp looseString     `json:"timestamp"`
	Type      looseString     `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// rolloutItem is a payload: the fields of every type, each type filling
// its own.
type rolloutItem struct {
	Type      looseString     `json:"type"`
	ID        looseString     `json:"id"`    // session_meta
	Model     looseString     `json:"model"` // turn_context
	Role      looseString     `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"` // reasoning
	Name      looseString     `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     looseString     `json:"input"` // custom_tool_call
	CallID    looseString     `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Status    looseString     `json:"status"`
	Message   looseString     `json:"message"`          // event_msg user_message, error
	ErrorInfo json.RawMessage `json:"codex_error_info"` // event_msg error: its kind
	Error     json.RawMessage `json:"error"`            // event_msg error as some tools write it: {"kind", "message"}
	Action    *struct {
		Command argv        `json:"command"` // local_shell_call
		Query   looseString `json:"query"`   // web_search_call
	} `json:"action"`
	Info *struct { // event_msg token_count
		Total *struct {
			Input  looseCount `json:"input_tokens"`
			Output looseCount `json:"output_tokens"`
		} `json:"total_token_usage"`
	} `json:"info"`
}

// rolloutRun is a session being read.
type rolloutRun struct {
	r       *run
	calls   map[string]*schema.Step    // call_id -> its step
	shells  map[*schema.Step]shellCall // a shell call's step -> its command
	thought []string
	model   string
	input   int64
	output  int64
	last    *schema.Step          // the last assistant message, the answer when nothing follows
	failed  map[*schema.Step]bool // the steps of requests to the model that failed
}

// convertRollout reads a rollout file: every record in file order.
func convertRollout(d *Doc, emit func(*schema.Step) error) error {
	els, lines := d.arr, d.lines
	if d.IsObject() {
		els, lines = []json.RawMessage{d.Raw}, []int64{d.Line}
	}
	c := &rolloutRun{r: d.newRun(runName(d, 0, false, "")), calls: map[string]*schema.Step{}, shells: map[*schema.Step]shellCall{}, failed: map[*schema.Step]bool{}}
	for i, el := range els {
		pos := i
		if i < len(lines) {
			pos = int(lines[i] - 1)
		}
		var rec rolloutLine
		var it rolloutItem
		err := decodeObject(el, &rec)
		if err == nil {
			if err = decodeObject(rec.Payload, &it); err != nil {
				err = fmt.Errorf("\"payload\": %v", err)
			}
		}
		if err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		c.record(d, &rec, &it, pos)
	}
	c.finish()
	return c.r.emit(emit)
}

// record reads one record at line pos.
func (c *rolloutRun) record(d *Doc, rec *rolloutLine, it *rolloutItem, pos int) {
	switch rec.Type {
	case "session_meta":
		if it.ID != "" {
			c.r.id = runName(d, 0, false, string(it.ID))
		}
		return
	case "turn_context":
		c.model = string(it.Model)
		return
	case "event_msg":
		if it.Type == "user_message" && strings.TrimSpace(string(it.Message)) != "" {
			d.Prompted = true
		}
		if it.Type == "token_count" && it.Info != nil && it.Info.Total != nil {
			// Running totals of the session: the last one is the whole.
			c.input, c.output = int64(it.Info.Total.Input), int64(it.Info.Total.Output)
		}
		if it.Type == "error" {
			c.failure(it, pos, ccTS(string(rec.Timestamp)))
		}
		return
	case "response_item":
	default:
		return
	}
	ts := ccTS(string(rec.Timestamp))
	switch it.Type {
	case "reasoning":
		if t := strings.TrimSpace(text(it.Summary)); t != "" {
			c.thought = append(c.thought, t)
		}
	case "message":
		c.message(it, pos, ts)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		c.call(it, pos, ts)
	case "function_call_output", "custom_tool_call_output":
		if s := c.calls[string(it.CallID)]; s != nil && s.ToolCall != nil {
			c.result(s, it)
		}
	}
}

// message is a turn of the assistant (a step without a call; the answer
// when it is the last), or of the user, which answers the assistant's
// message before it. What Codex itself puts in the user's place (the
// environment, the instructions of AGENTS.md) is no one's turn.
func (c *rolloutRun) message(it *rolloutItem, pos int, ts *schema.Timestamp) {
	content := text(it.Content)
	switch it.Role {
	case "assistant":
		s := c.step(pos, ts)
		s.State = ""
		setReason(s, content)
		c.last = s
	case "user":
		t := strings.TrimSpace(content)
		if t == "" || strings.HasPrefix(t, "<environment_context>") || strings.HasPrefix(t, "<user_instructions>") || strings.HasPrefix(t, "# AGENTS.md") {
			return
		}
		if n := len(c.r.steps); n > 0 && c.r.steps[n-1] == c.last && c.last.ToolCall == nil {
			said := ""
			if c.last.Decision != nil {
				said = c.last.Decision.Reason
			}
			c.r.setMessage(c.last, said, content, "")
			c.last = nil
		}
	}
}

// step adds the step at line pos, with the reasoning since the last one as
// its reason.
func (c *rolloutRun) step(pos int, ts *schema.Timestamp) *schema.Step {
	s := c.r.add(pos, schema.StateAct.String())
	s.TS = ts
	if len(c.thought) > 0 {
		setReason(s, strings.Join(c.thought, "\n\n"))
		c.thought = c.thought[:0]
	}
	return s
}

// call makes the step of a call: a shell command (Codex's shell and
// exec_command functions, a local_shell_call) is `shell` with the command
// that ran; a patch is `apply_patch` with the patch itself; update_plan is
// a PLAN step; any other function (MCP tools among them) is as called.
func (c *rolloutRun) call(it *rolloutItem, pos int, ts *schema.Timestamp) {
	s := c.step(pos, ts)
	c.last = nil
	if it.CallID != "" {
		c.calls[string(it.CallID)] = s
	}
	args := it.Arguments
	if len(args) > 0 && args[0] == '"' {
		var str string
		if json.Unmarshal(args, &str) == nil {
			args = json.RawMessage(str)
		}
	}
	switch {
	case it.Type == "local_shell_call" && it.Action != nil:
		c.shell(s, shellCommand(it.Action.Command))
	case it.Type == "web_search_call":
		s.Intent = searchIntent
		q := ""
		if it.Action != nil {
			q = string(it.Action.Query)
		}
		setCall(s, "web_search", map[string]string{"query": q})
	case it.Type == "custom_tool_call" && it.Name == "apply_patch":
		setCall(s, "apply_patch", map[string]string{"patch": string(it.Input)})
	case it.Type == "custom_tool_call":
		setCall(s, cmpOr(string(it.Name), "custom_tool"), map[string]string{"input": string(it.Input)})
	case it.Name == "shell" || it.Name == "exec_command" || it.Name == "container.exec":
		var a struct {
			Command json.RawMessage `json:"command"`
			Cmd     json.RawMessage `json:"cmd"`
		}
		json.Unmarshal(args, &a)
		cmd := argText(a.Cmd)
		if cmd == "" {
			cmd = argText(a.Command)
		}
		c.shell(s, cmd)
	case it.Name == "update_plan":
		s.State = schema.StatePlan.String()
		var a struct {
			Plan []struct {
				Step   string `json:"step"`
				Status string `json:"status"`
			} `json:"plan"`
		}
		json.Unmarshal(args, &a)
		var b strings.Builder
		for _, p := range a.Plan {
			b.WriteString("[" + p.Status + "] " + p.Step + "\n")
		}
		setReason(s, b.String())
	default:
		setRawCall(s, cmpOr(string(it.Name), "function"), args)
	}
}

// shellCall is a shell call's command line and the program it runs, kept
// for reading its output and exit code.
type shellCall struct{ cmd, prog string }

// shell makes s a call of the shell running cmd, and keeps the command.
func (c *rolloutRun) shell(s *schema.Step, cmd string) {
	setCall(s, "shell", map[string]string{"command": cmd})
	prog := program(cmd)
	c.shells[s] = shellCall{cmd, prog}
	if commandSearches(cmd) {
		s.Intent = searchIntent
	}
}

// argText is a command given as a string, or as an argv list (the shell
// wrapper taken off).
func argText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		return shellCommand(argv)
	}
	var s string
	json.Unmarshal(raw, &s)
	return unwrapShell(s)
}

// shellCommand is an argv as the command that ran: ["bash", "-lc", "cmd"]
// is cmd.
func shellCommand(argv []string) string {
	if len(argv) == 3 && shells[argv[0][strings.LastIndexByte(argv[0], '/')+1:]] && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// reExitHeader reads the header Codex puts before a command's output
// ("Exit code: 1" or "Process exited with code 1", a wall time, a chunk
// id, then "Output:").
var reExitHeader = regexp.MustCompile(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)$`)

// result fills a call's result from its output: a JSON string holding
// {"output", "metadata": {"exit_code"}}, or text with Codex's header, or
// plain text.
func (c *rolloutRun) result(s *schema.Step, it *rolloutItem) {
	out := text(it.Output)
	raw := out
	var exit *int
	var wrapped struct {
		Output   *string `json:"output"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if t := strings.TrimSpace(out); strings.HasPrefix(t, "{") && json.Unmarshal([]byte(t), &wrapped) == nil && wrapped.Output != nil {
		out = *wrapped.Output
		if wrapped.Metadata != nil {
			exit = wrapped.Metadata.ExitCode
		}
	} else if head, body, ok := strings.Cut(out, "Output:\n"); ok && len(head) < 300 {
		m := reExitHeader.FindStringSubmatch(head)
		if m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				exit = &n
			}
		}
		if m != nil || strings.Contains(head, "Wall time:") {
			out = body // the header's wall time and chunk id change with every call
		}
	}
	search, view := isSearch(s.ToolCall.Name), false
	sh, shell := c.shells[s]
	if shell {
		search, view = commandSearches(sh.cmd), viewsFiles(sh.cmd)
	}
	if reCodexRunning.MatchString(head(raw, 300)) && strings.TrimSpace(outputAfterHeader(raw)) == "" {
		return // still running, answered by the polls that follow: no result yet
	}
	c.r.noteView(s, view)
	errType, empty := c.r.classify(out, search, view, nil)
	switch {
	case reCodexRefused.MatchString(out):
		errType, empty = schema.ErrInvalidCall, false // Codex refused the call: nothing ran
	case strings.HasPrefix(strings.TrimSpace(out), "apply_patch verification failed"):
		errType, empty = schema.ErrEditRejected, false // a patch run through the shell that did not apply
	case errType != "" || empty:
	case exit != nil && shell && foundNothing(sh.cmd, *exit):
		empty = true
	case exit != nil && *exit != 0:
		errType = "EXIT_CODE"
	case it.Status == "failed":
		errType = "ERROR"
	}
	if errType != "" && s.ToolCall.Name == "apply_patch" {
		errType = schema.ErrEditRejected // the patch did not apply, whatever its text says first
	}
	c.r.setResult(s, out, errType, empty)
}

// reCodexRefused is Codex's answer to a call of a tool it does not have.
var reCodexRefused = regexp.MustCompile(`^unsupported (?:custom tool )?call: \S+\s*$`)

// reCodexRunning is the header of a command Codex left running in the
// background, to be polled with write_stdin.
var reCodexRunning = regexp.MustCompile(`(?m)^Process running with session ID \d+`)

// head is s up to n bytes.
func head(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// outputAfterHeader is what follows the header's "Output:" line, or "".
func outputAfterHeader(s string) string {
	_, body, _ := strings.Cut(s, "Output:\n")
	return body
}

// failure is the step of an error Codex reports (an event_msg of type
// "error"): a request to the model that failed once Codex's own retries ran
// out, a call of "model" failed with the message. Its kind
// (codex_error_info) says RATE_LIMIT for a usage limit reached or a 429,
// TIMEOUT for a 408 or a 504; else the message is read as the exec
// stream's errors are. Codex does not write the notices of its retries
// (stream_error, "Reconnecting... 2/5") to a rollout, and a stream_error
// record is not read: the retries are Codex's, one request, and the error
// that ends them is the failure. A rollback of the thread that failed is
// no request to the model, and no step.
func (c *rolloutRun) failure(it *rolloutItem, pos int, ts *schema.Timestamp) {
	msg := string(it.Message)
	kind, status := codexErrorKind(it.ErrorInfo)
	if filled(it.Error) {
		var e struct {
			Kind    looseString `json:"kind"`
			Message looseString `json:"message"`
		}
		if json.Unmarshal(it.Error, &e) == nil {
			msg = cmpOr(msg, string(e.Message))
			if !filled(it.ErrorInfo) {
				kind = strings.ToLower(string(e.Kind))
			}
		} else {
			msg = cmpOr(msg, text(it.Error))
		}
	}
	if kind == "thread_rollback_failed" {
		return
	}
	errType := codexFailureType(msg)
	switch {
	case kind == "usage_limit_exceeded" || kind == "rate_limit" || status == 429:
		errType = schema.ErrRateLimit
	case status == 408 || status == 504:
		errType = schema.ErrTimeout
	}
	s := c.r.add(pos, schema.StateAct.String())
	s.TS = ts
	setCall(s, "model", map[string]string{})
	c.r.setResult(s, cmpOr(msg, "error"), errType, false)
	c.failed[s] = true
}

// codexErrorKind reads Codex's codex_error_info: a kind's name
// ("usage_limit_exceeded"), or an object of one kind with its details
// ({"response_too_many_failed_attempts": {"http_status_code": 429}}).
func codexErrorKind(raw json.RawMessage) (kind string, status int) {
	if !filled(raw) {
		return "", 0
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return strings.ToLower(name), 0
	}
	var obj map[string]struct {
		Status  *float64 `json:"http_status_code"`
		Status2 *float64 `json:"httpStatusCode"`
	}
	if json.Unmarshal(raw, &obj) != nil || len(obj) != 1 {
		return "", 0
	}
	for k, v := range obj {
		kind = strings.ToLower(k)
		switch {
		case v.Status != nil:
			status = int(*v.Status)
		case v.Status2 != nil:
			status = int(*v.Status2)
		}
	}
	return kind, status
}

// finish makes the last assistant message the answer (STOP) when nothing
// follows it, and shares the session's tokens among the steps.
func (c *rolloutRun) finish() {
	if n := len(c.r.steps); n > 0 && c.last != nil && c.r.steps[n-1] == c.last {
		c.last.State = schema.StateStop.String()
	}
	// A request that failed is not in the token counts (Codex counts a
	// response when it completes): the tokens go to the other steps with a
	// call, else to the other steps, else (a session of failures alone) to
	// them all, so that the session's total is kept.
	var on, rest []*schema.Step
	for _, s := range c.r.steps {
		switch {
		case c.failed[s]:
		case s.ToolCall != nil:
			on = append(on, s)
		default:
			rest = append(rest, s)
		}
	}
	if len(on) == 0 {
		on = rest
	}
	if len(on) == 0 {
		on = c.r.steps
	}
	spreadUsageOver(on, c.input, c.output, 0)
	if c.model != "" {
		for _, s := range c.r.steps {
			if s.Usage != nil {
				s.Usage.Model = c.model
			}
		}
	}
}

// argv is a command as a list of its words, or as one string: Codex's
// local_shell_call logs the list; its guardian_assessment events (which are
// not read) a string. Either decodes, so that no record is refused for it.
type argv []string

func (a *argv) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = argv{s}
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*a = l
	return nil
}
