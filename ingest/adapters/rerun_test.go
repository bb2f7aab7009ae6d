package adapters

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

func TestRerunKey(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"cd gson && mvn compile -q 2>&1 | tail -20", "cd gson && mvn compile 2>&1 | grep -A 5 \"error:\""},
		{"cd gson && mvn compile -X 2>&1 | grep -i error | head -30", "cd gson && mvn compile"},
		{"grep -rn foo src | head -50 || true", "grep -rn foo src 2>/dev/null"},
		{"bash -lc 'npm test 2>&1 | tail -5'", "npm test | grep passing"},
	} {
		if ka, kb := rerunKey(c.a), rerunKey(c.b); ka != kb || ka == "" {
			t.Errorf("rerunKey(%q) = %q, rerunKey(%q) = %q: want one command", c.a, ka, c.b, kb)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"cd gson && mvn compile | tail", "cd /workspace && mvn compile -pl gson | tail"},
		{"npm test | tail", "npm test > out.txt && cat out.txt | tail"},
		{"grep -rn foo src", "grep -rn bar src"},
	} {
		if rerunKey(c.a) == rerunKey(c.b) {
			t.Errorf("%q and %q read as one command, want two", c.a, c.b)
		}
	}
	if k := rerunKey("cd /workspace"); k != "" {
		t.Errorf("rerunKey of a cd alone = %q, want none", k)
	}
}

// With the output stripped, a build looked at again and again through
// other filters, the agent saying after one of them that the output does
// not show the error, failed each time: the same failure back.
func TestRerunOutcomesCarried(t *testing.T) {
	call := func(id, cmd string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": string(mustMarshal(t, map[string]string{"command": cmd}))}}
	}
	msgs := func(words string) []byte {
		var m []map[string]any
		m = append(m, map[string]any{"role": "user", "content": "Fix the build."})
		for i, f := range []string{"| tail -20", "| grep -A 5 error:", "| grep -i error", "| grep -B 5 failure"} {
			id := string(rune('a' + i))
			m = append(m, map[string]any{"role": "assistant", "content": "", "tool_calls": []any{call(id, "cd gson && mvn compile 2>&1 "+f)}})
			m = append(m, map[string]any{"role": "tool", "tool_call_id": id, "content": "[ERROR] COMPILATION ERROR"})
		}
		m = append(m, map[string]any{"role": "assistant", "content": words, "tool_calls": []any{call("e", "ls target")}})
		m = append(m, map[string]any{"role": "tool", "tool_call_id": "e", "content": "classes"})
		return mustMarshal(t, map[string]any{"messages": m})
	}
	notShown := msgs("The build is failing but I'm not seeing the actual compilation error.")
	c, run := convertStripped(t, OpenAIMessages, notShown)
	c.calls(t, run, map[int64]string{
		1: "bash error " + schema.ErrSaidFailed, 3: "bash error " + schema.ErrSaidAgain,
		5: "bash error " + schema.ErrSaidAgain, 7: "bash error " + schema.ErrSaidAgain, 9: "bash ok",
	})
	if got := c.step(t, run, 1).ToolResult.Reason; !strings.HasPrefix(got, "the same command as step 7, run again with its output filtered otherwise") {
		t.Errorf("reason %q, want the step whose words it carries", got)
	}
	// Words that read the failure (the failing tests named) say the
	// output showed what was looked for: nothing is carried.
	c, run = convertStripped(t, OpenAIMessages, msgs("The build is failing on a missing import in JsonReader."))
	c.calls(t, run, map[int64]string{1: "bash ok", 3: "bash ok", 5: "bash ok", 7: "bash error " + schema.ErrSaidFailed, 9: "bash ok"})
	// Logged, every call keeps its own output.
	c, run = convertOne(t, OpenAIMessages, notShown)
	c.calls(t, run, map[int64]string{1: "bash error COMPILE_ERROR", 3: "bash error COMPILE_ERROR", 5: "bash error COMPILE_ERROR", 7: "bash error COMPILE_ERROR", 9: "bash ok"})
}
