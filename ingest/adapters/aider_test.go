package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// The looping sample reads as the history says: one run, named by the
// session's start; each reply a step numbered by its entry, a call of
// edit with the SEARCH/REPLACE block it sends, answered by Aider's report
// that the block failed to match (EDIT_REJECTED, also the reflections
// Aider sends back without the user); the reply's prose its reason; the
// token report its usage, with the banner's model.
func TestAiderLoopSample(t *testing.T) {
	c, run := convertOne(t, Aider, readSample(t, "aider/edit-no-match-loop.aider.chat.history.md"))
	if run != "t.json#2025-11-04 09:12:40" {
		t.Errorf("run %q", run)
	}
	if got := fmt.Sprint(c.numbers(run)); got != "[4 6 8 10 13]" {
		t.Fatalf("steps %s, want the five replies", got)
	}
	c.calls(t, run, map[int64]string{4: "edit error EDIT_REJECTED", 6: "edit error EDIT_REJECTED", 13: "edit error EDIT_REJECTED"})
	first := c.step(t, run, 4)
	if !strings.Contains(string(first.ToolCall.Args), `"file":"billing/invoice.py"`) || !strings.Contains(string(first.ToolCall.Args), `round(sum(line.amount`) {
		t.Errorf("call args %s", first.ToolCall.Args)
	}
	if got := reason(first); !strings.HasPrefix(got, "I'll round the total") || strings.Contains(got, "<<<<<<< SEARCH") {
		t.Errorf("reason %q, want the prose without the block", got)
	}
	if u := first.Usage; u == nil || u.PromptTokens != 2400 || u.CompletionTokens != 96 || u.CostUSD != 0.007 || u.Model != "gpt-4o" {
		t.Errorf("usage %+v", first.Usage)
	}
	if strings.Contains(data(t, first), "Tokens:") {
		t.Errorf("the token report, which counts the session, is in the result: %q", data(t, first))
	}
	// Identical calls, identical answers: what repeats is visible as such.
	if string(c.step(t, run, 4).ToolCall.Args) != string(c.step(t, run, 13).ToolCall.Args) || data(t, c.step(t, run, 4)) != data(t, c.step(t, run, 13)) {
		t.Error("the same block sent again reads as another call or another answer")
	}
}

// The healthy sample: a session with no reply is no run; the other is
// named by its place and start. A model call that failed on a rate limit
// is a step of its own; an edit the linter then failed is EXIT_CODE; the
// fix applied is ok; a shell command Aider offered, written over lines
// the history does not mark, stays in Aider's messages; the answer to the
// user's question is a message, without a reply.
func TestAiderHealthySample(t *testing.T) {
	c := convert(t, Aider, "h.md", 1, true, readSample(t, "aider/healthy-settings.aider.chat.history.md"))
	if len(c.runs) != 1 || c.runs[0] != "h.md[1]#2025-11-05 14:03:27" {
		t.Fatalf("runs %q", c.runs)
	}
	run := c.runs[0]
	if got := fmt.Sprint(c.numbers(run)); got != "[4 5 7 10]" {
		t.Fatalf("steps %s", got)
	}
	c.calls(t, run, map[int64]string{4: "model error RATE_LIMIT", 5: "edit error EXIT_CODE", 7: "edit ok", 10: "message none"})
	if s := c.step(t, run, 10); s.Intent != schema.IntentUser || !strings.HasPrefix(reason(s), "Yes. Without") {
		t.Errorf("answer: intent %q reason %q", s.Intent, reason(s))
	}
	if d := data(t, c.step(t, run, 7)); !strings.Contains(d, `Running APP_DEBUG=1 python -c`) || !strings.Contains(d, "Add command output to the chat?") {
		t.Errorf("the fix's answer %q lacks the command Aider ran", d)
	}
}

