package adapters

import (
	"encoding/json"
	"testing"
)

// Magentic-One's routing note ("Next speaker WebSurfer") is no step and no
// answer: the instruction before it is answered by the worker, every other
// message keeps its position as its step number, and an orchestrator's
// instruction is addressed to the agent that answers it.
func TestRoutingNoteIsNoTurn(t *testing.T) {
	raw := []byte(`{"history": [
		{"role": "user", "name": "human", "content": "Which museum opens earliest on Sundays?"},
		{"role": "assistant", "name": "Orchestrator (-> WebSurfer)", "content": "Find the Sunday opening hours of the Town Museum."},
		{"role": "assistant", "name": "Orchestrator (thought)", "content": "Next speaker WebSurfer"},
		{"role": "assistant", "name": "WebSurfer", "content": "Town Museum: Sunday 10:00-16:00."},
		{"role": "assistant", "name": "Orchestrator (-> WebSurfer)", "content": "Find the Sunday opening hours of the Toy Museum."},
		{"role": "assistant", "name": "Orchestrator (thought)", "content": "Next speaker WebSurfer"},
		{"role": "assistant", "name": "WebSurfer", "content": "Toy Museum: Sunday 10:30-16:30."},
		{"role": "assistant", "name": "Orchestrator (final answer)", "content": "The Town Museum."}
	]}`)
	c, run := convertOne(t, OpenAIMessages, raw)
	if got := c.numbers(run); len(got) != 5 || got[0] != 1 || got[1] != 3 || got[2] != 4 || got[3] != 6 || got[4] != 7 {
		t.Fatalf("steps %v, want 1 3 4 6 7: the notes at 2 and 5 are no steps, the others keep their places", got)
	}
	s := c.step(t, run, 1)
	if string(s.ToolResult.Data) != `"Town Museum: Sunday 10:00-16:00."` {
		t.Errorf("the instruction's answer is %s, want the web surfer's", s.ToolResult.Data)
	}
	var a map[string]string
	if err := json.Unmarshal(s.ToolCall.Args, &a); err != nil || a["to"] != "WebSurfer" || a["from"] != "Orchestrator (-> WebSurfer)" {
		t.Errorf("the instruction's args %s, want it addressed to the web surfer", s.ToolCall.Args)
	}
	if a := args(t, c.step(t, run, 3)); a["to"] != nil {
		t.Errorf("the worker's report %v is addressed: only an orchestrator's instruction is", a)
	}
}

// AG2's speaker selection, printed when the group chat is told to be
// verbose, is a chat between its checking agent and its selection agent:
// no turn of the run, as a routing note is none.
func TestAG2SpeakerSelectionIsNoTurn(t *testing.T) {
	sep := "\n\n" + ag2Separator + "\n"
	raw := []byte("Admin (to chat_manager):\n\nWrite a paragraph on clouds." + sep +
		"checking_agent (to speaker_selection_agent):\n\nRead the above conversation, select the next person from ['Writer', 'Critic'] and only return the role." + sep +
		"speaker_selection_agent (to checking_agent):\n\nWriter" + sep +
		"Writer (to chat_manager):\n\nClouds are visible masses of water droplets." + sep +
		"checking_agent (to speaker_selection_agent):\n\nRead the above conversation, select the next person from ['Writer', 'Critic'] and only return the role." + sep +
		"speaker_selection_agent (to checking_agent):\n\nCritic" + sep +
		"Critic (to chat_manager):\n\nGood. TERMINATE" + sep)
	c, run := convertOne(t, AutoGen, raw)
	if got := c.numbers(run); len(got) != 2 || got[0] != 3 || got[1] != 6 {
		t.Fatalf("steps %v, want the writer's turn (3) and the critic's (6)", got)
	}
}
