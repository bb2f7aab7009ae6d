package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Google ADK sessions: each event's content is read as a Gemini Content,
// its author naming the agent; a function response with "status": "error"
// failed; a model call that failed (an error code, no content) is a failed
// call of "model"; usage metadata and the timestamp (seconds) are kept; the
// session's id names the run.
func TestADKSessions(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/adk-session-loop.json"))
	if !strings.HasSuffix(run, "#0b6e2f4c-5a1d-4c8e-9f3b-2d7a1e6c4b90") {
		t.Errorf("run %s, want it named by the session's id", run)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7 9 11]" {
		t.Fatalf("steps %s, want [1 3 5 7 9 11]", got)
	}
	s := c.step(t, run, 9)
	if tool(s)+" "+result(s) != "get_order_status error ERROR" || !strings.Contains(data(t, s), "503 Service Unavailable") {
		t.Errorf("step 9: %s %s %q, want the tool's status error with its message", tool(s), result(s), data(t, s))
	}
	if s.Usage == nil || s.Usage.PromptTokens != 1770 || s.Usage.CompletionTokens != 18 || s.Usage.Model != "gemini-2.5-flash" || s.TS == nil {
		t.Errorf("step 9 usage %+v ts %v, want usageMetadata, modelVersion and the time", s.Usage, s.TS)
	}

	// A Python dump (snake case) of a coordinator and its billing agent.
	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/adk-session.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 4 6 8]" {
		t.Fatalf("steps %s, want [1 3 4 6 8]", got)
	}
	c.calls(t, run, map[int64]string{1: "transfer_to_agent ok", 3: "model error RATE_LIMIT", 4: "list_charges ok", 6: "refund_charge ok"})
	if s := c.step(t, run, 8); s.State != "STOP" || s.Usage == nil || s.Usage.PromptTokens != 1190 {
		t.Errorf("step 8: %s %+v, want the answer as STOP with usage_metadata's tokens", s.State, s.Usage)
	}
}

// Events written one a line are one run; calls made together keep a number
// each; streaming chunks (partial) are not read.
func TestADKEventsPerLine(t *testing.T) {
	lines := []string{
		`{"author": "user", "invocationId": "e1", "content": {"role": "user", "parts": [{"text": "Weather in Oslo and Bergen?"}]}, "timestamp": 1764583200.0}`,
		`{"author": "weather", "invocationId": "e1", "partial": true, "content": {"role": "model", "parts": [{"text": "Let me"}]}, "timestamp": 1764583201.0}`,
		`{"author": "weather", "invocationId": "e1", "content": {"role": "model", "parts": [{"functionCall": {"id": "a", "name": "forecast", "args": {"city": "Oslo"}}}, {"functionCall": {"id": "b", "name": "forecast", "args": {"city": "Bergen"}}}]}, "timestamp": 1764583202.0}`,
		`{"author": "weather", "invocationId": "e1", "content": {"role": "user", "parts": [{"functionResponse": {"id": "b", "name": "forecast", "response": {"status": "success", "report": "rain"}}}, {"functionResponse": {"id": "a", "name": "forecast", "response": {"status": "error", "error_message": "no station"}}}]}, "timestamp": 1764583203.0}`,
		`{"author": "weather", "invocationId": "e1", "content": {"role": "model", "parts": [{"text": "Bergen: rain; Oslo: unknown."}]}, "timestamp": 1764583204.0}`,
	}
	first, err := ParseDoc("events.jsonl", 1, false, []byte(lines[0]))
	if err != nil || !OpenAIMessages.Transcript(first) {
		t.Fatalf("first line: %v, want it to start a transcript", err)
	}
	d, err := ParseLines("events.jsonl", 1, []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(OpenAIMessages, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.numbers("events.jsonl")); got != "[2 3 5]" {
		t.Fatalf("steps %s, want [2 3 5]: the chunk is no step, the two calls keep a number each", got)
	}
	if s := c.step(t, "events.jsonl", 2); result(s) != "error ERROR" || !strings.Contains(data(t, s), "no station") {
		t.Errorf("Oslo: %s %q, want its failed answer", result(s), data(t, s))
	}
	if s := c.step(t, "events.jsonl", 3); result(s) != "ok" || !strings.Contains(data(t, s), "rain") {
		t.Errorf("Bergen: %s %q, want its own answer", result(s), data(t, s))
	}
}
