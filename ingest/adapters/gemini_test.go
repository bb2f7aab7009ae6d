package adapters

import (
	"fmt"
	"strings"
	"testing"
)

// Gemini's Contents: the model's function calls answered by the function
// responses sent back, a response with an "error" a failure, a thought
// part the call's reason; two calls of one content keep a number each
// (the contents after them move on by one).
func TestGeminiContents(t *testing.T) {
	c, run := convertOne(t, OpenAIMessages, readSample(t, "openai-messages/gemini-contents.json"))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3 4 6]" {
		t.Fatalf("steps %s, want [1 3 4 6]", got)
	}
	for n, want := range map[int64]string{1: "CHANGELOG.md\nREADME.md", 3: "## 2.4", 4: "# app"} {
		if s := c.step(t, run, n); result(s) != "ok" || !strings.HasPrefix(data(t, s), want) {
			t.Errorf("step %d: %s %q, want ok %q...", n, result(s), data(t, s), want)
		}
	}
	if s := c.step(t, run, 6); s.State != "STOP" || !strings.Contains(reason(s), "Release 2.4") {
		t.Errorf("last step %s %q, want the model's answer as STOP", s.State, reason(s))
	}

	c, run = convertOne(t, OpenAIMessages, readSample(t, "openai-messages/gemini-contents-loop.json"))
	s := c.step(t, run, 1)
	if tool(s) != "read_file" || result(s) != "error ERROR" || reason(s) != "I'll read the changelog first." {
		t.Errorf("step 1: %s %s %q, want read_file failing, with the thought as its reason", tool(s), result(s), reason(s))
	}
}

// Python dumps write the parts in snake case: they read the same.
func TestGeminiSnakeCase(t *testing.T) {
	raw := string(readSample(t, "openai-messages/gemini-contents-loop.json"))
	snake := strings.NewReplacer(`"functionCall"`, `"function_call"`, `"functionResponse"`, `"function_response"`).Replace(raw)
	a, runA := convertOne(t, OpenAIMessages, []byte(raw))
	b, runB := convertOne(t, OpenAIMessages, []byte(snake))
	if fmt.Sprint(a.numbers(runA)) != fmt.Sprint(b.numbers(runB)) {
		t.Fatalf("steps %v (camel case) vs %v (snake case)", a.numbers(runA), b.numbers(runB))
	}
	for _, n := range a.numbers(runA) {
		x, y := a.step(t, runA, n), b.step(t, runB, n)
		if tool(x) != tool(y) || result(x) != result(y) || data(t, x) != data(t, y) {
			t.Errorf("step %d: %s %s %q vs %s %s %q", n, tool(x), result(x), data(t, x), tool(y), result(y), data(t, y))
		}
	}
}
