package adapters

import (
	"encoding/json"
	"testing"
)

// AgentChat's Console transcript: a header per message, a tool call
// request and its results as their Python reprs; a step is numbered by its
// header's place among the transcript's messages, and a library's
// warnings printed between two messages are not part of either.
func TestAgentChatConsoleTranscript(t *testing.T) {
	raw := []byte(`/venv/lib/python3.12/site-packages/autogen_ext/models/openai/_openai_client.py:413: UserWarning: Missing required field 'structured_output'
  validate_model_info(self._model_info)
---------- TextMessage (user) ----------
What is the weather in Oslo?
---------- ToolCallRequestEvent (weather_agent) ----------
[FunctionCall(id='call_1', arguments='{"city": "Oslo"}', name='get_weather')]
/venv/lib/python3.12/site-packages/autogen_core/_component_config.py:252: UserWarning: deprecated
[Prompt tokens: 61, Completion tokens: 15]
---------- ToolCallExecutionEvent (weather_agent) ----------
[FunctionExecutionResult(content="Error: city 'Oslo' not found in the station list", name='get_weather', call_id='call_1', is_error=True)]
---------- TextMessage (weather_agent) ----------
I could not find Oslo's weather.
[Prompt tokens: 90, Completion tokens: 9]
---------- Summary ----------
Number of messages: 4
Finish reason: None
`)
	c, run := convertOne(t, AutoGen, raw)
	if got := c.numbers(run); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("steps %v, want the call (message 1) and the answer (message 3)", got)
	}
	s := c.step(t, run, 1)
	if tool(s) != "get_weather" || args(t, s)["city"] != "Oslo" || result(s) != "error ERROR" {
		t.Errorf("step 1: %s %s %s", tool(s), s.ToolCall.Args, result(s))
	}
	if s.Usage == nil || s.Usage.PromptTokens != 61 || s.Usage.CompletionTokens != 15 {
		t.Errorf("step 1 usage %+v, want the stats line's tokens", s.Usage)
	}
	if c.step(t, run, 3).State != "STOP" {
		t.Errorf("the last message is not STOP")
	}
}

// Earlier releases print the source alone; the tool events are known
// by their reprs.
func TestAgentChatConsoleOldHeaders(t *testing.T) {
	raw := []byte(`---------- user ----------
Find the report.
---------- assistant ----------
[FunctionCall(id='c1', arguments='{"q": "report"}', name='search')]
---------- assistant ----------
[FunctionExecutionResult(content='[]', call_id='c1')]
---------- assistant ----------
Nothing found.
`)
	c, run := convertOne(t, AutoGen, raw)
	if s := c.step(t, run, 1); tool(s) != "search" || result(s) != "ok empty" {
		t.Errorf("step 1: %s %s", tool(s), result(s))
	}
}

// Python reprs: either quote, escapes, parentheses and quotes inside
// strings, numbers, booleans and None.
func TestPyCallList(t *testing.T) {
	raw, ok := pyCallList(`[FunctionCall(id='a', arguments='{"s": "it\'s (x)"}', name="say \"hi\""), FunctionCall(id='b\n', arguments='{}', name='n', n=3, f=None, t=True)] trailing`, "FunctionCall")
	var got []map[string]any
	if !ok || json.Unmarshal(raw, &got) != nil || len(got) != 2 {
		t.Fatalf("%s %v", raw, ok)
	}
	if got[0]["arguments"] != `{"s": "it's (x)"}` || got[0]["name"] != `say "hi"` || got[1]["id"] != "b\n" || got[1]["n"] != 3.0 || got[1]["f"] != nil || got[1]["t"] != true {
		t.Errorf("%#v", got)
	}
	for _, bad := range []string{`[]`, `FunctionCall(id='a')`, `[FunctionCall(id='a)]`, `[Other(id='a')]`, `[FunctionCall(id=a)]`} {
		if _, ok := pyCallList(bad, "FunctionCall"); ok {
			t.Errorf("%q read as a list of calls", bad)
		}
	}
}
