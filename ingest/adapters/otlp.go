package adapters

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// OTLP reads OpenTelemetry traces as the Collector's file exporter writes
// them: one TracesData object per line (resourceSpans / scopeSpans /
// spans), attributes as key-value lists, ids in hex, 64-bit integers as
// strings. The spans' attributes are read in the dialects agent tracing
// uses: the GenAI semantic conventions (current and deprecated names),
// OpenInference and Traceloop/OpenLLMetry (docs/adapters/otlp.md).
var OTLP = &Format{
	Name:      "otlp",
	Title:     "OpenTelemetry traces in OTLP/JSON (GenAI semantic conventions, OpenInference, OpenLLMetry)",
	Recognize: recognizeOTLP,
	Spans:     otlpSpans,
}

func recognizeOTLP(d *Doc) error {
	if d.IsObject() && (isJaegerExport(d.obj) || isSDKSpan(d.obj)) {
		return nil
	}
	if d.IsArray() && len(d.arr) > 0 {
		var first map[string]json.RawMessage
		if json.Unmarshal(d.arr[0], &first) == nil && isSDKSpan(first) {
			return nil
		}
	}
	raw, ok := d.obj["resourceSpans"]
	if !ok {
		return errors.New(`no "resourceSpans" list (nor a Jaeger export's "data" of traces, nor the OpenTelemetry SDK's spans with "context": {"trace_id", "span_id"})`)
	}
	if t := strings.TrimSpace(string(raw)); t == "" || t[0] != '[' {
		return errors.New(`"resourceSpans" is not a list`)
	}
	return nil
}

type otlpTraces struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []otlpKV `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
		// Older exporters wrote the scope level under this name.
		InstrumentationLibrarySpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"instrumentationLibrarySpans"`
	} `json:"resourceSpans"`
}

type otlpSpan struct {
	TraceID      string      `json:"traceId"`
	SpanID       string      `json:"spanId"`
	ParentSpanID string      `json:"parentSpanId"`
	Name         string      `json:"name"`
	Start        otlpInt     `json:"startTimeUnixNano"`
	End          otlpInt     `json:"endTimeUnixNano"`
	Attributes   []otlpKV    `json:"attributes"`
	Events       []otlpEvent `json:"events"`
	Status       otlpStatus  `json:"status"`
}

type otlpEvent struct {
	Name       string   `json:"name"`
	Attributes []otlpKV `json:"attributes"`
}

type otlpStatus struct {
	Code    json.RawMessage `json:"code"` // 2 or "STATUS_CODE_ERROR"
	Message string          `json:"message"`
}

func (s otlpStatus) isError() bool {
	c := strings.Trim(string(s.Code), `"`)
	return c == "2" || c == "STATUS_CODE_ERROR" || c == "ERROR"
}

type otlpKV struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

// otlpValue is an AnyValue: one of its members is set.
type otlpValue struct {
	String *string         `json:"stringValue"`
	Bool   *bool           `json:"boolValue"`
	Int    *otlpInt        `json:"intValue"`
	Double *float64        `json:"doubleValue"`
	Array  *otlpArray      `json:"arrayValue"`
	KVList *otlpKVList     `json:"kvlistValue"`
	Bytes  json.RawMessage `json:"bytesValue"`
}

type otlpArray struct {
	Values []otlpValue `json:"values"`
}

type otlpKVList struct {
	Values []otlpKV `json:"values"`
}

// otlpInt is a 64-bit integer, which OTLP/JSON writes as a string (and some
// writers as a number).
type otlpInt int64

func (n *otlpInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return err
		}
		v = int64(f)
	}
	*n = otlpInt(v)
	return nil
}

// text renders a value as the string a person would read: strings as they
// are, numbers and booleans in JSON, lists and maps as JSON.
func (v *otlpValue) text() string {
	switch {
	case v.String != nil:
		return *v.String
	case v.Bool != nil:
		return strconv.FormatBool(*v.Bool)
	case v.Int != nil:
		return strconv.FormatInt(int64(*v.Int), 10)
	case v.Double != nil:
		return strconv.FormatFloat(*v.Double, 'g', -1, 64)
	case v.Array != nil || v.KVList != nil:
		b, _ := json.Marshal(v.plain())
		return string(b)
	}
	return ""
}

