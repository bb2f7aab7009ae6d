package adapters

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Inspect AI (UK AISI's evaluation framework) logs an evaluation as one
// EvalLog: the eval's spec, plan, results and stats, and its samples, each
// an agent's run on one input: the conversation ("messages": system, user,
// assistant with "tool_calls", tool with "tool_call_id", "function" and an
// "error" {type, message}), the transcript of what happened ("events":
// model calls with their usage and times, tool calls with theirs), and the
// sample's "model_usage". A .json log is the EvalLog as one document; a
// .eval log is a zip archive of the same with a member per sample
// (samples/<id>_epoch_<n>.json), which the ingest layer hands over one
// sample at a time. Both are read here: a document that is an EvalLog
// with "samples", or one sample.
var Inspect = &Format{
	Name:      "inspect",
	Title:     "Inspect AI eval logs (.json, and the samples of .eval archives)",
	Recognize: recognizeInspect,
	Convert:   convertInspect,
}

// isInspectSample reports whether obj is an EvalSample: the keys every
// sample is written with.
func isInspectSample(obj map[string]json.RawMessage) bool {
	for _, k := range []string{"id", "epoch", "input", "target", "messages"} {
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

// isInspectLog reports whether obj is an EvalLog: an "eval" spec naming
// its task, with "version" and "status".
func isInspectLog(obj map[string]json.RawMessage) bool {
	if _, ok := obj["version"]; !ok {
		return false
	}
	if _, ok := obj["status"]; !ok {
		return false
	}
	var spec struct {
		Task   *string `json:"task"`
		TaskID *string `json:"task_id"`
	}
	raw := obj["eval"]
	return len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &spec) == nil && spec.Task != nil && spec.TaskID != nil
}

func recognizeInspect(d *Doc) error {
	if !d.IsObject() {
		return errors.New(`not an Inspect AI log (an object with "eval" and "samples") or sample ("id", "epoch", "messages")`)
	}
	if isInspectLog(d.obj) || isInspectSample(d.obj) {
		return nil
	}
	return errors.New(`no Inspect AI "eval" spec with "version" and "status", nor a sample's "id", "epoch", "input", "target", "messages"`)
}

// inspectSample is a sample: the fields read.
type inspectSample struct {
	ID         json.RawMessage         `json:"id"`
	Epoch      int                     `json:"epoch"`
	Messages   []json.RawMessage       `json:"messages"`
	Events     []json.RawMessage       `json:"events"`
	ModelUsage map[string]inspectUsage `json:"model_usage"`
	// The texts events refer to (attachment://<hash>).
	Attachments map[string]string `json:"attachments"`
}

type inspectUsage struct {
	Input      int64 `json:"input_tokens"`
	Output     int64 `json:"output_tokens"`
	Total      int64 `json:"total_tokens"`
	CacheRead  int64 `json:"input_tokens_cache_read"`
	CacheWrite int64 `json:"input_tokens_cache_write"`
	// TotalCost is set when the eval priced its calls itself.
	TotalCost float64 `json:"total_cost"`
}

// prompt is the prompt tokens, the cached ones included: Inspect's
// Anthropic provider counts the cache apart from input_tokens, its OpenAI
// provider within them, and total_tokens holds them either way.
func (u inspectUsage) prompt() int64 {
	if p := u.Total - u.Output; p > u.Input {
		return p
	}
	return u.Input
}

func (u inspectUsage) usage(model string) *schema.Usage {
	if u.Input == 0 && u.Output == 0 && u.Total == 0 && u.TotalCost == 0 {
		return nil
	}
	return &schema.Usage{PromptTokens: u.prompt(), CompletionTokens: u.Output, CostUSD: u.TotalCost,
		Model: model, CacheReadTokens: u.CacheRead, CacheWriteTokens: u.CacheWrite}
}

// inspectMessage is a chat message of a sample.
type inspectMessage struct {
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	ToolCalls []struct {
		ID        string          `json:"id"`
		Function  string          `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_calls"`
	// A tool message's call id is a string; a user message may carry a
	// list of them (the calls it answers in words).
	ToolCallID json.RawMessage   `json:"tool_call_id"`
	Error      *inspectToolError `json:"error"`
}

// inspectToolError is a tool call's error (ToolCallError).
type inspectToolError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// inspectEvent is an event of a sample's transcript: the fields read of
// model and tool events.
type inspectEvent struct {
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
	Completed string `json:"completed"`
	Model     string `json:"model"`
	ID        string `json:"id"` // a tool event's call id
	// A tool event's result (a text, or content items) and error.
	Result json.RawMessage   `json:"result"`
	Error  *inspectToolError `json:"error"`
	Output *struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				ID string `json:"id"`
			} `json:"message"`
		} `json:"choices"`
		Usage *inspectUsage `json:"usage"`
	} `json:"output"`
}

