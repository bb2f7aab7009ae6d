package adapters

import (
	"encoding/json"
	"errors"
	"strings"
)

// MLflow reads the traces MLflow Tracing records (mlflow.trace, autolog of
// OpenAI, LangChain, LangGraph and the other integrations), as a trace is
// written out whole: Trace.to_json(), the traces of mlflow.search_traces
// dumped as a JSON list, or a trace a line. A trace is {"info": {...},
// "data": {"spans": [...]}}; a span's "attributes" hold MLflow's keys,
// each value a JSON document written as a string: "mlflow.spanType"
// ("TOOL", "LLM", "CHAT_MODEL", "RETRIEVER", "AGENT", "CHAIN", ...),
// "mlflow.spanInputs", "mlflow.spanOutputs", "mlflow.chat.tokenUsage".
// Three span layouts are read: MLflow 2's ("context" with the ids,
// "parent_id", "start_time", "status_code"), and the OpenTelemetry-like
// one of MLflow 3 ("span_id", "parent_span_id", "start_time_unix_nano",
// "status": {"code"}). The same keys in an OTLP export are read by otlp.
var MLflow = &Format{
	Name:      "mlflow",
	Title:     "MLflow Tracing traces: Trace.to_json() documents, lists and JSON Lines of them",
	Recognize: recognizeMLflow,
	Spans:     mlflowSpans,
}

// mlflowTrace reports whether obj is a trace: "info" and "data" with a
// "spans" list.
func mlflowTrace(obj map[string]json.RawMessage) bool {
	var data struct {
		Spans json.RawMessage `json:"spans"`
	}
	return len(obj["info"]) > 0 && json.Unmarshal(obj["data"], &data) == nil && len(data.Spans) > 0 && data.Spans[0] == '['
}

func recognizeMLflow(d *Doc) error {
	if d.eventOrFirst(mlflowTrace) {
		return nil
	}
	return errors.New(`no MLflow trace ("info" with "data": {"spans": [...]})`)
}

// mlflowTraceDoc is a trace: the fields read.
type mlflowTraceDoc struct {
	Info struct {
		TraceID         looseString                `json:"trace_id"`
		RequestID       looseString                `json:"request_id"` // MLflow 2
		TraceMetadata   map[string]json.RawMessage `json:"trace_metadata"`
		RequestMetadata map[string]json.RawMessage `json:"request_metadata"` // MLflow 2
	} `json:"info"`
	Data struct {
		Spans []mlflowSpanDoc `json:"spans"`
	} `json:"data"`
}

// mlflowSpanDoc is a span in either layout.
type mlflowSpanDoc struct {
	Name         looseString `json:"name"`
	SpanID       looseString `json:"span_id"`
	ParentSpanID looseString `json:"parent_span_id"`
	ParentID     looseString `json:"parent_id"` // MLflow 2
	Context      *struct {
		SpanID  looseString `json:"span_id"`
		TraceID looseString `json:"trace_id"`
	} `json:"context"` // MLflow 2
	StartNano otlpInt         `json:"start_time_unix_nano"`
	EndNano   otlpInt         `json:"end_time_unix_nano"`
	Start     otlpInt         `json:"start_time"` // MLflow 2
	End       otlpInt         `json:"end_time"`
	Status    json.RawMessage `json:"status"`
	Code      looseString     `json:"status_code"` // MLflow 2
	Message   looseString     `json:"status_message"`
	Events    []struct {
		Name       looseString                `json:"name"`
		Attributes map[string]json.RawMessage `json:"attributes"`
	} `json:"events"`
	Attributes map[string]json.RawMessage `json:"attributes"`
}

