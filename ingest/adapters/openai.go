package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// OpenAIMessages reads conversations in the OpenAI chat format: assistant
// messages with "tool_calls" (or the older "function_call") and the "tool"
// (or "function") messages that answer them. A conversation is a JSON
// array of messages, an object with a "messages" list, or an object with a
// "traj" list (tau-bench's results); a file holds one, a JSON Lines file
// one per line, and a JSON array of such objects one per element.
var OpenAIMessages = &Format{
	Name:       "openai-messages",
	Title:      "OpenAI chat messages with tool calls (tau-bench, AgentBench, LangChain dumps, home-grown loops)",
	Recognize:  recognizeOpenAI,
	Convert:    convertOpenAI,
	Transcript: loneMessage,
}

// loneMessage reports whether d, a line of a JSON Lines file, is one chat
// message rather than a conversation: the file is then a conversation
// written a message a line (a chat log appended to as it goes), read
// whole as one run.
func loneMessage(d *Doc) bool {
	if !d.IsObject() || d.Whole || !isMessage(d.Raw) {
		return false
	}
	for _, k := range conversationKeys {
		if _, ok := d.obj[k]; ok {
			return false
		}
	}
	return true
}

// arrayRaw is the JSON array of a document's elements: the document
// itself, or, for a JSON Lines file read whole, its lines joined.
func (d *Doc) arrayRaw() json.RawMessage {
	if d.lines == nil {
		return d.Raw
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, el := range d.arr {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(el)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// conversationKeys hold a conversation's messages, in the order tried.
var conversationKeys = []string{"messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events", "conversations"}

// idKeys hold a conversation's own id, in the order tried; tau-bench's
// task_id is joined with its trial.
var idKeys = []string{"id", "conversation_id", "session_id", "thread_id", "task_id", "instance_id"}

func recognizeOpenAI(d *Doc) error {
	// SWE-agent and mini-swe-agent trajectories, and OpenDevin's output,
	// also hold lists of chat messages ("history", "messages"): they are
	// read by their own adapters, whatever the order of the registry.
	for _, other := range chatHolders {
		if other.recognize(d) == nil {
			return fmt.Errorf("a document of the %s format, not a conversation", other.name)
		}
	}
	if isClaudeCode(d) {
		// Claude Code's system records have a "type" and a "content" (null,
		// or a notice's text), as LangChain's system messages do: the
		// session's own keys say whose they are, whatever the registry's
		// order.
		return errors.New("an event of a Claude Code session, read by anthropic-messages")
	}
	if loneMessage(d) {
		return nil // the first line of a conversation written a message a line
	}
	if d.IsObject() && agentBenchOutput(d.obj) != nil {
		return nil // an AgentBench record: one without a history is refused line by line, saying why
	}
	msgs, err := firstConversation(d)
	if err != nil {
		return err
	}
	if anthropicDialect(msgs) {
		// Claude's conversations are lists of {"role": ...} messages too:
		// their blocks say which they are, whatever the registry's order.
		return errors.New("a conversation of Anthropic content blocks, read by anthropic-messages")
	}
	return nil
}

// firstConversation finds the messages of a document's (first)
// conversation: the document's own list, its "messages" (or "traj", ...),
// or those of its first element; else says why there is none.
func firstConversation(d *Doc) (json.RawMessage, error) {
	switch {
	case d.IsObject():
		if modelCallLog(d.obj) {
			return nil, errors.New(`one model call's request and response ("messages" with "response" and "kwargs": OpenHands' llm_completions), not a run: its messages repeat the run's history up to that call, which the run's own log holds`)
		}
		msgs, err := conversationOf(d.obj)
		if err != nil {
			if list, ok := conversationList(d.obj); ok {
				var first map[string]json.RawMessage
				json.Unmarshal(list[0], &first)
				return conversationOf(first)
			}
		}
		return msgs, err
	case d.IsArray():
		if len(d.arr) == 0 {
			return nil, errors.New("an empty list")
		}
		if isMessage(d.arr[0]) {
			return d.arrayRaw(), nil
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &obj) != nil {
			return nil, errors.New("a list whose first element is neither a message nor an object")
		}
		if clineUIMessage(obj) {
			return nil, errors.New(`Cline's UI messages (ui_messages.json: "type" say or ask): what the extension showed, not a conversation (the task's run is read from api_conversation_history.json beside it)`)
		}
		msgs, err := conversationOf(obj)
		if err != nil {
			return nil, fmt.Errorf("a list whose first element has %v", err)
		}
		return msgs, nil
	}
	return nil, errors.New("not a JSON object or array")
}

// modelCallLog reports whether obj logs one call of a model: the messages
// sent, the "response" and the call's "kwargs", as OpenHands writes one
// file per call into llm_completions/ beside its evaluation output. Read as
// conversations, a run's hundred calls were a hundred runs, each a prefix
// of the one before.
func modelCallLog(obj map[string]json.RawMessage) bool {
	_, response := obj["response"]
	_, kwargs := obj["kwargs"]
	return response && kwargs
}

// conversationOf finds the messages list of a conversation object.
func conversationOf(obj map[string]json.RawMessage) (json.RawMessage, error) {
	for _, k := range conversationKeys {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		if first, ok := firstElement(raw); !ok || first == nil || !isMessage(first) {
			continue
		}
		return raw, nil
	}
	if raw, ok := adpConversation(obj); ok {
		return raw, nil
	}
	if out := agentBenchOutput(obj); out != nil {
		if h := out["history"]; len(h) == 0 || string(h) == "null" {
			// error.jsonl beside runs.jsonl: samples the agent never ran.
			return nil, fmt.Errorf("an AgentBench sample that never ran: no history (error %q)", scalar(obj["error"]))
		}
		return conversationOf(out)
	}
	return nil, errors.New(`no list of chat messages ({"role": ...}, or LangChain's {"type": "human", ...}) under "messages", "traj", "conversation", "history", "trajectory", "chat_history", "contents", "events" or "conversations"`)
}

// agentBenchOutput is the task's output an AgentBench record holds (a
// line of its runs.jsonl: {"index", "error", "info", "output": {"index",
// "status", "result", "history"}}), nil for another object.
func agentBenchOutput(obj map[string]json.RawMessage) map[string]json.RawMessage {
	raw, ok := obj["output"]
	if !ok || len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	if _, ok := out["history"]; !ok {
		return nil
	}
	return out
}

// isMessage reports whether raw is a chat message: an object with a
// string "role", a LangChain message (langchain.go), or a Responses API
// item (responses.go).
func isMessage(raw json.RawMessage) bool {
	return hasRole(raw) || isLangChainMessage(raw) || isResponsesItem(raw) || isPydanticAIMessage(raw) || isADKEvent(raw) || isOpenCodeMessage(raw) || isHaystackLegacyMessage(raw) || isSKNetMessage(raw) || isLettaMessage(raw) || isShareGPTMessage(raw) || isADPItem(raw)
}

// ownID is a conversation's own id, if it logs one.
func ownID(obj map[string]json.RawMessage) string {
	for _, k := range idKeys {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		id := scalar(raw)
		if id == "" {
			continue
		}
		if k == "task_id" {
			if trial := scalar(obj["trial"]); trial != "" {
				id = "task_id=" + id + ",trial=" + trial
			} else {
				id = "task_id=" + id
			}
		}
		return id
	}
	// OpenCode's export keeps the session, and its id, under "info".
	if raw, ok := obj["info"]; ok && len(raw) > 0 && raw[0] == '{' {
		var info struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(raw, &info) == nil {
			return scalar(info.ID)
		}
	}
	return ""
}

// scalar renders a JSON string or number; anything else is "".
func scalar(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	if (raw[0] >= '0' && raw[0] <= '9') || raw[0] == '-' {
		return strings.TrimSpace(string(raw))
	}
	return ""
}

var openAIStyle = chatStyle{rules: append([]OutputRule{autoGenExecRule, autoGenScriptRule, agentsToolErrorRule, toolCallTimedOutRule}, ohMarkRules...), observation: openAIObservation}

// toolCallTimedOutRule reads an agent loop's own answer to a call it
// stopped waiting for: LiveMCPBench's MCP copilot agent writes it when
// the tool does not answer in time.
var toolCallTimedOutRule = OutputRule{
	Name: "tool-call-timed-out", ErrorType: schema.ErrTimeout, ViewsToo: true, Harness: true,
	Doc: "the agent loop gave up waiting for the tool: the output begins `Tool call timed out.` (LiveMCPBench's MCP copilot agent)",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "Tool call timed out.")
	},
}

// agentsToolErrorRule reads the OpenAI Agents SDK's answer to a tool that
// raised: its default failure function gives the model this text in
// place of an output.
var agentsToolErrorRule = OutputRule{
	Name: "agents-sdk-tool-error", ErrorType: "ERROR", Harness: true,
	Doc: "the OpenAI Agents SDK's answer for a tool that raised: the output begins `An error occurred while running the tool. Please try again. Error: `",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "An error occurred while running the tool. Please try again. Error: ")
	},
}

