package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// chatMessage is one message of an OpenAI-style conversation. Both the
// current tool_calls/tool shape and the older function_call/function one
// are read.
type chatMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	ToolCalls    []chatToolCall  `json:"tool_calls"`
	FunctionCall *chatFunction   `json:"function_call"`
	ToolCallID   string          `json:"tool_call_id"`
	Name         string          `json:"name"`
	// Where LlamaIndex's ChatMessage keeps the same (and LangChain's
	// older dumps the calls): read by fromKwargs.
	AdditionalKwargs *struct {
		ToolCalls  []chatToolCall `json:"tool_calls"`
		ToolCallID string         `json:"tool_call_id"`
		Name       string         `json:"name"`
	} `json:"additional_kwargs"`
	Blocks []struct {
		BlockType string `json:"block_type"`
		Text      string `json:"text"`
	} `json:"blocks"`
	// What tau2-bench's messages carry besides (read by fromKwargs): a
	// tool message's call id in "id" and its failure in "error", who asked
	// for the call ("requestor": the simulated user has tools of its own),
	// a message's "usage", "cost" and "timestamp". Raw, so that a dialect
	// whose "id" or "timestamp" is of another type still decodes.
	ExtraID        json.RawMessage `json:"id"`
	ExtraError     json.RawMessage `json:"error"`
	ExtraRequestor json.RawMessage `json:"requestor"`
	ExtraUsage     json.RawMessage `json:"usage"`
	ExtraCost      json.RawMessage `json:"cost"`
	ExtraTimestamp json.RawMessage `json:"timestamp"`

	// What a format that is converted into this shape (Anthropic's content
	// blocks, anthropic.go) knows besides; OpenAI's messages leave them zero.
	pos     int               // the message's position in the source's own list (chatStyle.positioned)
	usage   *schema.Usage     // an assistant message's tokens and model
	ts      *schema.Timestamp // when the message was written
	exit    *int              // a reply's exit code, as the format records it
	errType string            // a reply's error, as the format records it (Anthropic's is_error)
	// answeredOn: a reply to a call that hands the work in (a submit) in
	// which the user answered with more to do (Cline's <feedback>): the
	// run did not end there, the user's words are the call's answer.
	answeredOn bool
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Function chatFunction `json:"function"`
	// A call written flat, {"id", "name", "arguments"} (tau2-bench), is
	// read by fromKwargs.
	FlatName string          `json:"name"`
	FlatArgs json.RawMessage `json:"arguments"`
	// AgentDojo writes a call {"function": "<name>", "args": {...}}: the
	// name is read by chatFunction's UnmarshalJSON, the arguments here.
	Args json.RawMessage `json:"args"`

	pos int               // the call's own position (chatStyle.positioned)
	ts  *schema.Timestamp // when the call was written, if not with its message
}

type chatFunction struct {
	Name string `json:"name"`
	// Arguments is a JSON string holding JSON (the API's shape) or, in some
	// dumps, the object itself.
	Arguments json.RawMessage `json:"arguments"`
}

// UnmarshalJSON reads OpenAI's {"name", "arguments"}, or a name alone
// (AgentDojo's "function": "<name>", Inspect's), so that one harness's
// shape does not fail the whole conversation.
func (f *chatFunction) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		return json.Unmarshal(t, &f.Name)
	}
	type plain chatFunction
	return json.Unmarshal(b, (*plain)(f))
}

// args returns the call's arguments as JSON.
func (f *chatFunction) args() json.RawMessage {
	a := f.Arguments
	if len(a) > 0 && a[0] == '"' {
		var s string
		if json.Unmarshal(a, &s) == nil {
			if strings.TrimSpace(s) == "" {
				return json.RawMessage("{}")
			}
			return json.RawMessage(s) // setRawCall keeps it as a string if it does not parse
		}
	}
	if len(a) == 0 || string(a) == "null" {
		return json.RawMessage("{}")
	}
	return a
}

