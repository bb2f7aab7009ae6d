package adapters

import (
	"slices"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

var (
	rovoSep    = strings.Repeat("=", 120)
	rovoBanner = strings.Repeat("#", 120) + "\nPHASE 1\n" + strings.Repeat("#", 120)
)

// rovoTranscript writes sections (header, body) as Rovo Dev does, after
// its banner.
func rovoTranscript(sections ...[2]string) []byte {
	var b strings.Builder
	b.WriteString(rovoBanner + "\n")
	for _, s := range sections {
		b.WriteString(rovoSep + "\n" + s[0] + "\n" + s[1] + "\n")
	}
	return []byte(b.String())
}

// rovoDoc is a transcript whose agent calls tool with args (YAML) and gets
// output back; the call is section (step) 2.
func rovoDoc(tool, args, output string) []byte {
	return rovoTranscript(
		[2]string{"AGENT:", "I will start by viewing the workspace."},
		[2]string{"USER PROMPT:", "Resolve the following problem statement: x"},
		[2]string{"TOOL CALL (" + tool + ")", args},
		[2]string{"TOOL RETURN (" + tool + ")", output},
	)
}

// The healthy sample reads as the transcript says: each call numbered by
// its section, its YAML arguments as JSON without the timeout, the
// agent's words before it as its reason, a grep that found nothing empty,
// an edit marked as one, and the summary the run's STOP.
func TestRovoDevSample(t *testing.T) {
	conv, run := convertOne(t, RovoDev, readSample(t, "rovo-dev/healthy-fix"))
	if run != "t.json" {
		t.Errorf("run %q, want the file's name", run)
	}
	if got := conv.numbers(run); !equalInts(got, []int64{0, 3, 5, 7, 10, 12, 15}) {
		t.Errorf("steps %v", got)
	}
	first := conv.step(t, run, 3)
	if tool(first) != "grep" || result(first) != "ok empty" || first.Intent != "search" || !strings.Contains(reason(first), "STEP 1: FIND THE FUNCTION") {
		t.Errorf("step 3: %s %s intent %q reason %q", tool(first), result(first), first.Intent, reason(first))
	}
	if a := args(t, conv.step(t, run, 7)); len(a["file_paths"].([]any)) != 1 {
		t.Errorf("open_files args %v", a)
	}
	edit := conv.step(t, run, 10)
	if edit.Intent != schema.IntentEdit || result(edit) != "ok" || reason(edit) != "The character class drops digits. I will keep them." {
		t.Errorf("step 10: intent %q %s reason %q", edit.Intent, result(edit), reason(edit))
	}
	test := conv.step(t, run, 12)
	if a := args(t, test); a["timeout"] != nil || !strings.HasPrefix(a["command"].(string), "cd /workspace && npx jest") {
		t.Errorf("bash args %v", a)
	}
	if d := data(t, test); strings.Contains(d, "```") || !strings.HasPrefix(d, "PASS src/text/slug.test.ts") {
		t.Errorf("output %q", d)
	}
	stop := conv.step(t, run, 15)
	if stop.State != schema.StateStop.String() || stop.ToolCall != nil || !strings.Contains(reason(stop), "Fixed `slugify()`") || !strings.Contains(reason(stop), "Summary:") {
		t.Errorf("last step: state %q call %v reason %q", stop.State, stop.ToolCall, reason(stop))
	}
	if intro := conv.step(t, run, 0); intro.State == schema.StateStop.String() || tool(intro) != MessageTool {
		t.Errorf("step 0, answered by the task: state %q tool %q", intro.State, tool(intro))
	}
}

// The storm sample: npm's ENOTEMPTY read from the output, the harness's
// Timeout..., and the agent's words answered by the nudge to call a tool
// a format error.
func TestRovoDevStormSample(t *testing.T) {
	conv, run := convertOne(t, RovoDev, readSample(t, "rovo-dev/npm-install-storm"))
	for step, want := range map[int64]string{7: "error NPM_ENOTEMPTY", 14: "error NPM_ENOTEMPTY", 16: "error TIMEOUT", 18: "error FORMAT_ERROR", 20: "error NPM_ENOTEMPTY"} {
		if got := result(conv.step(t, run, step)); got != want {
			t.Errorf("step %d: %s, want %s", step, got, want)
		}
	}
	if a, b := args(t, conv.step(t, run, 7)), args(t, conv.step(t, run, 9)); a["command"] != b["command"] || len(a) != 1 {
		t.Errorf("two npm installs that differ only in their timeout: %v / %v", a, b)
	}
	if s := conv.step(t, run, 7); s.Intent != "install: npm install" {
		t.Errorf("npm install: intent %q", s.Intent)
	}
}

// A block that does not open with a header is the section before it going
// on; one whose header is unknown, text before the first section, and a
// return that answers no call are rejects of their own at their lines,
// while the rest of the run is read. A transcript cut after a call keeps
// the call without a result.
func TestRovoDevMalformed(t *testing.T) {
	raw := []byte("stray words\n" + string(rovoTranscript(
		[2]string{"USER PROMPT:", "Resolve x"},
		[2]string{"TOOL CALL (bash)", "command: pytest -q"},
		[2]string{"TOOL RETURN (bash)", "```\n= report"},
	)) + rovoSep + "\n1 passed\n```\n" + rovoSep + "\nSYSTEM NOTICE:\ncontext trimmed\n" +
		rovoSep + "\nTOOL RETURN (grep)\n```\nx\n```\n" + rovoSep + "\nTOOL CALL (grep)\ncontent_pattern: foo\n" +
		rovoSep + "\nTOOL CALL (exinspect_code\nfile_path: a.py\n")
	d := TextDoc("run.txt", 1, raw)
	if RovoDev.Recognize(d) == nil {
		t.Fatal("a file that opens with stray words is recognised")
	}
	raw = raw[len("stray words\n"):]
	d = TextDoc("run.txt", 1, raw)
	if err := RovoDev.Recognize(d); err != nil {
		t.Fatal(err)
	}
	c := newConverted()
	if err := ConvertDoc(RovoDev, d, c.adder(t)); err != nil {
		t.Fatal(err)
	}
	run := "run.txt"
	if got := c.numbers(run); !equalInts(got, []int64{1, 5}) {
		t.Fatalf("steps %v, want the call at 1 and the cut-off call at 5", got)
	}
	if d := data(t, c.step(t, run, 1)); !strings.Contains(d, "= report") || !strings.HasSuffix(d, "1 passed") {
		t.Errorf("the output split by a line of '=': %q", d)
	}
	if r := c.step(t, run, 5); r.ToolCall == nil || r.ToolResult != nil {
		t.Errorf("the cut-off call: %+v", r)
	}
	slices.SortFunc(d.Skipped, func(x, y BadLine) int { return int(x.Line - y.Line) })
	if len(d.Skipped) != 3 {
		t.Fatalf("rejects %+v, want the unknown section, the return of no call and the garbled header", d.Skipped)
	}
	if s := d.Skipped[2]; s.Line != 29 || !strings.Contains(s.Reason, "TOOL CALL (exinspect_code") {
		t.Errorf("third reject at line %d: %q", s.Line, s.Reason)
	}
	if s := d.Skipped[0]; s.Line != 18 || !strings.Contains(s.Reason, `"SYSTEM NOTICE:"`) || string(s.Raw) != "SYSTEM NOTICE:\ncontext trimmed" {
		t.Errorf("first reject at line %d: %q %q", s.Line, s.Reason, s.Raw)
	}
	if s := d.Skipped[1]; s.Line != 21 || !strings.Contains(s.Reason, "answers no call") {
		t.Errorf("second reject at line %d: %q", s.Line, s.Reason)
	}
}

// Only a transcript's opening is taken for one: a Markdown file with a
// heading, a log, or a line of '=' before other text are not.
func TestRovoDevSniff(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{rovoBanner + "\n", true},
		{"\n\n" + rovoSep + "\nAGENT:\nhello\n", true},
		{rovoSep + "\nTOOL CALL (bash)\ncommand: ls\n", true},
		{"# Notes\n\nPHASE 1\n", false},
		{rovoSep + "\nRelease notes\n", false},
		{strings.Repeat("#", 120) + "\nPHASE one\n", false},
		{"[2025-01-02 10:00:00 INFO] started\n", false},
		{"", false},
	} {
		if got := DetectText([]byte(c.head)) == RovoDev; got != c.want {
			t.Errorf("%q: recognised %v, want %v", c.head, got, c.want)
		}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Calls made together are logged one after another, then their returns:
// each call takes its own tool's return, else the next one, and each is
// numbered by its own section.
func TestRovoDevParallelCalls(t *testing.T) {
	raw := rovoTranscript(
		[2]string{"USER PROMPT:", "Resolve x"},
		[2]string{"AGENT:", "Let me look at both files."},
		[2]string{"TOOL CALL (open_files)", "file_paths:\n- a.py"},
		[2]string{"TOOL CALL (grep)", "content_pattern: parse_url"},
		[2]string{"TOOL RETURN (grep)", "```\nNo matches found for pattern 'parse_url'.\n```"},
		[2]string{"TOOL RETURN (open_files)", "```\n['Successfully opened a.py']\n```"},
	)
	conv, run := convertOne(t, RovoDev, raw)
	if got := conv.numbers(run); !equalInts(got, []int64{2, 3}) {
		t.Fatalf("steps %v, want the two calls at 2 and 3", got)
	}
	open, grep := conv.step(t, run, 2), conv.step(t, run, 3)
	if tool(open) != "open_files" || !strings.Contains(data(t, open), "Successfully opened") || reason(open) != "Let me look at both files." {
		t.Errorf("open_files: %s %q reason %q", tool(open), data(t, open), reason(open))
	}
	if tool(grep) != "grep" || result(grep) != "ok empty" || reason(grep) != "" {
		t.Errorf("grep: %s %s reason %q", tool(grep), result(grep), reason(grep))
	}
}

// The logger writes `...` alone for a command that printed nothing: a grep
// answered so found nothing, and an rm so answered printed no text. A
// return that goes on after its first characters keeps its `...`.
func TestRovoDevEllipsisAloneIsEmpty(t *testing.T) {
	for _, c := range []struct {
		tool, args, output, want, data string
	}{
		{"bash", "command: cd /workspace && grep -rn needle src", "```\n...\n```", "ok empty", ""},
		{"bash", "command: rm /workspace/repro.py", "```\n...\n```", "ok", ""},
		{"bash", "command: grep -rn needle src", "```\nsrc/a.py:3: needle...\n```", "ok", "src/a.py:3: needle..."},
	} {
		conv, run := convertOne(t, RovoDev, rovoDoc(c.tool, c.args, c.output))
		s := conv.step(t, run, 2)
		if got := result(s); got != c.want {
			t.Errorf("%s -> %q: %s, want %s", c.args, c.output, got, c.want)
		}
		if s.ToolResult != nil && s.ToolResult.Data != nil {
			if d := data(t, s); d != c.data {
				t.Errorf("%s -> %q: data %q, want %q", c.args, c.output, d, c.data)
			}
		} else if c.data != "" {
			t.Errorf("%s -> %q: no data, want %q", c.args, c.output, c.data)
		}
	}
}

// rovoCallThenWords converts a transcript whose call (section 1) returns
// output and is followed by the agent's words and another call, and
// returns the call's step.
func rovoCallThenWords(t *testing.T, tool, args, output, words string) *schema.Step {
	t.Helper()
	conv, run := convertOne(t, RovoDev, rovoTranscript(
		[2]string{"USER PROMPT:", "Resolve the following problem statement: x"},
		[2]string{"TOOL CALL (" + tool + ")", args},
		[2]string{"TOOL RETURN (" + tool + ")", "```\n" + output + "\n```"},
		[2]string{"AGENT:", words},
		[2]string{"TOOL CALL (bash)", "command: cat setup.py"},
		[2]string{"TOOL RETURN (bash)", "```\nfrom setuptools import setup...\n```"},
	))
	return conv.step(t, run, 1)
}

type rovoCutCase struct {
	name, output, words, want string
	tool, args                string
}

// The logger keeps the first 500 characters of an output: a build whose
// failure is in the part cut off reads as failed when the agent's next
// words say so, and keeps the text that was logged. An output that was
// not cut is its own witness; words about a cut one that found nothing
// do not make 500 characters empty.
func TestRovoDevCutOutputReadFromTheNextWords(t *testing.T) {
	kept := "[INFO] Scanning for projects...\n" + strings.Repeat("[INFO] Compiling module\n", 20)
	kept = kept[:500]
	var cases []rovoCutCase
	for _, c := range []rovoCutCase{
		{name: "cut, said failing", output: kept + "...", words: "The build is failing but I'm not seeing the actual error.", want: "error SAID_FAILED"},
		{name: "cut, said nothing of it", output: kept + "...", words: "Let me look at the pom file.", want: "ok"},
		{name: "cut, said no matches", output: kept + "...", words: "No matches for the error line.", want: "ok"},
		{name: "not cut, said failing", output: "[INFO] BUILD SUCCESS...", words: "The build is failing but I'm not seeing the actual error.", want: "ok"},
	} {
		c.tool, c.args = "bash", "command: cd /workspace && mvn compile 2>&1 | tail -30"
		cases = append(cases, c)
	}
	// A build filtered through grep is still a build: what the filter kept
	// is the build's output, cut before its status line.
	cases = append(cases, rovoCutCase{name: "filtered build cut, said failing", tool: "bash", args: `command: cd /workspace && mvn compile 2>&1 | grep -v "^\\[DEBUG\\]" | head -30`, output: kept + "...", words: "The build is failing but I'm not seeing the actual error.", want: "error SAID_FAILED"})
	// What a view or a search printed is content, not a program's status:
	// words about an error after it speak of the code read.
	for _, call := range [][2]string{{"open_files", "file_paths:\n- src/Main.java"}, {"grep", "content_pattern: IllegalStateException"}, {"bash", "command: grep -rn IllegalStateException src"}} {
		cases = append(cases, rovoCutCase{name: call[0] + " cut, said error", tool: call[0], args: call[1], output: kept + "...", words: "The error is thrown when the reader is closed.", want: "ok"})
	}
	for _, c := range cases {
		s := rovoCallThenWords(t, c.tool, strings.ReplaceAll(c.args, "\\n", "\n"), c.output, c.words)
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if d := data(t, s); !strings.HasPrefix(d, "[INFO]") {
			t.Errorf("%s: data %q, want the logged text", c.name, d)
		}
	}
}

// A traceback's header kept by the logger, its exception line cut off:
// whether the program died is in the part that was not logged, and the
// agent, who saw it, settles it (NumPy prints a traceback in a warning and
// goes on). Words that say nothing of it leave the failure; so do words
// after a traceback that was not cut.
func TestRovoDevCutTracebackSettledByTheNextWords(t *testing.T) {
	warning := "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.3.5 as it may crash.\n" + strings.Repeat("Some module may need to rebuild instead.\n", 9)
	cut := warning + "\nTraceback (most recent call last):  File \"<string>\", line 28, in <module>\n"
	cut = cut[:500] + "..."
	if !rovoCut(cut) || !strings.Contains(cut, "Traceback (most recent call last):") {
		t.Fatalf("the sample output is not a cut traceback: %d characters", len(cut))
	}
	for _, c := range []struct{ name, output, words, want string }{
		{"cut, said passed", cut, "Excellent! The test passed! The model now returns both attentions.", "ok"},
		{"cut, said nothing of it", cut, "Let me look at the config next.", "error EXCEPTION"},
		{"not cut, said passed", "Traceback (most recent call last):\n  File \"x.py\", line 1...", "Excellent! The test passed!", "error EXCEPTION"},
	} {
		s := rovoCallThenWords(t, "bash", "command: cd /workspace && python check.py", c.output, c.words)
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if d := data(t, s); !strings.Contains(d, "Traceback") {
			t.Errorf("%s: data %q, want the logged text", c.name, d)
		}
	}
}

// A long preamble (pip's warning about running as root, its notices) took
// the logger's 500 characters, and the cut fell inside the header of the
// traceback that followed: the program died, unless the agent says it
// worked. A header cut shorter than `Traceback (`, and an output not cut,
// are read as before.
func TestRovoDevCutInsideTracebackHeader(t *testing.T) {
	pre := "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. " + strings.Repeat("It is recommended to use a virtual environment instead. ", 6) + "\n\n[notice] A new release of pip is available: 25.2 -> 25.3\n"
	cut := func(head string) string {
		out := pre + strings.Repeat("x", 500)
		return out[:500-len(head)-1] + "\n" + head + "..."
	}
	for _, c := range []struct{ name, output, words, want string }{
		{"cut in the header", cut("Traceback (most recent call"), "Let me look at the tokenizer next.", "error EXCEPTION"},
		{"cut in the header, said passed", cut("Traceback (most recent call"), "Excellent! The test passed!", "ok"},
		{"cut before the header's bracket", cut("Traceback"), "Let me look at the tokenizer next.", "ok"},
		{"not cut", "[notice] A new release of pip is available\nTraceback (most recent call...", "Let me look at the tokenizer next.", "ok"},
	} {
		if c.name != "not cut" && !rovoCut(c.output) {
			t.Fatalf("%s: the sample output is not cut: %d characters", c.name, len(c.output))
		}
		s := rovoCallThenWords(t, "bash", "command: pip install six -q && cd /workspace && python -c 'import t5'", c.output, c.words)
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// An install whose output the logger cut before its failure, said failed
// by the agent once, then retried after cleanups with the same kept output
// (but for the id the package manager prints) and no more words about it:
// the same opening of the same answer is the same failure. Words saying a
// retry worked, and a cut output that differs, are left alone.
func TestRovoDevCutFailureCarriedToTheSameOutput(t *testing.T) {
	cut := func(id string) string {
		out := "yarn install v1.22.22\n[1/4] Resolving packages...\n[3/4] Linking dependencies...\n" +
			"warning \"workspace-aggregator-" + id + " > react-emotion\" has unmet peer dependency.\n" +
			strings.Repeat("warning \" > karma-webpack@3.0.5\" has incorrect peer dependency.\n", 8)
		return out[:500] + "..."
	}
	other := strings.Repeat("[INFO] Compiling module\n", 30)[:500] + "..."
	conv, run := convertOne(t, RovoDev, rovoTranscript(
		[2]string{"USER PROMPT:", "Resolve the following problem statement: x"},
		[2]string{"TOOL CALL (bash)", "command: cd /workspace && yarn install 2>&1 | tail -30"},
		[2]string{"TOOL RETURN (bash)", "```\n" + cut("9b1f0c2e-1111-4a4a-8c8c-0123456789ab") + "\n```"},
		[2]string{"AGENT:", "The yarn install is failing due to a missing directory issue."},
		[2]string{"TOOL CALL (bash)", "command: cd /workspace && rm -rf node_modules/dtslint && yarn install"},
		[2]string{"TOOL RETURN (bash)", "```\n" + cut("0c2d4e6f-2222-4b4b-9d9d-abcdef012345") + "\n```"},
		[2]string{"TOOL CALL (bash)", "command: cd /workspace && rm -rf node_modules/tsutils && yarn install"},
		[2]string{"TOOL RETURN (bash)", "```\n" + cut("77aa88bb-3333-4c4c-aeae-fedcba987654") + "\n```"},
		[2]string{"AGENT:", "The install succeeded this time."},
		[2]string{"TOOL CALL (bash)", "command: cd /workspace && mvn compile"},
		[2]string{"TOOL RETURN (bash)", "```\n" + other + "\n```"},
		[2]string{"TOOL CALL (bash)", "command: cat setup.py"},
		[2]string{"TOOL RETURN (bash)", "```\nfrom setuptools import setup...\n```"},
	))
	for _, c := range []struct {
		pos        int64
		want, says string
	}{
		{1, "error SAID_FAILED", "the agent's next words"},
		{4, "error SAID_FAILED", "the same cut-short output as step 1"},
		{6, "ok", ""},
		{9, "ok", ""},
	} {
		s := conv.step(t, run, c.pos)
		if got, why := result(s), s.ToolResult.Reason; got != c.want || !strings.HasPrefix(why, c.says) {
			t.Errorf("step %d: %s (%q), want %s (%s...)", c.pos, got, why, c.want, c.says)
		}
	}
}

// A view the logger cut short at 500 characters kept the file's first
// lines; the agent saw the rest, where the function it looked for may be:
// the kept part does not say the lookup missed. A view the logger kept
// whole and without the name did miss.
func TestRovoDevCutViewIsNoMissedLookup(t *testing.T) {
	head := "Successfully expanded code chunks in src/Modal.js:\n\n````javascript\n" + strings.Repeat("   1 import React from 'react';\n", 30)
	for _, c := range []struct {
		name, output, want string
	}{
		{"cut", head[:500] + "...", "ok"},
		{"whole", head[:300] + "\n````", "ok empty"},
	} {
		conv, run := convertOne(t, RovoDev, rovoTranscript(
			[2]string{"USER PROMPT:", "Resolve the following problem statement: x"},
			[2]string{"AGENT:", "Let me look for the `handleBackdropClick` function."},
			[2]string{"TOOL CALL (expand_code_chunks)", "file_path: src/Modal.js\nline_ranges:\n- - 0\n  - -1"},
			[2]string{"TOOL RETURN (expand_code_chunks)", "```\n" + c.output + "\n```"},
		))
		if got := result(conv.step(t, run, 2)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
