package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// The storm sample reads as the log says: each step numbered by its
// entry, the phase's instruction a PLAN step answered by the programmer,
// a turn logged twice (the tester passing the programmer's words on) one
// step, the tokens of the request before a turn on that turn, the code
// written an edit of its file, each run of the software a call whose
// report ChatDev's own failure makes an ERROR, the report logged twice
// one call, and the closing summary making the last step the stop.
func TestChatDevSample(t *testing.T) {
	conv, run := convertOne(t, ChatDev, readSample(t, "chatdev/test-error-storm.log"))
	if run != "t.json" {
		t.Errorf("run %q, want the file's name", run)
	}
	plan := conv.step(t, run, 6)
	a := args(t, plan)
	if plan.State != schema.StatePlan.String() || tool(plan) != MessageTool || a["from"] != "Chief Executive Officer" ||
		a["to"] != "Chief Product Officer" || a["phase"] != "DemandAnalysis" || strings.HasPrefix(a["text"].(string), "[ChatDev") {
		t.Errorf("step 6: %s %s %v", plan.State, tool(plan), a)
	}
	if result(plan) != "ok" || string(plan.ToolResult.Data) != `"\u003cINFO\u003e Application"` {
		t.Errorf("step 6 answered %s %s, want the product officer's words", result(plan), plan.ToolResult.Data)
	}
	turn := conv.step(t, run, 12)
	if u := turn.Usage; u == nil || u.PromptTokens != 430 || u.CompletionTokens != 12 || u.Model != "gpt-3.5-turbo" {
		t.Errorf("step 12 usage %+v, want the request's 430/12 tokens of gpt-3.5-turbo", u)
	}
	var runs, writes, summaries int
	for _, s := range conv.steps {
		switch tool(s) {
		case "run_software":
			runs++
			if result(s) != "error ERROR" || !strings.Contains(string(s.ToolResult.Data), "setsid") {
				t.Errorf("step %d: %s %s", *s.Step, result(s), s.ToolResult.Data)
			}
		case "write_file":
			writes++
			if s.Intent != schema.IntentEdit || args(t, s)["path"] != "main.py" {
				t.Errorf("step %d: intent %q args %v", *s.Step, s.Intent, args(t, s))
			}
		case MessageTool:
			if args(t, s)["phase"] == "TestErrorSummary" {
				summaries++
			}
		}
	}
	// Five runs of the software (each logged twice but the last), five
	// writes, four error summaries asked for: each a step once.
	if runs != 5 || writes != 5 || summaries != 4 {
		t.Errorf("%d runs of the software, %d writes, %d summaries asked for; want 5, 5, 4", runs, writes, summaries)
	}
	for _, s := range conv.steps {
		if tool(s) == MessageTool && args(t, s)["from"] == "Software Test Engineer" && strings.HasPrefix(args(t, s)["text"].(string), "Based on the test reports") {
			t.Errorf("step %d: the tester passing the programmer's words on is a step of its own", *s.Step)
		}
	}
	last := conv.steps[len(conv.steps)-1]
	if last.State != schema.StateStop.String() && !last.ToolResult.IsError() {
		t.Errorf("last step %d is %s, want STOP after the closing summary", *last.Step, last.State)
	}
	// The log's dates are written year, day, month: 2023-14-09 is the
	// 14th of September.
	if ts := plan.TS; ts == nil || ts.UnixMilli != 1694685731000 {
		t.Errorf("step 6 at %v, want 2023-09-14 10:02:11 UTC", ts)
	}
}

// The healthy sample: a review comment, a traceback in the test report
// (a module not installed) read as its exception, the report of a run
// that worked ok, and the manual the stop.
func TestChatDevHealthySample(t *testing.T) {
	conv, run := convertOne(t, ChatDev, readSample(t, "chatdev/healthy-review-and-test.log"))
	var reports []string
	for _, s := range conv.steps {
		if tool(s) == "run_software" {
			reports = append(reports, result(s))
		}
	}
	if strings.Join(reports, ", ") != "error ModuleNotFoundError, ok" {
		t.Errorf("test reports %v, want the missing module, then a run that worked", reports)
	}
	last := conv.steps[len(conv.steps)-1]
	if last.State != schema.StateStop.String() || args(t, last)["from"] != "Chief Product Officer" {
		t.Errorf("last step %d: %s %v", *last.Step, last.State, args(t, last))
	}
	if run != "t.json" {
		t.Errorf("run %q", run)
	}
}

