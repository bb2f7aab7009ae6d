package adapters

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// AutoGen reads the runs of Microsoft AutoGen's agents in the shapes its
// releases write:
//
//   - AgentChat (autogen-agentchat 0.4 and later): the messages and events
//     of a run as model_dump() writes them, {"source": AGENT, "type":
//     "TextMessage" | "ToolCallRequestEvent" | ..., "content": ...}: a
//     TaskResult ({"messages": [...], "stop_reason": ...}), a JSON array of
//     messages, or the stream of a team's run_stream a message a line (one
//     file, one run, read whole).
//   - Magentic-One's log.jsonl (autogen-magentic-one): an event a line,
//     {"timestamp", "source", "message", "type": "OrchestrationEvent"},
//     the web surfer's actions as "WebSurferEvent" and model calls as
//     "LLMCallEvent"; the file is one run.
//   - AG2's (AutoGen 0.2's) runtime log, a text file of JSON records
//     (ag2log.go).
//   - AgentChat's Console transcript, what its Console prints as a team
//     runs (agconsole.go), and AG2's console transcript, what its agents
//     print as they talk (ag2console.go).
//
// All are turned into the chat messages convertChat reads, the agents
// named by their source, so a team's turns are judged as the named agents
// of a group chat are (chat.go).
var AutoGen = &Format{
	Name:       "autogen",
	Title:      "AutoGen runs: AgentChat messages (a TaskResult, a team's message stream) and Console transcripts, Magentic-One's log.jsonl, AG2's runtime log and console transcript",
	Recognize:  recognizeAutoGen,
	Convert:    convertAutoGen,
	Transcript: isAutoGenEvent,
	Text:       autoGenTextHead,
}

// autoGenTextHead reports whether a plain-text file opens as one of
// AutoGen's text logs: AG2's runtime log or AgentChat's Console transcript.
func autoGenTextHead(head []byte) bool {
	return ag2Head(head) || consoleHead(head) || ag2ConsoleHead(head)
}

// agChatTypes are AgentChat's message and event types (the "type" its
// model_dump writes), and m1Types the event types of Magentic-One's log.
var (
	agChatTypes = map[string]bool{
		"TextMessage": true, "MultiModalMessage": true, "StopMessage": true, "HandoffMessage": true,
		"ToolCallSummaryMessage": true, "StructuredMessage": true,
		"ToolCallRequestEvent": true, "ToolCallExecutionEvent": true, "ThoughtEvent": true,
		"CodeGenerationEvent": true, "CodeExecutionEvent": true, "SelectSpeakerEvent": true,
		"MemoryQueryEvent": true, "UserInputRequestedEvent": true, "ModelClientStreamingChunkEvent": true,
		"SelectorEvent": true,
	}
	m1Types = map[string]bool{"OrchestrationEvent": true, "AgentEvent": true, "WebSurferEvent": true, "LLMCallEvent": true}
)

// agMessage reports whether obj is one AgentChat message or event: a
// string "source" and a "type" of agChatTypes.
func agMessage(obj map[string]json.RawMessage) bool {
	src, ok := obj["source"]
	return ok && len(src) > 0 && src[0] == '"' && agChatTypes[scalar(obj["type"])]
}

// m1Event reports whether obj is one event of Magentic-One's log: a
// "type" of m1Types and its "timestamp".
func m1Event(obj map[string]json.RawMessage) bool {
	_, ts := obj["timestamp"]
	return ts && m1Types[scalar(obj["type"])]
}

