package adapters

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The real sample (Cursor Agent CLI 2026.01.28, without
// --stream-partial-output): a step is the line its call started on; two
// calls made together share the model's message and each takes its result
// from its own completion, whichever finished first; the last words are
// the run's answer.
func TestCursorRealParallelSample(t *testing.T) {
	const file = "parallel-sleep.ndjson"
	c := readFileOf(t, Cursor, file, readSample(t, "cursor/"+file))
	if len(c.runs) != 1 || c.runs[0] != file+"#1e273e42-21dd-4b5e-9c2a-1cbbde35ae1c" {
		t.Fatalf("runs %v", c.runs)
	}
	run := c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[3 4 7]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{3: "shell ok", 4: "shell ok"})
	if a := args(t, c.step(t, run, 3)); fmt.Sprint(a) != "map[command:sleep 6]" {
		t.Errorf("args %v: the CLI's parse of the command and the call id are not the call", a)
	}
	if !strings.HasPrefix(reason(c.step(t, run, 3)), "I’ll run `sleep 6` and `sleep 4` in parallel") {
		t.Errorf("reason %q", reason(c.step(t, run, 3)))
	}
	if s := c.step(t, run, 4); s.TS == nil || s.TS.UnixMilli != 1770823976330 {
		t.Errorf("ts %+v: the call's start", s.TS)
	}
	if s := c.step(t, run, 7); s.State != "STOP" || reason(s) != "done" {
		t.Errorf("answer %q %q", s.State, reason(s))
	}
}

// The loop sample (a stream written with --stream-partial-output, in the
// layout of 2026-08): the words streamed in pieces make one message, the
// copies the CLI writes of them are not read again; a test run that exits
// 1 is TESTS_FAILED, an edit the editor refused did not land; the result's
// tokens are spread over the calls.
func TestCursorPartialOutputLoopSample(t *testing.T) {
	const file = "test-edit-loop.ndjson"
	c := readFileOf(t, Cursor, file, readSample(t, "cursor/"+file))
	run := c.runs[0]
	nums := c.numbers(run)
	if len(nums) != 12 {
		t.Fatalf("steps %v: 11 calls and the answer", nums)
	}
	read, test, edit := c.step(t, run, nums[0]), c.step(t, run, nums[1]), c.step(t, run, nums[2])
	if tool(read) != "read" || result(read) != "ok" || reason(read) != "Let me look at the cart module first.\n\nI'll read the cart module and its test." {
		t.Errorf("read: %s %s %q", tool(read), result(read), reason(read))
	}
	if tool(test) != "shell" || result(test) != "error TESTS_FAILED" {
		t.Errorf("test: %s %s", tool(test), result(test))
	}
	if tool(edit) != "edit" || edit.Intent != "edit" || result(edit) != "error EDIT_REJECTED" {
		t.Errorf("edit: %s %q %s", tool(edit), edit.Intent, result(edit))
	}
	last := c.step(t, run, nums[len(nums)-1])
	if last.State != "STOP" || strings.Count(reason(last), "The test still fails") != 1 {
		t.Errorf("answer %q %q", last.State, reason(last))
	}
	if prompt, completion, _, n := usageSum(c, run); prompt != 41250 || completion != 2310 || n != 11 {
		t.Errorf("usage %d %d over %d steps", prompt, completion, n)
	}
}

