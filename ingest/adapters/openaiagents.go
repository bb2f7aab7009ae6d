package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// OpenAIAgents reads the traces of the OpenAI Agents SDK
// (openai-agents-python): the records its tracing exports, a trace
// ({"object": "trace", "id", "workflow_name", "group_id", "metadata"}) and
// its spans ({"object": "trace.span", "id", "trace_id", "parent_id",
// "started_at", "ended_at", "span_data": {"type": ...}, "error"}), as
// Span.export() and Trace.export() write them. Users keep them as JSON
// Lines (a TracingProcessor writing one record per line), as a JSON array,
// or as the backend exporter's batch {"data": [...]}
// (docs/adapters/openai-agents.md).
var OpenAIAgents = &Format{
	Name:      "openai-agents",
	Title:     "OpenAI Agents SDK traces (trace and span exports: JSON Lines, JSON arrays, the backend exporter's {\"data\": [...]} batches)",
	Recognize: recognizeOpenAIAgents,
	Spans:     openAIAgentsSpans,
}

// The span_data types that can become steps (the others, agent, custom,
// mcp_tools, speech and transcription, enclose or accompany them).
const (
	oaaFunction   = "function"
	oaaGeneration = "generation"
	oaaResponse   = "response"
	oaaHandoff    = "handoff"
	oaaGuardrail  = "guardrail"
)

// oaaHandoffTool and oaaGuardrailTripped name what handoffs and tripped
// guardrails become: calls, so that agents handing a task back and forth,
// or a guardrail tripping again and again, show as a loop.
const (
	oaaHandoffTool      = "handoff"
	oaaGuardrailPrefix  = "guardrail:"
	oaaGuardrailTripped = "GUARDRAIL_TRIPPED"
)

func recognizeOpenAIAgents(d *Doc) error {
	switch {
	case d.IsObject():
		if oaaIsRecord(d.obj) {
			return nil
		}
		raw, ok := d.obj["data"]
		if !ok {
			return errors.New(`no "object": "trace.span" or "trace", no "span_data", no "data" list of them`)
		}
		first, ok := firstElement(raw)
		switch {
		case !ok:
			return errors.New(`"data" is not a list`)
		case first == nil:
			return errors.New(`"data" is an empty list`)
		case !oaaIsRecordRaw(first):
			return errors.New(`"data" is not a list of trace and span records`)
		}
		return nil
	case d.IsArray():
		switch {
		case len(d.Elements()) == 0:
			return errors.New("an empty list")
		case !oaaIsRecordRaw(d.Elements()[0]):
			return errors.New("a list whose first element is not a trace or span record")
		}
		return nil
	}
	return errors.New("not a JSON object or array")
}

// oaaIsRecord: an object the SDK exported, a trace or a span. Some
// processors drop "object"; a span is still known by its span_data.
func oaaIsRecord(obj map[string]json.RawMessage) bool {
	switch strings.TrimSpace(string(obj["object"])) {
	case `"trace.span"`, `"trace"`:
		return true
	}
	sd := bytes.TrimSpace(obj["span_data"])
	return len(sd) > 0 && sd[0] == '{'
}

func oaaIsRecordRaw(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &obj) != nil {
		return false
	}
	return oaaIsRecord(obj)
}

// oaaRecord is a trace or span record, the members of both.
type oaaRecord struct {
	Object    string          `json:"object"`
	ID        string          `json:"id"`
	TraceID   string          `json:"trace_id"`
	ParentID  string          `json:"parent_id"`
	StartedAt string          `json:"started_at"`
	EndedAt   string          `json:"ended_at"`
	SpanData  json.RawMessage `json:"span_data"`
	Error     json.RawMessage `json:"error"`
	// A trace's.
	WorkflowName string `json:"workflow_name"`
	GroupID      string `json:"group_id"`
}

