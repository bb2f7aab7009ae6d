package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Goose's parts: toolRequest parts are the calls, answered by the
// toolResponse with their id (an error status a failure; a success's text
// the output); a call that could not be parsed keeps its place; text and
// thinking parts the words; created the time.
func TestGooseParts(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/goose-session.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 5 7 9 11]" {
		t.Fatalf("steps %s, want [1 3 5 7 9 11]", got)
	}
	c.calls(t, run, map[int64]string{1: "invalid_tool_call error ERROR", 3: "developer__shell error COMPILE_ERROR", 5: "developer__text_editor ok", 9: "developer__shell ok"})
	if s := c.step(t, run, 3); reason(s) != "Let me build the crate." || s.TS == nil || !strings.Contains(data(t, s), "expected `u64`, found `i64`") {
		t.Errorf("step 3: %q ts %v %q, want the words, the time and the compiler's output", reason(s), s.TS, data(t, s))
	}
	if s := c.step(t, run, 11); s.State != "STOP" {
		t.Errorf("step 11: %s, want the answer as STOP", s.State)
	}
}

// Goose's messages have only user and assistant roles and typed parts: they
// are read by openai-messages, not taken for Anthropic's blocks; its tools
// are named extension__tool, and the tool decides what a call is.
func TestGooseIsOpenAIs(t *testing.T) {
	d, err := ParseDoc("g.json", 1, true, readSample(t, "openai-messages/goose-build-loop.json"))
	if err != nil {
		t.Fatal(err)
	}
	if OpenAIMessages.Recognize(d) != nil || AnthropicMessages.Recognize(d) == nil {
		t.Errorf("openai-messages: %v, anthropic-messages: %v; want openai-messages alone", OpenAIMessages.Recognize(d), AnthropicMessages.Recognize(d))
	}
	if search, _ := chatToolKind("developer__shell", []byte(`{"command": "rg -n total src"}`)); !search {
		t.Error("developer__shell running rg is not a search")
	}
}
