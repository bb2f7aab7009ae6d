package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// LangSmith reads LangSmith runs as users get them out of LangSmith: one
// run per line (client.list_runs dumped with .json() or model_dump), or a
// JSON array of runs; a run read with its child_runs brings them along. A
// LangSmith "run" is a span: the tool, llm and retriever runs are the
// steps, chains and the rest enclose them (docs/adapters/langsmith.md).
var LangSmith = &Format{
	Name:      "langsmith",
	Title:     "LangSmith runs (list_runs dumps: JSON Lines or a JSON array; the bulk export's Parquet), as LangChain and LangGraph trace them",
	Recognize: recognizeLangSmith,
	Spans:     langsmithSpans,
	Tables:    true,
}

const lsWant = `no LangSmith run ("run_type" with "trace_id" or "dotted_order")`

func recognizeLangSmith(d *Doc) error {
	switch {
	case d.IsObject() && lsEnvelope(d.obj) != nil:
		return nil
	case d.IsObject():
		return lsRecognizeRun(d.obj)
	case d.IsArray():
		if len(d.arr) == 0 {
			return errors.New("an empty list")
		}
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) != nil || first == nil {
			return errors.New("a list whose first element is not an object")
		}
		if err := lsRecognizeRun(first); err != nil {
			return errors.New("a list whose first element has " + err.Error())
		}
		return nil
	}
	return errors.New("not a JSON object or array")
}

// lsEnvelope returns the runs of an object that carries them in a "runs"
// list: an automation rule's webhook payload ({"rule_id", "start_time",
// "end_time", "runs"}), a page of client.list_runs saved by its user. Nil
// when obj is no such object.
func lsEnvelope(obj map[string]json.RawMessage) []json.RawMessage {
	raw, ok := obj["runs"]
	if !ok || obj["run_type"] != nil {
		return nil
	}
	var runs []json.RawMessage
	if json.Unmarshal(raw, &runs) != nil || len(runs) == 0 {
		return nil
	}
	var first map[string]json.RawMessage
	if json.Unmarshal(runs[0], &first) != nil || lsRecognizeRun(first) != nil {
		return nil
	}
	return runs
}

func lsRecognizeRun(obj map[string]json.RawMessage) error {
	var runType string
	if json.Unmarshal(obj["run_type"], &runType) != nil || runType == "" {
		return errors.New(lsWant)
	}
	if _, ok := obj["trace_id"]; ok {
		return nil
	}
	if _, ok := obj["dotted_order"]; ok {
		return nil
	}
	return errors.New(lsWant)
}

// lsRun is the part of a LangSmith run this adapter reads. Fields whose
// type varies between the API, the SDKs and dumps (times, numbers that
// pydantic writes as strings, values that may be null) are kept raw.
type lsRun struct {
	ID          string            `json:"id"`
	TraceID     string            `json:"trace_id"`
	ParentRunID string            `json:"parent_run_id"`
	DottedOrder string            `json:"dotted_order"`
	RunType     string            `json:"run_type"`
	Name        string            `json:"name"`
	StartTime   json.RawMessage   `json:"start_time"`
	EndTime     json.RawMessage   `json:"end_time"`
	Inputs      json.RawMessage   `json:"inputs"`
	Outputs     json.RawMessage   `json:"outputs"`
	Error       json.RawMessage   `json:"error"`
	Status      string            `json:"status"`
	Extra       json.RawMessage   `json:"extra"`
	Prompt      json.RawMessage   `json:"prompt_tokens"`
	Completion  json.RawMessage   `json:"completion_tokens"`
	TotalCost   json.RawMessage   `json:"total_cost"`
	PromptCost  json.RawMessage   `json:"prompt_cost"`
	ComplCost   json.RawMessage   `json:"completion_cost"`
	ChildRuns   []json.RawMessage `json:"child_runs"`
}

// lsRunFromRow reads a run from a row of the bulk export, whose columns
// are the run's fields. The export writes inputs, outputs, extra and the
// other objects as JSON text: each is read as the JSON it holds.
func lsRunFromRow(m map[string]json.RawMessage) (*lsRun, error) {
	r := &lsRun{
		StartTime: m["start_time"], EndTime: m["end_time"],
		Inputs: lsJSONText(m["inputs"]), Outputs: lsJSONText(m["outputs"]),
		Error: m["error"], Extra: lsJSONText(m["extra"]),
		Prompt: m["prompt_tokens"], Completion: m["completion_tokens"],
		TotalCost: m["total_cost"], PromptCost: m["prompt_cost"], ComplCost: m["completion_cost"],
	}
	for key, dst := range map[string]*string{
		"id": &r.ID, "trace_id": &r.TraceID, "parent_run_id": &r.ParentRunID,
		"dotted_order": &r.DottedOrder, "run_type": &r.RunType, "name": &r.Name, "status": &r.Status,
	} {
		if raw := m[key]; len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, fmt.Errorf("%q: not a string", key)
			}
		}
	}
	return r, nil
}

