package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// An Inspect AI .json log: a run per sample, named by its id and epoch;
// steps numbered by the message's position in the sample's list; the
// transcript's model events give each call its time and tokens (the
// cache counted within the prompt), a tool error of the text editor is a
// change that did not land, and submit ends the run.
func TestInspectLog(t *testing.T) {
	c := convert(t, Inspect, "t.json", 1, true, readSample(t, "inspect/fix-dates-samples.json"))
	if got := fmt.Sprint(c.runs); got != "[t.json#dates-1_epoch_1 t.json#dates-2_epoch_1]" {
		t.Fatalf("runs %s", got)
	}
	run := c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[2 4 6 8 10 12 14]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{2: "bash error TESTS_FAILED", 4: "text_editor ok", 6: "text_editor error EDIT_REJECTED", 12: "text_editor error EDIT_REJECTED"})
	s := c.step(t, run, 6)
	if u := s.Usage; u == nil || u.PromptTokens != 3000 || u.CompletionTokens != 120 || u.CacheReadTokens != 1024 || u.Model != "openai/gpt-4.1" {
		t.Errorf("usage %+v, want the model event's: prompt 3000 (total less output), 120 out, 1024 cached", u)
	}
	if s.TS == nil || s.TS.UnixMilli != 1772460310500 {
		t.Errorf("ts %v, want the tool event's start", s.TS)
	}
	if r := reason(c.step(t, run, 2)); !strings.HasPrefix(r, "The parser must accept a trailing Z.") || !strings.Contains(r, "Let me look at the test first.") {
		t.Errorf("reason %q, want the reasoning and the text", r)
	}
	if s := c.step(t, run, 14); tool(s) != "submit" || s.State != "STOP" {
		t.Errorf("last step %s %s, want submit STOP", tool(s), s.State)
	}
}

// Inspect's tool errors by type; an output cut at the limit is no error.
func TestInspectToolErrors(t *testing.T) {
	var msgs []any
	types := []string{"parsing", "timeout", "permission", "file_not_found", "approval", "output_limit", "unknown", "is_a_directory"}
	for i, typ := range types {
		id := fmt.Sprint("c", i)
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": id, "function": "bash", "arguments": map[string]any{"cmd": fmt.Sprint("cmd ", i)}}}},
			map[string]any{"role": "tool", "content": "", "tool_call_id": id, "function": "bash", "error": map[string]any{"type": typ, "message": "it went wrong: " + typ}})
	}
	raw := mustMarshal(t, map[string]any{"id": 7, "epoch": 2, "input": "x", "target": "y", "messages": msgs,
		"model_usage": map[string]any{"anthropic/claude-sonnet-4-5": map[string]any{"input_tokens": 10, "output_tokens": 800, "total_tokens": 4010, "input_tokens_cache_read": 3200}}})
	c, run := convertOne(t, Inspect, raw)
	if run != "t.json#7_epoch_2" {
		t.Errorf("run %q", run)
	}
	c.calls(t, run, map[int64]string{0: "bash error INVALID_CALL", 2: "bash error TIMEOUT", 4: "bash error PERMISSION_DENIED",
		6: "bash error NO_SUCH_FILE", 8: "bash error REJECTED", 10: "bash ok", 12: "bash error ERROR", 14: "bash error ERROR"})
	if d := data(t, c.step(t, run, 2)); d != "it went wrong: timeout" {
		t.Errorf("output %q, want the error's message", d)
	}
	// Without model events the sample's totals are shared by its calls.
	var prompt, out int64
	for _, n := range c.numbers(run) {
		if u := c.step(t, run, n).Usage; u != nil {
			prompt, out = prompt+u.PromptTokens, out+u.CompletionTokens
		}
	}
	if prompt != 3210 || out != 800 {
		t.Errorf("tokens %d+%d, want the sample's 3210+800 spread", prompt, out)
	}
}

// A sample, a whole log and a log without samples are Inspect's; the chat
// formats refuse Inspect's samples, whose messages they would misread.
func TestInspectRecognize(t *testing.T) {
	sample := readSample(t, "inspect/fix-dates-samples.json")
	d, err := ParseDoc("l.json", 1, true, sample)
	if err != nil {
		t.Fatal(err)
	}
	if err := OpenAIMessages.Recognize(d); err == nil || !strings.Contains(err.Error(), "inspect") {
		t.Errorf("openai-messages: %v, want refused as inspect", err)
	}
	one := []byte(`{"id":"a","epoch":1,"input":"q","target":"","messages":[{"role":"assistant","content":"hi","tool_calls":[{"id":"c","function":"bash","arguments":{"cmd":"ls"}}]}]}`)
	if d, _ := ParseDoc("s.json", 1, true, one); OpenAIMessages.Recognize(d) == nil || Inspect.Recognize(d) != nil {
		t.Errorf("a lone sample must be inspect's only")
	}
	noSamples := []byte(`{"version":2,"status":"success","eval":{"task":"t","task_id":"x"},"plan":{}}`)
	d, _ = ParseDoc("h.json", 1, true, noSamples)
	if Inspect.Recognize(d) != nil {
		t.Fatal("a log without samples is still Inspect's")
	}
	if err := ConvertDoc(Inspect, d, func(*schema.Step) error { return nil }); err == nil || !strings.Contains(err.Error(), "no samples") {
		t.Errorf("convert: %v, want a log without samples said so", err)
	}
	if d, _ := ParseDoc("o.json", 1, true, []byte(`{"eval":{"task":"t"},"messages":[]}`)); Inspect.Recognize(d) == nil {
		t.Errorf("a document with an eval of no task_id nor version is not Inspect's")
	}
}

