package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runawayhq/runaway/schema"
)

// oaaSamples is the directory of the OpenAI Agents SDK sample traces.
var oaaSamples = filepath.Join("..", "..", "fixtures", "traces", "openai-agents")

// The samples' runs: the loop's trace has a group_id (its conversation
// thread), the healthy one has none and is named by its trace id.
const (
	oaaLoopRun    = "thread_8d41c2e07a"
	oaaHealthyRun = "trace_7f100b0b9ece1992f4c9cc6ff59f82b3"
)

// oaaLines returns the records of a sample, one JSON Lines line each.
func oaaLines(t testing.TB, name string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(oaaSamples, name))
	if err != nil {
		t.Fatal(err)
	}
	return nonBlankLines(raw)
}

// oaaAssemble reads every document as a read of the inputs does (each one
// recognised and detected as openai-agents on its own), then assembles the
// spans of all of them into runs.
func oaaAssemble(t testing.TB, docs ...[]byte) *converted {
	t.Helper()
	return assembleSpans(t, spansOfDocs(t, OpenAIAgents, docs...))
}

// oaaJoin makes one JSON array, or (batch) the backend exporter's
// {"data": [...]}, of records.
func oaaJoin(records [][]byte, batch bool) []byte {
	arr := append(append([]byte("["), bytes.Join(records, []byte(","))...), ']')
	if batch {
		return append(append([]byte(`{"data": `), arr...), '}')
	}
	return arr
}

// The loop: the agent asks for the same order eight times, every call
// times out (the SDK's handled tool error: "Error running tool
// (non-fatal)" with the exception's text in data.error), until max_turns.
// The records are written out of time order; the steps come in start
// order, each with the model call that asked for it.
func TestOpenAIAgentsLoopSample(t *testing.T) {
	lines := oaaLines(t, "loop.ndjson")
	oaaCheckShuffled(t, lines)
	c := oaaAssemble(t, lines...)
	if fmt.Sprint(c.runs) != "["+oaaLoopRun+"]" {
		t.Fatalf("runs %v, want the trace's group_id %s", c.runs, oaaLoopRun)
	}
	if got := fmt.Sprint(c.numbers(oaaLoopRun)); got != "[0 1 2 3 4 5 6 7]" {
		t.Fatalf("steps %s, want 8 calls (no agent, task or trace step)", got)
	}
	var prev int64
	for i := int64(0); i < 8; i++ {
		s := c.step(t, oaaLoopRun, i)
		if s.State != schema.StateAct.String() || tool(s) != "fetch_order_status" || fmt.Sprint(args(t, s)) != "map[order_id:W-20417]" {
			t.Errorf("step %d: %s %s %s", i, s.State, tool(s), s.ToolCall.Args)
		}
		if result(s) != "error TIMEOUT" || data(t, s) != "An error occurred while running the tool. Please try again. Error: The read operation timed out" {
			t.Errorf("step %d: %s %q, want TIMEOUT with the output the model saw", i, result(s), data(t, s))
		}
		if s.TS == nil || s.TS.UnixMilli <= prev {
			t.Errorf("step %d: ts %v not after %d", i, s.TS, prev)
		} else {
			prev = s.TS.UnixMilli
		}
		wantIn := 612 + 131*i
		if s.Usage == nil || s.Usage.PromptTokens != wantIn {
			t.Errorf("step %d: usage %+v, want the generation's before it (%d input tokens)", i, s.Usage, wantIn)
		}
	}
	if r := reason(c.step(t, oaaLoopRun, 0)); r != "" {
		t.Errorf("step 0 reason %q: the first generation said nothing", r)
	}
	if r := reason(c.step(t, oaaLoopRun, 1)); r != "The order service did not answer in time. I'll try again." {
		t.Errorf("step 1 reason %q", r)
	}
	if ts, want := c.step(t, oaaLoopRun, 0).TS, time.Date(2025, 11, 3, 9, 14, 3, 572204000, time.UTC).UnixMilli(); ts == nil || ts.UnixMilli != want {
		t.Errorf("step 0 ts %v, want the first function span's start %d", ts, want)
	}
	// The task span's usage is the run's total again: counted once.
	if p, cmpl, _, _ := usageSum(c, oaaLoopRun); p != 8564 || cmpl != 278 {
		t.Errorf("usage %d/%d, want 8564/278 (the generations', once)", p, cmpl)
	}
}

