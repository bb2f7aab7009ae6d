package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// The search-loop sample: a step is the line of its record, the second call
// of a turn the line of its answer; the CLI's telemetry record is no step;
// the searches that find nothing are empty results of one intent; the
// model's thought comes before its words in the reason.
func TestQwenCodeSearchLoopSample(t *testing.T) {
	const file = "session-search-loop.ndjson"
	c := readFileOf(t, QwenCode, file, readSample(t, "qwen-code/"+file))
	run := file + "#5b0d7e21-6c4f-4a9e-b2d3-8f1e0a9c7d64"
	if fmt.Sprint(c.runs) != fmt.Sprint([]string{run}) {
		t.Fatalf("runs %q", c.runs)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 5 7 9 11 13 15 17]" {
		t.Fatalf("steps %s", got)
	}
	read := c.step(t, run, 2)
	if tool(read) != "read_file" || result(read) != "ok" || !strings.HasPrefix(reason(read), "The cap is probably a constant") {
		t.Errorf("read: %s %s %q", tool(read), result(read), reason(read))
	}
	if read.Usage == nil || read.Usage.Model != "qwen3-coder-plus" || read.Usage.PromptTokens != 21000 || read.Usage.CompletionTokens != 240 {
		t.Errorf("usage %+v", read.Usage)
	}
	for _, n := range []int64{4, 5, 7, 15} {
		if s := c.step(t, run, n); tool(s) != "grep_search" || s.Intent != searchIntent || result(s) != "ok empty" {
			t.Errorf("step %d: %s %q %s", n, tool(s), s.Intent, result(s))
		}
	}
	if s := c.step(t, run, 17); s.State != "STOP" {
		t.Errorf("answer: %q", s.State)
	}
}

// The healthy sample: the failing test run fails by pytest's summary, the
// edit tool's change is an edit, the passing run is ok.
func TestQwenCodeHealthySample(t *testing.T) {
	const file = "session-test-fix.ndjson"
	c := readFileOf(t, QwenCode, file, readSample(t, "qwen-code/"+file))
	run := file + "#a4c2e9f0-1b7d-4e3a-9c58-2d6f0b1e8a37"
	c.calls(t, run, map[int64]string{1: "run_shell_command error TESTS_FAILED", 3: "read_file ok", 5: "edit ok", 7: "run_shell_command ok"})
	if s := c.step(t, run, 5); s.Intent != "edit" {
		t.Errorf("edit intent %q", s.Intent)
	}
}

// A Qwen Code record is not taken for Claude Code's, whose ids and types
// it shares; a Claude Code record still is Claude Code's.
func TestQwenCodeIsNotClaudeCode(t *testing.T) {
	for raw, want := range map[string]*Format{
		`{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`:            QwenCode,
		`{"uuid":"u","parentUuid":null,"sessionId":"s","type":"system","subtype":"ui_telemetry","systemPayload":{}}`:                QwenCode,
		`{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"hi"},"isSidechain":false}`: AnthropicMessages,
	} {
		d, err := ParseDoc("s.jsonl", 1, false, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if f, err := Detect(d); f != want {
			t.Errorf("%s: %v (%v), want %s", raw, f, err, want.Name)
		}
	}
}

// How a call failed comes from the CLI's toolCallResult: the editor's
// error type, a cancelled call refused; a subagent's records are a run of
// their own; a later call of a turn never answered is left out.
func TestQwenCodeResultsAndSubagents(t *testing.T) {
	lines := []string{
		`{"uuid":"1","sessionId":"q","type":"user","message":{"role":"user","parts":[{"text":"rename it"}]}}`,
		`{"uuid":"2","sessionId":"q","type":"assistant","message":{"role":"model","parts":[{"functionCall":{"id":"e1","name":"edit","args":{"file_path":"/a.py","old_string":"x","new_string":"y"}}},{"functionCall":{"id":"e2","name":"edit","args":{"file_path":"/b.py","old_string":"x","new_string":"y"}}}]}}`,
		`{"uuid":"3","sessionId":"q","type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"e1","name":"edit","response":{"error":"Failed to edit, could not find the string to replace."}}}]},"toolCallResult":{"callId":"e1","status":"error","errorType":"edit_no_occurrence_found","error":{"message":"x"}}}`,
		`{"uuid":"4","sessionId":"q","type":"assistant","message":{"role":"model","parts":[{"functionCall":{"id":"s1","name":"run_shell_command","args":{"command":"rm -rf build"}}}]}}`,
		`{"uuid":"5","sessionId":"q","type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"s1","name":"run_shell_command","response":{"error":"User cancelled"}}}]},"toolCallResult":{"callId":"s1","status":"cancelled"}}`,
		`{"uuid":"6","sessionId":"q","type":"assistant","isSidechain":true,"agentId":"explore-7f3c","message":{"role":"model","parts":[{"functionCall":{"id":"g1","name":"glob","args":{"pattern":"**/*.py"}}}]}}`,
		`{"uuid":"7","sessionId":"q","type":"tool_result","isSidechain":true,"agentId":"explore-7f3c","message":{"role":"user","parts":[{"functionResponse":{"id":"g1","name":"glob","response":{"output":"/a.py"}}}]},"toolCallResult":{"callId":"g1","status":"success"}}`,
	}
	c := readFileOf(t, QwenCode, "q.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	if fmt.Sprint(c.runs) != "[q.jsonl#q q.jsonl#q#agent-explore-7f3c]" {
		t.Fatalf("runs %v", c.runs)
	}
	if got := fmt.Sprint(c.numbers("q.jsonl#q")); got != "[1 3]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, "q.jsonl#q", map[int64]string{1: "edit error EDIT_REJECTED", 3: "run_shell_command error REJECTED"})
	c.calls(t, "q.jsonl#q#agent-explore-7f3c", map[int64]string{5: "glob ok"})
}

// qwenDoc is a Qwen Code session, its records as one JSON array, whose
// model (record 1) calls tool with args and gets output back (an error
// when failed); the call is step 1.
func qwenDoc(t testing.TB, tool string, args map[string]any, output string, failed bool) []byte {
	resp, tcr := map[string]any{"output": output}, map[string]any{"callId": "c1", "status": "success"}
	if failed {
		resp, tcr = map[string]any{"error": output}, map[string]any{"callId": "c1", "status": "error", "error": map[string]any{"message": output}}
	}
	return mustMarshal(t, []map[string]any{
		{"uuid": "1", "sessionId": "s", "type": "user", "message": map[string]any{"role": "user", "parts": []map[string]any{{"text": "go"}}}},
		{"uuid": "2", "sessionId": "s", "type": "assistant", "message": map[string]any{"role": "model", "parts": []map[string]any{{"functionCall": map[string]any{"id": "c1", "name": tool, "args": args}}}}},
		{"uuid": "3", "sessionId": "s", "type": "tool_result", "message": map[string]any{"role": "user", "parts": []map[string]any{{"functionResponse": map[string]any{"id": "c1", "name": tool, "response": resp}}}}, "toolCallResult": tcr},
	})
}