// chatStyle is what differs between the producers of chat messages.
type chatStyle struct {
	// textAction, if set, reads the action an assistant message wrote in
	// its text (mini-swe-agent), given the harness's reply: ok false when
	// the turn held no action the harness ran (a format error).
	textAction func(content, reply string) (cmd string, ok bool)
	// refusedAction, if set, reads the one action meant by a turn the
	// harness refused (textAction false): the refusal's args carry it
	// ("meant"), so that it is like only the refusals of a like action.
	refusedAction func(content string) (cmd string, ok bool)
	// textCall, if set, reads a call an assistant message wrote in its
	// text (textcalls.go); a turn without one stays a turn of talk.
	textCall func(content string) (tool string, args json.RawMessage, ok bool)
	// refusedTurn, if set, recognises the reply by which a harness refused
	// a turn that held no action it could read (ReAct's "Invalid Format"):
	// that turn is a failed step, not a turn of talk.
	refusedTurn func(reply string) bool
	// harnessError, if set, recognises a message by which the harness
	// rejected a turn it did not record (mini-swe-agent 2 keeps only the
	// rejection): such a message is a failed step of its own.
	harnessError func(content string) bool
	// observation turns a reply's text into the output the agent saw, with
	// an exit code when the text carries one.
	observation func(content string) (out string, exitCode *int)
	rules       []OutputRule
	// stop reports whether a call ends the run (a submit).
	stop func(tool string, args json.RawMessage) bool
	// toolKind, if set, says whether a call searches and whether it shows
	// file content, in place of chatToolKind: a format's own tools (a file
	// reader, a glob) are known by their names.
	toolKind func(tool string, args json.RawMessage) (search, view bool)
	// positioned: every message and call carries its position in the
	// source's list (pos), so that each call of a message keeps a number of
	// its own (Anthropic's parallel calls are answered in one message, so
	// the replies' positions cannot number them).
	positioned bool
}