// lsJSONText is a value that may be JSON written as text: the JSON it
// holds when it is a string holding an object or a list, else as it is.
func lsJSONText(raw json.RawMessage) json.RawMessage {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return raw
	}
	if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return raw
}

type lsExtra struct {
	Metadata         map[string]json.RawMessage `json:"metadata"`
	InvocationParams map[string]json.RawMessage `json:"invocation_params"`
}

// langsmithSpans decodes every run of d (and the child runs they carry)
// before handing any on: a malformed run rejects the document whole.
func langsmithSpans(d *Doc, add func(*Span) error) error {
	var spans []*Span
	var walk func(raw json.RawMessage, where string, depth int) error
	walk = func(raw json.RawMessage, where string, depth int) error {
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return fmt.Errorf("%s: not an object", where)
		}
		var r lsRun
		if err := unmarshalFast(raw, &r); err != nil {
			return fmt.Errorf("%s: %v", where, jsonError(err))
		}
		sp, err := spanFromLangSmith(&r)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		spans = append(spans, sp)
		if depth >= 64 {
			return fmt.Errorf("%s: child runs nested more than 64 deep", where)
		}
		for i, c := range r.ChildRuns {
			if err := walk(c, fmt.Sprintf("%s child %d", where, i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if runs := d.arr; d.IsArray() || d.IsObject() && lsEnvelope(d.obj) != nil {
		if !d.IsArray() {
			runs = lsEnvelope(d.obj)
		}
		for i, el := range runs {
			if err := walk(el, fmt.Sprintf("run %d", i), 0); err != nil {
				return err
			}
		}
	} else if d.Raw == nil { // a row of a table (the bulk export)
		r, err := lsRunFromRow(d.obj)
		if err != nil {
			return err
		}
		sp, err := spanFromLangSmith(r)
		if err != nil {
			return err
		}
		spans = append(spans, sp)
	} else if err := walk(d.Raw, "run", 0); err != nil {
		return err
	}
	for _, sp := range spans {
		if err := add(sp); err != nil {
			return err
		}
	}
	return nil
}

func spanFromLangSmith(r *lsRun) (*Span, error) {
	if strings.TrimSpace(r.ID) == "" {
		return nil, errors.New(`no "id"`)
	}
	if r.RunType == "" {
		return nil, errors.New(`no "run_type"`)
	}
	var extra lsExtra
	if len(r.Extra) > 0 && string(r.Extra) != "null" {
		if err := json.Unmarshal(r.Extra, &extra); err != nil {
			return nil, fmt.Errorf(`"extra": %v`, jsonError(err))
		}
	}
	start, err := lsTime(r.StartTime)
	if err != nil {
		return nil, fmt.Errorf(`"start_time": %v`, err)
	}
	end, err := lsTime(r.EndTime)
	if err != nil {
		return nil, fmt.Errorf(`"end_time": %v`, err)
	}
	if start == 0 {
		start = dottedStart(r.DottedOrder)
	}
	sp := &Span{
		SpanID:   strings.ToLower(r.ID),
		ParentID: strings.ToLower(r.ParentRunID),
		TraceID:  strings.ToLower(r.TraceID),
		Start:    start,
		End:      end,
		Name:     r.Name,
		// LangSmith's own session_id is the tracing project: the
		// conversation is in the metadata LangGraph and LangChain write.
		Session: mapText(extra.Metadata, "thread_id", "session_id", "conversation_id"),
	}
	if sp.TraceID == "" {
		sp.TraceID = dottedRoot(r.DottedOrder)
	}
	if sp.TraceID == "" && sp.ParentID == "" {
		sp.TraceID = sp.SpanID // a root run is its trace
	}
	if e := strings.TrimSpace(lsErrorText(r.Error)); e != "" {
		sp.Failed, sp.ErrorText, sp.ErrorType = true, e, exceptionClass(e)
	} else if strings.EqualFold(r.Status, "error") {
		sp.Failed = true
	}
	switch strings.ToLower(r.RunType) {
	case "tool":
		sp.Kind = SpanTool
		sp.Tool = r.Name
		sp.Args = lsToolArgs(r.Inputs)
		lsToolOutput(sp, r.Outputs)
	case "retriever":
		sp.Kind = SpanRetriever
		sp.Tool = r.Name
		sp.Args = lsObject(r.Inputs)
		lsRetrieverOutput(sp, r.Outputs)
	case "llm":
		sp.Kind = SpanLLM
		sp.Model = cmp.Or(mapText(extra.InvocationParams, "model", "model_name"), mapText(extra.Metadata, "ls_model_name"))
		usage := lsModelOutput(sp, r.Outputs)
		sp.PromptTokens, _ = lsInt(r.Prompt)
		sp.CompletionTokens, _ = lsInt(r.Completion)
		if sp.PromptTokens == 0 && sp.CompletionTokens == 0 {
			// Not counted by LangSmith (a run logged by hand, a dump of
			// the tracer's own runs): what the model reported.
			sp.PromptTokens, sp.CompletionTokens = usage.prompt(), usage.completion()
		}
		if c, ok := lsFloat(r.TotalCost); ok {
			sp.CostUSD = c
		} else {
			p, _ := lsFloat(r.PromptCost)
			c, _ := lsFloat(r.ComplCost)
			sp.CostUSD = p + c
		}
	}
	return sp, nil
}

// lsTime reads a run's time: ISO 8601, with or without a zone (LangSmith
// writes UTC without one), "T" or a space between date and time; or a
// number, as the JS SDK writes it (epoch milliseconds; seconds, micro- and
// nanoseconds are told apart by size). Unix nanoseconds, 0 when absent.
func lsTime(raw json.RawMessage) (int64, error) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return 0, nil
	}
	if t[0] != '"' {
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || !(f >= 0 && f < 9e18) {
			return 0, fmt.Errorf("not a time: %s", clip(t, 40))
		}
		switch {
		case f >= 1e17: // nanoseconds
			return int64(f), nil
		case f >= 1e14: // microseconds
			return int64(f * 1e3), nil
		case f >= 1e11: // milliseconds
			return int64(f * 1e6), nil
		}
		return int64(f * 1e9), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, err
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05"} {
		if tm, err := time.Parse(layout, s); err == nil {
			return tm.UnixNano(), nil
		}
	}
	return 0, fmt.Errorf("not an ISO 8601 time: %q", clip(s, 40))
}

// dottedStart is the start time in the last part of a dotted order
// (20250311T091402118204Z<run id>), 0 when it has none.
func dottedStart(dotted string) int64 {
	last := dotted[strings.LastIndexByte(dotted, '.')+1:]
	z := strings.IndexByte(last, 'Z')
	if z < len("20060102T150405") {
		return 0
	}
	tm, err := time.Parse("20060102T150405", last[:15])
	if err != nil {
		return 0
	}
	frac := last[15:z]
	if frac != "" {
		n, err := strconv.ParseInt(frac, 10, 64)
		if err != nil || len(frac) > 9 {
			return 0
		}
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		tm = tm.Add(time.Duration(n))
	}
	return tm.UnixNano()
}

// dottedRoot is the root run's id in a dotted order: its first part after
// the time.
func dottedRoot(dotted string) string {
	first, _, _ := strings.Cut(dotted, ".")
	if z := strings.IndexByte(first, 'Z'); z >= 0 {
		return strings.ToLower(first[z+1:])
	}
	return ""
}

// lsErrorText is a run's error: a string, as LangChain and the SDKs write
// it; anything else as its JSON.
func lsErrorText(raw json.RawMessage) string {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return t
}

// exceptionClass is the exception class at the start of an error as
// LangChain records it, the exception's repr followed by its traceback:
// TimeoutError('...') gives TimeoutError, httpx.ReadTimeout: ... gives
// ReadTimeout. LangGraph's "Error: X(...)" (a tool error handed back to the
// model) gives X. "" when the text does not start with a class name.
func exceptionClass(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "Error: "); ok {
		if c := exceptionClass(rest); c != "" {
			return c
		}
	}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !(r == '_' || r == '.' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			break
		}
		i += size
	}
	name := strings.Trim(s[:i], ".")
	if name == "" || i >= len(s) || (s[i] != '(' && s[i] != ':') {
		return ""
	}
	if j := strings.LastIndexByte(name, '.'); j >= 0 {
		name = name[j+1:]
	}
	return name
}

