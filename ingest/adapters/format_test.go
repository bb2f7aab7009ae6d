package adapters

import (
	"errors"
	"strings"
	"testing"
)

// sampleDocs are one document of each shape the samples hold, with the
// format that reads it.
var sampleDocs = []struct {
	rel    string
	line   int // 0: the whole file; else this line of it
	format *Format
}{
	{"swe-agent/edit-syntax-error-loop.traj", 0, SWEAgent},
	{"swe-agent/healthy-fix.traj", 0, SWEAgent},
	{"mini-swe-agent/sed-retry-loop.traj.json", 0, MiniSWEAgent},
	{"mini-swe-agent/format-error-storm.traj.json", 0, MiniSWEAgent},
	{"openhands/output.ndjson", 1, OpenHands},
	{"openhands/opendevin-pairs.ndjson", 1, OpenHands},
	{"openhands/v1-sdk-output.ndjson", 1, OpenHands},
	{"openhands/traj-export.json", 0, OpenHands},
	{"inspect/fix-dates-samples.json", 0, Inspect},
	{"opencode/ci-edit-loop.ndjson", 1, OpenCode},
	{"openai-messages/support-conversation.json", 0, OpenAIMessages},
	{"openai-messages/group-chat.json", 0, OpenAIMessages},
	{"openai-messages/orchestrator-loop.json", 0, OpenAIMessages},
	{"openai-messages/magentic-history.json", 0, OpenAIMessages},
	{"openai-messages/tau-bench-results.json", 0, OpenAIMessages},
	{"openai-messages/tau2-results.json", 0, OpenAIMessages},
	{"openai-messages/conversations.ndjson", 1, OpenAIMessages},
	{"openai-messages/agentbench-runs.ndjson", 1, OpenAIMessages},
	{"openai-messages/agentbench-runs.ndjson", 3, OpenAIMessages},
	{"anthropic-messages/flight-search-loop.json", 0, AnthropicMessages},
	{"anthropic-messages/conversations.ndjson", 1, AnthropicMessages},
	{"anthropic-messages/conversations.ndjson", 2, AnthropicMessages},
	{"anthropic-messages/claude-code-session.ndjson", 1, AnthropicMessages},
	{"anthropic-messages/claude-code-session.ndjson", 2, AnthropicMessages},
	{"anthropic-messages/claude-code-edit-loop.ndjson", 1, AnthropicMessages},
	{"codex/healthy-fix.ndjson", 1, Codex},
	{"codex/healthy-fix.ndjson", 4, Codex},
	{"codex/tsc-error-loop.ndjson", 1, Codex},
	{"codex/rollout-patch-loop.ndjson", 1, Codex},
	{"codex/rollout-patch-loop.ndjson", 6, Codex},
	{"codex/rollout-rate-limit-storm.ndjson", 9, Codex},
	{"gemini-cli/session-fix-converges.json", 0, GeminiCLI},
	{"gemini-cli/session-edit-loop.ndjson", 1, GeminiCLI},
	{"gemini-cli/headless-build-loop.ndjson", 1, GeminiCLI},
	{"gemini-cli/headless-build-loop.ndjson", 5, GeminiCLI},
	{"qwen-code/session-search-loop.ndjson", 1, QwenCode},
	{"qwen-code/session-search-loop.ndjson", 3, QwenCode},
	{"qwen-code/session-test-fix.ndjson", 1, QwenCode},
	{"continue/session-find-replace-loop.json", 0, Continue},
	{"continue/session-terminal-fix.json", 0, Continue},
	{"openai-messages/langgraph-rate-limit-storm.json", 0, OpenAIMessages},
	{"openai-messages/langchain-history.json", 0, OpenAIMessages},
	{"openai-messages/responses-items.json", 0, OpenAIMessages},
	{"openai-messages/responses-items-storm.json", 0, OpenAIMessages},
	{"openai-messages/gemini-contents.json", 0, OpenAIMessages},
	{"openai-messages/gemini-contents-loop.json", 0, OpenAIMessages},
	{"openai-messages/ai-sdk-messages.json", 0, OpenAIMessages},
	{"openai-messages/ai-sdk-deploy-loop.json", 0, OpenAIMessages},
	{"openai-messages/haystack-search-loop.json", 0, OpenAIMessages},
	{"openai-messages/haystack-legacy-messages.json", 0, OpenAIMessages},
	{"openai-messages/sk-dotnet-chat-history.json", 0, OpenAIMessages},
	{"openai-messages/sk-python-history-storm.json", 0, OpenAIMessages},
	{"openai-messages/letta-memory-replace-loop.json", 0, OpenAIMessages},
	{"openai-messages/pydantic-ai-messages.json", 0, OpenAIMessages},
	{"openai-messages/pydantic-ai-retry-loop.json", 0, OpenAIMessages},
	{"openai-messages/adk-session.json", 0, OpenAIMessages},
	{"openai-messages/adk-session-loop.json", 0, OpenAIMessages},
	{"openai-messages/opencode-session.json", 0, OpenAIMessages},
	{"openai-messages/opencode-export-loop.json", 0, OpenAIMessages},
	{"openai-messages/goose-session.json", 0, OpenAIMessages},
	{"openai-messages/goose-build-loop.json", 0, OpenAIMessages},
	{"anthropic-messages/bedrock-converse.json", 0, AnthropicMessages},
	{"anthropic-messages/cline-task.json", 0, AnthropicMessages},
	{"anthropic-messages/cline-test-rerun-loop.json", 0, AnthropicMessages},
	{"anthropic-messages/bedrock-converse-loop.json", 0, AnthropicMessages},
	{"autogen/magentic-one-cookie-loop.ndjson", 1, AutoGen},
	{"autogen/magentic-one-cookie-loop.ndjson", 8, AutoGen},
	{"autogen/agentchat-rate-storm.json", 0, AutoGen},
	{"autogen/agentchat-team-stream.ndjson", 1, AutoGen},
	{"autogen/ag2-runtime-storm.log", 0, AutoGen},
	{"autogen/ag2-runtime-tools.log", 0, AutoGen},
	{"rovo-dev/healthy-fix", 0, RovoDev},
	{"rovo-dev/npm-install-storm", 0, RovoDev},
	{"smolagents/code-agent-error-loop.json", 0, SmolAgents},
	{"smolagents/code-agent-search-loop.json", 0, SmolAgents},
	{"smolagents/tool-calling-agent.json", 0, SmolAgents},
	{"trae-agent/edit-rejected-loop.json", 0, TraeAgent},
	{"trae-agent/healthy-fix.json", 0, TraeAgent},
	{"atif/terminus-install-loop.json", 0, ATIF},
	{"atif/claude-code-healthy-fix.json", 0, ATIF},
	{"browser-use/healthy-library-hours.json", 0, BrowserUse},
	{"browser-use/click-same-element-loop.json", 0, BrowserUse},
	{"browser-use/element-index-error-storm.json", 0, BrowserUse},
	{"aider/edit-no-match-loop.aider.chat.history.md", 0, Aider},
	{"aider/healthy-settings.aider.chat.history.md", 0, Aider},
	{"chatdev/test-error-storm.log", 0, ChatDev},
	{"chatdev/healthy-review-and-test.log", 0, ChatDev},
	{"react-log/search-loop.log", 0, ReactLog},
	{"react-log/healthy-answer.log", 0, ReactLog},
	{"react-log/crewai-search-loop.log", 0, ReactLog},
	{"react-log/crewai-delegation.log", 0, ReactLog},
	{"notebook/crew-and-react-agent.ipynb", 0, Notebook},
}