// How lines are told apart: Aider ends its own lines and the user's with
// two spaces; a reply's quote or heading without them stays in the reply;
// the user's input over two lines is one entry; a reply to a question
// that asks for no edit is a message answered by the user's next input.
func TestAiderLines(t *testing.T) {
	h := "# aider chat started at 2025-02-03 10:00:00\n\n> Model: openrouter/x/y with ask edit format  \n\n" +
		"#### Why does the build fail?  \n#### It says missing module.  \n\n" +
		"The build imports `yaml`:\n\n> note: PyYAML is not installed\n\n#### Install it\n\nRun `pip install pyyaml`.\n\n" +
		"> Tokens: 1.2k sent, 40 received. Cost: $0.01 message, $0.01 session.  \n" +
		"\n#### Done, thanks.  \n"
	c, run := convertOne(t, Aider, []byte(h))
	if got := fmt.Sprint(c.numbers(run)); got != "[2]" {
		t.Fatalf("steps %s, want the one reply", got)
	}
	s := c.step(t, run, 2)
	c.calls(t, run, map[int64]string{2: "message ok"})
	if s.Usage == nil || s.Usage.Model != "openrouter/x/y" || s.Usage.PromptTokens != 1200 {
		t.Errorf("usage %+v, want the newer banner's model", s.Usage)
	}
	if !strings.Contains(reason(s), "> note: PyYAML") || !strings.Contains(reason(s), "Run `pip install pyyaml`.") {
		t.Errorf("reply %q lost its quote or heading", reason(s))
	}
	if data(t, s) != "Done, thanks." {
		t.Errorf("answer %q, want the user's next input", data(t, s))
	}
}

// A reply in the whole-file format has no SEARCH/REPLACE block: the files
// Aider says it applied an edit to make it an edit. Read stripped, Aider's
// own verdicts stay (they are the harness speaking, not a tool's output)
// and a command's output is not read.
func TestAiderWholeFormatAndStripped(t *testing.T) {
	h := "# aider chat started at 2025-02-03 10:00:00\n\n#### Add a main guard  \n\n" +
		"app.py\n```python\nif __name__ == \"__main__\":\n    main()\n```\n\n" +
		"> Applied edit to app.py  \n> Running python app.py  \n> Traceback (most recent call last):  \n>   File \"app.py\", line 2, in <module>  \n> NameError: name 'main' is not defined  \n" +
		"\nI need to define `main` first.\n\napp.py\n```python\n<<<<<<< SEARCH\nif __name__\n=======\ndef main(): pass\nif __name__\n>>>>>>> REPLACE\n```\n\n" +
		"> The LLM did not conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!  \n"
	c, run := convertOne(t, Aider, []byte(h))
	c.calls(t, run, map[int64]string{1: "edit error NameError", 3: "edit error EDIT_REJECTED"})
	if !strings.Contains(string(c.step(t, run, 1).ToolCall.Args), `"file":"app.py"`) {
		t.Errorf("whole-file edit args %s", c.step(t, run, 1).ToolCall.Args)
	}
	d := TextDoc("t.md", 1, []byte(h))
	d.StripOutput = true
	s := newConverted()
	if err := ConvertDoc(Aider, d, s.adder(t)); err != nil {
		t.Fatal(err)
	}
	run = "t.md#2025-02-03 10:00:00"
	s.calls(t, run, map[int64]string{1: "edit ok", 3: "edit error EDIT_REJECTED"})
	if data(t, s.step(t, run, 3)) != "" {
		t.Errorf("stripped, the answer keeps its text %q", data(t, s.step(t, run, 3)))
	}
}