// mapText is the first of the keys of m that holds a non-blank string or a
// number, as text.
func mapText(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s = strings.TrimSpace(s); s != "" {
				return s
			}
			continue
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
	}
	return ""
}

// lsInt reads a count written as a number or a string; false when absent.
func lsInt(raw json.RawMessage) (int64, bool) {
	f, ok := lsFloat(raw)
	if !ok || f < 0 || f > 1e15 {
		return 0, false
	}
	return int64(f), true
}

// lsFloat reads a number LangSmith may write as a string (a Decimal cost).
func lsFloat(raw json.RawMessage) (float64, bool) {
	t := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if t == "" || t == "null" {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1e15 {
		return 0, false
	}
	return f, true
}

// lsObject is a JSON value as it is; nil when absent or null.
func lsObject(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	return t
}

// lsToolArgs are a tool run's inputs. LangChain's tracer logs
// {"input": "<what the tool got, as str()>"}: a tool called with keyword
// arguments shows them as a Python dict's repr, which is read back into
// the JSON object it was ({'city': 'Oslo'} becomes {"city": "Oslo"}), and
// a string that holds JSON is that JSON. Other inputs (the kwargs of a
// @traceable tool) are kept as they are.
func lsToolArgs(raw json.RawMessage) json.RawMessage {
	in := lsObject(raw)
	if in == nil || in[0] != '{' {
		return in
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil || len(m) != 1 {
		return in
	}
	var s string
	if v, ok := m["input"]; !ok || json.Unmarshal(v, &s) != nil {
		return in
	}
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return in
	}
	if json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	if js, ok := pyLiteralJSON(t); ok {
		return js
	}
	return in
}

// lsMessage is a LangChain message as runs log it: dumped by LangChain
// ({"lc": 1, "type": "constructor", "kwargs": {...}}) or by pydantic (the
// fields themselves).
type lsMessage struct {
	Kwargs           *lsMessage      `json:"kwargs"`
	Content          json.RawMessage `json:"content"`
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	Status           string          `json:"status"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
	AdditionalKwargs struct {
		ToolCalls json.RawMessage `json:"tool_calls"`
	} `json:"additional_kwargs"`
	ResponseMetadata struct {
		ModelName string `json:"model_name"`
	} `json:"response_metadata"`
	UsageMetadata *lsUsage `json:"usage_metadata"`
}

// fields is the message itself, out of LangChain's constructor dump.
func (m *lsMessage) fields() *lsMessage {
	if m.Kwargs != nil {
		return m.Kwargs
	}
	return m
}

// lsToolOutput reads a tool run's outputs: "output" when present (a
// string as it is; a ToolMessage's content, its call id, and its status,
// "error" when the tool handed an error back; anything else as JSON),
// else the outputs' JSON.
func lsToolOutput(sp *Span, raw json.RawMessage) {
	outs := lsObject(raw)
	if outs == nil {
		return
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(outs, &m) != nil {
		s := text(outs)
		sp.Output = &s
		return
	}
	out, ok := m["output"]
	if !ok {
		s := string(outs)
		sp.Output = &s
		return
	}
	out = bytes.TrimSpace(out)
	s := text(out)
	if len(out) > 0 && out[0] == '{' {
		var msg lsMessage
		if json.Unmarshal(out, &msg) == nil {
			f := msg.fields()
			if f.Type == "tool" || f.ToolCallID != "" || (msg.Kwargs != nil && len(f.Content) > 0) {
				s = text(f.Content)
				sp.CallID = f.ToolCallID
				if strings.EqualFold(f.Status, "error") && !sp.Failed {
					sp.Failed, sp.ErrorText, sp.ErrorType = true, s, exceptionClass(s)
				}
			}
		}
	}
	sp.Output = &s
}

// lsRetrieverOutput reads a retriever's documents: their page_content,
// one after another; none found is an empty result.
func lsRetrieverOutput(sp *Span, raw json.RawMessage) {
	outs := lsObject(raw)
	if outs == nil {
		return
	}
	var m struct {
		Documents *[]json.RawMessage `json:"documents"`
	}
	if json.Unmarshal(outs, &m) != nil || m.Documents == nil {
		s := text(outs)
		sp.Output = &s
		sp.Empty = !sp.Failed && emptyOutput(s)
		return
	}
	var parts []string
	for _, raw := range *m.Documents {
		var doc struct {
			PageContent *string `json:"page_content"`
			Kwargs      *struct {
				PageContent *string `json:"page_content"`
			} `json:"kwargs"`
		}
		switch {
		case json.Unmarshal(raw, &doc) != nil:
			parts = append(parts, text(raw))
		case doc.PageContent != nil:
			parts = append(parts, *doc.PageContent)
		case doc.Kwargs != nil && doc.Kwargs.PageContent != nil:
			parts = append(parts, *doc.Kwargs.PageContent)
		default:
			parts = append(parts, string(raw))
		}
	}
	s := strings.Join(parts, "\n\n")
	sp.Output = &s
	sp.Empty = len(*m.Documents) == 0 && !sp.Failed
}

// lsUsage is token usage as a model reports it: LangChain's
// usage_metadata (input_tokens, output_tokens) or OpenAI's usage
// (prompt_tokens, completion_tokens).
type lsUsage struct {
	Input      json.RawMessage `json:"input_tokens"`
	Output     json.RawMessage `json:"output_tokens"`
	Prompt     json.RawMessage `json:"prompt_tokens"`
	Completion json.RawMessage `json:"completion_tokens"`
}

func (u *lsUsage) prompt() int64 {
	if u == nil {
		return 0
	}
	n, ok := lsInt(u.Input)
	if !ok {
		n, _ = lsInt(u.Prompt)
	}
	return n
}

func (u *lsUsage) completion() int64 {
	if u == nil {
		return 0
	}
	n, ok := lsInt(u.Output)
	if !ok {
		n, _ = lsInt(u.Completion)
	}
	return n
}

// lsModelOutput reads what a model said and the calls it asked for: from
// LangChain's LLMResult (generations[0][0].message, else its text), from
// an OpenAI-style response (choices[0].message), or from a message logged
// as the output (message, the last of messages, the outputs themselves).
// The model that answered names the span when the run's parameters did
// not. It returns the usage the model reported, nil when none.
func lsModelOutput(sp *Span, raw json.RawMessage) *lsUsage {
	outs := lsObject(raw)
	if outs == nil || outs[0] != '{' {
		return nil
	}
	var o struct {
		Generations [][]struct {
			Text    *string    `json:"text"`
			Message *lsMessage `json:"message"`
		} `json:"generations"`
		LLMOutput struct {
			ModelName  string   `json:"model_name"`
			TokenUsage *lsUsage `json:"token_usage"`
		} `json:"llm_output"`
		Choices []struct {
			Message *lsMessage `json:"message"`
		} `json:"choices"`
		Model         string       `json:"model"`
		Message       *lsMessage   `json:"message"`
		Messages      []*lsMessage `json:"messages"`
		Usage         *lsUsage     `json:"usage"`
		UsageMetadata *lsUsage     `json:"usage_metadata"`
	}
	if json.Unmarshal(outs, &o) != nil {
		return nil
	}
	usage := cmp.Or(o.LLMOutput.TokenUsage, o.Usage, o.UsageMetadata)
	var msg *lsMessage
	switch {
	case len(o.Generations) > 0 && len(o.Generations[0]) > 0:
		g := o.Generations[0][0]
		msg = g.Message
		if msg == nil && g.Text != nil {
			sp.Text = *g.Text
		}
	case len(o.Choices) > 0:
		msg = o.Choices[0].Message
	case o.Message != nil:
		msg = o.Message
	case len(o.Messages) > 0:
		msg = o.Messages[len(o.Messages)-1]
	default:
		var self lsMessage
		if json.Unmarshal(outs, &self) == nil && (self.Role == "assistant" || self.Type == "ai" || self.Kwargs != nil) {
			msg = &self
		}
	}
	if msg != nil {
		f := msg.fields()
		sp.Text = text(f.Content)
		sp.ToolCalls = lsToolCalls(f.ToolCalls)
		if len(sp.ToolCalls) == 0 {
			sp.ToolCalls = lsToolCalls(f.AdditionalKwargs.ToolCalls)
		}
		if sp.Model == "" {
			sp.Model = f.ResponseMetadata.ModelName
		}
		usage = cmp.Or(f.UsageMetadata, usage)
	}
	if sp.Model == "" {
		sp.Model = cmp.Or(o.LLMOutput.ModelName, o.Model)
	}
	return usage
}

// lsToolCalls reads tool calls in LangChain's shape ({id, name, args}) or
// OpenAI's ({id, function: {name, arguments}}, arguments a JSON string).
func lsToolCalls(raw json.RawMessage) []ToolCallRef {
	var calls []struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Args     json.RawMessage `json:"args"`
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &calls) != nil {
		return nil
	}
	var out []ToolCallRef
	for _, c := range calls {
		ref := ToolCallRef{ID: c.ID, Name: c.Name, Args: lsObject(c.Args)}
		if c.Function != nil {
			ref.Name = cmp.Or(ref.Name, c.Function.Name)
			if ref.Args == nil {
				ref.Args = argsJSON(lsObject(c.Function.Arguments))
			}
		}
		if ref.Name == "" && ref.ID == "" {
			continue
		}
		out = append(out, ref)
	}
	return out
}