func mlflowSpans(d *Doc, add func(*Span) error) error {
	els := d.Elements()
	if d.IsObject() {
		els = []json.RawMessage{d.Raw}
	}
	for i, el := range els {
		var tr mlflowTraceDoc
		if err := decodeObject(el, &tr); err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return err
		}
		traceID := firstNonEmpty(string(tr.Info.TraceID), string(tr.Info.RequestID))
		session := mlflowString(tr.Info.TraceMetadata["mlflow.trace.session"])
		if session == "" {
			session = mlflowString(tr.Info.RequestMetadata["mlflow.trace.session"])
		}
		for k := range tr.Data.Spans {
			sp := spanFromMLflow(&tr.Data.Spans[k], traceID)
			sp.Session = session
			if err := add(sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// spanFromMLflow converts one span of a trace.
func spanFromMLflow(s *mlflowSpanDoc, traceID string) *Span {
	attr := func(k string) json.RawMessage { return mlflowValue(s.Attributes[k]) }
	sp := &Span{
		TraceID:  firstNonEmpty(traceID, mlflowString(attr("mlflow.traceRequestId"))),
		SpanID:   string(s.SpanID),
		ParentID: firstNonEmpty(string(s.ParentSpanID), string(s.ParentID)),
		Start:    int64(max(s.StartNano, s.Start)),
		End:      int64(max(s.EndNano, s.End)),
		Name:     string(s.Name),
	}
	if s.Context != nil {
		sp.SpanID = firstNonEmpty(sp.SpanID, string(s.Context.SpanID))
		if sp.TraceID == "" {
			sp.TraceID = string(s.Context.TraceID)
		}
	}
	code, msg := string(s.Code), string(s.Message)
	var st struct {
		Code    looseString `json:"code"`
		Message looseString `json:"message"`
	}
	if json.Unmarshal(s.Status, &st) == nil && st.Code != "" {
		code, msg = string(st.Code), firstNonEmpty(msg, string(st.Message))
	} else if c := scalar(s.Status); c != "" && code == "" {
		code = c
	}
	sp.Failed = code == "ERROR" || code == "STATUS_CODE_ERROR" || code == "2"
	sp.ErrorText = msg
	for _, ev := range s.Events {
		if ev.Name == "exception" {
			sp.Failed = true
			sp.ErrorType = firstNonEmpty(sp.ErrorType, scalar(ev.Attributes["exception.type"]))
			sp.ErrorText = firstNonEmpty(sp.ErrorText, scalar(ev.Attributes["exception.message"]))
		}
	}
	mlflowApply(sp, mlflowString(attr("mlflow.spanType")), attr("mlflow.spanInputs"), attr("mlflow.spanOutputs"), attr("mlflow.chat.tokenUsage"))
	return sp
}

// mlflowApply reads what MLflow's keys say of a span: its kind from the
// span type, a tool's name (the span's), arguments (its inputs) and
// result (its outputs), a retriever's documents, a model's usage, words
// and the calls it asked for. Spans of other types (an agent, a chain, a
// parser) are containers.
func mlflowApply(sp *Span, spanType string, inputs, outputs, usage json.RawMessage) {
	switch strings.ToUpper(spanType) {
	case "TOOL":
		sp.Kind = SpanTool
	case "RETRIEVER":
		sp.Kind = SpanRetriever
	case "LLM", "CHAT_MODEL":
		sp.Kind = SpanLLM
	default:
		return
	}
	switch sp.Kind {
	case SpanTool, SpanRetriever:
		sp.Tool = sp.Name
		if len(inputs) > 0 {
			sp.Args = inputs
		}
		if len(outputs) > 0 {
			out := mlflowText(outputs)
			sp.Output = &out
		}
		if sp.Kind == SpanRetriever {
			sp.Empty = !sp.Failed && (sp.Output == nil || emptyOutput(*sp.Output))
		}
	case SpanLLM:
		var in, out struct {
			Model looseString `json:"model"`
			Usage *struct {
				Prompt     looseCount `json:"prompt_tokens"`
				Completion looseCount `json:"completion_tokens"`
				Input      looseCount `json:"input_tokens"`
				Output     looseCount `json:"output_tokens"`
			} `json:"usage"`
		}
		json.Unmarshal(inputs, &in)
		json.Unmarshal(outputs, &out)
		sp.Model = firstNonEmpty(string(out.Model), string(in.Model))
		var u struct {
			Input  looseCount `json:"input_tokens"`
			Output looseCount `json:"output_tokens"`
		}
		if json.Unmarshal(usage, &u) == nil && (u.Input > 0 || u.Output > 0) {
			sp.PromptTokens, sp.CompletionTokens = int64(u.Input), int64(u.Output)
		} else if out.Usage != nil {
			sp.PromptTokens = int64(max(out.Usage.Prompt, out.Usage.Input))
			sp.CompletionTokens = int64(max(out.Usage.Completion, out.Usage.Output))
		}
		sp.Text, sp.ToolCalls = mlflowModelOutput(outputs)
	}
}

// mlflowModelOutput reads what a model span's outputs say and the calls it
// asked for: an OpenAI chat completion ("choices" of messages with
// "tool_calls"), or Anthropic's message ("content" blocks of text and
// tool_use).
func mlflowModelOutput(outputs json.RawMessage) (string, []ToolCallRef) {
	var o struct {
		Choices []struct {
			Message struct {
				Content   json.RawMessage `json:"content"`
				ToolCalls []chatToolCall  `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(outputs, &o) != nil {
		return mlflowText(outputs), nil
	}
	var texts []string
	var calls []ToolCallRef
	for _, c := range o.Choices {
		if t := text(c.Message.Content); t != "" {
			texts = append(texts, t)
		}
		for _, tc := range c.Message.ToolCalls {
			calls = append(calls, ToolCallRef{ID: tc.ID, Name: tc.Function.Name, Args: argsJSON(tc.Function.Arguments)})
		}
	}
	if len(o.Content) > 0 && o.Content[0] == '[' {
		var blocks []struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if json.Unmarshal(o.Content, &blocks) == nil {
			for _, b := range blocks {
				switch b.Type {
				case "text":
					texts = append(texts, b.Text)
				case "tool_use":
					calls = append(calls, ToolCallRef{ID: b.ID, Name: b.Name, Args: b.Input})
				}
			}
		}
	}
	return strings.Join(texts, "\n"), calls
}

// mlflowValue is an attribute's value: MLflow writes each as a JSON
// document in a string ("\"TOOL\"", "{\"query\": ...}"); the document is
// the value. A string that holds no JSON is the value itself.
func mlflowValue(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] != '"' {
		return raw
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	if t := strings.TrimSpace(s); t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return raw
}

// mlflowString is a value that is a string, unquoted ("" otherwise).
func mlflowString(raw json.RawMessage) string {
	var v string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v
}

// mlflowText is an output as the text a person reads: a string as it is,
// anything else as its JSON.
func mlflowText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		return mlflowString(raw)
	}
	return string(raw)
}