// convertChat turns a conversation into steps. An assistant message with
// tool calls is one step per call, numbered by the message's position for
// its first call and by its reply's position for the others (positions are
// unique, so every step keeps a number the source shows). An assistant
// message without a call is a step without one; when it is the
// conversation's last message it is STOP. Other roles are not steps: their
// contents are the calls' results or the user's turns.
func convertChat(r *run, msgs []chatMessage, st chatStyle) {
	msgs, st.positioned = dropRoutingNotes(msgs, st.positioned)
	at := func(i int) int {
		if st.positioned {
			return msgs[i].pos
		}
		return i
	}
	lastAssistant := -1
	for i := range msgs {
		if msgs[i].Role == "assistant" {
			lastAssistant = i
		}
	}
	replied := map[int]bool{}
	for i := 0; i < len(msgs); i++ {
		m := &msgs[i]
		if m.Role != "assistant" {
			if st.harnessError != nil && i > 1 && !replied[i] && st.harnessError(text(m.Content)) {
				s := r.add(at(i), schema.StateAct.String())
				setCall(s, "format_error", map[string]string{"invalid": "no single action"})
				r.setResult(s, text(m.Content), schema.ErrFormatError, false)
			}
			continue
		}
		content := text(m.Content)
		// turn is the step of this message's call; answeredBy the
		// position of the next message when one of roles wrote it (the
		// call's result), else -1.
		turn := func() *schema.Step {
			s := r.add(at(i), schema.StateAct.String())
			s.TS, s.Usage = m.ts, m.usage
			setReason(s, content)
			return s
		}
		answeredBy := func(roles ...string) int {
			if i+1 < len(msgs) && slices.Contains(roles, msgs[i+1].Role) {
				replied[i+1] = true
				return i + 1
			}
			return -1
		}
		var calledTool string
		var calledArgs json.RawMessage
		called := false
		if st.textCall != nil && len(m.ToolCalls) == 0 && m.FunctionCall == nil {
			calledTool, calledArgs, called = st.textCall(content)
		}
		switch {
		case len(m.ToolCalls) > 0:
			replies := matchReplies(msgs, i)
			for _, j := range replies {
				replied[j] = true
			}
			for k := range m.ToolCalls {
				tc := &m.ToolCalls[k]
				pos := i
				switch {
				case st.positioned:
					pos = tc.pos
				case k > 0:
					if replies[k] < 0 {
						continue // no number left for an unanswered parallel call
					}
					pos = replies[k]
				}
				s := r.add(pos, schema.StateAct.String())
				s.TS = cmp.Or(tc.ts, m.ts)
				if k == 0 {
					setReason(s, content)
					s.Usage = m.usage
				}
				r.chatCall(s, tc.Function.Name, tc.Function.args(), msgs, replies[k], st)
			}
		case m.FunctionCall != nil:
			r.chatCall(turn(), m.FunctionCall.Name, m.FunctionCall.args(), msgs, answeredBy("function", "tool"), st)
		case st.textAction != nil:
			s := r.add(i, schema.StateAct.String())
			s.TS, s.Usage = m.ts, m.usage
			setReason(s, content)
			reply, replyText := -1, ""
			if i+1 < len(msgs) && msgs[i+1].Role != "assistant" {
				reply, replyText = i+1, text(msgs[i+1].Content)
				replied[reply] = true
			}
			cmd, ok := st.textAction(content, replyText)
			if !ok && i == lastAssistant && reSubmitCall.MatchString(content) {
				// The research fork's `submit()`, the run's last turn: it
				// handed the work in (the reply is the diff), no harness
				// refused it.
				s.State = schema.StateStop.String()
				continue
			}
			if !ok {
				// No action the harness ran: it answered with a format
				// error, a failed turn like a failed call.
				refused := map[string]string{"invalid": "no single action"}
				if st.refusedAction != nil {
					if meant, ok := st.refusedAction(content); ok {
						refused["meant"] = meant
					}
				}
				setCall(s, "format_error", refused)
				r.setResult(s, replyText, schema.ErrFormatError, false)
				continue
			}
			r.chatCall(s, "bash", mustJSON(map[string]string{"command": cmd}), msgs, reply, st)
		case called:
			cs := st
			if i != lastAssistant {
				// An answer the conversation goes on after ends nothing:
				// the worked example a harness puts before the task.
				cs.stop = nil
			}
			r.chatCall(turn(), calledTool, calledArgs, msgs, answeredBy("user", "tool"), cs)
		case st.refusedTurn != nil && i+1 < len(msgs) && msgs[i+1].Role == "user" && st.refusedTurn(text(msgs[i+1].Content)):
			s := turn()
			setCall(s, "format_error", map[string]string{"invalid": "no action the harness could read"})
			r.setResult(s, text(msgs[answeredBy("user")].Content), schema.ErrFormatError, false)
		default:
			state := ""
			if i == lastAssistant {
				state = schema.StateStop.String()
			}
			s := r.add(at(i), state)
			s.TS, s.Usage = m.ts, m.usage
			setReason(s, content)
			switch {
			case i+1 < len(msgs) && msgs[i+1].Role == "user":
				// Talking to the user is an action whose result is the
				// user's answer: the same question asked again and
				// answered alike is a loop like any other. The answer is
				// the user's whole turn: a simulated user that runs tools
				// of its own (tau2-bench) answers in several messages.
				reply := userTurn(msgs, i+1)
				r.setMessage(s, content, reply, r.replyError(reply, st.rules))
				if m.Name != "" {
					setCall(s, MessageTool, map[string]string{"from": m.Name, "text": content})
				} else {
					// The user answers from outside the run: the same
					// turn said again is no new answer, whatever the
					// user replies (schema.IntentUser).
					s.Intent = schema.IntentUser
				}
			case i+1 < len(msgs) && otherSpeaker(m, &msgs[i+1]):
				// In a conversation of named agents (an orchestrator and
				// its workers, a group chat), a turn is answered by the
				// next agent's: the same instruction answered alike
				// again is a loop; a new answer is progress, as a user's.
				reply := text(msgs[i+1].Content)
				r.setMessage(s, content, reply, r.replyError(reply, st.rules))
				if m.Name != "" {
					args := map[string]string{"from": m.Name, "text": content}
					if directs(m.Name) {
						args["to"] = msgs[i+1].Name
					}
					setCall(s, MessageTool, args)
				}
				if directs(m.Name) {
					// An orchestrator's instruction to its workers is
					// planning: the same sub-goal handed out again and
					// again with nothing new coming back is a
					// re-planning loop.
					s.State = schema.StatePlan.String()
				}
			}
		}
	}
}

