package adapters

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// traceSamples is the directory of the sample traces (fixtures/traces).
var traceSamples = filepath.Join("..", "..", "fixtures", "traces")

// assembleTraceFile reads every document of a sample trace file (each line
// of a JSON Lines file, or the whole file) with f, and assembles the spans
// of all of them into runs, as a read of every input does: the spans of a
// run may sit on several lines.
func assembleTraceFile(t testing.TB, f *Format, rel string) *converted {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(traceSamples, rel))
	if err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{raw}
	if filepath.Ext(rel) == ".ndjson" {
		docs = nonBlankLines(raw)
	}
	return assembleSpans(t, spansOfDocs(t, f, docs...))
}

// GenAI semantic conventions, spans split over two exporter batches that
// arrive later-first: one run named by gen_ai.conversation.id, steps in
// start order, the tool call's args taken from the model's output by call
// id, the failure read from the status and error.type.
func TestOTLPGenAITimeoutLoop(t *testing.T) {
	c := assembleTraceFile(t, OTLP, "otlp/genai-timeout-loop.ndjson")
	if len(c.runs) != 1 || c.runs[0] != "conv-42" {
		t.Fatalf("runs %v, want [conv-42]", c.runs)
	}
	if n := len(c.numbers("conv-42")); n != 9 {
		t.Fatalf("%d steps, want 8 calls and the final answer", n)
	}
	var prev int64
	for i := int64(0); i < 8; i++ {
		s := c.step(t, "conv-42", i)
		if tool(s) != "get_order" || args(t, s)["order_id"] != "A-1001" || result(s) != "error TIMEOUT" || s.State != "ACT" {
			t.Errorf("step %d: %s %v %s %s", i, tool(s), args(t, s), result(s), s.State)
		}
		if s.TS == nil || s.TS.UnixMilli <= prev {
			t.Errorf("step %d: ts %v not after %d", i, s.TS, prev)
		} else {
			prev = s.TS.UnixMilli
		}
		if s.Usage == nil || s.Usage.PromptTokens != 1200+50*i || s.Usage.CompletionTokens != 40 {
			t.Errorf("step %d: usage %+v, want the model call's before it", i, s.Usage)
		}
	}
	if r := reason(c.step(t, "conv-42", 0)); r != "Let me look the order up." {
		t.Errorf("step 0 reason %q", r)
	}
	if d := data(t, c.step(t, "conv-42", 0)); d != "upstream request timed out after 5s" {
		t.Errorf("step 0 data %q: a failure without output says the status message", d)
	}
	last := c.step(t, "conv-42", 8)
	if last.State != "STOP" || last.ToolCall != nil || reason(last) != "Sorry, the order service is not answering right now." {
		t.Errorf("last step: %+v", last)
	}
}

// OpenInference: the session.id names the run; retriever spans are search
// calls whose args are the query and whose result, with no documents, is
// empty.
func TestOTLPOpenInferenceRetrievals(t *testing.T) {
	c := assembleTraceFile(t, OTLP, "otlp/openinference-empty-retrievals.ndjson")
	if len(c.runs) != 1 || c.runs[0] != "sess-7f3" {
		t.Fatalf("runs %v", c.runs)
	}
	queries := map[string]bool{}
	for i := int64(0); i < 6; i++ {
		s := c.step(t, "sess-7f3", i)
		var q string
		if err := json.Unmarshal(s.ToolCall.Args, &q); err != nil {
			t.Fatalf("step %d args %s: %v", i, s.ToolCall.Args, err)
		}
		queries[q] = true
		if tool(s) != "search_kb" || s.Intent != "search" || result(s) != "ok empty" {
			t.Errorf("step %d: %s intent %q %s", i, tool(s), s.Intent, result(s))
		}
	}
	if len(queries) != 6 {
		t.Errorf("queries %v: want the six rephrasings", queries)
	}
	if p, _, _, _ := usageSum(c, "sess-7f3"); p != 900+1020+1140+1260+1380+1500+1700 {
		t.Errorf("prompt tokens %d: every model call's count once", p)
	}
}