// agTaskResult reports whether obj is a TaskResult: "messages" whose
// first element is an AgentChat message.
func agTaskResult(obj map[string]json.RawMessage) bool {
	first, ok := firstElement(obj["messages"])
	if !ok || first == nil {
		return false
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(first, &m) == nil && agMessage(m)
}

// agTeamThread is the message thread of a team's saved state (a TeamState,
// team.save_state() dumped): its group chat manager's state keeps the
// team's messages as the run gave them, under "message_thread". Of two
// threads (a team inside a team) the longer is the run, then the first by
// the agent's key.
func agTeamThread(obj map[string]json.RawMessage) ([]json.RawMessage, bool) {
	if scalar(obj["type"]) != "TeamState" {
		return nil, false
	}
	var states map[string]json.RawMessage
	if json.Unmarshal(obj["agent_states"], &states) != nil {
		return nil, false
	}
	keys := make([]string, 0, len(states))
	for k := range states {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var best []json.RawMessage
	for _, k := range keys {
		var st struct {
			Thread json.RawMessage `json:"message_thread"`
		}
		if json.Unmarshal(states[k], &st) != nil {
			continue
		}
		first, ok := firstElement(st.Thread)
		var m map[string]json.RawMessage
		if !ok || first == nil || json.Unmarshal(first, &m) != nil || !agMessage(m) {
			continue
		}
		if els, err := elements(st.Thread); err == nil && len(els) > len(best) {
			best = els
		}
	}
	return best, len(best) > 0
}

func agTeamState(obj map[string]json.RawMessage) bool {
	_, ok := agTeamThread(obj)
	return ok
}

// isAutoGenEvent reports whether d, the first line of a JSON Lines file
// (or such a file read whole), is one message or event of a run: the file
// is then the run, read whole. A file of TaskResults is a run a line.
func isAutoGenEvent(d *Doc) bool {
	return d.eventOrFirst(func(obj map[string]json.RawMessage) bool { return agMessage(obj) || m1Event(obj) })
}

func recognizeAutoGen(d *Doc) error {
	if d.text {
		if autoGenTextHead(d.Raw) {
			return nil
		}
		return errors.New("does not open with AG2's runtime log banner `" + ag2Banner + "`, AgentChat's Console header (`---------- TextMessage (user) ----------`) nor an AG2 console message (`user_proxy (to assistant):`)")
	}
	switch {
	case d.IsObject() && (agMessage(d.obj) || m1Event(d.obj) || agTaskResult(d.obj) || agTeamState(d.obj)):
		return nil
	case d.IsArray() && len(d.arr) > 0:
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) == nil && (agMessage(first) || m1Event(first) || agTaskResult(first)) {
			return nil
		}
	}
	return errors.New(`neither AgentChat messages ("source" with a "type" such as TextMessage or ToolCallRequestEvent; a TaskResult's "messages"; a TeamState's "message_thread") nor Magentic-One events ("timestamp" with a "type" such as OrchestrationEvent)`)
}

func convertAutoGen(d *Doc, emit func(*schema.Step) error) error {
	if d.text {
		if isConsoleTranscript(d.Raw) {
			msgs, err := autoGenChat(d, consoleRecords(d.Raw), false)
			if err != nil {
				return err
			}
			r := d.newRun(runName(d, 0, false, ""))
			convertChat(r, msgs, autoGenStyle)
			return r.emit(emit)
		}
		if !ag2Head(d.Raw) && ag2ConsoleHead(d.Raw) {
			return convertAG2Console(d, emit)
		}
		return convertAG2Log(d, emit)
	}
	one := func(index int, many bool, els []json.RawMessage, whole bool) error {
		msgs, err := autoGenChat(d, els, whole)
		if err != nil {
			return err
		}
		r := d.newRun(runName(d, index, many, ""))
		convertChat(r, msgs, autoGenStyle)
		return r.emit(emit)
	}
	switch {
	case d.IsObject() && agTaskResult(d.obj):
		els, err := elements(d.obj["messages"])
		if err != nil {
			return fmt.Errorf(`"messages": %v`, err)
		}
		return one(0, false, els, false)
	case d.IsObject() && agTeamState(d.obj):
		els, _ := agTeamThread(d.obj)
		return one(0, false, els, false)
	case d.IsObject():
		return one(0, false, []json.RawMessage{d.Raw}, false)
	case len(d.arr) > 0:
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) == nil && agTaskResult(first) {
			for i, el := range d.arr {
				var obj map[string]json.RawMessage
				if err := decodeObject(el, &obj); err != nil {
					return fmt.Errorf("element %d: %v", i, err)
				}
				els, err := elements(obj["messages"])
				if err != nil {
					return fmt.Errorf(`element %d: "messages": %v`, i, err)
				}
				if err := one(i, true, els, false); err != nil {
					return fmt.Errorf("element %d: %v", i, err)
				}
			}
			return nil
		}
		return one(0, false, d.arr, true)
	}
	return errors.New("no message")
}