func sampleDoc(t testing.TB, rel string, line int) *Doc {
	t.Helper()
	raw := readSample(t, rel)
	if line > 0 {
		raw = sampleLines(t, rel)[line-1]
	}
	if DetectText(raw) != nil {
		return TextDoc(rel, 1, raw)
	}
	d, err := ParseDoc(rel, int64(max(line, 1)), line == 0, raw)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Every format takes its own samples and refuses every other format's,
// saying why: which format reads a file never depends on the registry's
// order.
func TestRecognizeRefusesOtherFormats(t *testing.T) {
	for _, s := range sampleDocs {
		d := sampleDoc(t, s.rel, s.line)
		for _, f := range Registry {
			err := f.Recognize(d)
			switch {
			case f == s.format && err != nil:
				t.Errorf("%s does not recognise its sample %s: %v", f.Name, s.rel, err)
			case f != s.format && err == nil:
				t.Errorf("%s recognises %s, a %s document", f.Name, s.rel, s.format.Name)
			case f != s.format && strings.TrimSpace(err.Error()) == "":
				t.Errorf("%s refuses %s without a reason", f.Name, s.rel)
			}
		}
	}
	// The reasons a person reads when a file is not what they thought.
	for _, c := range []struct {
		rel    string
		line   int
		format *Format
		why    string
	}{
		{"mini-swe-agent/sed-retry-loop.traj.json", 0, SWEAgent, `no "trajectory" list`},
		{"openhands/traj-export.json", 0, SWEAgent, "not a JSON object"},
		{"swe-agent/healthy-fix.traj", 0, MiniSWEAgent, `no "messages" list`},
		{"openai-messages/support-conversation.json", 0, MiniSWEAgent, `no "trajectory_format": "mini-swe-agent-..." nor "info.mini_version"`},
		{"swe-agent/healthy-fix.traj", 0, OpenHands, `"history" holds neither events ({"action"|"observation"|"kind": ...}) nor [action, observation] pairs`},
		{"openai-messages/tau-bench-results.json", 0, OpenHands, `not a list of events with "action", "observation" or "kind"`},
		{"swe-agent/healthy-fix.traj", 0, OpenAIMessages, "a document of the swe-agent format, not a conversation"},
		{"mini-swe-agent/format-error-storm.traj.json", 0, OpenAIMessages, "a document of the mini-swe-agent format, not a conversation"},
		{"openhands/traj-export.json", 0, OpenAIMessages, "a document of the openhands format, not a conversation"},
	} {
		err := c.format.Recognize(sampleDoc(t, c.rel, c.line))
		if err == nil || err.Error() != c.why {
			t.Errorf("%s on %s: %v, want %q", c.format.Name, c.rel, err, c.why)
		}
	}
}

// A document no format takes: Detect lists every format with its reason,
// in the registry's order.
func TestDetectUnknownListsEveryReason(t *testing.T) {
	d, err := ParseDoc("notes.json", 1, true, []byte(`{"title": "meeting notes", "items": [1, 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Detect(d)
	var unknown *UnknownError
	if f != nil || !errors.As(err, &unknown) {
		t.Fatalf("Detect: %v %v, want an *UnknownError", f, err)
	}
	if len(unknown.Reasons) != len(Registry) {
		t.Fatalf("%d reasons for %d formats: %q", len(unknown.Reasons), len(Registry), unknown.Reasons)
	}
	for i, f := range Registry {
		if !strings.HasPrefix(unknown.Reasons[i], f.Name+": ") {
			t.Errorf("reason %d %q does not name %s", i, unknown.Reasons[i], f.Name)
		}
		if !strings.Contains(err.Error(), unknown.Reasons[i]) {
			t.Errorf("the message %q leaves out %q", err, unknown.Reasons[i])
		}
	}
	if want := `swe-agent: no "trajectory" list`; unknown.Reasons[0] != want {
		t.Errorf("first reason %q, want %q", unknown.Reasons[0], want)
	}
}

// OpenHands writes one file per model call into llm_completions/ beside
// its evaluation output: the messages sent, the response and the call's
// kwargs. No format reads it as a run (each would be a prefix of the run's
// history, a hundred runs for a run's hundred calls); the chat formats
// say why. The same messages without "response" and "kwargs" are a
// conversation.
func TestModelCallLogIsNoRun(t *testing.T) {
	msgs := `"messages": [{"role": "user", "content": "fix it"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "execute_bash", "arguments": "{\"command\": \"ls\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "a.py"}]`
	call, err := ParseDoc("llm_completions/i/gpt-4o-1733000000.0.json", 1, true, []byte(`{`+msgs+`, "response": {"choices": []}, "args": [], "kwargs": {"tools": []}, "timestamp": 1733000000.0, "cost": 0.001}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Detect(call)
	var unknown *UnknownError
	if f != nil || !errors.As(err, &unknown) {
		t.Fatalf("Detect: %v %v, want an *UnknownError", f, err)
	}
	for _, name := range []string{"openai-messages", "anthropic-messages"} {
		if !strings.Contains(err.Error(), name+": ") || !strings.Contains(err.Error(), "one model call's request and response") {
			t.Errorf("%s does not say why it refuses a model call's log: %v", name, err)
		}
	}
	conv, err := ParseDoc("conversation.json", 1, true, []byte(`{`+msgs+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Detect(conv); err != nil || f.Name != "openai-messages" {
		t.Errorf("the same messages as a conversation: %v %v", f, err)
	}
}

func TestParseDoc(t *testing.T) {
	for _, c := range []struct{ raw, why string }{
		{"", "empty document"},
		{" \n\t", "empty document"},
		{`"text"`, "not a JSON object or array"},
		{`{"a": 1`, "malformed JSON"},
		{`[1, 2`, "malformed JSON"},
	} {
		if _, err := ParseDoc("x", 1, true, []byte(c.raw)); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: %v, want %q", c.raw, err, c.why)
		}
	}
	if d, err := ParseDoc("x", 1, true, []byte(`{"b": 1, "a": 2}`)); err != nil || !d.IsObject() || d.IsArray() || strings.Join(d.Keys(), ",") != "a,b" || !d.Has("a", "b") || d.Has("c") {
		t.Errorf("object: %v", err)
	}
}

// Run names as runName builds them: the file; file:line on a line of a
// JSON Lines file; [i] for the i-th run of a list; #id when the run has
// one.
func TestRunName(t *testing.T) {
	whole := &Doc{Source: "runs/a.json", Line: 1, Whole: true}
	line := &Doc{Source: "runs/b.jsonl", Line: 7}
	for _, c := range []struct {
		d     *Doc
		index int
		many  bool
		id    string
		want  string
	}{
		{whole, 0, false, "", "runs/a.json"},
		{whole, 0, false, " conv-1 ", "runs/a.json#conv-1"},
		{whole, 3, true, "task_id=4,trial=0", "runs/a.json[3]#task_id=4,trial=0"},
		{line, 0, false, "", "runs/b.jsonl:7"},
		{line, 2, true, "x", "runs/b.jsonl:7[2]#x"},
	} {
		if got := runName(c.d, c.index, c.many, c.id); got != c.want {
			t.Errorf("runName %+v: %q, want %q", c, got, c.want)
		}
	}
}

func TestLookupAndNames(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "swe-agent,mini-swe-agent,openhands,openai-messages,anthropic-messages,autogen,otlp,langfuse,langsmith,openai-agents,mlflow,codex,gemini-cli,cursor,copilot-cli,opencode,qwen-code,continue,rovo-dev,smolagents,dspy,inspect,trae-agent,atif,browser-use,aider,chatdev,react-log,notebook" {
		t.Errorf("Names: %s", got)
	}
	for _, f := range Registry {
		if Lookup(f.Name) != f || f.Title == "" || f.Recognize == nil || (f.Convert == nil) == (f.Spans == nil) {
			t.Errorf("%s: incomplete or not found", f.Name)
		}
	}
	if Lookup("jsonl") != nil {
		t.Error("Lookup of an unknown name")
	}
}

// A notebook's cells are read by every text format, in the registry's
// order: its own list of them is the registry's.
func TestNotebookTextFormats(t *testing.T) {
	var want []string
	for _, f := range Registry {
		if f.Text != nil {
			want = append(want, f.Name)
		}
	}
	var got []string
	for _, f := range notebookTextFormats {
		got = append(got, f.Name)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("notebookTextFormats %v, want the registry's text formats %v", got, want)
	}
}