// autoGenExecRule reads AutoGen's (AG2's) code executor, which answers the
// code an agent sent with `exitcode: N (execution succeeded|failed)` and
// `Code output: ...`: in a group chat the executor is an agent of its own
// (a Computer_terminal), so the rule also reads an agent's answer.
var autoGenExecRule = OutputRule{
	Name: "autogen-exitcode", ErrorType: "EXIT_CODE", Harness: true,
	Doc: "AutoGen's (AG2's) code executor reporting a failed run: the output, or in a conversation of agents another agent's answer, begins `exitcode: N (execution failed)`",
	match: func(o *output) (string, bool) {
		return "", strings.HasPrefix(o.first, "exitcode: ") && reAutoGenFailed.MatchString(o.first)
	},
}

var reAutoGenFailed = regexp.MustCompile(`^exitcode: -?[1-9]\d* \(execution failed\)`)

func convertOpenAI(d *Doc, emit func(*schema.Step) error) error {
	return eachConversation(d, func(index int, many bool, obj map[string]json.RawMessage, msgsRaw json.RawMessage) error {
		msgs, positioned, err := decodeMessages(msgsRaw)
		if err != nil {
			return jsonError(err)
		}
		speakers(msgs)
		if err := saysSomething(msgs); err != nil {
			return err
		}
		// An AgentBench record's task output (decoded again here, as
		// conversationOf did to find its history: the records are a few
		// turns long): its index names the run, its status says how the
		// run ended.
		id, status := ownID(obj), ""
		if out := agentBenchOutput(obj); out != nil {
			if n := cmp.Or(scalar(obj["index"]), scalar(out["index"])); n != "" {
				id = "index=" + n
			}
			status = scalar(out["status"])
		} else if obj != nil {
			status = scalar(obj["status"]) // a task output on its own
		}
		r := d.newRun(runName(d, index, many, id))
		st := openAIStyle
		if textCalls(msgs) {
			st = textCallStyle
		}
		st.positioned = positioned
		convertChat(r, msgs, st)
		refusedLastTurn(r, msgs, status)
		if obj != nil {
			conversationUsage(r, obj["usage"])
		}
		if obj == nil && d.lines != nil && !positioned {
			// A message a line: the list is the file's lines, so a step is
			// numbered by its line, also after a line that is not JSON. (A
			// dialect whose parallel calls take positions of their own
			// numbers its steps itself.)
			for _, s := range r.steps {
				if int(*s.Step) < len(d.lines) {
					*s.Step = d.lines[*s.Step] - 1
				}
			}
		}
		return r.emit(emit) // a conversation without an assistant turn has no step
	})
}