// elements splits a JSON array into its elements.
func elements(raw json.RawMessage) ([]json.RawMessage, error) {
	var els []json.RawMessage
	if err := json.Unmarshal(raw, &els); err != nil {
		return nil, jsonError(err)
	}
	return els, nil
}

// agRecord is one AgentChat message or event, or one Magentic-One event:
// the fields read.
type agRecord struct {
	Type        looseString     `json:"type"`
	Source      looseString     `json:"source"`
	Content     json.RawMessage `json:"content"`
	ModelsUsage *struct {
		PromptTokens     looseCount `json:"prompt_tokens"`
		CompletionTokens looseCount `json:"completion_tokens"`
	} `json:"models_usage"`
	CreatedAt  looseString `json:"created_at"`
	CodeBlocks []struct {
		Code     looseString `json:"code"`
		Language looseString `json:"language"`
	} `json:"code_blocks"`
	Result *struct {
		ExitCode *int        `json:"exit_code"`
		Output   looseString `json:"output"`
	} `json:"result"`
	Target looseString `json:"target"` // a HandoffMessage's

	// Magentic-One's events.
	Timestamp        looseString     `json:"timestamp"`
	Message          json.RawMessage `json:"message"`
	Action           looseString     `json:"action"`
	Arguments        json.RawMessage `json:"arguments"`
	PromptTokens     looseCount      `json:"prompt_tokens"`
	CompletionTokens looseCount      `json:"completion_tokens"`
}

