package adapters

import (
	"regexp"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// What the agent says after a call whose output was not logged: a report
// of a failure or of nothing found is read; a plan, a condition, a
// success, or a report after the third sentence is not.
func TestSaidOutcome(t *testing.T) {
	for _, c := range []struct {
		words string
		want  string // "", "empty", or the error type
	}{
		{"No results yet from current searches; indexing may still be in progress.", "empty"},
		{"THOUGHT: The previous searches didn't reveal the relevant files, so I will list the directory.", "empty"},
		{"There are no search results for the widget class yet.", "empty"},
		{"The find command isn't returning any results from the repository root.", "empty"},
		{"The Bash tool hasn't produced any output for the last two commands.", "empty"},
		{"**Exploring alternative query parameters**\n\nSince the initial query returned no results, I'm testing another filter.", "empty"},
		{"**Handling tool timeouts**\n\nThe tools have timed out twice, likely due to indexing.", schema.ErrSaidFailed},
		{"I see we're having issues with the Python environment. Let me try a different approach.", schema.ErrSaidFailed},
		{"I apologize for the confusion. It seems the edit was not applied due to a syntax error.", schema.ErrSaidFailed},
		{"The error message indicates a mismatch in the total price.", schema.ErrSaidFailed},
		{"<thinking> The build is failing but I'm not seeing the actual compilation error. </thinking>", schema.ErrSaidFailed},
		{"I apologize for the error. Let me try again with the exact text from the file:", schema.ErrSaidFailed},
		{"I apologize for the difficulty with the string replacement. Let me view the file first.", schema.ErrSaidFailed},
		{"It seems there was an indentation error in the previous attempt. Let's correct it.", schema.ErrSaidFailed},
		{"Sorry for the mistake, the path was wrong.", schema.ErrSaidFailed},
		{"I apologize for the persistent errors. It seems the configuration is stricter than expected.", schema.ErrSaidAgain},
		{"The error persists, indicating a possible issue with the flight segments.", schema.ErrSaidAgain},
		{"<thinking> The test still fails with the same traceback. </thinking>", schema.ErrSaidAgain},
		// Words that say the attempts so far all failed say the failure
		// came back, whatever the commands were.
		{"Thought: All previous attempts to identify the operating system have failed.", schema.ErrSaidAgain},
		{"The previous commands to identify the OS did not work.", schema.ErrSaidAgain},
		{"Since repeated attempts have failed, I will try a simpler command.", schema.ErrSaidAgain},
		{"I have been unable to identify the operating system due to command execution failures.", schema.ErrSaidAgain},
		{"I have been encountering errors consistently when trying to execute commands.", schema.ErrSaidAgain},
		{"The previous attempt failed due to quoting.", schema.ErrSaidFailed},
		// A discrepancy or a mismatch is what a check reports when it
		// fails; still there, it failed again.
		{"Hmm, we still have a small discrepancy. Let's modify the code again:", schema.ErrSaidAgain},
		{"We're still getting a small discrepancy.", schema.ErrSaidAgain},
		{"The mismatch persists after the change.", schema.ErrSaidAgain},
		{"This discrepancy might be due to additional fees or taxes.", schema.ErrSaidFailed},
		{"There is a mismatch between the two totals.", schema.ErrSaidFailed},
		{"There is no discrepancy between the two totals.", ""},
		{"The totals still match, with no discrepancy.", ""},
		{"Let me fix the code to avoid the mismatch.", ""},
		// "I've been unable" is "I have been unable"; "I am unable to"
		// says the call just made did not do what it was for.
		{"Since I've been unable to access specific travel content directly, I will focus on general themes.", schema.ErrSaidAgain},
		{"Since I am unable to access specific travel content, I will consider a broader approach.", schema.ErrSaidFailed},
		{"I'm still unable to connect to the database.", schema.ErrSaidFailed},
		{"All previous attempts to read the file worked.", ""},

		// A value a function returns is code described; a call that
		// returned nothing is a result.
		{"The adapter reads null and returns an empty HashMap, so the map is lost.", ""},
		{"Find-nodes returns nothing despite providing a root.", "empty"},
		{"The search returned an empty list.", "empty"},

		{"Let's look at the schema editor implementation:", ""},
		{"Run the tests to make sure nothing fails.", ""},
		{"Now let's check whether the error persists.", ""},
		{"If the command fails, I will retry it with sudo.", ""},
		{"Great! The edit was applied successfully.", ""},
		{"There are no errors in the output, so the fix holds.", ""},
		{"I apologize for the long output. Let me summarise the changes.", ""},
		{"The tests pass now. Before the fix the build failed on a missing import.", ""},
		{"Let me read the file. Then run it. Then look at the log. It failed before.", ""},
		{"", ""},

		// What a sentence says last decides: a failure named as fixed
		// or gone is a success, a failure after a success is a failure.
		{"The previously failing tests now pass, and a broader sanity check is prudent.", ""},
		{"The error is fixed.", ""},
		{"I have successfully fixed the issue where nested loops broke. Let me submit.", ""},
		{"The script still runs without errors.", ""},
		// A failure named as the object of a fixing verb, or as its
		// subject in the passive or with "gone", is over.
		{"The syntax error has been corrected.", ""},
		{"I've fixed the syntax error in the file.", ""},
		{"The error is gone now, let me run the tests.", ""},
		{"Now that the syntax error is corrected, let's run the script.", ""},
		{"I fixed the error, but the tests still fail.", schema.ErrSaidAgain},
		{"I have successfully fixed the issue where destructuring into multiple stores didn't work since version 3.26.", ""},
		{"The syntax error has not been corrected.", schema.ErrSaidFailed},
		{"The error is not gone.", schema.ErrSaidFailed},
		{"Most tests pass, but two still fail.", schema.ErrSaidAgain},
		{"2046 tests are passing and only 2 are failing.", schema.ErrSaidFailed},
		// "pass" handing something on is no test passing.
		{"The test failure is unrelated to my change, the inputs need to be passed as keyword arguments.", schema.ErrSaidFailed},
		// A failure placed before the call says nothing of it.
		{"Run the autodoc tests that previously failed.", ""},
		{"Running the full test suite timed out earlier. The fix is in place.", ""},
		{"I apologize for the confusion earlier.", ""},
		// A failure or a success denied says nothing of the call.
		{"The IntegerLookup class doesn't have the same issue.", ""},
		{"The test files don't have obvious performance issues.", ""},
		{"The tests did not pass. The build failed on a missing import.", schema.ErrSaidFailed},
		// A failure planned or expected is not reported.
		{"This should fix the syntax error without altering the behaviour.", ""},
		{"The except block will still raise the same exception.", ""},
		// A clause of circumstance describes the code, not the result.
		{"Only set the alias text when more_content is empty.", ""},
		// Working as expected is working; denied, it is a failure.
		{"Perfect! Our fix is working exactly as expected. The key insight here is that the old regex only had the issue with trailing newlines.", ""},
		{"All CSS-related parsers now work correctly:\n- Empty files produce no output (no newline)", ""},
		{"It seems our fix isn't working as expected. The issue is the cache.", schema.ErrSaidFailed},
		{"Hmm, it seems the fix didn't work as expected.", schema.ErrSaidFailed},
		{"The test is failing because when the newline is empty, the comma gets a space.", schema.ErrSaidFailed},
	} {
		errType, empty, _, ok := saidOutcome(c.words)
		got := errType
		if empty {
			got = "empty"
		}
		if ok != (c.want != "") || got != c.want {
			t.Errorf("%q: read %q (%v), want %q", c.words, got, ok, c.want)
		}
	}
}

// A conversation read without its tools' output: the calls the agent's
// next words say failed or found nothing get that outcome, and the words
// that decided are its reason. Read with the output, the output
// decides and the words are not read.
func TestSaidOutcomesStripped(t *testing.T) {
	call := func(id, cmd string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"` + cmd + `"}`}}
	}
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Fix the failing build."},
		{"role": "assistant", "content": "Let me build it.", "tool_calls": []any{call("a", "make")}},
		{"role": "tool", "tool_call_id": "a", "content": "make: *** [all] Error 2"},
		{"role": "assistant", "content": "The build failed on a missing header. I will search for it.", "tool_calls": []any{call("b", "grep -r foo.h .")}},
		{"role": "tool", "tool_call_id": "b", "content": "./include/foo.h:1:// foo"},
		{"role": "assistant", "content": "No matches in the sources, only a stale copy. Building again.", "tool_calls": []any{call("c", "make")}},
		{"role": "tool", "tool_call_id": "c", "content": "ok"},
		{"role": "assistant", "content": "It works now."},
	}})
	logged, run := convertOne(t, OpenAIMessages, raw)
	logged.calls(t, run, map[int64]string{1: "bash error EXIT_CODE", 3: "bash ok", 5: "bash ok"})

	stripped, run := convertStripped(t, OpenAIMessages, raw)
	stripped.calls(t, run, map[int64]string{1: "bash error " + schema.ErrSaidFailed, 3: "bash ok empty", 5: "bash ok"})
	if got := stripped.step(t, run, 1).ToolResult.Reason; got != "the agent's next words: The build failed on a missing header." {
		t.Errorf("the failure's reason is %q, want the sentence that said it", got)
	}
}

// A call the source logged no answer to is read from the words after it
// even when the output is kept; a logged answer that is blank is an answer
// (a command that printed nothing) and the words are not read for it.
func TestSaidOutcomeNeedsAbsentOutput(t *testing.T) {
	call := func(id string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"make"}`}}
	}
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Build it."},
		{"role": "assistant", "content": "Building.", "tool_calls": []any{call("a")}},
		{"role": "assistant", "content": "That failed again. Trying once more.", "tool_calls": []any{call("b")}},
		{"role": "tool", "tool_call_id": "b", "content": ""},
		{"role": "assistant", "content": "The build failed."},
	}})
	c, run := convertOne(t, OpenAIMessages, raw)
	c.calls(t, run, map[int64]string{1: "bash error " + schema.ErrSaidAgain, 2: "bash ok"})
}