// saysSomething refuses a conversation whose agent turns all hold nothing
// this adapter reads (no text, no call): a dialect it does not know, whose
// calls would be lost and whose run would read as a chat of empty turns.
func saysSomething(msgs []chatMessage) error {
	turns := 0
	for i := range msgs {
		m := &msgs[i]
		if m.Role != "assistant" {
			continue
		}
		turns++
		if len(m.ToolCalls) > 0 || m.FunctionCall != nil || strings.TrimSpace(text(m.Content)) != "" {
			return nil
		}
	}
	if turns == 0 {
		return nil // no agent turn: nothing read, as for a chat of the user alone
	}
	return fmt.Errorf("its %d agent turn(s) hold no text and no tool call that this adapter reads (an unknown message dialect?)", turns)
}

// chatRoles are the roles of OpenAI's chat format, and "human" and "ai",
// the user and the assistant in LangChain's and several multi-agent
// systems' dumps.
var chatRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true, "function": true, "ipython": true, "human": true, "ai": true}

// speakers reads the roles of a multi-agent log: a message whose role is
// not one of chatRoles names its speaker ("Orchestrator", "WebSurfer"),
// an agent, so it is an assistant message by that name; "human" is the
// user and "ai" the assistant. A group chat logged from its manager's
// side is read too (groupChat).
func speakers(msgs []chatMessage) {
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.Role == "human":
			m.Role = "user"
		case m.Role == "ai" || m.Role == "agent":
			// AgentBench's histories name the model's turns "agent".
			m.Role = "assistant"
		case m.Role != "" && !chatRoles[m.Role]:
			if m.Name == "" {
				m.Name = m.Role
			}
			m.Role = "assistant"
		}
	}
	groupChat(msgs)
}