// OpenLLMetry: tool spans by traceloop.span.kind, their input and output,
// the session from the association properties; a run that progresses ends
// with the model's answer.
func TestOTLPOpenLLMetryHealthy(t *testing.T) {
	c := assembleTraceFile(t, OTLP, "otlp/openllmetry-healthy.json")
	if len(c.runs) != 1 || c.runs[0] != "user-19" {
		t.Fatalf("runs %v", c.runs)
	}
	for i, want := range []string{"get_location", "get_forecast", "get_air_quality"} {
		s := c.step(t, "user-19", int64(i))
		if tool(s) != want || result(s) != "ok" {
			t.Errorf("step %d: %s %s", i, tool(s), result(s))
		}
	}
	if d := data(t, c.step(t, "user-19", 1)); d != `{"today": "sunny, 21C", "tomorrow": "rain, 17C"}` {
		t.Errorf("forecast data %q", d)
	}
	if kw, _ := args(t, c.step(t, "user-19", 1))["kwargs"].(map[string]any); kw["city"] != "Lisbon" {
		t.Errorf("forecast args %v", args(t, c.step(t, "user-19", 1)))
	}
	if s := c.step(t, "user-19", 3); s.State != "STOP" {
		t.Errorf("last step %+v", s)
	}
}

// A failure is read from the status (as an int or as the enum's name) or
// from an exception event; a span without a session or conversation is a
// run of its trace.
func TestOTLPFailuresAndTraceRuns(t *testing.T) {
	doc := `{"resourceSpans":[{"resource":{},"scopeSpans":[{"spans":[
	 {"traceId":"AAAA0000000000000000000000000001","spanId":"01","name":"execute_tool deploy","startTimeUnixNano":"1000000000","endTimeUnixNano":"2000000000",
	  "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"deploy"}},
	   {"key":"gen_ai.tool.call.arguments","value":{"stringValue":"{\"service\":\"api\"}"}}],
	  "status":{"code":"STATUS_CODE_ERROR","message":"403 forbidden"}},
	 {"traceId":"AAAA0000000000000000000000000001","spanId":"02","name":"lookup","startTimeUnixNano":"3000000000","endTimeUnixNano":"4000000000",
	  "attributes":[{"key":"openinference.span.kind","value":{"stringValue":"TOOL"}},{"key":"tool.name","value":{"stringValue":"lookup"}},
	   {"key":"input.value","value":{"stringValue":"{\"id\": 7}"}}],
	  "events":[{"name":"exception","attributes":[{"key":"exception.type","value":{"stringValue":"openai.APIConnectionError"}},{"key":"exception.message","value":{"stringValue":"connection reset"}}]}]}
	]}]}]}`
	c, run := convertOne(t, OTLP, []byte(doc))
	if run != "aaaa0000000000000000000000000001" {
		t.Errorf("run %q: the trace id, lower-case", run)
	}
	if s := c.step(t, run, 0); tool(s) != "deploy" || args(t, s)["service"] != "api" || result(s) != "error ERROR" || data(t, s) != "403 forbidden" {
		t.Errorf("step 0: %s %v %s %q", tool(s), args(t, s), result(s), data(t, s))
	}
	if s := c.step(t, run, 1); result(s) != "error APICONNECTIONERROR" || data(t, s) != "connection reset" {
		t.Errorf("step 1: %s %q", result(s), data(t, s))
	}
}