// Any words are read without a panic and within the sentences they hold.
func FuzzSaidOutcome(f *testing.F) {
	for _, s := range []string{"No results.", "**T**\n\n\nThe error persists; x", "*", "**", ";;\n\n", "a.b. c! d? e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, words string) {
		errType, empty, sentence, ok := saidOutcome(words)
		if ok && len(sentence) > len(words) {
			t.Fatalf("sentence %q longer than the words %q", sentence, words)
		}
		if !ok && (errType != "" || empty) {
			t.Fatalf("an outcome without a match: %q %v", errType, empty)
		}
		for i := range SaidRules {
			if SaidRules[i].re.MatchString(words) && !mayReport(words) {
				t.Fatalf("%s matches %q, which holds none of saidAnchors", SaidRules[i].Name, words)
			}
		}
	})
}

// Every phrase a rule's documentation quotes is one the rule matches and
// holds one of the anchors that let the rule run: the anchors skip only
// sentences no rule could match.
func TestSaidAnchors(t *testing.T) {
	quoted := regexp.MustCompile(`"([^"]+)"`)
	for _, r := range SaidRules {
		examples := quoted.FindAllStringSubmatch(r.Doc, -1)
		if len(examples) < 3 {
			t.Fatalf("%s: %d quoted examples in its doc", r.Name, len(examples))
		}
		for _, m := range examples {
			if !r.re.MatchString(m[1]) {
				t.Errorf("%s does not match its own example %q", r.Name, m[1])
			}
			if !mayReport(m[1]) {
				t.Errorf("%s: example %q holds none of saidAnchors", r.Name, m[1])
			}
		}
	}
	if mayReport("let me look at the schema editor implementation:") {
		t.Error("a plan holds an anchor: the anchors are too wide to skip anything")
	}
}

