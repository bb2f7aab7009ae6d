package explain_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/redact"
)

// A result that carries a reason (tool_result.reason: the tool's own, or
// how an adapter read the result from the run) is listed with the steps
// that carry it, loop segment first, in every rendering; the reason is log
// text: escaped in HTML, and redacted with --redact.
func TestResultReasonsAreExplained(t *testing.T) {
	var b strings.Builder
	add := func(step int, call, result string) {
		fmt.Fprintf(&b, `{"run_id":"r1","step":%d,"state":"ACT","tool_call":{"name":"bash","args":{"command":%q}},"tool_result":%s}`+"\n", step, call, result)
	}
	add(0, "ls", `{"ok":true,"data":"a.py"}`)
	add(1, "cat missing.txt", `{"ok":false,"error_type":"NO_SUCH_FILE","reason":"<b>not there</b> token sk-live-0123456789abcdef0123"}`)
	add(2, "cat a.py", `{"ok":true,"data":"x = 1"}`)
	for k := 3; k < 9; k++ {
		add(k, fmt.Sprintf("echo %d", k), `{"ok":false,"error_type":"NO_OUTPUT","reason":"a command that prints whatever happens printed nothing"}`)
	}
	run := explainText(t, b.String(), nil, "r1")[0]

	var text strings.Builder
	if err := explain.WriteText(&text, []*explain.Run{run}, explain.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	loop := strings.Index(out, "> 3, 4, 5, 6, 7, 8  NO_OUTPUT")
	before := strings.Index(out, "  1                 NO_SUCH_FILE")
	if loop < 0 || before < 0 || loop > before {
		t.Fatalf("reasons not listed, loop segment first:\n%s", out)
	}

	var html strings.Builder
	if err := explain.WriteHTML(&html, []*explain.Run{run}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), "<b>not there</b>") || !strings.Contains(html.String(), "&lt;b&gt;not there&lt;/b&gt;") {
		t.Errorf("a reason's markup reached the HTML unescaped")
	}
	var md strings.Builder
	if err := explain.WriteMarkdown(&md, []*explain.Run{run}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| ▶ | 3, 4, 5, 6, 7, 8 | NO_OUTPUT | a command that prints whatever happens printed nothing |") {
		t.Errorf("markdown lists no reasons:\n%s", md.String())
	}

	redacted := explainText(t, b.String(), redact.New(nil), "r1")[0]
	text.Reset()
	if err := explain.WriteText(&text, []*explain.Run{redacted}, explain.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "sk-live-0123456789abcdef0123") || strings.Contains(text.String(), "printed nothing") {
		t.Errorf("--redact left a reason's text in:\n%s", text.String())
	}
}