// agCall is one call of a ToolCallRequestEvent (AgentChat's FunctionCall).
type agCall struct {
	ID        looseString     `json:"id"`
	Name      looseString     `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// agResult is one result of a ToolCallExecutionEvent (FunctionExecutionResult).
type agResult struct {
	Content json.RawMessage `json:"content"`
	Name    looseString     `json:"name"`
	CallID  looseString     `json:"call_id"`
	IsError looseBool       `json:"is_error"`
}

// CodeTool is the tool name of code an AutoGen agent wrote and had run
// (AgentChat's CodeGenerationEvent answered by a CodeExecutionEvent).
const CodeTool = "execute_code"

// autoGenChat turns a run's records into chat messages. A step's number is
// its record's position in the list, counting a ToolCallRequestEvent of n
// parallel calls as n places so that each call keeps a number of its own:
// where no record holds more than one call, as in most runs, the number is
// the record's index (the line's, 0-based, in a log read whole). Records
// that are nobody's move (speaker selection, streamed chunks, memory
// queries, the model calls Magentic-One logs) are not steps; their places
// are skipped.
func autoGenChat(d *Doc, els []json.RawMessage, whole bool) ([]chatMessage, error) {
	var (
		msgs     []chatMessage
		pos      int
		thought  = map[string]string{} // an agent's ThoughtEvent, for its next move
		pending  = map[string]string{} // an agent's call awaiting its answer (Magentic-One's web surfer)
		codeCall = map[string]string{} // an agent's code awaiting its execution
		spent    schema.Usage          // Magentic-One's model calls not yet given to a move (LLMCallEvents name no agent)
	)
	for i, el := range els {
		at := pos
		pos++
		var rec agRecord
		if err := decodeObject(el, &rec); err != nil {
			if whole && d.skipElement(i, err) {
				continue
			}
			return nil, fmt.Errorf("%s: %v", d.where(i), err)
		}
		src := strings.TrimSpace(string(rec.Source))
		ts := ohTS(cmp.Or(string(rec.CreatedAt), string(rec.Timestamp)))
		// use is the tokens of an agent's move: AgentChat logs them on the
		// message, Magentic-One as the model calls logged before it.
		use := func() *schema.Usage {
			if u := agUsage(&rec); u != nil {
				return u
			}
			if spent.PromptTokens == 0 && spent.CompletionTokens == 0 {
				return nil
			}
			u := spent
			spent = schema.Usage{}
			return &u
		}
		switch t := string(rec.Type); t {
		case "LLMCallEvent":
			spent.PromptTokens += int64(rec.PromptTokens)
			spent.CompletionTokens += int64(rec.CompletionTokens)
		case "ToolCallRequestEvent":
			var calls []agCall
			if err := json.Unmarshal(rec.Content, &calls); err != nil {
				if whole && d.skipElement(i, fmt.Errorf(`"content": %v`, jsonError(err))) {
					continue
				}
				return nil, fmt.Errorf(`%s: "content": %v`, d.where(i), jsonError(err))
			}
			m := chatMessage{Role: "assistant", Name: src, Content: jsonString(thought[src]), pos: at, ts: ts, usage: use()}
			delete(thought, src)
			for k, c := range calls {
				id := cmp.Or(string(c.ID), "call-"+strconv.Itoa(i)+"-"+strconv.Itoa(k))
				m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: id, Function: chatFunction{Name: cmp.Or(string(c.Name), "tool"), Arguments: c.Arguments}, pos: at + k, ts: ts})
			}
			if len(calls) > 1 {
				pos += len(calls) - 1
			}
			msgs = append(msgs, m)
		case "ToolCallExecutionEvent":
			var results []agResult
			if err := json.Unmarshal(rec.Content, &results); err != nil {
				if whole && d.skipElement(i, fmt.Errorf(`"content": %v`, jsonError(err))) {
					continue
				}
				return nil, fmt.Errorf(`%s: "content": %v`, d.where(i), jsonError(err))
			}
			for _, res := range results {
				m := chatMessage{Role: "tool", ToolCallID: string(res.CallID), Content: jsonString(text(res.Content)), pos: at, ts: ts}
				if res.IsError {
					m.errType = "ERROR"
				}
				msgs = append(msgs, m)
			}
		case "CodeGenerationEvent":
			var blocks []map[string]string
			for _, b := range rec.CodeBlocks {
				blocks = append(blocks, map[string]string{"language": string(b.Language), "code": string(b.Code)})
			}
			m := chatMessage{Role: "assistant", Name: src, Content: jsonString(cmp.Or(thought[src], text(rec.Content))), pos: at, ts: ts, usage: use()}
			delete(thought, src)
			if len(blocks) > 0 {
				id := "code-" + strconv.Itoa(i)
				m.ToolCalls = []chatToolCall{{ID: id, Function: chatFunction{Name: CodeTool, Arguments: mustJSON(map[string]any{"code_blocks": blocks})}, pos: at, ts: ts}}
				codeCall[src] = id
			}
			msgs = append(msgs, m)
		case "CodeExecutionEvent":
			if rec.Result == nil {
				continue
			}
			m := chatMessage{Role: "tool", ToolCallID: codeCall[src], Content: jsonString(string(rec.Result.Output)), pos: at, ts: ts, exit: rec.Result.ExitCode}
			delete(codeCall, src)
			msgs = append(msgs, m)
		case "ThoughtEvent":
			thought[src] = joinLine(thought[src], text(rec.Content))
		case "WebSurferEvent":
			args := rec.Arguments
			if !filled(args) {
				args = json.RawMessage("{}")
			}
			id := "web-" + strconv.Itoa(i)
			msgs = append(msgs, chatMessage{Role: "assistant", Name: src, pos: at, ts: ts, usage: use(),
				ToolCalls: []chatToolCall{{ID: id, Function: chatFunction{Name: cmp.Or(string(rec.Action), "web_action"), Arguments: args}, pos: at, ts: ts}}})
			pending[src] = id
		case "OrchestrationEvent", "AgentEvent":
			words := text(rec.Message)
			if id, ok := pending[src]; ok {
				// The web surfer's account of the page its action led to:
				// the action's result.
				delete(pending, src)
				msgs = append(msgs, chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(words), pos: at, ts: ts})
				continue
			}
			msgs = append(msgs, agSpeaker(src, words, at, ts, use))
		default:
			if !agSpoken[t] {
				continue // nobody's move
			}
			words := agContent(&rec)
			if strings.TrimSpace(thought[src]) != "" && src != "" {
				words = joinLine(thought[src], words)
			}
			delete(thought, src)
			msgs = append(msgs, agSpeaker(src, words, at, ts, use))
		}
	}
	return msgs, nil
}

// agSpoken are the types of AgentChat messages an agent (or the user)
// says to the others. A ToolCallSummaryMessage is not one of them: it
// repeats the results of the calls before it, which are read already.
var agSpoken = map[string]bool{"TextMessage": true, "MultiModalMessage": true, "StopMessage": true, "HandoffMessage": true, "StructuredMessage": true}

// agSpeaker is a message said by src: the user's turn, or a named agent's
// with the tokens use gives it.
func agSpeaker(src, words string, pos int, ts *schema.Timestamp, use func() *schema.Usage) chatMessage {
	if agUser(src) {
		return chatMessage{Role: "user", Content: jsonString(words), pos: pos, ts: ts}
	}
	return chatMessage{Role: "assistant", Name: cmp.Or(src, "assistant"), Content: jsonString(words), pos: pos, ts: ts, usage: use()}
}

// agUser reports whether a source is the person (or its proxy) who gave
// the task: AgentChat's "user", Magentic-One's UserProxy.
func agUser(src string) bool {
	switch strings.ToLower(src) {
	case "user", "human", "userproxy", "user_proxy", "user proxy":
		return true
	}
	return false
}

// agContent is what a chat message says: its text, a multimodal
// message's texts (an image is "<image>"), a structured message's JSON, a
// handoff's target.
func agContent(rec *agRecord) string {
	c := rec.Content
	if len(c) > 0 && c[0] == '[' {
		var parts []json.RawMessage
		if json.Unmarshal(c, &parts) == nil {
			var b []string
			for _, p := range parts {
				if len(p) > 0 && p[0] == '"' {
					b = append(b, scalar(p))
				} else {
					b = append(b, "<image>")
				}
			}
			return strings.Join(b, "\n")
		}
	}
	words := text(c)
	if string(rec.Type) == "HandoffMessage" && rec.Target != "" {
		words = joinLine("handoff to "+string(rec.Target), words)
	}
	return words
}

// agUsage is an AgentChat record's models_usage.
func agUsage(rec *agRecord) *schema.Usage {
	u := rec.ModelsUsage
	if u == nil || (u.PromptTokens == 0 && u.CompletionTokens == 0) {
		return nil
	}
	return &schema.Usage{PromptTokens: int64(u.PromptTokens), CompletionTokens: int64(u.CompletionTokens)}
}

var autoGenStyle = chatStyle{rules: []OutputRule{autoGenExecRule, autoGenScriptRule}, positioned: true}

// autoGenScriptRule reads the answer of AutoGen's code executor agents
// (Magentic-One's ComputerTerminal, AgentChat's CodeExecutorAgent), which
// say how the code they were sent ran in a sentence of their own.
var autoGenScriptRule = OutputRule{
	Name: "autogen-script-exit", ErrorType: "EXIT_CODE", Harness: true,
	Doc: "AutoGen's code executor agents (Magentic-One's ComputerTerminal, AgentChat's CodeExecutorAgent) saying the code exited non-zero: `The script ran, then exited with Unix exit code: N`, `The script ran, then exited with an error (POSIX exit code: N)`, or `The script ran but produced no output to console. The POSIX exit code was: N`, N not 0",
	match: func(o *output) (string, bool) {
		if !strings.HasPrefix(o.first, "The script ran") {
			return "", false
		}
		m := reAutoGenScriptExit.FindStringSubmatch(o.first)
		return "", m != nil && strings.TrimLeft(m[1], "0") != ""
	},
}

var reAutoGenScriptExit = regexp.MustCompile(`^The script ran(?:, then exited with (?:Unix exit code: |an error \(POSIX exit code: )| but produced no output to console\. The POSIX exit code was: )(-?\d+)`)