// groupChat reads the roles of a conversation of named agents as AutoGen
// 0.2 and AG2 log it, where a message's role says which side of the log's
// owner it was on, not who spoke: a group chat's manager has received
// every agent's turn, so all are "user" (GroupChat.messages), and a chat
// kept by whoever started it (ChatResult.chat_history of a user proxy)
// has the proxy's turns as "assistant" and the model agent's as "user".
// When every assistant text message is named and the text messages carry
// two names or more, the names decide: the task giver's turns (the first
// text message's speaker) and those of a speaker named as the user
// ("user_proxy") are the user's (in these chats the proxy also runs the
// code the agents write: its answers are the results); every other named
// turn is an agent's, an assistant message by that name. An unnamed task
// is the user's. Tool calls, tool replies and other unnamed messages keep
// their roles; an unnamed assistant is a model speaking for itself, so a
// conversation that has one is read as written.
func groupChat(msgs []chatMessage) {
	text := func(m *chatMessage) bool {
		return (m.Role == "user" || m.Role == "assistant") && len(m.ToolCalls) == 0 && m.FunctionCall == nil
	}
	first, seen, names := "", false, map[string]bool{}
	for i := range msgs {
		m := &msgs[i]
		if !text(m) {
			continue
		}
		if m.Role == "assistant" && m.Name == "" {
			return
		}
		if !seen {
			first, seen = m.Name, true
		}
		if m.Name != "" {
			names[m.Name] = true
		}
	}
	if len(names) < 2 {
		return
	}
	for i := range msgs {
		m := &msgs[i]
		if !text(m) || m.Name == "" {
			continue
		}
		if m.Name == first || agUser(m.Name) {
			m.Role = "user"
		} else {
			m.Role = "assistant"
		}
	}
}

// eachConversation calls one with each conversation of a document, as
// firstConversation finds them: the index of the conversation and whether
// the document holds a list of them, the conversation's object (nil for a
// bare list of messages) and its messages.
func eachConversation(d *Doc, one func(index int, many bool, obj map[string]json.RawMessage, msgs json.RawMessage) error) error {
	els := d.arr
	switch {
	case d.IsObject():
		msgs, err := conversationOf(d.obj)
		if err == nil {
			return one(0, false, d.obj, msgs)
		}
		list, ok := conversationList(d.obj)
		if !ok {
			return err
		}
		els = list
	case d.IsArray() && len(d.arr) > 0 && isMessage(d.arr[0]):
		return one(0, false, nil, d.arrayRaw())
	case !d.IsArray():
		return errors.New("not a conversation")
	}
	// A list of conversations: a JSON array of them, or the list an
	// object holds (conversationList).
	for i, el := range els {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(el, &obj); err != nil {
			return fmt.Errorf("element %d: %v", i, jsonError(err))
		}
		msgs, err := conversationOf(obj)
		if err != nil {
			return fmt.Errorf("element %d: %v", i, err)
		}
		if err := one(i, true, obj, msgs); err != nil {
			return fmt.Errorf("element %d: %v", i, err)
		}
	}
	return nil
}