// Words after a view or a search describe what was read: "The error
// occurs at line 86" after a view is about the code, not the view. After
// such a call only words that say the call itself failed, with a verb,
// are read as its failure; after a command they are read as before, and
// so after a test run whose printout a grep filtered.
func TestSaidAfterContent(t *testing.T) {
	call := func(id, cmd string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"` + cmd + `"}`}}
	}
	raw := mustMarshal(t, map[string]any{"messages": []map[string]any{
		{"role": "user", "content": "Fix the parser."},
		{"role": "assistant", "content": "Let me look at the parser.", "tool_calls": []any{call("a", "cat src/parse.py")}},
		{"role": "tool", "tool_call_id": "a", "content": "def parse(s):\n    return int(s)"},
		{"role": "assistant", "content": "The error occurs at line 2, where the input is not a number.", "tool_calls": []any{call("b", "grep -rn parse src")}},
		{"role": "tool", "tool_call_id": "b", "content": "src/parse.py:1:def parse(s):"},
		{"role": "assistant", "content": "There's a similar issue in the caller.", "tool_calls": []any{call("c", "grep -rn --bad parse src")}},
		{"role": "tool", "tool_call_id": "c", "content": "grep: unrecognized option '--bad'"},
		{"role": "assistant", "content": "The previous grep failed due to an unsupported option.", "tool_calls": []any{call("d", "npm test 2>&1 | grep Error")}},
		{"role": "tool", "tool_call_id": "d", "content": "Error: parse failed"},
		{"role": "assistant", "content": "The error is raised in parse.js.", "tool_calls": []any{call("e", "python t.py")}},
		{"role": "tool", "tool_call_id": "e", "content": "ValueError"},
		{"role": "assistant", "content": "The error occurs at line 2."},
	}})
	stripped, run := convertStripped(t, OpenAIMessages, raw)
	stripped.calls(t, run, map[int64]string{1: "bash ok", 3: "bash ok", 5: "bash error " + schema.ErrSaidFailed,
		7: "bash error " + schema.ErrSaidFailed, 9: "bash error " + schema.ErrSaidFailed})
}

// Read without its output, an edit the agent says it will make again did
// not land: "I will attempt the edit again" plans a retry, which only a
// failure calls for. The words are read so only after an edit (after a
// check, the same words speak of an edit before it), only when no other
// rule read them, and not when denied. Read with the output, the output
// decides.
func TestSaidEditAgainStripped(t *testing.T) {
	rejected := "Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.\n\nERRORS:\n- E999 IndentationError: unexpected indent\n"
	window := "[File: /repo/reproduce.py (20 lines total)]\n1:import django\n2:settings.configure()\n"
	steps := []map[string]any{
		{"action": "edit 9:11\n    INSTALLED_APPS=[]\nend_of_edit", "observation": rejected, "thought": "I will set the apps."},
		{"action": "edit 9:12\n    INSTALLED_APPS=[]\nend_of_edit", "observation": rejected, "thought": "I will attempt the edit again, ensuring that there are no unexpected indents."},
		{"action": "python reproduce.py", "observation": "Traceback (most recent call last):\nValueError: bad", "thought": "Let me run the script first."},
		{"action": "edit 9:9\nsettings.configure()\nend_of_edit", "observation": window, "thought": "Let's try the `edit` command again with the indentation fixed."},
		{"action": "python reproduce.py", "observation": "done", "thought": "I will not try the edit again; let me run the script."},
		{"action": "submit", "observation": "", "thought": "The script runs."},
	}
	for _, s := range steps {
		s["state"] = map[string]string{}
	}
	raw := mustMarshal(t, map[string]any{"trajectory": steps, "info": map[string]any{"exit_status": "submitted"}, "environment": "main"})

	logged, run := convertOne(t, SWEAgent, raw)
	logged.calls(t, run, map[int64]string{0: "edit error EDIT_REJECTED", 1: "edit error EDIT_REJECTED", 3: "edit ok"})

	stripped, run := convertStripped(t, SWEAgent, raw)
	stripped.calls(t, run, map[int64]string{0: "edit error " + schema.ErrEditFailed, 1: "edit ok", 2: "bash ok", 3: "edit ok"})
	if got := stripped.step(t, run, 0).ToolResult.Reason; got != "the agent's next words: I will attempt the edit again, ensuring that there are no unexpected indents." {
		t.Errorf("the failure's reason is %q, want the sentence that said it", got)
	}
}