// Older Aider ended only some of its lines with two spaces, and a file
// committed through a hook that strips trailing blanks has none: each
// line of Aider's is then a message of its own, the user's next input is
// not read as part of Aider's banner, and Aider's answer after a blank
// line ends the reply, unless it is a quote inside the reply's fence.
func TestAiderOlderHistoryWithoutSpaces(t *testing.T) {
	h := "# aider chat started at 2024-08-01 10:00:00\n\n" +
		"> /usr/bin/aider --model gpt-4o\n> Aider v0.50.0\n> Use /help <text> for help, run \"aider --help\" to see cmd line args\n\n" +
		"#### /add app.py\n\n> Added app.py to the chat\n\n#### Fix the crash on empty input\n\n" +
		"I'll default to zero. The log said:\n\n```text\n\n> empty input\n```\n\napp.py\n```python\n<<<<<<< SEARCH\nx = f()\n=======\nx = f() or 0\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to app.py\n\n#### thanks\n"
	c, run := convertOne(t, Aider, []byte(h))
	if got := fmt.Sprint(c.numbers(run)); got != "[4]" {
		t.Fatalf("steps %s, want the one reply, entry 4 after banner, input, answer, input", got)
	}
	c.calls(t, run, map[int64]string{4: "edit ok"})
	if got := reason(c.step(t, run, 4)); !strings.HasPrefix(got, "I'll default to zero.") || !strings.Contains(got, "> empty input") {
		t.Errorf("reason %q", got)
	}
}

// A failed match's message echoes the block it failed on, indented blank
// lines and all; a line of white space alone is not the two spaces that
// end Aider's message, so the model's next reply starts after the
// message's real last line, and the echo stays in the failed edit's answer.
func TestAiderEchoedBlockWithIndentedBlankLines(t *testing.T) {
	h := "# aider chat started at 2025-02-03 10:00:00\r\n\r\n#### Use rb.MovePosition  \r\n\r\n" +
		"Moving it to the body.\r\n\r\nShip.cs\r\n```csharp\r\n<<<<<<< SEARCH\r\n    void Move()\r\n    {\r\n        \r\n        pos += v;\r\n    }\r\n=======\r\n    void Move()\r\n    {\r\n        rb.MovePosition(pos + v);\r\n    }\r\n>>>>>>> REPLACE\r\n```\r\n\r\n" +
		"> The LLM did not conform to the edit format.  \r\n> # 1 SEARCH/REPLACE block failed to match!\r\n\r\n" +
		"## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Ship.cs\r\n<<<<<<< SEARCH\r\n    void Move()\r\n    {\r\n        \r\n        pos += v;\r\n    }\r\n=======\r\n" +
		"    void Move()\r\n    {\r\n        rb.MovePosition(pos + v);\r\n    }\r\n>>>>>>> REPLACE\r\n\r\nThe SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  \r\n\r\n" +
		"The block has no blank line; here it is again.\r\n\r\nShip.cs\r\n```csharp\r\n<<<<<<< SEARCH\r\n    void Move()\r\n    {\r\n        pos += v;\r\n    }\r\n=======\r\n    void Move()\r\n    {\r\n        rb.MovePosition(pos + v);\r\n    }\r\n>>>>>>> REPLACE\r\n```\r\n\r\n" +
		"> Applied edit to Ship.cs  \r\n"
	c, run := convertOne(t, Aider, []byte(h))
	if got := fmt.Sprint(c.numbers(run)); got != "[1 3]" {
		t.Fatalf("steps %s, want the two replies", got)
	}
	c.calls(t, run, map[int64]string{1: "edit error EDIT_REJECTED", 3: "edit ok"})
	if d := data(t, c.step(t, run, 1)); !strings.Contains(d, "pos += v;") || !strings.Contains(d, "must exactly match") {
		t.Errorf("the failed match's answer lost the echoed block: %q", d)
	}
	if got := reason(c.step(t, run, 3)); !strings.HasPrefix(got, "The block has no blank line") {
		t.Errorf("second reply's reason %q", got)
	}
}