// oaaSpanData is span_data, the members of every type the SDK writes
// (span_data.py, each SpanData's export()).
type oaaSpanData struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	Model     string          `json:"model"`
	Usage     *oaaUsage       `json:"usage"`
	FromAgent string          `json:"from_agent"`
	ToAgent   string          `json:"to_agent"`
	Triggered bool            `json:"triggered"`
}

// oaaUsage is a generation's (and, in recent SDKs, a response's) usage.
// Chat-style names are read too, as some model providers' wrappers write
// them.
type oaaUsage struct {
	InputTokens      *float64 `json:"input_tokens"`
	OutputTokens     *float64 `json:"output_tokens"`
	PromptTokens     *float64 `json:"prompt_tokens"`
	CompletionTokens *float64 `json:"completion_tokens"`
}

func (u *oaaUsage) tokens() (prompt, completion int64, ok bool) {
	if u == nil {
		return 0, 0, false
	}
	in, out := u.InputTokens, u.OutputTokens
	if in == nil {
		in = u.PromptTokens
	}
	if out == nil {
		out = u.CompletionTokens
	}
	return oaaCount(in), oaaCount(out), in != nil || out != nil
}

// oaaCount is a token count as an int64: missing, negative or absurd
// counts (a broken writer) are 0 or capped, never a negative step usage.
func oaaCount(v *float64) int64 {
	const most = 1 << 40
	switch {
	case v == nil || math.IsNaN(*v) || *v <= 0:
		return 0
	case *v >= most:
		return most
	}
	return int64(*v)
}

// oaaError is a span's error: {"message": ..., "data": {...}}.
type oaaError struct {
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func openAIAgentsSpans(d *Doc, add func(*Span) error) error {
	var records []json.RawMessage
	switch {
	case d.IsArray():
		records = d.Elements()
	case oaaIsRecord(d.obj):
		records = []json.RawMessage{d.Raw}
	default:
		if err := json.Unmarshal(d.obj["data"], &records); err != nil {
			return errors.New(`"data" is not a list`)
		}
	}
	// Every record is read before any span is handed on: a document with
	// a broken record is rejected whole, not half read.
	spans := make([]Span, 0, len(records))
	for i, raw := range records {
		sp, err := oaaSpan(raw)
		if err != nil {
			if len(records) > 1 {
				return fmt.Errorf("record %d: %w", i, err)
			}
			return err
		}
		spans = append(spans, sp)
	}
	for i := range spans {
		if err := add(&spans[i]); err != nil {
			return err
		}
	}
	return nil
}

// oaaSpan reads one record. A trace becomes a span that is no step: it
// carries the trace's group_id (a conversation thread) as its Session, so
// the trace's spans are one run named by it (RunsOf).
func oaaSpan(raw json.RawMessage) (Span, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return Span{}, errors.New("not a JSON object")
	}
	var rec oaaRecord
	if err := unmarshalFast(raw, &rec); err != nil {
		return Span{}, oaaDecodeError(err)
	}
	isSpan := rec.Object == "trace.span" || (rec.Object != "trace" && len(rec.SpanData) > 0)
	if !isSpan {
		if rec.Object != "trace" {
			return Span{}, errors.New(`neither a trace nor a span record (no "object": "trace.span" or "trace", no "span_data")`)
		}
		if strings.TrimSpace(rec.ID) == "" {
			return Span{}, errors.New(`a trace record without an "id"`)
		}
		return Span{Kind: SpanOther, TraceID: rec.ID, Session: strings.TrimSpace(rec.GroupID), Name: rec.WorkflowName}, nil
	}
	if t := bytes.TrimSpace(rec.SpanData); len(t) == 0 || t[0] != '{' {
		return Span{}, fmt.Errorf(`span %q has no "span_data" object`, rec.ID)
	}
	var data oaaSpanData
	if err := unmarshalFast(rec.SpanData, &data); err != nil {
		return Span{}, fmt.Errorf("span %q: %w", rec.ID, oaaDecodeError(err))
	}
	sp := Span{TraceID: rec.TraceID, SpanID: rec.ID, ParentID: rec.ParentID, Kind: SpanOther, Name: cmp.Or(data.Name, data.Type)}
	var err error
	if sp.Start, err = oaaTime(rec.StartedAt); err != nil {
		return Span{}, fmt.Errorf("span %q: started_at: %w", rec.ID, err)
	}
	if sp.End, err = oaaTime(rec.EndedAt); err != nil {
		return Span{}, fmt.Errorf("span %q: ended_at: %w", rec.ID, err)
	}
	if e := bytes.TrimSpace(rec.Error); len(e) > 0 && string(e) != "null" {
		sp.Failed = true
		sp.ErrorText, sp.ErrorType = oaaErrorOf(e)
	}
	switch data.Type {
	case oaaFunction:
		sp.Kind = SpanTool
		sp.Tool = data.Name
		sp.Args = oaaArgs(data.Input)
		sp.Output = oaaText(data.Output)
	case oaaGeneration:
		sp.Kind = SpanLLM
		sp.Model = data.Model
		sp.PromptTokens, sp.CompletionTokens, _ = data.Usage.tokens()
		var model string
		sp.Text, sp.ToolCalls, model = oaaModelOutput(data.Output)
		sp.Model = cmp.Or(sp.Model, model)
	case oaaResponse:
		// A response span records no words and no calls, only its id and,
		// in recent SDKs, its usage: a model call whose tokens count.
		var ok bool
		sp.PromptTokens, sp.CompletionTokens, ok = data.Usage.tokens()
		if ok || sp.Failed {
			sp.Kind = SpanLLM
		}
	case oaaHandoff:
		sp.Kind = SpanTool
		sp.Tool = oaaHandoffTool
		sp.Args = json.RawMessage("{}")
		if to := strings.TrimSpace(data.ToAgent); to != "" {
			sp.Args, _ = json.Marshal(map[string]string{"to_agent": to})
			out := "handed off to " + to
			sp.Output = &out
		}
	case oaaGuardrail:
		if data.Triggered {
			sp.Kind = SpanTool
			sp.Tool = oaaGuardrailPrefix + data.Name
			sp.Args = json.RawMessage("{}")
			sp.Failed = true
			sp.ErrorType = oaaGuardrailTripped
			if sp.ErrorText == "" {
				sp.ErrorText = "guardrail tripwire triggered"
			}
		}
	}
	return sp, nil
}

