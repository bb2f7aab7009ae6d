package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// The loop sample (MLflow 3's layout, one Trace.to_json document): the
// run is the trace's session; each model span gives the reason and usage
// of the call it asked for, each tool span the call with its inputs as
// args and its outputs as result; the model's last words end the run.
func TestMLflowLoopSample(t *testing.T) {
	raw := readSample(t, "../traces/mlflow/loop.json")
	c := assembleSpans(t, spansOfDocs(t, MLflow, raw))
	run := "sess-travel-0193"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{run}) {
		t.Fatalf("runs %v", c.runs)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[0 1 2 3 4 5 6]" {
		t.Fatalf("steps %s", got)
	}
	first := c.step(t, run, 0)
	if tool(first) != "search_flights" || args(t, first)["destination"] != "NRT" || result(first) != "ok" ||
		!strings.Contains(data(t, first), "No flights found") || reason(first) != "Let me search flights." {
		t.Errorf("first call: %s %v %s %q %q", tool(first), args(t, first), result(first), data(t, first), reason(first))
	}
	if first.Usage == nil || first.Usage.PromptTokens != 1200 || first.Usage.CompletionTokens != 31 || first.Usage.Model != "gpt-4.1-2025-04-14" {
		t.Errorf("usage %+v", first.Usage)
	}
	if s := c.step(t, run, 6); s.State != "STOP" || !strings.HasPrefix(reason(s), "Sorry, I could not find") {
		t.Errorf("answer: %q %q", s.State, reason(s))
	}
}

// The healthy sample (MLflow 2's layout, a trace a line): a trace without
// a session is a run of its trace id; a retriever's documents are its
// result; a tool span that failed with an exception event failed as the
// exception says.
func TestMLflowTwoLayoutSample(t *testing.T) {
	var docs [][]byte
	for _, l := range sampleLines(t, "../traces/mlflow/healthy.ndjson") {
		docs = append(docs, l)
	}
	c := assembleSpans(t, spansOfDocs(t, MLflow, docs...))
	if fmt.Sprint(c.runs) != "[tr-00000000000000000000000000004f00 tr-00000000000000000000000000004f01]" {
		t.Fatalf("runs %v", c.runs)
	}
	run := "tr-00000000000000000000000000004f01"
	c.calls(t, run, map[int64]string{0: "VectorStoreRetriever ok", 1: "lookup_country error TIMEOUT"})
	if s := c.step(t, run, 0); !strings.Contains(data(t, s), "Norway, Switzerland") {
		t.Errorf("retrieved: %q", data(t, s))
	}
	if s := c.step(t, run, 1); !strings.Contains(data(t, s), "geo service did not answer") {
		t.Errorf("failure text: %q", data(t, s))
	}
}

// A retriever that found nothing is an empty result; a model span's
// Anthropic message gives its words and calls.
func TestMLflowEmptyRetrievalAndAnthropic(t *testing.T) {
	doc := `{"info":{"trace_id":"tr-1"},"data":{"spans":[
	 {"trace_id":"tr-1","span_id":"01","parent_span_id":null,"name":"claude","start_time_unix_nano":1000,"end_time_unix_nano":2000,"status":{"code":"OK"},
	  "attributes":{"mlflow.spanType":"\"LLM\"","mlflow.spanOutputs":"{\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"Searching.\"},{\"type\":\"tool_use\",\"id\":\"tu1\",\"name\":\"kb_search\",\"input\":{\"q\":\"refund\"}}],\"usage\":{\"input_tokens\":50,\"output_tokens\":9}}"}},
	 {"trace_id":"tr-1","span_id":"02","parent_span_id":null,"name":"kb_search","start_time_unix_nano":3000,"end_time_unix_nano":4000,"status":{"code":"OK"},
	  "attributes":{"mlflow.spanType":"\"RETRIEVER\"","mlflow.spanInputs":"{\"q\": \"refund\"}","mlflow.spanOutputs":"[]"}}]}}`
	c := assembleSpans(t, spansOfDocs(t, MLflow, []byte(doc)))
	s := c.step(t, "tr-1", 0)
	if tool(s) != "kb_search" || result(s) != "ok empty" || reason(s) != "Searching." || s.Usage == nil || s.Usage.Model != "claude-sonnet-4-5" || s.Usage.PromptTokens != 50 {
		t.Errorf("retrieval: %s %s %q %+v", tool(s), result(s), reason(s), s.Usage)
	}
}

// MLflow's keys sent over OTLP (its OpenTelemetry exporter, or any
// instrumentation that sets them) are read by otlp: the span type, the
// inputs as args, the outputs as result.
func TestOTLPReadsMLflowKeys(t *testing.T) {
	doc := `{"resourceSpans":[{"resource":{},"scopeSpans":[{"spans":[
	 {"traceId":"BBBB0000000000000000000000000002","spanId":"01","name":"get_weather","startTimeUnixNano":"1000000000","endTimeUnixNano":"2000000000",
	  "attributes":[{"key":"mlflow.spanType","value":{"stringValue":"\"TOOL\""}},{"key":"mlflow.spanInputs","value":{"stringValue":"{\"city\": \"Oslo\"}"}},
	   {"key":"mlflow.spanOutputs","value":{"stringValue":"\"rain, 4 C\""}}]}
	]}]}]}`
	c, run := convertOne(t, OTLP, []byte(doc))
	if s := c.step(t, run, 0); tool(s) != "get_weather" || args(t, s)["city"] != "Oslo" || data(t, s) != "rain, 4 C" || result(s) != "ok" {
		t.Errorf("step 0: %s %v %q %s", tool(s), args(t, s), data(t, s), result(s))
	}
}