// cursorCallLines is a stream whose model makes one call of kind with
// args, completed with result (nil: never completed).
func cursorCallLines(t *testing.T, kind string, args map[string]any, result map[string]any) []byte {
	started := map[string]any{"type": "tool_call", "subtype": "started", "call_id": "c1", "session_id": "s",
		"tool_call": map[string]any{kind: map[string]any{"args": args}}}
	lines := []any{
		map[string]any{"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/w", "session_id": "s", "model": "Auto", "permissionMode": "default"},
		map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "go"}}}, "session_id": "s"},
		started,
	}
	if result != nil {
		lines = append(lines, map[string]any{"type": "tool_call", "subtype": "completed", "call_id": "c1", "session_id": "s",
			"tool_call": map[string]any{kind: map[string]any{"args": args, "result": result}}})
	}
	var b strings.Builder
	for _, l := range lines {
		b.Write(mustMarshal(t, l))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Each outcome a result can hold says how the call went: a command's exit
// code, a refusal, a timeout, a missing file, an edit that failed, a
// search that found nothing; a call never completed has no result.
func TestCursorOutcomes(t *testing.T) {
	shell := map[string]any{"command": "make", "toolCallId": "c1", "timeout": 10000}
	for _, tc := range []struct {
		name   string
		kind   string
		args   map[string]any
		result map[string]any
		want   string
	}{
		{"exit code", "shellToolCall", shell, map[string]any{"failure": map[string]any{"command": "make", "exitCode": 2, "stdout": "", "stderr": "make: *** [all] Error 2"}, "isBackground": false}, "shell error EXIT_CODE"},
		{"exit 0", "shellToolCall", shell, map[string]any{"success": map[string]any{"command": "make", "exitCode": 0, "stdout": "built"}, "isBackground": false}, "shell ok"},
		{"refused", "shellToolCall", shell, map[string]any{"rejected": map[string]any{"command": "make", "reason": "", "isReadonly": false}}, "shell error REJECTED"},
		{"timeout", "shellToolCall", shell, map[string]any{"timeout": map[string]any{"command": "make", "timeoutMs": 10000}}, "shell error TIMEOUT"},
		{"no file", "readToolCall", map[string]any{"path": "x.go"}, map[string]any{"fileNotFound": map[string]any{"path": "x.go"}}, "read error NO_SUCH_FILE"},
		{"edit failed", "editToolCall", map[string]any{"path": "x.go", "streamContent": "y"}, map[string]any{"error": map[string]any{"error": "Incorrect tool arguments", "modelVisibleError": "old_string and new_string are exactly the same"}}, "edit error EDIT_REJECTED"},
		{"no match", "grepToolCall", map[string]any{"pattern": "nope", "path": "/w"}, map[string]any{"success": map[string]any{"pattern": "nope", "workspaceResults": map[string]any{"/w": map[string]any{"content": map[string]any{"matches": []any{}, "totalMatchedLines": 0}}}}}, "grep ok empty"},
		{"matches", "grepToolCall", map[string]any{"pattern": "main", "path": "/w"}, map[string]any{"success": map[string]any{"pattern": "main", "workspaceResults": map[string]any{"/w": map[string]any{"content": map[string]any{"matches": []any{map[string]any{"file": "a.go", "matches": []any{map[string]any{"lineNumber": 3, "content": "func main() {"}}}}}}}}}, "grep ok"},
		{"mcp", "mcpToolCall", map[string]any{"name": "github-search_issues", "args": map[string]any{"q": "bug"}, "toolName": "search_issues"}, map[string]any{"success": map[string]any{"content": []any{map[string]any{"text": map[string]any{"text": "3 issues"}}}, "isError": false}}, "github-search_issues ok"},
		{"awaiting", "shellToolCall", shell, nil, "shell none"},
	} {
		c := readFileOf(t, Cursor, "t.ndjson", cursorCallLines(t, tc.kind, tc.args, tc.result))
		c.calls(t, c.runs[0], map[int64]string{2: tc.want})
		if t.Failed() {
			t.Fatalf("%s", tc.name)
		}
	}
	c := readFileOf(t, Cursor, "t.ndjson", cursorCallLines(t, "grepToolCall", map[string]any{"pattern": "main", "path": "/w"},
		map[string]any{"success": map[string]any{"workspaceResults": map[string]any{"/w": map[string]any{"content": map[string]any{"matches": []any{map[string]any{"file": "a.go", "matches": []any{map[string]any{"lineNumber": 3, "content": "func main() {"}}}}}}}}}))
	if got := data(t, c.step(t, c.runs[0], 2)); got != "a.go:3:func main() {" {
		t.Errorf("grep output %q", got)
	}
}

// A stream holding two sessions (runs appended to one log) is two runs;
// a result the CLI marks as an error is a failed request to the model.
func TestCursorSessionsAndErrors(t *testing.T) {
	var b strings.Builder
	for _, id := range []string{"a", "b"} {
		for _, l := range []map[string]any{
			{"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": "/w", "session_id": id, "model": "Auto", "permissionMode": "default"},
			{"type": "tool_call", "subtype": "completed", "call_id": "x", "session_id": id, "tool_call": map[string]any{"lsToolCall": map[string]any{"args": map[string]any{"path": "/w"}, "result": map[string]any{"success": map[string]any{"directoryTreeRoot": map[string]any{"absPath": "/w", "childrenFiles": []any{map[string]any{"name": "go.mod"}}}}}}}},
			{"type": "result", "subtype": "error", "is_error": true, "result": "Request timed out", "session_id": id},
		} {
			b.Write(mustMarshal(t, l))
			b.WriteByte('\n')
		}
	}
	c := readFileOf(t, Cursor, "t.ndjson", []byte(b.String()))
	if fmt.Sprint(c.runs) != "[t.ndjson#a t.ndjson#b]" {
		t.Fatalf("runs %v", c.runs)
	}
	c.calls(t, "t.ndjson#b", map[int64]string{4: "ls ok", 5: "model error TIMEOUT"})
	if got := data(t, c.step(t, "t.ndjson#b", 4)); got != "/w/\n/w/go.mod" {
		t.Errorf("listing %q", got)
	}
}

// Claude Code's stream opens with an init too: each reader takes only its
// own, so neither file is read as the other's.
func TestCursorAndClaudeCodeInits(t *testing.T) {
	cursor := `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"s","model":"Auto","permissionMode":"default"}`
	claude := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s","tools":["Bash"],"mcp_servers":[],"model":"claude-sonnet-4-5","permissionMode":"default","apiKeySource":"none","uuid":"u"}`
	var obj map[string]json.RawMessage
	json.Unmarshal([]byte(cursor), &obj)
	if !cursorEvent(obj) || ccEvent(obj) {
		t.Errorf("Cursor's init: cursor %v, claude code %v", cursorEvent(obj), ccEvent(obj))
	}
	obj = nil
	json.Unmarshal([]byte(claude), &obj)
	if cursorEvent(obj) || !ccEvent(obj) {
		t.Errorf("Claude Code's init: cursor %v, claude code %v", cursorEvent(obj), ccEvent(obj))
	}
}