// inspectWords is what an assistant message says: its text and its
// reasoning where the provider showed it. Images, documents and server
// tools' uses are not words.
func inspectWords(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '[' {
		return text(raw)
	}
	var items []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		Reasoning string `json:"reasoning"`
		Summary   string `json:"summary"`
		Redacted  bool   `json:"redacted"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return text(raw)
	}
	var parts []string
	for _, it := range items {
		t := ""
		switch it.Type {
		case "text":
			t = it.Text
		case "reasoning":
			if !it.Redacted {
				t = firstNonEmpty(it.Reasoning, it.Summary)
			} else {
				t = it.Summary
			}
		}
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}

// inspectErrorTypes are the error types of Inspect's tool errors
// (ToolCallError.type). "output_limit" is no failure: the call ran and its
// output was cut to the limit, which the content says.
var inspectErrorTypes = map[string]string{
	"parsing":             schema.ErrInvalidCall,
	"timeout":             schema.ErrTimeout,
	"permission":          "PERMISSION_DENIED",
	"file_not_found":      "NO_SUCH_FILE",
	"is_a_directory":      "ERROR",
	"unicode_decode":      "ERROR",
	"limit":               "ERROR",
	"approval":            "REJECTED",
	"cancelled":           "ERROR",
	"sandbox_unavailable": "ERROR",
	"unknown":             "ERROR",
}

// inspectStops are the tools whose call hands the answer in: the react
// agent's and basic_agent's submit.
var inspectStops = map[string]bool{"submit": true}

var inspectStyle = chatStyle{
	stop:        func(tool string, _ json.RawMessage) bool { return inspectStops[tool] },
	refusedTurn: inspectContinued,
	positioned:  true,
}

// inspectContinued reports whether a user message is the continue prompt
// with which Inspect's basic_agent and react agent answer a turn that
// called no tool: the harness had no action to run, as OpenHands' fake
// user and mini-swe-agent's "No tool calls found" say.
func inspectContinued(reply string) bool {
	return strings.HasPrefix(strings.TrimSpace(reply), "Please proceed to the next step using your best judgement")
}

// inspectEditCall reports whether a call changes a file with an editor
// tool (Inspect's text_editor, with a command other than view): its tool
// error is a change that did not land.
func inspectEditCall(tool string, args json.RawMessage) bool {
	return schema.EditorTools[strings.ToLower(tool)] && callChange(tool, args) == schema.IntentEdit
}

func convertInspect(d *Doc, emit func(*schema.Step) error) error {
	if isInspectSample(d.obj) {
		return convertInspectSample(d, d.Raw, emit)
	}
	raw, ok := d.obj["samples"]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return errors.New("the log holds no samples (written without them, or only its header)")
	}
	var samples []json.RawMessage
	if err := json.Unmarshal(raw, &samples); err != nil {
		return fmt.Errorf(`"samples": %v`, jsonError(err))
	}
	if len(samples) == 0 {
		return errors.New(`the log's "samples" list is empty`)
	}
	for i, s := range samples {
		if err := convertInspectSample(d, s, emit); err != nil {
			return fmt.Errorf("sample %d: %v", i, err)
		}
	}
	return nil
}

// inspectReply is the reply a tool message (or, for a call no message
// answers, its tool event) makes: its output, then the error's message
// when the output does not hold it, and the error's type.
func inspectReply(callID, out string, e *inspectToolError, edit bool, pos int) chatMessage {
	m := chatMessage{Role: "tool", ToolCallID: callID, pos: pos}
	if e != nil && e.Type != "output_limit" {
		if msg := strings.TrimSpace(e.Message); msg != "" && !strings.Contains(out, msg) {
			out = strings.TrimSpace(out + "\n" + msg)
		}
		m.errType = firstNonEmpty(inspectErrorTypes[e.Type], "ERROR")
		if edit && m.errType == "ERROR" {
			m.errType = schema.ErrEditRejected
		}
	}
	m.Content = jsonString(out)
	return m
}

// inspectEventText is a tool event's result as text: events keep a text
// over 100 characters in the sample's attachments, written in its place as
// attachment://<hash>.
func inspectEventText(result json.RawMessage, attachments map[string]string) string {
	out := text(result)
	if h, ok := strings.CutPrefix(out, "attachment://"); ok {
		if a, found := attachments[h]; found {
			return a
		}
	}
	return out
}

// inspectRunID is a sample's own id as Inspect names its member of a
// .eval archive: <id>_epoch_<n>.
func inspectRunID(id json.RawMessage, epoch int) string {
	s := scalar(id)
	if s == "" {
		s = strings.TrimSpace(string(id))
	}
	return s + "_epoch_" + strconv.Itoa(epoch)
}