// plain is the value as plain JSON-able Go data.
func (v *otlpValue) plain() any {
	switch {
	case v.String != nil:
		return *v.String
	case v.Bool != nil:
		return *v.Bool
	case v.Int != nil:
		return int64(*v.Int)
	case v.Double != nil:
		return *v.Double
	case v.Array != nil:
		out := make([]any, len(v.Array.Values))
		for i := range v.Array.Values {
			out[i] = v.Array.Values[i].plain()
		}
		return out
	case v.KVList != nil:
		out := make(map[string]any, len(v.KVList.Values))
		for i := range v.KVList.Values {
			out[v.KVList.Values[i].Key] = v.KVList.Values[i].Value.plain()
		}
		return out
	}
	return nil
}

func (v *otlpValue) int() (int64, bool) {
	switch {
	case v.Int != nil:
		return int64(*v.Int), true
	case v.Double != nil:
		return int64(*v.Double), true
	case v.String != nil:
		n, err := strconv.ParseInt(strings.TrimSpace(*v.String), 10, 64)
		return n, err == nil
	}
	return 0, false
}

func (v *otlpValue) float() (float64, bool) {
	switch {
	case v.Double != nil:
		return *v.Double, true
	case v.Int != nil:
		return float64(*v.Int), true
	case v.String != nil:
		f, err := strconv.ParseFloat(strings.TrimSpace(*v.String), 64)
		return f, err == nil
	}
	return 0, false
}

// attrs is a span's attributes by key.
type attrs map[string]*otlpValue

func attrMap(kvs ...[]otlpKV) attrs {
	m := attrs{}
	for _, list := range kvs {
		for i := range list {
			m[list[i].Key] = &list[i].Value
		}
	}
	return m
}

// str is the first of the keys present, as text.
func (a attrs) str(keys ...string) string {
	for _, k := range keys {
		if v, ok := a[k]; ok {
			if t := v.text(); t != "" {
				return t
			}
		}
	}
	return ""
}

func (a attrs) has(keys ...string) bool {
	for _, k := range keys {
		if _, ok := a[k]; ok {
			return true
		}
	}
	return false
}

func (a attrs) int(keys ...string) int64 {
	for _, k := range keys {
		if v, ok := a[k]; ok {
			if n, ok := v.int(); ok {
				return n
			}
		}
	}
	return 0
}

func (a attrs) float(keys ...string) float64 {
	for _, k := range keys {
		if v, ok := a[k]; ok {
			if f, ok := v.float(); ok {
				return f
			}
		}
	}
	return 0
}

// json is the first of the keys present as JSON: a string that holds JSON
// as that JSON, any other string as a JSON string, structured values as
// they are.
func (a attrs) json(keys ...string) json.RawMessage {
	for _, k := range keys {
		v, ok := a[k]
		if !ok {
			continue
		}
		if v.String != nil {
			t := strings.TrimSpace(*v.String)
			if t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
				return json.RawMessage(t)
			}
			return jsonString(*v.String)
		}
		b, err := json.Marshal(v.plain())
		if err == nil && string(b) != "null" {
			return b
		}
	}
	return nil
}