// conversationListKeys hold, in an object, a list of conversations: the
// "simulations" of a tau2-bench results file.
var conversationListKeys = []string{"simulations"}

// conversationList finds the list of conversations an object holds under
// one of conversationListKeys: ok when its first element is an object with
// a list of messages.
func conversationList(obj map[string]json.RawMessage) ([]json.RawMessage, bool) {
	if els, ok := chatStoreConversations(obj); ok {
		return els, true
	}
	for _, k := range conversationListKeys {
		raw, found := obj[k]
		if !found {
			continue
		}
		var els []json.RawMessage
		if json.Unmarshal(raw, &els) != nil || len(els) == 0 {
			continue
		}
		var first map[string]json.RawMessage
		if json.Unmarshal(els[0], &first) != nil {
			continue
		}
		if _, err := conversationOf(first); err == nil {
			return els, true
		}
	}
	return nil, false
}

// chatStoreConversations reads LlamaIndex's persisted chat store
// (SimpleChatStore.persist(): {"store": {KEY: [messages]}, "class_name":
// "SimpleChatStore"}), a conversation per key, in key order, each given as
// {"id": KEY, "messages": [...]} so that its run is named by its key.
func chatStoreConversations(obj map[string]json.RawMessage) ([]json.RawMessage, bool) {
	if scalar(obj["class_name"]) != "SimpleChatStore" {
		return nil, false
	}
	var store map[string]json.RawMessage
	if json.Unmarshal(obj["store"], &store) != nil || len(store) == 0 {
		return nil, false
	}
	keys := slices.Sorted(maps.Keys(store))
	els := make([]json.RawMessage, 0, len(keys))
	for _, k := range keys {
		els = append(els, mustJSON(map[string]json.RawMessage{"id": jsonString(k), "messages": store[k]}))
	}
	return els, true
}

// refusedStatuses are the statuses AgentBench gives a sample it ended
// because the agent's last turn held no action it could run: none it could
// read, or one the task does not have.
var refusedStatuses = map[string]bool{"agent invalid action": true, "agent validation failed": true}

// refusedLastTurn marks the run's last step failed when the harness says
// it ended the run on that turn: an AgentBench status among
// refusedStatuses, its last message the agent's, unanswered. Read as
// a chat, that turn was the agent's last word, as if it had finished.
func refusedLastTurn(r *run, msgs []chatMessage, status string) {
	if !refusedStatuses[status] || len(r.steps) == 0 || len(msgs) == 0 || msgs[len(msgs)-1].Role != "assistant" {
		return
	}
	s := r.steps[len(r.steps)-1]
	if s.ToolCall != nil && s.ToolCall.Name != MessageTool {
		return // an action the harness ran: its result says how it went
	}
	s.State = schema.StateAct.String()
	setCall(s, "format_error", map[string]string{"invalid": "no action the harness could run"})
	r.setResult(s, "", schema.ErrFormatError, false)
}

// conversationUsage spreads the tokens a conversation's own "usage" counts
// (a Letta send response's, a results file's per task) over its calls, when
// no message counted its own: the run's totals are then right, its steps'
// shares an estimate.
func conversationUsage(r *run, raw json.RawMessage) {
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	for _, s := range r.steps {
		if s.Usage != nil {
			return
		}
	}
	var u struct {
		Prompt     looseCount `json:"prompt_tokens"`
		Completion looseCount `json:"completion_tokens"`
	}
	if json.Unmarshal(raw, &u) == nil {
		r.spreadUsage(int64(u.Prompt), int64(u.Completion), 0)
	}
}