// otherSpeaker reports whether next is another agent's turn after m: an
// assistant message without tool calls, named, by another name than m's.
// Consecutive messages of one unnamed assistant are one agent thinking
// aloud, not a turn answered.
func otherSpeaker(m, next *chatMessage) bool {
	return next.Role == "assistant" && next.Name != "" && next.Name != m.Name &&
		len(next.ToolCalls) == 0 && next.FunctionCall == nil
}

// directs reports whether an agent's name says it plans or directs the
// others (Magentic-One's Orchestrator, a LangGraph supervisor, a CrewAI
// manager, a planner agent), or marks the turn as its thinking.
func directs(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"orchestrator", "planner", "planning", "manager", "supervisor", "coordinator", "(thought)"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// chatCall fills a call step and, when the call was answered, its result.
func (r *run) chatCall(s *schema.Step, tool string, args json.RawMessage, msgs []chatMessage, reply int, st chatStyle) {
	if reply >= 0 && msgs[reply].Name != "" && msgs[reply].Name != tool {
		// Some harnesses log every call under one name and the tool that
		// really ran in its reply: the reply knows what ran.
		tool = msgs[reply].Name
	}
	if thinkTool(tool) {
		setThought(s, args)
		return
	}
	setRawCall(s, tool, args)
	submits := st.stop != nil && st.stop(tool, args) && !(reply >= 0 && msgs[reply].answeredOn)
	if reply < 0 {
		if submits {
			s.State = schema.StateStop.String()
		}
		return
	}
	out, exit := text(msgs[reply].Content), msgs[reply].exit
	if st.observation != nil {
		// An exit code the text carries; one the message carries stays
		// when the text has none.
		var code *int
		if out, code = st.observation(out); code != nil {
			exit = code
		}
	}
	search, view := chatToolKind(tool, args)
	if st.toolKind != nil {
		search, view = st.toolKind(tool, args)
	}
	if search {
		s.Intent = searchIntent
	}
	r.noteView(s, view)
	errType, empty := r.classify(out, search, view, st.rules)
	if errType == "" && !empty && exit != nil && *exit != 0 {
		if cmd, ok := shellCallCommand(tool, args); ok && foundNothing(cmd, *exit) {
			empty = true
		} else {
			errType = "EXIT_CODE"
		}
	}
	if given := msgs[reply].errType; given != "" && (errType == "" || (genericErrorType[errType] && !genericErrorType[given])) {
		// The format says the call failed: what the rules read from the
		// text says how, when they read anything more than that it
		// failed (a tool's own error type, EDIT_REJECTED, names it better
		// than an "Error:" prefix does).
		errType, empty = given, false
	}
	if submits && errType == "" {
		// A submit the harness answered with a failure handed nothing in
		// (the command broke before its echo ran): the run went on.
		s.State = schema.StateStop.String()
	}
	r.setResult(s, out, errType, empty)
}

// chatToolKind says whether a call searches (its tool's name, or the
// program a shell tool's command runs) and whether it shows file content.
// A shell call with {"restart": true} does neither: Anthropic's bash tool,
// and Trae Agent's after it, restart the shell and answer "tool has been
// restarted." without running the command the call also carries, so such
// a call is the restart (schema.IntentRestart), whatever its command.
func chatToolKind(tool string, args json.RawMessage) (search, view bool) {
	if i := strings.LastIndex(tool, "__"); i >= 0 {
		// An extension's or MCP server's tool, named "server__tool"
		// (Goose's developer__shell): the tool decides.
		tool = tool[i+2:]
	}
	if tool == "bash" || tool == "shell" || tool == "execute_bash" || tool == "run" {
		var a struct {
			Command string `json:"command"`
			Cmd     string `json:"cmd"`
			Restart bool   `json:"restart"`
		}
		json.Unmarshal(args, &a)
		if a.Restart {
			return false, false
		}
		cmd := a.Command + a.Cmd
		return commandSearches(cmd), viewsFiles(cmd)
	}
	return isSearch(tool), false
}

// matchReplies finds, for each tool call of the assistant message at i, the
// position of its reply: the tool message after it with the call's id, else
// the tool messages in order (-1 when unanswered).
func matchReplies(msgs []chatMessage, i int) []int {
	calls := msgs[i].ToolCalls
	out := make([]int, len(calls))
	for k := range out {
		out[k] = -1
	}
	var unmatched []int
	for j := i + 1; j < len(msgs) && msgs[j].Role != "assistant"; j++ {
		if msgs[j].Role != "tool" && msgs[j].Role != "function" {
			continue
		}
		found := false
		if id := msgs[j].ToolCallID; id != "" {
			for k := range calls {
				if calls[k].ID == id && out[k] < 0 {
					out[k], found = j, true
					break
				}
			}
		}
		if !found {
			unmatched = append(unmatched, j)
		}
	}
	for k := range out {
		if out[k] < 0 && len(unmatched) > 0 {
			out[k], unmatched = unmatched[0], unmatched[1:]
		}
	}
	return out
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// fromKwargs completes a message that keeps its calls, its call id or
// its text where LlamaIndex's ChatMessage does (additional_kwargs'
// tool_calls and tool_call_id, text blocks): {"role": "assistant",
// "additional_kwargs": {"tool_calls": [...]}, "blocks": [{"block_type":
// "text", "text": ...}]}.
func (m *chatMessage) fromKwargs() {
	if k := m.AdditionalKwargs; k != nil {
		if len(m.ToolCalls) == 0 && m.FunctionCall == nil {
			m.ToolCalls = k.ToolCalls
		}
		m.ToolCallID = cmp.Or(m.ToolCallID, k.ToolCallID)
		m.Name = cmp.Or(m.Name, k.Name)
	}
	for k := range m.ToolCalls {
		tc := &m.ToolCalls[k]
		if tc.Function.Name == "" && tc.FlatName != "" {
			tc.Function = chatFunction{Name: tc.FlatName, Arguments: tc.FlatArgs}
		}
		if !filled(tc.Function.Arguments) && filled(tc.Args) {
			tc.Function.Arguments = tc.Args
		}
	}
	m.fromTau2()
	if len(m.Blocks) > 0 && strings.TrimSpace(text(m.Content)) == "" {
		var words []string
		for _, b := range m.Blocks {
			if b.BlockType == "text" && strings.TrimSpace(b.Text) != "" {
				words = append(words, b.Text)
			}
		}
		if len(words) > 0 {
			m.Content = jsonString(strings.Join(words, "\n"))
		}
	}
}

// fromTau2 completes a message from what tau2-bench writes besides: a tool
// message answers the call its "id" names and failed when its "error" is
// true; a tool the simulated user called ("requestor": "user") is the
// user's side of the conversation, not an answer to the agent; "usage"
// ({"prompt_tokens", "completion_tokens"}) and "cost" are the step's, and
// "timestamp" (ISO 8601, local time without a zone: read as UTC) its time.
func (m *chatMessage) fromTau2() {
	if m.Role == "tool" {
		if m.ToolCallID == "" {
			m.ToolCallID = scalar(m.ExtraID)
		}
		if m.errType == "" && (string(m.ExtraError) == "true" || len(m.ExtraError) > 0 && m.ExtraError[0] == '"' && strings.TrimSpace(scalar(m.ExtraError)) != "") {
			// tau2-bench's true; AgentDojo's error message, its text
			// the tool's answer when the content is empty.
			m.errType = "ERROR"
			if strings.TrimSpace(text(m.Content)) == "" && m.ExtraError[0] == '"' {
				m.Content = m.ExtraError
			}
		}
		if scalar(m.ExtraRequestor) == "user" {
			m.Role = "user"
		}
	}
	if m.ts == nil && len(m.ExtraTimestamp) > 0 && m.ExtraTimestamp[0] == '"' {
		m.ts = ohTS(scalar(m.ExtraTimestamp))
	}
	if m.usage == nil && m.Role == "assistant" && len(m.ExtraUsage) > 0 && m.ExtraUsage[0] == '{' {
		var u struct {
			Prompt     looseCount `json:"prompt_tokens"`
			Completion looseCount `json:"completion_tokens"`
		}
		if json.Unmarshal(m.ExtraUsage, &u) == nil && (u.Prompt > 0 || u.Completion > 0) {
			m.usage = &schema.Usage{PromptTokens: int64(u.Prompt), CompletionTokens: int64(u.Completion)}
			if f, err := strconv.ParseFloat(string(m.ExtraCost), 64); err == nil && f > 0 && f < schema.MaxPlausibleCostUSD {
				m.usage.CostUSD = f
			}
		}
	}
}

// userTurn is the text of the user's messages from msgs[j] on, up to the
// next message of another role, one per line.
func userTurn(msgs []chatMessage, j int) string {
	reply := text(msgs[j].Content)
	for k := j + 1; k < len(msgs) && msgs[k].Role == "user"; k++ {
		reply = joinLine(reply, text(msgs[k].Content))
	}
	return reply
}

// plainMessage decodes an element of a dialect's list that is not of the
// dialect (a plain chat message among its own, a system prompt, a user's
// words), at position at, with the role and content the dialect spelt
// otherwise when OpenAI's keys hold none.
func plainMessage(el json.RawMessage, role string, content json.RawMessage, at int) (chatMessage, error) {
	var m chatMessage
	if err := json.Unmarshal(el, &m); err != nil {
		return m, err
	}
	m.Role = firstNonEmpty(m.Role, role)
	if !filled(m.Content) {
		m.Content = content
	}
	m.pos = at
	return m, nil
}

// dialectMessages turns a conversation holding a dialect's elements into
// chat messages, each with its position in the list: an element of the
// dialect (is) is converted by conv, given its index and position, which
// says how many positions it takes (one, or one per call made together, so
// that each call keeps a number and the elements after it move on); any
// other element is a plain chat message. ok is false when no element is of
// the dialect.
func dialectMessages(els []json.RawMessage, is func(json.RawMessage) bool,
	conv func(el json.RawMessage, i, at int) ([]chatMessage, int, error)) (msgs []chatMessage, ok bool, err error) {
	pos := 0
	for i, el := range els {
		at := pos
		if !is(el) {
			m, err := plainMessage(el, "", nil, at)
			if err != nil {
				return nil, false, err
			}
			msgs = append(msgs, m)
			pos++
			continue
		}
		ok = true
		added, n, err := conv(el, i, at)
		if err != nil {
			return nil, false, err
		}
		msgs = append(msgs, added...)
		pos += max(n, 1)
	}
	return msgs, ok, nil
}

// reSubmitCall is a turn of the mini-swe-agent research fork that hands
// in the work: a call of its submit tool on a line of its own.
var reSubmitCall = regexp.MustCompile(`(?m)^\s*(?:return\s+)?submit\(\s*\)\s*$`)

// failedModelCall is a request to the model that failed, as two messages
// of a conversation: a call of "model" by the agent (named name, when one
// of several spoke it) and its answer, msg, failed as msg says (a 429 or a
// quota is RATE_LIMIT: errTypeOf). Claude Code's API errors, Gemini CLI's
// and ADK's error events are such calls: a client retrying an exhausted
// quota over and over is an error storm.
func failedModelCall(id, name, msg string, pos int, ts *schema.Timestamp) []chatMessage {
	return []chatMessage{
		{Role: "assistant", Name: name, pos: pos, ts: ts, Content: jsonString(""),
			ToolCalls: []chatToolCall{{ID: id, Function: chatFunction{Name: "model", Arguments: json.RawMessage("{}")}, pos: pos, ts: ts}}},
		{Role: "tool", ToolCallID: id, Content: jsonString(msg), pos: pos, ts: ts, errType: errTypeOf(&Span{ErrorText: msg})},
	}
}