func TestOTLPRecognize(t *testing.T) {
	for _, c := range []struct {
		doc string
		ok  bool
	}{
		{`{"resourceSpans":[]}`, true},
		{`{"resourceSpans":{}}`, false},
		{`{"resourceLogs":[]}`, false},
		{`{"messages":[{"role":"user","content":"hi"}]}`, false},
	} {
		d, err := ParseDoc("t.json", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := OTLP.Recognize(d); (err == nil) != c.ok {
			t.Errorf("%s: recognised %v, want %v", c.doc, err == nil, c.ok)
		}
	}
	d, _ := ParseDoc("t.json", 1, true, []byte(`{"resourceSpans":[]}`))
	for _, f := range Registry {
		if f != OTLP && f.Recognize(d) == nil {
			t.Errorf("%s takes an OTLP document", f.Name)
		}
	}
}

// FuzzOTLP is seeded with small documents of each dialect: the fuzzer
// spends its time mutating, not minimizing a sample's kilobytes.
func FuzzOTLP(f *testing.F) {
	kv := func(k, v string) string {
		return `{"key":"` + k + `","value":{"stringValue":` + strconv.Quote(v) + `}}`
	}
	span := func(id, name string, start int, attrs ...string) string {
		return `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"` + id + `","name":"` + name + `","startTimeUnixNano":"` +
			strconv.Itoa(start) + `000000000","endTimeUnixNano":"` + strconv.Itoa(start+1) + `000000000","attributes":[` + strings.Join(attrs, ",") + `]}`
	}
	doc := func(spans ...string) []byte {
		return []byte(`{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}`)
	}
	fuzzFormat(f, OTLP,
		doc(span("01", "chat", 1, kv("gen_ai.operation.name", "chat"), kv("gen_ai.conversation.id", "c1"),
			kv("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"t1","name":"get","arguments":{"id":1}}]}]`)),
			span("02", "execute_tool get", 2, kv("gen_ai.operation.name", "execute_tool"), kv("gen_ai.tool.call.id", "t1"), kv("error.type", "timeout"))),
		doc(span("03", "LLM", 1, kv("openinference.span.kind", "LLM"), kv("session.id", "s"),
			kv("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "search"),
			kv("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", `{"q":"x"}`)),
			span("04", "search", 2, kv("openinference.span.kind", "RETRIEVER"), kv("input.value", "x"))),
		doc(span("05", "t.tool", 1, kv("traceloop.span.kind", "tool"), kv("traceloop.entity.name", "t"), kv("traceloop.entity.output", "ok")),
			span("06", "openai.chat", 2, kv("llm.request.type", "chat"), kv("gen_ai.completion.0.content", "done"))),
		[]byte(`{"data":[{"traceID":"ab","spans":[{"traceID":"ab","spanID":"1","operationName":"x","references":[{"refType":"CHILD_OF","spanID":"0"}],"startTime":-5,"duration":9e18,"tags":[{"key":"error","value":true},{"key":"gen_ai.tool.name","value":[1,{"a":null}]}],"logs":[{"fields":[{"key":"event","value":"exception"}]}],"processID":"zz"}],"processes":{}}]}`),
		[]byte(`{"name":"n","context":{"trace_id":"0x1","span_id":"0x2"},"parent_id":null,"start_time":"bad","end_time":null,"status":{"status_code":"ERROR"},"attributes":{"gen_ai.tool.name":"t","n":1.5}} {"name":"n","context":{"trace_id":"0x1","span_id":"0x2"},"attributes":{}}`),
	)
}

// Tool spans that do not say execute_tool: pydantic-ai's "running tool: X"
// and Koog's "tool.X" (gen_ai.tool.name, their own argument and result
// keys), the Vercel AI SDK's ai.toolCall spans (ai.toolCall.*).
func TestOTLPToolSpansNamedOtherwise(t *testing.T) {
	kv := func(k, v string) string {
		return `{"key":"` + k + `","value":{"stringValue":` + strconv.Quote(v) + `}}`
	}
	span := func(id, name string, start int, attrs ...string) string {
		return `{"traceId":"BBBB0000000000000000000000000001","spanId":"` + id + `","name":"` + name + `","startTimeUnixNano":"` + strconv.Itoa(start) + `000000000","endTimeUnixNano":"` + strconv.Itoa(start) + `500000000","attributes":[` + strings.Join(attrs, ",") + `]}`
	}
	doc := `{"resourceSpans":[{"resource":{},"scopeSpans":[{"spans":[` + strings.Join([]string{
		span("01", "running tool: get_pun", 1, kv("gen_ai.tool.name", "get_pun"), kv("gen_ai.tool.call.id", "c1"), kv("tool_arguments", `{"topic":"go"}`), kv("tool_response", "Gopher it.")),
		span("02", "tool.HelloTool", 2, kv("gen_ai.tool.name", "HelloTool"), kv("input.value", `{"name":"ann"}`), kv("output.value", "hi ann")),
		span("03", "getWeather", 3, kv("operation.name", "ai.toolCall"), kv("ai.toolCall.name", "getWeather"), kv("ai.toolCall.id", "c3"),
			kv("ai.toolCall.args", `{"location":"SF"}`), kv("ai.toolCall.result", `{"temp":18}`)),
	}, ",") + `]}]}]}`
	c, run := convertOne(t, OTLP, []byte(doc))
	for n, want := range map[int64]struct{ tool, arg, out string }{
		0: {"get_pun", "go", "Gopher it."}, 1: {"HelloTool", "ann", "hi ann"}, 2: {"getWeather", "SF", `{"temp":18}`},
	} {
		s := c.step(t, run, n)
		a := args(t, s)
		if tool(s) != want.tool || (a["topic"] != want.arg && a["name"] != want.arg && a["location"] != want.arg) || data(t, s) != want.out {
			t.Errorf("step %d: %s %v %q, want %v", n, tool(s), a, data(t, s), want)
		}
	}
}

// OpenLLMetry on LangGraph records a tool's arguments as LangChain's
// callback payload, whose metadata holds a new checkpoint id at every
// call, and its result as a ToolMessage: the call is its inputs (the same
// call made twice reads alike) and the result the message's content (a
// failure the tool reports in it is seen).
func TestOTLPLangChainToolPayloads(t *testing.T) {
	kv := func(k, v string) string {
		return `{"key":"` + k + `","value":{"stringValue":` + strconv.Quote(v) + `}}`
	}
	payload := func(ns string) string {
		return `{"input_str": "{'device_name': 'SW1', 'command': 'show interfaces'}", "tags": ["seq:step:1"], "metadata": {"langgraph_step": 4, "langgraph_checkpoint_ns": "tools:` + ns + `"}, "inputs": {"device_name": "SW1", "command": "show interfaces"}, "kwargs": {"tool_call_id": "toolu_1"}}`
	}
	toolMsg := `{"output": {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"], "kwargs": {"content": [{"type": "text", "text": "{\"status\": \"error\", \"error\": \"failed to connect to SW1\"}"}], "type": "tool", "tool_call_id": "toolu_1", "status": "success"}}}`
	span := func(id, ns string, start int) string {
		return `{"traceId":"CCCC0000000000000000000000000001","spanId":"` + id + `","name":"pyats.tool","startTimeUnixNano":"` + strconv.Itoa(start) + `000000000","endTimeUnixNano":"` + strconv.Itoa(start) + `500000000","attributes":[` +
			strings.Join([]string{kv("gen_ai.operation.name", "execute_tool"), kv("gen_ai.tool.name", "run_show"), kv("gen_ai.tool.call.arguments", payload(ns)), kv("gen_ai.tool.call.result", toolMsg)}, ",") + `]}`
	}
	doc := `{"resourceSpans":[{"resource":{},"scopeSpans":[{"spans":[` + span("01", "3be4", 1) + "," + span("02", "9f10", 2) + `]}]}]}`
	c, run := convertOne(t, OTLP, []byte(doc))
	a, b := c.step(t, run, 0), c.step(t, run, 1)
	if string(a.ToolCall.Args) != string(b.ToolCall.Args) || args(t, a)["command"] != "show interfaces" {
		t.Errorf("args %s and %s, want the same inputs", a.ToolCall.Args, b.ToolCall.Args)
	}
	if result(a) != "error ERROR" || !strings.Contains(data(t, a), "failed to connect") {
		t.Errorf("result %s %q, want the ToolMessage's content, read as the failure it reports", result(a), data(t, a))
	}
}

// A Jaeger trace export: tags are the attributes (the same dialects as
// OTLP's), CHILD_OF the parent, times in microseconds, "error": true a
// failure.
func TestOTLPJaegerExport(t *testing.T) {
	doc := `{"data":[{"traceID":"5edab84350c3da3b","spans":[
	 {"traceID":"5edab84350c3da3b","spanID":"a1","operationName":"chat gpt-4o","references":[],"startTime":1782053761000000,"duration":2000000,
	  "tags":[{"key":"gen_ai.operation.name","type":"string","value":"chat"},{"key":"gen_ai.request.model","type":"string","value":"gpt-4o"},
	   {"key":"gen_ai.usage.input_tokens","type":"int64","value":805}],"logs":[],"processID":"p1"},
	 {"traceID":"5edab84350c3da3b","spanID":"a2","operationName":"execute_tool deploy","references":[{"refType":"CHILD_OF","traceID":"5edab84350c3da3b","spanID":"a0"}],
	  "startTime":1782053764000000,"duration":500000,
	  "tags":[{"key":"gen_ai.operation.name","type":"string","value":"execute_tool"},{"key":"gen_ai.tool.name","type":"string","value":"deploy"},
	   {"key":"gen_ai.tool.call.arguments","type":"string","value":"{\"service\":\"api\"}"},{"key":"error","type":"bool","value":true}],
	  "logs":[{"timestamp":1782053764400000,"fields":[{"key":"event","type":"string","value":"exception"},{"key":"exception.type","type":"string","value":"TimeoutError"},{"key":"exception.message","type":"string","value":"deploy timed out"}]}],"processID":"p1"}],
	 "processes":{"p1":{"serviceName":"agent","tags":[{"key":"service.name","type":"string","value":"agent"}]}}}]}`
	c, run := convertOne(t, OTLP, []byte(doc))
	s := c.step(t, run, 1)
	if tool(s) != "deploy" || args(t, s)["service"] != "api" || result(s) != "error TIMEOUT" || data(t, s) != "deploy timed out" {
		t.Errorf("tool span: %s %v %s %q", tool(s), args(t, s), result(s), data(t, s))
	}
	if s.TS == nil || s.TS.UnixMilli != 1782053764000 {
		t.Errorf("ts %v, want the span's start (microseconds)", s.TS)
	}
}

// The OpenTelemetry SDK's own JSON of spans (Python's console exporter),
// pretty-printed objects written one after another, a span written at its
// start and again at its end: each span once, from its ended copy.
func TestOTLPSDKConsoleSpans(t *testing.T) {
	span := func(end string) string {
		return `{
    "name": "execute_tool get_weather",
    "context": {"trace_id": "0x4ae695eb00000000000000000000000a", "span_id": "0x00000000000000b1", "trace_state": "[]"},
    "kind": "SpanKind.INTERNAL",
    "parent_id": "0x00000000000000b0",
    "start_time": "2026-03-01T20:47:19.503489Z",
    "end_time": ` + end + `,
    "status": {"status_code": "UNSET"},
    "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.arguments": "{\"city\": \"Oslo\"}", "gen_ai.tool.call.result": "rain"},
    "events": [],
    "resource": {"attributes": {"service.name": "python-ai-engine"}, "schema_url": ""}
}`
	}
	raw := []byte(span("null") + "\n" + span(`"2026-03-01T20:47:20.000000Z"`) + "\n")
	c := readOTLPConsole(t, "console.jsonl", raw)
	run := c.runs[0]
	if got := c.numbers(run); len(got) != 1 {
		t.Fatalf("steps %v, want the span once", got)
	}
	if s := c.step(t, run, 0); tool(s) != "get_weather" || args(t, s)["city"] != "Oslo" || data(t, s) != "rain" {
		t.Errorf("span: %s %v %q", tool(s), args(t, s), data(t, s))
	}
}

// Prompt flow's spans (promptflow-tracing), as the SDK's console exporter
// writes them: framework = promptflow and a span_type, no GenAI keys. An
// LLM span is a model call (its message, as an attribute or as the
// promptflow.llm.generated_message event's payload; llm.usage.* tokens;
// llm.response.model), a Retrieval span a lookup (its query and documents
// as events), Function spans only enclose them; session_id is the run.
func TestOTLPPromptflowSpans(t *testing.T) {
	span := func(name, id, start, attrs, events string) string {
		return `{
    "name": "` + name + `",
    "context": {"trace_id": "0x5c1e0000000000000000000000000001", "span_id": "` + id + `", "trace_state": "[]"},
    "kind": "SpanKind.INTERNAL",
    "parent_id": "0x00000000000000a0",
    "start_time": "` + start + `",
    "end_time": "2026-04-02T10:00:09.000000Z",
    "status": {"status_code": "OK"},
    "attributes": {"framework": "promptflow", ` + attrs + `},
    "events": [` + events + `],
    "links": [],
    "resource": {"attributes": {"service.name": "promptflow"}, "schema_url": ""}
}`
	}
	ev := func(name, payload string) string {
		return `{"name": "` + name + `", "timestamp": "2026-04-02T10:00:01.000000Z", "attributes": {"payload": ` + strconv.Quote(payload) + `}}`
	}
	raw := []byte(strings.Join([]string{
		span("chat_flow", "0x00000000000000a0", "2026-04-02T10:00:00.000000Z",
			`"span_type": "Function", "function": "chat_flow", "session_id": "conv-7", "inputs": "{\"question\": \"refund policy?\"}"`, ""),
		span("openai_chat", "0x00000000000000a1", "2026-04-02T10:00:01.000000Z",
			`"span_type": "LLM", "function": "openai.resources.chat.completions.Completions.create", "llm.response.model": "gpt-4o", "llm.usage.prompt_tokens": 300, "llm.usage.completion_tokens": 20`,
			ev("promptflow.llm.generated_message", `{"content": "I will look it up.", "role": "assistant", "function_call": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "search_docs", "arguments": "{\"query\": \"refund policy\"}"}}]}`)),
		span("search_docs", "0x00000000000000a2", "2026-04-02T10:00:02.000000Z",
			`"span_type": "Retrieval", "function": "search_docs"`,
			ev("promptflow.retrieval.query", `"refund policy"`)+", "+
				ev("promptflow.retrieval.documents", `[{"document.id": "kb/12", "document.score": 2.5, "document.content": "Refunds within 30 days."}]`)),
		span("openai_chat", "0x00000000000000a3", "2026-04-02T10:00:03.000000Z",
			`"span_type": "LLM", "llm.response.model": "gpt-4o", "llm.usage.prompt_tokens": 350, "llm.usage.completion_tokens": 12, "llm.generated_message": "{\"content\": \"Refunds are accepted within 30 days.\", \"role\": \"assistant\", \"function_call\": null, \"tool_calls\": null}"`, ""),
	}, "\n") + "\n")
	c := readOTLPConsole(t, "spans.json", raw)
	if len(c.runs) != 1 || c.runs[0] != "conv-7" {
		t.Fatalf("runs %v, want the session conv-7", c.runs)
	}
	run := c.runs[0]
	if got := c.numbers(run); len(got) != 2 {
		t.Fatalf("steps %v, want the lookup and the answer", got)
	}
	s := c.step(t, run, 0)
	if tool(s) != "search_docs" || data(t, s) != "Refunds within 30 days." || s.Intent != searchIntent || reason(s) != "I will look it up." {
		t.Errorf("lookup: %s %q intent %q reason %q", tool(s), data(t, s), s.Intent, reason(s))
	}
	if s.ToolCall == nil || string(s.ToolCall.Args) != `"refund policy"` {
		t.Errorf("lookup args %v, want the query", s.ToolCall)
	}
	last := c.step(t, run, 1)
	if last.State != "STOP" || reason(last) != "Refunds are accepted within 30 days." {
		t.Errorf("answer: %s %q", last.State, reason(last))
	}
	if p, comp, _, _ := usageSum(c, run); p != 650 || comp != 32 {
		t.Errorf("tokens %d/%d, want 650/32", p, comp)
	}
}

// readOTLPConsole reads raw, spans as the OpenTelemetry SDK's console
// exporter writes them, as the file named file: it must be taken for OTLP,
// and its spans are assembled into runs.
func readOTLPConsole(t *testing.T, file string, raw []byte) *converted {
	t.Helper()
	d, err := ParseDoc(file, 1, true, raw)
	if err != nil {
		t.Fatalf("ParseDoc: %v", err)
	}
	if f, err := Detect(d); err != nil || f != OTLP {
		t.Fatalf("Detect: %v %v", f, err)
	}
	var spans []Span
	if err := OTLP.Spans(d, func(sp *Span) error { spans = append(spans, *sp); return nil }); err != nil {
		t.Fatal(err)
	}
	return assembleSpans(t, spans)
}