// In architect mode Aider hands the architect's reply to its editor model
// as the editor's input, which the history writes as the user's: that
// reply is a PLAN step (no call, nobody answered it), the editor's reply
// acts. A reply the person answers in their own words stays a message.
func TestAiderArchitectHandOff(t *testing.T) {
	h := "# aider chat started at 2025-02-03 10:00:00\n\n> Main model: x/arch with architect edit format  \n> Editor model: x/ed with editor-diff edit format  \n\n" +
		"#### Make the timeout configurable  \n\n" +
		"Add a `timeout` setting:\n\n1. read it in config.py\n2. pass it to the client\n\n" +
		"> Tokens: 2.0k sent, 40 received. Cost: $0.01 message, $0.01 session.  \n\n" +
		"#### Add a `timeout` setting:  \n####   \n#### 1. read it in config.py  \n#### 2. pass it to the client  \n\n" +
		"config.py\n```python\n<<<<<<< SEARCH\nTIMEOUT = 5\n=======\nTIMEOUT = int(os.environ.get(\"TIMEOUT\", 5))\n>>>>>>> REPLACE\n```\n\n" +
		"> Tokens: 1.0k sent, 30 received. Cost: $0.01 message, $0.02 session.  \n> Applied edit to config.py  \n\n" +
		"#### /ask what is the default?  \n\n" +
		"Five seconds.\n\n> Tokens: 1.1k sent, 3 received. Cost: $0.01 message, $0.03 session.  \n\n#### thanks  \n"
	c, run := convertOne(t, Aider, []byte(h))
	if got := fmt.Sprint(c.numbers(run)); got != "[2 5 8]" {
		t.Fatalf("steps %s, want the plan, the edit and the answer", got)
	}
	plan := c.step(t, run, 2)
	if plan.State != schema.StatePlan.String() || plan.ToolCall != nil || plan.ToolResult != nil || !strings.HasPrefix(reason(plan), "Add a `timeout` setting") {
		t.Errorf("architect reply: state %s call %v result %v reason %q", plan.State, plan.ToolCall, plan.ToolResult, reason(plan))
	}
	c.calls(t, run, map[int64]string{5: "edit ok", 8: "message ok"})
	if data(t, c.step(t, run, 8)) != "thanks" {
		t.Errorf("the answer to the person: %q", data(t, c.step(t, run, 8)))
	}
}

// A reply whose every SEARCH/REPLACE block puts back the text it searched
// for changes nothing, though Aider answers "Applied edit": it is an edit
// rejected, as an editor's old_str equal to new_str is, and the same reply
// sent again is the same edit failing again. A reply with one block that
// changes something is an edit that applied.
func TestAiderBlockReplacingBySameText(t *testing.T) {
	block := func(search, replace string) string {
		return "roster.html\n```html\n<<<<<<< SEARCH\n" + search + "\n=======\n" + replace + "\n>>>>>>> REPLACE\n```\n\n"
	}
	row := "<tr *ngFor=\"let p of players\"><td>{{p.name}}</td></tr>"
	h := "# aider chat started at 2025-07-16 13:01:46\n\n#### show the data in the table  \n\n" +
		"The rows are bound already.\n\n" + block(row, row) +
		"> Applied edit to roster.html  \n\n#### it is still empty  \n\n" +
		"Here is the binding again.\n\n" + block(row, row) + block("<table>", "<table class=\"roster\">") +
		"> Applied edit to roster.html  \n> Commit 3c706ae style the table  \n"
	c, run := convertOne(t, Aider, []byte(h))
	c.calls(t, run, map[int64]string{1: "edit error EDIT_REJECTED", 4: "edit ok"})
	if r := c.step(t, run, 1).ToolResult.Reason; !strings.Contains(r, "changes nothing") {
		t.Errorf("reason %q does not say why", r)
	}
	// The same blocks change nothing however often they are sent: not
	// retryable. The reply that changed something is an edit as before.
	for step, want := range map[int64]bool{1: true, 4: false} {
		res := c.step(t, run, step).ToolResult
		if final := res.Retryable != nil && !*res.Retryable; final != want {
			t.Errorf("step %d: not retryable %v, want %v", step, final, want)
		}
	}
}