func otlpSpans(d *Doc, add func(*Span) error) error {
	switch {
	case d.IsObject() && isJaegerExport(d.obj):
		return jaegerSpans(d, add)
	case d.IsObject() && isSDKSpan(d.obj):
		return sdkSpans([]json.RawMessage{d.Raw}, add)
	case d.IsArray():
		return sdkSpans(d.arr, add)
	}
	// A trace export is mostly attribute lists: goccy/go-json decodes them
	// in one pass, where encoding/json validates the whole document first
	// (docs/performance.md, "Measurements behind specific choices").
	var td otlpTraces
	if err := unmarshalFast(d.Raw, &td); err != nil {
		return jsonError(err)
	}
	for _, rs := range td.ResourceSpans {
		scopes := rs.ScopeSpans
		for _, ils := range rs.InstrumentationLibrarySpans {
			scopes = append(scopes, ils)
		}
		for _, ss := range scopes {
			for i := range ss.Spans {
				sp := spanFromOTLP(&ss.Spans[i], rs.Resource.Attributes)
				if err := add(sp); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// spanFromOTLP reads one span's attributes in the three dialects.
func spanFromOTLP(o *otlpSpan, resource []otlpKV) *Span {
	a := attrMap(resource, o.Attributes)
	sp := &Span{
		TraceID:  strings.ToLower(o.TraceID),
		SpanID:   strings.ToLower(o.SpanID),
		ParentID: strings.ToLower(o.ParentSpanID),
		Start:    int64(o.Start),
		End:      int64(o.End),
		Name:     o.Name,
		Session: a.str("gen_ai.conversation.id", "session.id", "traceloop.association.properties.session_id",
			"langfuse.session.id", "conversation.id", "thread.id"),
	}
	op := strings.ToLower(a.str("gen_ai.operation.name"))
	oi := strings.ToUpper(a.str("openinference.span.kind"))
	tl := strings.ToLower(a.str("traceloop.span.kind"))
	// Prompt flow's own convention (promptflow-tracing): every span says
	// framework = promptflow and its span_type (LLM, Function, LangChain,
	// Flow, Embedding, Retrieval); its session is session_id.
	pf := ""
	if a.str("framework") == "promptflow" {
		pf = a.str("span_type")
		if sp.Session == "" {
			sp.Session = a.str("session_id")
		}
	}
	switch {
	case op == "execute_tool" || oi == "TOOL" || tl == "tool",
		// A tool's span named otherwise (pydantic-ai's "running tool: X",
		// Koog's "tool.X") still names its tool; the Vercel AI SDK's
		// ai.toolCall spans have keys of their own.
		op == "" && oi == "" && tl == "" && a.has("gen_ai.tool.name"),
		a.str("operation.name") == "ai.toolCall" || a.has("ai.toolCall.name"):
		sp.Kind = SpanTool
	case oi == "RETRIEVER" || op == "retrieve" || op == "search_memory" || op == "retrieval" || pf == "Retrieval":
		sp.Kind = SpanRetriever
	case op == "chat" || op == "text_completion" || op == "generate_content" || oi == "LLM" || pf == "LLM" ||
		a.has("llm.request.type") || (op == "" && oi == "" && tl == "" && a.has("gen_ai.request.model", "gen_ai.response.model")):
		sp.Kind = SpanLLM
	}
	byMLflow := sp.Kind == SpanOther && a.has("mlflow.spanType")
	if byMLflow {
		// MLflow's own keys, sent over OTLP: each value a JSON document
		// in a string (mlflow.go).
		ml := func(k string) json.RawMessage {
			if !a.has(k) {
				return nil
			}
			return mlflowValue(jsonString(a.str(k)))
		}
		mlflowApply(sp, mlflowString(ml("mlflow.spanType")), ml("mlflow.spanInputs"), ml("mlflow.spanOutputs"), ml("mlflow.chat.tokenUsage"))
	}
	sp.Failed = o.Status.isError() || a.has("error.type")
	sp.ErrorType = a.str("error.type")
	sp.ErrorText = o.Status.Message
	for i := range o.Events {
		if ev := &o.Events[i]; ev.Name == "exception" {
			ea := attrMap(ev.Attributes)
			sp.Failed = true
			if sp.ErrorType == "" {
				sp.ErrorType = ea.str("exception.type")
			}
			if sp.ErrorText == "" {
				sp.ErrorText = ea.str("exception.message")
			}
		}
	}
	switch {
	case byMLflow:
		// Read from MLflow's keys above.
	case sp.Kind == SpanTool || sp.Kind == SpanRetriever:
		sp.Tool = a.str("gen_ai.tool.name", "tool.name", "traceloop.entity.name", "ai.toolCall.name")
		if sp.Tool == "" {
			sp.Tool = strings.TrimSpace(strings.TrimPrefix(o.Name, "execute_tool"))
		}
		sp.CallID = a.str("gen_ai.tool.call.id", "tool_call.id", "tool.call_id", "ai.toolCall.id")
		sp.Args = a.json("gen_ai.tool.call.arguments", "input.value", "traceloop.entity.input", "tool_arguments", "ai.toolCall.args")
		outKeys := []string{"gen_ai.tool.call.result", "output.value", "traceloop.entity.output", "tool_response", "ai.toolCall.result"}
		if out := a.str(outKeys...); out != "" || a.has(outKeys...) {
			sp.Output = &out
		}
		otlpLangChainTool(sp)
		if pf != "" {
			promptflowLookup(sp, a, o)
		}
		if sp.Kind == SpanRetriever {
			docs := retrievedDocuments(a)
			if sp.Output == nil && docs != "" {
				sp.Output = &docs
			}
			sp.Empty = docs == "" && !sp.Failed && (sp.Output == nil || emptyOutput(*sp.Output))
		}
	case sp.Kind == SpanLLM:
		sp.Model = a.str("gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "gen_ai.request.model_name", "llm.response.model")
		sp.PromptTokens = a.int("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "llm.usage.prompt_tokens")
		sp.CompletionTokens = a.int("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion", "llm.usage.completion_tokens")
		sp.CostUSD = a.float("gen_ai.usage.cost", "llm.cost.total", "gen_ai.usage.cost_usd")
		sp.Text, sp.ToolCalls = llmOutput(a)
		if pf != "" && sp.Text == "" && len(sp.ToolCalls) == 0 {
			sp.Text, sp.ToolCalls = promptflowMessage(pfPayload(a, o, "llm.generated_message", "promptflow.llm.generated_message"))
		}
	}
	return sp
}

// pfPayload is a Prompt flow value kept as an attribute (key) or, as its
// specification has it, as the payload of an event (event): a JSON string.
func pfPayload(a attrs, o *otlpSpan, key, event string) json.RawMessage {
	if a.has(key) {
		return a.json(key)
	}
	for i := range o.Events {
		if o.Events[i].Name == event {
			// The payload is JSON in a string, a query a JSON string too.
			p := attrMap(o.Events[i].Attributes).str("payload")
			if t := strings.TrimSpace(p); json.Valid([]byte(t)) {
				return json.RawMessage(t)
			}
			return jsonString(p)
		}
	}
	return nil
}

// promptflowMessage reads the message a Prompt flow LLM span generated,
// OpenAI's chat message: {"content", "role", "tool_calls": [{"id",
// "function": {"name", "arguments"}}]}.
func promptflowMessage(raw json.RawMessage) (string, []ToolCallRef) {
	var m struct {
		Content   json.RawMessage `json:"content"`
		ToolCalls []chatToolCall  `json:"tool_calls"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return "", nil
	}
	var calls []ToolCallRef
	for _, tc := range m.ToolCalls {
		calls = append(calls, ToolCallRef{ID: tc.ID, Name: tc.Function.Name, Args: argsJSON(tc.Function.Arguments)})
	}
	return text(m.Content), calls
}

// promptflowLookup reads a Prompt flow Retrieval span: its name is the
// traced function's, its query the promptflow.retrieval.query event (else
// the function's inputs), what it found the promptflow.retrieval.documents
// event's contents (else the function's output).
func promptflowLookup(sp *Span, a attrs, o *otlpSpan) {
	if f := a.str("function"); f != "" && sp.Tool == o.Name {
		sp.Tool = f
	}
	if len(sp.Args) == 0 {
		if q := pfPayload(a, o, "", "promptflow.retrieval.query"); len(q) > 0 {
			sp.Args = q
		} else if in := a.json("inputs"); len(in) > 0 {
			sp.Args = in
		}
	}
	if sp.Output != nil {
		return
	}
	var docs []map[string]json.RawMessage
	if raw := pfPayload(a, o, "", "promptflow.retrieval.documents"); len(raw) > 0 && json.Unmarshal(raw, &docs) == nil {
		var parts []string
		for _, d := range docs {
			if c := text(d["document.content"]); c != "" {
				parts = append(parts, c)
			}
		}
		out := strings.Join(parts, "\n")
		sp.Output = &out
		return
	}
	if a.has("output") {
		out := a.str("output")
		sp.Output = &out
	}
}

// otlpLangChainTool reads a tool span whose arguments and result are
// LangChain's callback payloads (OpenLLMetry on LangChain and LangGraph):
// the arguments {"input_str", "tags", "metadata", "inputs", "kwargs"} are
// the call's "inputs" (else its input_str), not the payload, whose
// metadata holds a new checkpoint id at every call, so that a call made
// again reads as the same call; the result {"output": ToolMessage} is the
// message's content, where the tool said whether it failed.
func otlpLangChainTool(sp *Span) {
	var in struct {
		InputStr *string        `json:"input_str"`
		Inputs   map[string]any `json:"inputs"`
		Metadata map[string]any `json:"metadata"`
		Kwargs   struct {
			ToolCallID string `json:"tool_call_id"`
		} `json:"kwargs"`
	}
	if len(sp.Args) > 0 && sp.Args[0] == '{' && json.Unmarshal(sp.Args, &in) == nil && in.InputStr != nil && in.Metadata != nil {
		switch {
		case len(in.Inputs) > 0:
			sp.Args = lfMarshal(in.Inputs)
		default:
			if js, ok := pyLiteralJSON(*in.InputStr); ok && len(js) > 0 && js[0] == '{' {
				sp.Args = js
			} else {
				sp.Args = jsonString(*in.InputStr)
			}
		}
		if sp.CallID == "" {
			sp.CallID = in.Kwargs.ToolCallID
		}
	}
	if sp.Output == nil {
		return
	}
	var out map[string]any
	if t := strings.TrimSpace(*sp.Output); !strings.HasPrefix(t, "{") || json.Unmarshal([]byte(t), &out) != nil {
		return
	}
	msg, ok := out["output"].(map[string]any)
	if !ok || len(out) > 3 {
		return
	}
	if text, callID := lfToolOutput(msg); callID != "" || lfUnwrapLC(msg)["type"] == "tool" {
		sp.Output = &text
		if sp.CallID == "" {
			sp.CallID = callID
		}
	}
}

// retrievedDocuments joins the contents of OpenInference's
// retrieval.documents.N.document.content attributes, in order.
func retrievedDocuments(a attrs) string {
	var parts []string
	for i := 0; ; i++ {
		k := "retrieval.documents." + strconv.Itoa(i) + ".document.content"
		v, ok := a[k]
		if !ok {
			break
		}
		parts = append(parts, v.text())
	}
	return strings.Join(parts, "\n")
}

// emptyOutput: an output that says nothing came back ("", "[]", "{}", null).
func emptyOutput(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "[]", "{}", "null", `""`:
		return true
	}
	return false
}

// llmOutput reads what a model said and the tool calls it asked for, from
// the GenAI conventions' gen_ai.output.messages, OpenInference's flattened
// llm.output_messages.N.message.*, or OpenLLMetry's gen_ai.completion.N.*.
func llmOutput(a attrs) (string, []ToolCallRef) {
	if raw := a.json("gen_ai.output.messages"); len(raw) > 0 && raw[0] == '[' {
		var msgs []struct {
			Parts []struct {
				Type      string          `json:"type"`
				Content   json.RawMessage `json:"content"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"parts"`
		}
		if unmarshalFast(raw, &msgs) == nil {
			var texts []string
			var calls []ToolCallRef
			for _, m := range msgs {
				for _, p := range m.Parts {
					switch p.Type {
					case "text":
						texts = append(texts, text(p.Content))
					case "tool_call":
						calls = append(calls, ToolCallRef{ID: p.ID, Name: p.Name, Args: argsJSON(p.Arguments)})
					}
				}
			}
			return strings.Join(texts, "\n"), calls
		}
	}
	for _, prefix := range []string{"llm.output_messages.", "gen_ai.completion."} {
		var texts []string
		var calls []ToolCallRef
		for i := 0; ; i++ {
			p := prefix + strconv.Itoa(i) + "."
			msg := p
			if prefix == "llm.output_messages." {
				msg = p + "message."
			}
			if !hasPrefixKey(a, p) {
				break
			}
			if t := a.str(msg + "content"); t != "" {
				texts = append(texts, t)
			}
			for j := 0; ; j++ {
				tc := msg + "tool_calls." + strconv.Itoa(j) + "."
				if prefix == "llm.output_messages." {
					tc += "tool_call."
				}
				if !hasPrefixKey(a, tc) {
					break
				}
				name := a.str(tc+"function.name", tc+"name")
				args := a.str(tc+"function.arguments", tc+"arguments")
				calls = append(calls, ToolCallRef{ID: a.str(tc + "id"), Name: name, Args: argsJSON(jsonString(args))})
			}
		}
		if len(texts) > 0 || len(calls) > 0 {
			return strings.Join(texts, "\n"), calls
		}
	}
	return "", nil
}

// argsJSON is a call's arguments as JSON: a JSON string that holds JSON is
// that JSON.
func argsJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			t := strings.TrimSpace(s)
			if t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
				return json.RawMessage(t)
			}
		}
	}
	return raw
}

func hasPrefixKey(a attrs, prefix string) bool {
	for k := range a {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}