// oaaCheckShuffled fails when the records of a sample are in time order:
// the sample is there to show the order comes from the spans' times.
func oaaCheckShuffled(t *testing.T, lines [][]byte) {
	t.Helper()
	var starts []string
	for _, l := range lines {
		var r struct {
			StartedAt string `json:"started_at"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		if r.StartedAt != "" {
			starts = append(starts, r.StartedAt)
		}
	}
	for i := 1; i < len(starts); i++ {
		if starts[i] < starts[i-1] {
			return
		}
	}
	t.Error("the sample's records are in time order")
}

// The healthy run: a triage agent hands off to billing (a "handoff" step),
// which looks the customer up, lists the orders and issues the refund, and
// answers (STOP). A guardrail that did not trip is no step; the run has no
// group_id, so it is named by its trace id.
func TestOpenAIAgentsHealthySample(t *testing.T) {
	lines := oaaLines(t, "healthy.ndjson")
	oaaCheckShuffled(t, lines)
	c := oaaAssemble(t, lines...)
	run := oaaHealthyRun
	if fmt.Sprint(c.runs) != "["+run+"]" {
		t.Fatalf("runs %v, want the trace id", c.runs)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4]" {
		t.Fatalf("steps %s", got)
	}
	for _, s := range c.steps {
		if s.ToolResult != nil && s.ToolResult.IsError() {
			t.Errorf("step %d failed: %s", *s.Step, result(s))
		}
	}
	h := c.step(t, run, 0)
	if tool(h) != oaaHandoffTool || fmt.Sprint(args(t, h)) != "map[to_agent:Billing agent]" || result(h) != "ok" || data(t, h) != "handed off to Billing agent" {
		t.Errorf("handoff: %s %s %s %q", tool(h), h.ToolCall.Args, result(h), data(t, h))
	}
	s := c.step(t, run, 1)
	if tool(s) != "lookup_customer" || args(t, s)["email"] != "maya.lindqvist@example.com" || !contains(data(t, s), `"customer_id": "cus_5521"`) || reason(s) != "Let me find your account first." {
		t.Errorf("step 1: %s %s %q %q", tool(s), s.ToolCall.Args, data(t, s), reason(s))
	}
	s = c.step(t, run, 2)
	if tool(s) != "list_orders" || args(t, s)["status"] != "delivered" || result(s) != "ok" || !contains(data(t, s), "'order_id': 'W-19873'") {
		t.Errorf("step 2: %s %s %s %q", tool(s), s.ToolCall.Args, result(s), data(t, s))
	}
	s = c.step(t, run, 3)
	if tool(s) != "issue_refund" || args(t, s)["amount_eur"] != 42.5 || !contains(data(t, s), "Refund rf_71c0d2 created") || !contains(reason(s), "I'll refund it in full") {
		t.Errorf("step 3: %s %s %q %q", tool(s), s.ToolCall.Args, data(t, s), reason(s))
	}
	last := c.step(t, run, 4)
	if last.State != schema.StateStop.String() || last.ToolCall != nil || !contains(reason(last), "I've issued a full refund of 42.50 EUR") {
		t.Errorf("last: %s %v %q", last.State, last.ToolCall, reason(last))
	}
	if last.Usage == nil || last.Usage.PromptTokens != 1180 || last.Usage.CompletionTokens != 71 {
		t.Errorf("last usage %+v, want the answer's generation", last.Usage)
	}
	if p, cmpl, _, _ := usageSum(c, run); p != 388+702+791+1004+1180 || cmpl != 14+31+29+58+71 {
		t.Errorf("usage %d/%d", p, cmpl)
	}
}

// The same records as one JSON array, and as the backend exporter's batch,
// read alike.
func TestOpenAIAgentsArrayAndBatch(t *testing.T) {
	lines := oaaLines(t, "loop.ndjson")
	for _, batch := range []bool{false, true} {
		c, run := convertOne(t, OpenAIAgents, oaaJoin(lines, batch))
		if run != oaaLoopRun || len(c.numbers(run)) != 8 || result(c.step(t, run, 7)) != "error TIMEOUT" {
			t.Errorf("batch %v: run %q steps %v", batch, run, c.numbers(run))
		}
	}
}

// Span by span: handoffs back and forth are calls of "handoff"; a tripped
// guardrail fails as GUARDRAIL_TRIPPED; response spans count their usage;
// a Responses-shaped generation output gives its words and calls; errors
// are typed from the message and data; broken arguments are kept as text;
// a span written at its start and again at its end counts once.
func TestOpenAIAgentsSpanKinds(t *testing.T) {
	const tr = `"trace_id": "trace_1"`
	sp := func(id, start, data string, more ...string) string {
		return `{"object": "trace.span", "id": "` + id + `", ` + tr + `, "parent_id": "span_agent", "started_at": "2025-06-01T10:00:` + start +
			`+00:00", "ended_at": "2025-06-01T10:00:` + start + `+00:00", "span_data": ` + data + strings.Join(more, "") + `}`
	}
	records := []string{
		`{"object": "trace", "id": "trace_1", "workflow_name": "w", "group_id": "conv-9", "metadata": null}`,
		sp("span_agent", "00.000000", `{"type": "agent", "name": "Triage", "handoffs": ["Billing"], "tools": [], "output_type": null}`),
		sp("span_h1", "01.000000", `{"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"}`),
		sp("span_h2", "02.000000", `{"type": "handoff", "from_agent": "Billing", "to_agent": "Triage"}`),
		sp("span_g", "03.000000", `{"type": "guardrail", "name": "pii_check", "triggered": true}`),
		sp("span_g2", "03.500000", `{"type": "guardrail", "name": "tone_check", "triggered": false}`),
		sp("span_r", "04.000000", `{"type": "response", "response_id": "resp_1", "usage": {"requests": 1, "input_tokens": 500, "output_tokens": 20, "total_tokens": 520}}`),
		sp("span_r0", "04.500000", `{"type": "response", "response_id": "resp_0"}`),
		sp("span_gen", "05.000000", `{"type": "generation", "model": "gpt-4.1", "usage": {"input_tokens": 30, "output_tokens": 7}, "output": [{"id": "resp_2", "object": "response", "model": "gpt-4.1-2025-04-14",
			"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking the ledger.", "annotations": []}]},
			           {"type": "function_call", "call_id": "call_9", "name": "ledger", "arguments": "{\"account\": 12}"}]}]}`),
		sp("span_f", "06.000000", `{"type": "function", "name": "ledger", "input": "{\"account\": 12}", "output": "Error: account 12 is closed", "mcp_data": null}`),
		sp("span_f2", "07.000000", `{"type": "function", "name": "ledger", "input": "{\"account\": ", "output": null, "mcp_data": null}`,
			`, "error": {"message": "Error running tool", "data": {"tool_name": "ledger", "error": "Invalid JSON input for tool ledger"}}`),
		// The same span written at its start, without its end or output.
		`{"object": "trace.span", "id": "span_f3", ` + tr + `, "parent_id": "span_agent", "started_at": "2025-06-01T10:00:08+00:00", "ended_at": null, "span_data": {"type": "function", "name": "ledger", "input": null, "output": null}, "error": null}`,
		sp("span_f3", "08.000000", `{"type": "function", "name": "ledger", "input": null, "output": "[]", "mcp_data": {"server": "books"}}`),
		sp("span_gen2", "09.000000", `{"type": "generation", "model": "gpt-4.1", "output": null, "usage": null}`,
			`, "error": {"message": "Error getting response", "data": {"error": "Error code: 429 - Rate limit reached for gpt-4.1"}}`),
	}
	var raw [][]byte
	for _, r := range records {
		raw = append(raw, []byte(strings.ReplaceAll(strings.ReplaceAll(r, "\n", " "), "\t", " ")))
	}
	c := oaaAssemble(t, raw...)
	run := "conv-9"
	if fmt.Sprint(c.runs) != "[conv-9]" {
		t.Fatalf("runs %v", c.runs)
	}
	want := []string{
		"ACT handoff {\"to_agent\":\"Billing\"} ok",
		"ACT handoff {\"to_agent\":\"Triage\"} ok",
		"ACT guardrail:pii_check {} error GUARDRAIL_TRIPPED",
		" - - none",
		"ACT ledger {\"account\": 12} error ERROR",
		"ACT ledger {\"raw\":\"{\\\"account\\\": \"} error ERROR",
		"ACT ledger {} ok",
		"STOP model {\"model\":\"gpt-4.1\"} error RATE_LIMIT",
	}
	if got := c.numbers(run); len(got) != len(want) {
		t.Fatalf("steps %v, want %d", got, len(want))
	}
	for i, w := range want {
		s := c.step(t, run, int64(i))
		name, a := "-", "-"
		if s.ToolCall != nil {
			name, a = s.ToolCall.Name, string(s.ToolCall.Args)
		}
		if got := fmt.Sprintf("%s %s %s %s", s.State, name, a, result(s)); got != w {
			t.Errorf("step %d: %s, want %s", i, got, w)
		}
	}
	if s := c.step(t, run, 2); data(t, s) != "guardrail tripwire triggered" {
		t.Errorf("guardrail data %q", data(t, s))
	}
	if s := c.step(t, run, 3); s.Usage == nil || s.Usage.PromptTokens != 500 || s.Usage.CompletionTokens != 20 {
		t.Errorf("response span with usage: %+v", s.Usage)
	}
	if s := c.step(t, run, 4); reason(s) != "Checking the ledger." || s.Usage == nil || s.Usage.PromptTokens != 30 {
		t.Errorf("Responses-shaped generation output: reason %q usage %+v", reason(s), s.Usage)
	}
	if s := c.step(t, run, 5); data(t, s) != "Error running tool: Invalid JSON input for tool ledger" {
		t.Errorf("failure without output: %q, want the message and data.error", data(t, s))
	}
	if s := c.step(t, run, 6); data(t, s) != "[]" {
		t.Errorf("the finished record of a span logged twice: %q", data(t, s))
	}
}

// Without a trace record, or with one without group_id, a run is its
// trace; a timeout the SDK reports as the tool's output (timeout_seconds)
// is a TIMEOUT by the output rules.
func TestOpenAIAgentsRunsByTrace(t *testing.T) {
	doc := `[{"object": "trace", "id": "trace_a", "workflow_name": "w", "group_id": null, "metadata": null},
	 {"object": "trace.span", "id": "span_1", "trace_id": "trace_a", "parent_id": null, "started_at": "2025-06-01T10:00:00.5+00:00", "ended_at": "2025-06-01T10:00:05+00:00",
	  "span_data": {"type": "function", "name": "crawl", "input": "{\"url\": \"https://example.com\"}", "output": "Tool 'crawl' timed out after 5 seconds.", "mcp_data": null}, "error": null},
	 {"object": "trace.span", "id": "span_2", "trace_id": "trace_b", "parent_id": null, "started_at": "2025-06-01T10:00:00Z", "ended_at": "2025-06-01T10:00:01Z",
	  "span_data": {"type": "function", "name": "crawl", "input": "{}", "output": "ok"}, "error": null}]`
	c := oaaAssemble(t, []byte(doc))
	if fmt.Sprint(c.runs) != "[trace_a trace_b]" {
		t.Fatalf("runs %v", c.runs)
	}
	if s := c.step(t, "trace_a", 0); result(s) != "error TIMEOUT" || args(t, s)["url"] != "https://example.com" {
		t.Errorf("trace_a: %s %s", result(s), s.ToolCall.Args)
	}
	if s := c.step(t, "trace_b", 0); s.TS == nil || s.TS.UnixMilli != time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC).UnixMilli() {
		t.Errorf("trace_b ts %v", s.TS)
	}
}

func TestOpenAIAgentsRecognize(t *testing.T) {
	accept := []string{
		`{"object": "trace", "id": "trace_1", "workflow_name": "w", "group_id": null}`,
		`{"object": "trace.span", "id": "span_1", "trace_id": "trace_1", "span_data": {"type": "agent", "name": "a"}}`,
		`{"id": "span_1", "trace_id": "trace_1", "span_data": {"type": "function", "name": "f"}}`,
		`[{"object": "trace", "id": "trace_1"}, {"object": "trace.span", "id": "span_1", "span_data": {}}]`,
		`{"data": [{"object": "trace.span", "id": "span_1", "span_data": {"type": "custom"}}]}`,
	}
	for _, doc := range accept {
		d, err := ParseDoc("x", 1, true, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := OpenAIAgents.Recognize(d); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
	for _, c := range []struct{ doc, why string }{
		{`{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "01", "spanId": "02", "name": "chat"}]}]}]}`, `no "object": "trace.span" or "trace", no "span_data", no "data" list of them`},
		{`{"messages": [{"role": "user", "content": "hi"}]}`, `no "object": "trace.span" or "trace", no "span_data", no "data" list of them`},
		{`{"trajectory": [{"action": "ls", "observation": ""}], "info": {}}`, `no "object": "trace.span" or "trace", no "span_data", no "data" list of them`},
		{`{"object": "response", "id": "resp_1", "output": []}`, `no "object": "trace.span" or "trace", no "span_data", no "data" list of them`},
		{`{"object": "trace.span"}`, ""},
		{`{"span_data": "function"}`, `no "object": "trace.span" or "trace", no "span_data", no "data" list of them`},
		{`{"data": []}`, `"data" is an empty list`},
		{`{"data": {"object": "trace"}}`, `"data" is not a list`},
		{`{"data": [{"id": 1, "traceId": "t", "type": "GENERATION", "startTime": "2025-01-01T00:00:00Z"}], "meta": {"page": 1}}`, `"data" is not a list of trace and span records`},
		{`[]`, "an empty list"},
		{`[{"role": "user", "content": "hi"}]`, "a list whose first element is not a trace or span record"},
		{`[{"run_id": "r1", "step": 0, "state": "ACT"}]`, "a list whose first element is not a trace or span record"},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		err = OpenAIAgents.Recognize(d)
		switch {
		case c.why == "" && err != nil:
			t.Errorf("%s: %v", c.doc, err)
		case c.why != "" && (err == nil || err.Error() != c.why):
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
	}
	// Every other format's samples are refused; every other format
	// refuses these samples, line by line, as an array and as a batch.
	for _, s := range sampleDocs {
		if err := OpenAIAgents.Recognize(sampleDoc(t, s.rel, s.line)); err == nil {
			t.Errorf("openai-agents recognises %s, a %s document", s.rel, s.format.Name)
		}
	}
	var docs [][]byte
	for _, name := range []string{"loop.ndjson", "healthy.ndjson"} {
		lines := oaaLines(t, name)
		docs = append(append(docs, lines...), oaaJoin(lines, false), oaaJoin(lines, true))
	}
	for _, doc := range docs {
		d, err := ParseDoc("x", 1, true, doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := OpenAIAgents.Recognize(d); err != nil {
			t.Errorf("openai-agents refuses its sample %.80s: %v", doc, err)
		}
		for _, f := range Registry {
			if f != OpenAIAgents && f.Recognize(d) == nil {
				t.Errorf("%s recognises an openai-agents document: %.80s", f.Name, doc)
			}
		}
	}
}

// A record the SDK would not write is an error, the document's reject;
// nothing of a document with a broken record is kept.
func TestOpenAIAgentsMalformed(t *testing.T) {
	good := `{"object": "trace.span", "id": "span_1", "trace_id": "t", "started_at": "2025-06-01T10:00:00+00:00", "span_data": {"type": "function", "name": "f", "input": "{}"}}`
	for _, c := range []struct{ doc, why string }{
		{`{"object": "trace.span", "id": "span_1", "trace_id": "t"}`, `span "span_1" has no "span_data" object`},
		{`{"object": "trace.span", "id": "span_1", "span_data": null}`, `span "span_1" has no "span_data" object`},
		{`{"object": "trace.span", "id": "span_1", "span_data": {"type": "function"}, "started_at": "yesterday"}`, `span "span_1": started_at: "yesterday" is not an ISO 8601 time`},
		{`{"object": "trace.span", "id": "span_1", "span_data": {"type": "function", "name": 7}}`, `span "span_1": "name" is a JSON number, not what the SDK writes there`},
		{`{"object": "trace.span", "id": 1, "span_data": {}}`, `"id" is a JSON number, not what the SDK writes there`},
		{`{"object": "trace", "workflow_name": "w"}`, `a trace record without an "id"`},
		{`[` + good + `, {"object": "trace", "id": 5}]`, `record 1: "id" is a JSON number, not what the SDK writes there`},
		{`[` + good + `, 3]`, `record 1: not a JSON object`},
		{`[` + good + `, {"note": "x"}]`, `record 1: neither a trace nor a span record (no "object": "trace.span" or "trace", no "span_data")`},
		{`{"data": [` + good + `, {"object": "trace.span", "id": "s", "span_data": {"type": "guardrail", "triggered": "yes"}}]}`, `record 1: span "s": "triggered" is a JSON string, not what the SDK writes there`},
	} {
		d, err := ParseDoc("x", 1, true, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := OpenAIAgents.Recognize(d); err != nil {
			t.Errorf("%s: not recognised (%v), so never read", c.doc, err)
			continue
		}
		added := 0
		err = OpenAIAgents.Spans(d, func(*Span) error { added++; return nil })
		if err == nil || err.Error() != c.why {
			t.Errorf("%s: %v, want %q", c.doc, err, c.why)
		}
		if added != 0 {
			t.Errorf("%s: %d spans added before the error", c.doc, added)
		}
	}
}

func FuzzOpenAIAgents(f *testing.F) {
	var seeds [][]byte
	for _, name := range []string{"loop.ndjson", "healthy.ndjson"} {
		lines := oaaLines(f, name)
		seeds = append(append(seeds, lines...), oaaJoin(lines, false), oaaJoin(lines, true))
	}
	seeds = append(seeds,
		[]byte(`[{"object": "trace.span", "id": "s", "span_data": {"type": "generation", "output": [{"tool_calls": [{"function": {"arguments": "\"\""}}, {}]}, {"object": "response", "output": [{"type": "function_call"}, {"output": [{"output": []}]}]}], "usage": {"input_tokens": -5, "output_tokens": 1e300}}}]`),
		[]byte(`{"object": "trace.span", "id": "s", "span_data": {"type": "handoff", "to_agent": null}, "error": "boom"}`),
		[]byte(`{"object": "trace.span", "id": "s", "span_data": {"type": "response", "usage": {}}, "error": {"message": null, "data": [1]}, "started_at": "9999-01-01T00:00:00Z"}`),
		[]byte(`{"data": [{"object": "trace", "id": "t", "group_id": ""}, {"span_data": {"type": "guardrail", "triggered": true}}]}`),
	)
	fuzzFormat(f, OpenAIAgents, seeds...)
}