func convertInspectSample(d *Doc, raw json.RawMessage, emit func(*schema.Step) error) error {
	// A sample's events repeat each model call's whole input in older
	// logs: most of its bytes, decoded here with the faster decoder.
	var s inspectSample
	if err := unmarshalFast(raw, &s); err != nil {
		return jsonError(err)
	}
	// What the transcript knows of each message and call: when it was
	// written or made, and what the model call that wrote it spent.
	type modelCall struct {
		ts    *schema.Timestamp
		usage *schema.Usage
	}
	byMessage := map[string]modelCall{}
	toolEvents := map[string]*inspectEvent{}
	for _, raw := range s.Events {
		var e inspectEvent
		if unmarshalFast(raw, &e) != nil {
			continue // an event of a shape this reader does not know
		}
		switch e.Event {
		case "model":
			if e.Output == nil || len(e.Output.Choices) == 0 || e.Output.Choices[0].Message.ID == "" {
				continue
			}
			mc := modelCall{ts: ccTS(firstNonEmpty(e.Completed, e.Timestamp))}
			if e.Output.Usage != nil {
				mc.usage = e.Output.Usage.usage(firstNonEmpty(e.Model, e.Output.Model))
			}
			byMessage[e.Output.Choices[0].Message.ID] = mc
		case "tool":
			if e.ID != "" {
				toolEvents[e.ID] = &e
			}
		}
	}
	ims := make([]inspectMessage, len(s.Messages))
	replyAt := map[string]int{} // a call's id -> the position of the tool message answering it
	for i, el := range s.Messages {
		im := &ims[i]
		if err := json.Unmarshal(el, im); err != nil {
			return fmt.Errorf("message %d: %v", i, jsonError(err))
		}
		if im.Role == "" && scalar(im.ToolCallID) != "" {
			im.Role = "tool" // R's vitals writes tool messages without a role
		}
		if im.Role == "tool" {
			replyAt[scalar(im.ToolCallID)] = i
		}
	}
	msgs := make([]chatMessage, 0, len(s.Messages))
	edits := map[string]bool{} // the calls that edit with Inspect's text_editor
	withUsage := false
	beyond := len(s.Messages) // numbers for calls no message answers, past the list
	for i := range ims {
		im := &ims[i]
		m := chatMessage{Role: im.Role, pos: i}
		var unanswered []chatMessage
		switch im.Role {
		case "assistant":
			m.Content = jsonString(inspectWords(im.Content))
			mc := byMessage[im.ID]
			m.ts, m.usage = mc.ts, mc.usage
			if m.usage != nil {
				withUsage = true
				if m.usage.Model == "" {
					m.usage.Model = im.Model
				}
			}
			for k, tc := range im.ToolCalls {
				args := tc.Arguments
				if !filled(args) || args[0] != '{' {
					args = json.RawMessage("{}")
				}
				if inspectEditCall(tc.Function, args) {
					edits[tc.ID] = true
				}
				// The first call is the message's step; each other its
				// reply's, or past the list when none answers it.
				pos, answered := i, false
				if j, ok := replyAt[tc.ID]; ok && tc.ID != "" {
					answered = true
					if k > 0 {
						pos = j
					}
				} else if k > 0 {
					pos, beyond = beyond, beyond+1
				}
				c := chatToolCall{ID: tc.ID, Function: chatFunction{Name: tc.Function, Arguments: args}, pos: pos}
				ev := toolEvents[tc.ID]
				if ev != nil {
					c.ts = ccTS(ev.Timestamp)
				}
				m.ToolCalls = append(m.ToolCalls, c)
				if !answered && ev != nil && tc.ID != "" {
					// A sample cut at its message limit ran its last
					// turn's calls and kept their results in the tool
					// events only.
					unanswered = append(unanswered, inspectReply(tc.ID, inspectEventText(ev.Result, s.Attachments), ev.Error, edits[tc.ID], pos))
				}
			}
		case "tool":
			m = inspectReply(scalar(im.ToolCallID), text(im.Content), im.Error, edits[scalar(im.ToolCallID)], i)
		default:
			m.Content = jsonString(text(im.Content))
		}
		msgs = append(msgs, m)
		msgs = append(msgs, unanswered...)
	}
	r := d.newRun(runName(d, 0, false, inspectRunID(s.ID, s.Epoch)))
	convertChat(r, msgs, inspectStyle)
	for _, st := range r.steps {
		if st.ToolCall != nil && st.ToolCall.Name == "format_error" && st.Decision != nil {
			if _, _, wrote := textCall(st.Decision.Reason); !wrote {
				// Words without a call, not even one written as text:
				// the agent said what it would or would not do (a plan,
				// a refusal) instead of acting.
				st.State = schema.StatePlan.String()
			}
		}
	}
	if !withUsage {
		// A transcript without its model calls (events not logged): the
		// sample's totals, shared among its calls.
		var prompt, completion int64
		var cost float64
		for _, u := range s.ModelUsage {
			prompt += u.prompt()
			completion += u.Output
			cost += u.TotalCost
		}
		r.spreadUsage(prompt, completion, cost)
	}
	return r.emit(emit)
}