// A ChatDev log opens with a bracketed date, as no JSON array does: it is
// read as text, not rejected as malformed JSON; a log of an early ChatDev
// is refused saying so; an entry of code written that names no file is a
// reject of its own and the rest is read.
func TestChatDevRecognize(t *testing.T) {
	raw := readSample(t, "chatdev/healthy-review-and-test.log")
	if OpensJSON(raw) {
		t.Error("a ChatDev log taken for JSON")
	}
	if !OpensJSON([]byte(`[{"role": "user"}]`)) || !OpensJSON([]byte("[2023, 1]")) {
		t.Error("a JSON array not taken for JSON")
	}
	if f := DetectText(raw); f != ChatDev {
		t.Errorf("DetectText picked %v", f)
	}
	early := TextDoc("old.log", 1, []byte("[2023-25-07 15:46:12 INFO] AgentTech Starts (20230725154612)\n\n[2023-25-07 15:46:12 INFO] args: Namespace(task='x')\n"))
	if err := ChatDev.Recognize(early); err == nil || !strings.Contains(err.Error(), "early ChatDev") {
		t.Errorf("an early log: %v", err)
	}
	broken := strings.Replace(string(raw), "main.py updated.", "main.py was rewritten.", 1)
	d := TextDoc("t.log", 1, []byte(broken))
	c := newConverted()
	if err := ConvertDoc(ChatDev, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	if len(d.Skipped) != 1 || !strings.Contains(d.Skipped[0].Reason, "Update Codes") || !strings.Contains(string(d.Skipped[0].Raw), "main.py was rewritten.") {
		t.Errorf("rejects %+v, want the entry that names no file", d.Skipped)
	}
	writes := 0
	for _, s := range c.steps {
		if tool(s) == "write_file" {
			writes++
		}
	}
	if writes != 2 {
		t.Errorf("%d writes read, want the two other entries of code written", writes)
	}
}

// A log that never got past its first instruction holds one step; one
// with no phase at all holds none and says so.
func TestChatDevNoPhase(t *testing.T) {
	d := TextDoc("t.log", 1, []byte("[2023-14-09 10:02:11 INFO] **[Preprocessing]**\n\n**ChatDev Starts** (20230914100211)\n\n[2023-14-09 10:02:11 INFO] flask app.py did not start for online log\n"))
	err := ConvertDoc(ChatDev, d, func(*schema.Step) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no phase") {
		t.Errorf("a log without a phase: %v", err)
	}
}

// Read without the tools' output, a run of the software keeps no report,
// but the phase that takes the report up quotes it in its instruction,
// which is in the log: the run's result is that quote, read by the same
// rules. A report that is ChatDev's own `An error occurred: ...` (its
// tester could not run the program) is the harness's account of the run,
// not the program's output: unquoted, it keeps its error type, not its
// text.
func TestChatDevStrippedReadsTheQuotedReport(t *testing.T) {
	conv, _ := convertStripped(t, ChatDev, readSample(t, "chatdev/test-error-storm.log"))
	quoted, own := 0, 0
	for _, s := range conv.steps {
		if tool(s) != "run_software" {
			continue
		}
		if result(s) == "error ERROR" && strings.Contains(string(s.ToolResult.Data), "setsid") {
			quoted++
			continue
		}
		if s.ToolResult != nil && len(s.ToolResult.Data) > 2 {
			t.Errorf("step %d kept its own report stripped: %s", *s.Step, s.ToolResult.Data)
		}
		if result(s) == "error ERROR" {
			own++
		}
	}
	// Five runs; the last is followed by no phase that quotes it.
	if quoted != 4 || own != 1 {
		t.Errorf("%d runs read from the quoted report, %d from ChatDev's own words, want 4 and 1", quoted, own)
	}
}

// ChatDev logs a turn again when a role only passes it on; that second
// entry is one message with the first. A turn that answers an instruction
// handed out again is not: the same code written back after the same
// "complete the code" prompt is the programmer's second answer, the loop
// the reader sees, and stays a step of its own.
func TestChatDevAnswerToARepeatedInstructionIsKept(t *testing.T) {
	var b strings.Builder
	b.WriteString("[2023-14-09 10:02:11 INFO] **[Preprocessing]**\n\n**ChatDev Starts** (20230914100211)\n\n")
	b.WriteString("[2023-14-09 10:02:11 INFO] System: **[chatting]**\n\n| Parameter | Value |\n| --- | --- |\n" +
		"| **assistant_role_name** | Programmer |\n| **user_role_name** | Chief Technology Officer |\n| **phase_name** | CodeComplete |\n\n")
	for lap := range 2 {
		fmt.Fprintf(&b, "[2023-14-09 10:0%d:12 INFO] Chief Technology Officer: **[Start Chat]**\n\nComplete every method of main.py.\n\n", 3+lap)
		fmt.Fprintf(&b, "[2023-14-09 10:0%d:30 INFO] Programmer: **Programmer<->Chief Technology Officer on : CodeComplete, turn 0**\n\nmain.py\n```python\ndef start():\n    pass\n```\n\n", 3+lap)
	}
	conv, _ := convertOne(t, ChatDev, []byte(b.String()))
	answers := 0
	for _, s := range conv.steps {
		if tool(s) == MessageTool && args(t, s)["from"] == "Programmer" {
			answers++
		}
	}
	if answers != 2 {
		t.Errorf("%d answers of the programmer, want 2: one to each instruction", answers)
	}
}

// chatdevDiscussion is a ChatDev log of a LanguageChoose phase of
// chat_turn_limit limit whose two agents talk for turns turns, each turn
// agreeing on Python in words of its own; the last turn's last line is
// closing when that is set.
func chatdevDiscussion(limit, turns int, closing string) []byte {
	var b strings.Builder
	b.WriteString("[2023-14-09 10:02:11 INFO] **[Preprocessing]**\n\n**ChatDev Starts** (20230914100211)\n\n")
	fmt.Fprintf(&b, "[2023-14-09 10:02:11 INFO] System: **[chatting]**\n\n| Parameter | Value |\n| --- | --- |\n"+
		"| **assistant_role_name** | Chief Executive Officer |\n| **user_role_name** | Chief Technology Officer |\n"+
		"| **phase_name** | LanguageChoose |\n| **need_reflect** | True |\n| **chat_turn_limit** | %d |\n\n", limit)
	b.WriteString("[2023-14-09 10:02:12 INFO] Chief Executive Officer: **[Start Chat]**\n\nChoose the programming language.\n\n")
	for n := range turns {
		for k, who := range []string{"Chief Technology Officer", "Chief Executive Officer"} {
			words := fmt.Sprintf("Python suits this dice game well, point %d of %s.", n, who)
			if n == turns-1 && k == 1 && closing != "" {
				words += "\n" + closing
			}
			fmt.Fprintf(&b, "[2023-14-09 10:%02d:%02d INFO] %s: **Chief Technology Officer<->Chief Executive Officer on : LanguageChoose, turn %d**\n\n%s\n\n", 3+n, 10+k, who, n, words)
		}
	}
	return []byte(b.String())
}

// A discussion that used every turn of its limit without the agents'
// conclusion (a turn whose last line opens with `<INFO>`) was cut by the
// framework: its last turn fails with TURN_LIMIT. One that concluded, on
// its last turn or before the limit, or whose limit is one turn, was not.
func TestChatDevDiscussionCutAtItsTurnLimit(t *testing.T) {
	for _, c := range []struct {
		name         string
		limit, turns int
		closing      string
		cut          bool
	}{
		{"all ten turns, no conclusion", 10, 10, "", true},
		{"the conclusion not on the last line", 10, 10, "<INFO> Python\nLet us go on.", true},
		{"concluded on the last turn", 10, 10, "<INFO> Python", false},
		{"concluded before the limit", 10, 3, "<INFO> Python", false},
		{"stopped before the limit", 10, 3, "", false},
		{"a limit of one turn", 1, 1, "", false},
	} {
		conv, _ := convertOne(t, ChatDev, chatdevDiscussion(c.limit, c.turns, c.closing))
		var cut []int64
		for _, s := range conv.steps {
			if s.ToolResult != nil && s.ToolResult.ErrorType == schema.ErrTurnLimit {
				cut = append(cut, *s.Step)
			}
		}
		last := *conv.steps[len(conv.steps)-1].Step
		if want := c.cut; (len(cut) > 0) != want || (want && (len(cut) != 1 || cut[0] != last)) {
			t.Errorf("%s: TURN_LIMIT at steps %v, want it at the last turn (%d): %v", c.name, cut, last, want)
		}
	}
}

// The OpenAI client (v1) logs every request with its status: one that
// failed is a failed call of the model (a 429 and the client's retry of
// it are one failure); one that succeeded is no step.
func TestChatDevHTTPRequestFailures(t *testing.T) {
	var b strings.Builder
	b.Write(chatdevDiscussion(10, 1, "<INFO> Python"))
	url := "https://api.openai.com/v1/chat/completions"
	fmt.Fprintf(&b, "[2023-14-09 10:05:00 INFO] HTTP Request: POST %s \"HTTP/1.1 200 OK\"\n\n", url)
	fmt.Fprintf(&b, "[2023-14-09 10:05:01 INFO] HTTP Request: POST %s \"HTTP/1.1 429 Too Many Requests\"\n\n", url)
	b.WriteString("[2023-14-09 10:05:01 INFO] Retrying request to /chat/completions in 0.8 seconds\n\n")
	for i := range 3 {
		fmt.Fprintf(&b, "[2023-14-09 10:05:1%d INFO] HTTP Request: POST %s \"HTTP/1.1 401 Unauthorized\"\n\n", i, url)
	}
	c, run := convertOne(t, ChatDev, []byte(b.String()))
	var got []string
	for _, n := range c.numbers(run) {
		if s := c.step(t, run, n); tool(s) == "model" {
			got = append(got, result(s))
		}
	}
	if fmt.Sprint(got) != "[error RATE_LIMIT error HTTP_401 error HTTP_401 error HTTP_401]" {
		t.Errorf("model calls %v, want the 429 once and the three 401s", got)
	}
}

// The cost ChatDev states for a request is the next turn's logged cost,
// unless it is ChatDev's -1 for a model its price table lacks (then the
// tokens are priced by the model's list price); a package ChatDev installs
// after a report of a missing module is a call of its own, with no result
// (the install's output is not logged).
func TestChatDevStatedCostAndInstalls(t *testing.T) {
	var b strings.Builder
	b.Write(chatdevDiscussion(10, 1, "<INFO> Python"))
	usage := func(prompt, completion int, cost string) {
		fmt.Fprintf(&b, "[2023-14-09 10:06:00 INFO] **[OpenAI_Usage_Info Receive]**\nprompt_tokens: %d\ncompletion_tokens: %d\ntotal_tokens: %d\ncost: $%s\n\n", prompt, completion, prompt+completion, cost)
	}
	turn := func(n int, who, words string) {
		fmt.Fprintf(&b, "[2023-14-09 10:07:%02d INFO] %s: **Chief Technology Officer<->Chief Executive Officer on : LanguageChoose, turn %d**\n\n%s\n\n", n, who, n, words)
	}
	usage(492, 184, "0.025800")
	turn(1, "Chief Technology Officer", "We agreed on Python.")
	usage(500, 20, "-1.000000")
	turn(2, "Chief Executive Officer", "Python it is.")
	b.WriteString("[2023-14-09 10:08:00 INFO] **[CMD Execute]**\n\n[CMD] pip install pygame\n\n")
	c, run := convertOne(t, ChatDev, []byte(b.String()))
	var costs []string
	var install *schema.Step
	for _, n := range c.numbers(run) {
		s := c.step(t, run, n)
		if s.Usage != nil && s.Usage.PromptTokens >= 492 {
			costs = append(costs, fmt.Sprint(s.Usage.CostUSD))
		}
		if tool(s) == "run_command" {
			install = s
		}
	}
	if fmt.Sprint(costs) != "[0.0258 0]" {
		t.Errorf("the turns' logged costs %v, want the stated 0.0258 and none for -1", costs)
	}
	if install == nil || args(t, install)["command"] != "pip install pygame" || install.ToolResult != nil {
		t.Errorf("the install: %+v", install)
	}
}

// A fork of ChatDev that puts another provider's client in the OpenAI
// client's place logs the usage of each request under that provider's
// name (`**[Gemini_Usage_Info Receive]**`, with the same fields): it is
// the next turn's usage, as the OpenAI client's is.
func TestChatDevUsageOfAnotherProvidersClient(t *testing.T) {
	var b strings.Builder
	b.Write(chatdevDiscussion(10, 1, "<INFO> Python"))
	b.WriteString("[2024-23-01 21:46:02 INFO] **[Gemini_Usage_Info Receive]**\nprompt_tokens: 428\ncompletion_tokens: 57\ntotal_tokens: 485\ncost: $0.000542\n\n\n")
	b.WriteString("[2024-23-01 21:46:04 INFO] flask app.py did not start for online log\n")
	b.WriteString("[2024-23-01 21:46:12 INFO] Chief Technology Officer: **Chief Technology Officer<->Chief Executive Officer on : LanguageChoose, turn 1**\n\nWe agreed on Python.\n\n")
	c, run := convertOne(t, ChatDev, []byte(b.String()))
	var got *schema.Usage
	for _, n := range c.numbers(run) {
		if s := c.step(t, run, n); s.Usage != nil && s.Usage.PromptTokens == 428 {
			got = s.Usage
		}
	}
	if got == nil || got.CompletionTokens != 57 || got.CostUSD != 0.000542 {
		t.Errorf("the turn after the Gemini client's usage: %+v, want 428 prompt and 57 completion tokens at $0.000542", got)
	}
}