// oaaErrorOf reads a span's error: its message, with the detail the SDK
// puts in data.error ("Error running tool": "<the exception's text>"), and
// an error type when data names one.
func oaaErrorOf(raw json.RawMessage) (text, errType string) {
	var e oaaError
	if raw[0] != '{' || json.Unmarshal(raw, &e) != nil {
		if s := oaaText(raw); s != nil {
			return *s, ""
		}
		return string(raw), ""
	}
	text = strings.TrimSpace(e.Message)
	var data map[string]json.RawMessage
	if json.Unmarshal(e.Data, &data) == nil {
		if s := oaaString(data["error"]); s != "" && s != text {
			if text == "" {
				text = s
			} else {
				text += ": " + s
			}
		}
		for _, k := range []string{"error_type", "error.type", "exception_type", "exception.type", "error_code"} {
			if s := oaaString(data[k]); s != "" {
				errType = s
				break
			}
		}
	}
	return text, errType
}

// oaaString is a JSON string's value; "" for anything else.
func oaaString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

// oaaText is an output as the text the agent saw: a string as it is, other
// values as their JSON; nil when not recorded (null or missing).
func oaaText(raw json.RawMessage) *string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	return &s
}

// oaaArgs is a function span's input as the call's args: the SDK records
// the arguments the model wrote, a JSON string holding a JSON object. Text
// that is not JSON (a model's broken arguments) is kept as {"raw": text};
// none recorded (trace_include_sensitive_data off) is nil.
func oaaArgs(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '{' || raw[0] == '[' {
		return raw
	}
	s := oaaText(raw)
	t := strings.TrimSpace(*s)
	switch {
	case t == "":
		return nil
	case (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)):
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(map[string]string{"raw": strings.ToValidUTF8(*s, "\uFFFD")})
	return b
}