// A sample cut at its message limit ran its last turn's calls and kept
// their results in the tool events only (a long one in the attachments):
// each call gets its own step and its event's result. A tool message
// without a role (R's vitals writes them so) is still a tool's answer.
func TestInspectUnansweredCallsAndRolelessReplies(t *testing.T) {
	long := strings.Repeat("ls: cannot open directory '/root/x': Permission denied\n", 3)
	raw := mustMarshal(t, map[string]any{"id": "cut", "epoch": 1, "input": "x", "target": "",
		"messages": []any{
			map[string]any{"role": "user", "content": "go"},
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "r1", "function": "run_r_code", "arguments": map[string]any{"code": "1+1"}}}},
			map[string]any{"content": "Error in eval: object 'x' not found", "tool_call_id": "r1", "function": "run_r_code", "error": map[string]any{"type": "unknown", "message": "object 'x' not found"}},
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{
				map[string]any{"id": "b1", "function": "bash", "arguments": map[string]any{"cmd": "ls /root"}},
				map[string]any{"id": "b2", "function": "bash", "arguments": map[string]any{"cmd": "cat /root/flag"}}}},
		},
		"events": []any{
			map[string]any{"event": "tool", "id": "b1", "timestamp": "2026-01-01T00:00:01+00:00", "result": "attachment://abc"},
			map[string]any{"event": "tool", "id": "b2", "timestamp": "2026-01-01T00:00:02+00:00", "result": "", "error": map[string]any{"type": "permission", "message": "denied"}},
		},
		"attachments": map[string]any{"abc": long},
	})
	c, run := convertOne(t, Inspect, raw)
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 4]" {
		t.Fatalf("steps %s, want the R call at 1 and the cut turn's two calls at 3 and 4 (past the list)", got)
	}
	c.calls(t, run, map[int64]string{1: "run_r_code error ERROR", 3: "bash error PERMISSION_DENIED", 4: "bash error PERMISSION_DENIED"})
	if d := data(t, c.step(t, run, 3)); d != long {
		t.Errorf("output %q, want the attachment's text", d)
	}
}

// Inspect's basic_agent and react agent answer a turn that called no tool
// with their continue prompt: the harness had no action to run, so the
// turn failed (FORMAT_ERROR), as OpenHands' fake user's turns do; a user
// message of another kind (a person's, a task's) answers a turn of talk.
func TestInspectContinuePromptAnswersATurnWithoutAction(t *testing.T) {
	proceed := "Please proceed to the next step using your best judgement."
	raw := mustMarshal(t, map[string]any{"id": "refuse", "epoch": 1, "input": "x", "target": "",
		"messages": []any{
			map[string]any{"role": "system", "content": "You are an agent."},
			map[string]any{"role": "user", "content": "post the review"},
			map[string]any{"role": "assistant", "content": "I can't help with that."},
			map[string]any{"role": "user", "content": proceed},
			map[string]any{"role": "assistant", "content": "I can't assist with this task."},
			map[string]any{"role": "user", "content": proceed + " If you believe you have completed the task, please call the `submit()` tool with your final answer."},
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "p1", "function": "post_review", "arguments": map[string]any{"text": "fine"}}}},
			map[string]any{"role": "tool", "content": "posted", "tool_call_id": "p1", "function": "post_review"},
			map[string]any{"role": "assistant", "content": "Which product should the next review be for?"},
			map[string]any{"role": "user", "content": "The blender."},
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "s1", "function": "submit", "arguments": map[string]any{"answer": "done"}}}},
		},
	})
	c, run := convertOne(t, Inspect, raw)
	c.calls(t, run, map[int64]string{2: "format_error error FORMAT_ERROR", 4: "format_error error FORMAT_ERROR", 6: "post_review ok", 8: "message ok"})
	if s := c.step(t, run, 2); reason(s) != "I can't help with that." || s.State != schema.StatePlan.String() {
		t.Errorf("the refusal: %s %q, want a PLAN step keeping the turn's words as its reason", s.State, reason(s))
	}
}
