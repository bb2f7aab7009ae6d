package adapters

import "testing"

// AG2's console transcript: a message per "SENDER (to RECIPIENT):" header,
// a suggested tool call a call (either spelling of "call"), the tool's
// response its result whether the id is in parentheses or quotes, the
// console's own lines between messages (the next speaker, auto replies,
// colour codes) no part of any.
func TestAG2ConsoleTranscript(t *testing.T) {
	raw := []byte("\x1b[33mAdmin\x1b[0m (to chat_manager):\n\nFind the cheapest flight to Oslo.\n\n" + ag2Separator + "\n" +
		"\x1b[32m\nNext speaker: Planner\n\x1b[0m\n\x1b[31m\n>>>>>>>> USING AUTO REPLY...\x1b[0m\n" +
		"\x1b[33mPlanner\x1b[0m (to chat_manager):\n\n***** Suggested tool Call (call_1): search_flights *****\nArguments: \n{\"to\": \"OSL\"}\n**********************************************\n\n" + ag2Separator + "\n" +
		"\nNext speaker: Executor\n\n>>>>>>>> EXECUTING FUNCTION search_flights...\n" +
		"Executor (to chat_manager):\n\n***** Response from calling tool \"call_1\" *****\n[]\n**********************************************\n\n" + ag2Separator + "\n" +
		"\nNext speaker: Planner\n\n" +
		"Planner (to chat_manager):\n\n***** Suggested function call: ask_expert *****\nArguments: \n{\"question\": \"Any other airport?\"}\n*********************************************\n\n" + ag2Separator + "\n" +
		"Executor (to chat_manager):\n\n***** Response from calling function (ask_expert) *****\nTry TRF.\n*****************************************************\n\n" + ag2Separator + "\n" +
		"Planner (to chat_manager):\n\nNo flight was found. TERMINATE\n\n" + ag2Separator + "\n")
	if !AutoGen.Text(raw) {
		t.Fatal("not recognised as AutoGen's text")
	}
	c, run := convertOne(t, AutoGen, raw)
	c.calls(t, run, map[int64]string{1: "search_flights ok empty", 3: "ask_expert ok"})
	if s := c.step(t, run, 1); args(t, s)["to"] != "OSL" {
		t.Errorf("step 1 args %s", s.ToolCall.Args)
	}
	if s := c.step(t, run, 3); string(s.ToolResult.Data) != `"Try TRF."` {
		t.Errorf("step 3 result %s, want the function's answer", s.ToolResult.Data)
	}
	if s := c.step(t, run, 5); s.State != "STOP" {
		t.Errorf("the last message is %q, want STOP", s.State)
	}
}

// A header without the separator after it is no transcript: a README's
// prose can name an agent and its recipient.
func TestAG2ConsoleHeadNeedsTheSeparator(t *testing.T) {
	if ag2ConsoleHead([]byte("The planner (to chat_manager):\n\nsends the plan, see below.\n")) {
		t.Error("recognised without the separator")
	}
}