// oaaModelOutput reads a generation's output: what the model said and the
// calls it asked for. The SDK writes the Chat Completions message
// ([message.model_dump()]: content, refusal, tool_calls, function_call), or
// for a streamed call the final Responses API response (output items:
// messages of output_text parts, function_call items); a bare list of
// output items is read too.
func oaaModelOutput(raw json.RawMessage) (text string, calls []ToolCallRef, model string) {
	var items []json.RawMessage
	if unmarshalFast(raw, &items) != nil {
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return "", nil, ""
		}
		items = []json.RawMessage{raw}
	}
	var texts []string
	var walk func(items []json.RawMessage, depth int)
	walk = func(items []json.RawMessage, depth int) {
		for _, it := range items {
			var m struct {
				Type      string          `json:"type"`
				Object    string          `json:"object"`
				Model     string          `json:"model"`
				Content   json.RawMessage `json:"content"`
				Refusal   json.RawMessage `json:"refusal"`
				Output    json.RawMessage `json:"output"`
				CallID    string          `json:"call_id"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name      string          `json:"name"`
						Arguments json.RawMessage `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
				FunctionCall *struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function_call"`
			}
			if unmarshalFast(it, &m) != nil {
				continue
			}
			switch {
			case m.Object == "response" || (m.Type == "" && len(m.Output) > 0 && m.Output[0] == '['):
				// A Responses API response: its output items.
				model = cmp.Or(model, m.Model)
				var out []json.RawMessage
				if depth < 2 && json.Unmarshal(m.Output, &out) == nil {
					walk(out, depth+1)
				}
			case m.Type == "function_call":
				calls = append(calls, ToolCallRef{ID: cmp.Or(m.CallID, m.ID), Name: m.Name, Args: argsJSON(m.Arguments)})
			default:
				// A chat message, or a Responses message item.
				if t := strings.TrimSpace(oaaContent(m.Content)); t != "" {
					texts = append(texts, t)
				} else if t := strings.TrimSpace(oaaContent(m.Refusal)); t != "" {
					texts = append(texts, t)
				}
				for _, tc := range m.ToolCalls {
					calls = append(calls, ToolCallRef{ID: tc.ID, Name: tc.Function.Name, Args: argsJSON(tc.Function.Arguments)})
				}
				if fc := m.FunctionCall; fc != nil && fc.Name != "" {
					calls = append(calls, ToolCallRef{Name: fc.Name, Args: argsJSON(fc.Arguments)})
				}
			}
		}
	}
	walk(items, 0)
	return strings.Join(texts, "\n"), calls, model
}

// oaaContent is text() of a message's content, where Responses API parts are
// {"type": "output_text", "text": ...}; null and missing are "".
func oaaContent(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '[' {
		var parts []struct {
			Text    *string `json:"text"`
			Refusal *string `json:"refusal"`
		}
		if json.Unmarshal(raw, &parts) == nil {
			var out []string
			for _, p := range parts {
				switch {
				case p.Text != nil:
					out = append(out, *p.Text)
				case p.Refusal != nil:
					out = append(out, *p.Refusal)
				}
			}
			return strings.Join(out, "\n")
		}
	}
	return text(raw)
}

// oaaTime reads a timestamp as the SDK writes it (datetime.isoformat() in
// UTC: 2025-03-10T14:02:11.123456+00:00), in unix nanoseconds; "" is 0.
// Without a zone it is UTC.
func oaaTime(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if y := t.Year(); y < 1970 || y > 2261 {
			return 0, fmt.Errorf("%q is out of range", s)
		}
		return t.UnixNano(), nil
	}
	return 0, fmt.Errorf("%q is not an ISO 8601 time", s)
}

// oaaDecodeError says which member had the wrong type, without Go's names.
func oaaDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%q is a JSON %s, not what the SDK writes there", te.Field, te.Value)
	}
	return jsonError(err)
}
