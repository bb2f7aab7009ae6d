package adapters

import (
	"bytes"
	"regexp"
	"strings"
)

// An orchestrator's routing note names the agent it hands the next turn
// to and nothing else: Magentic-One logs "Next speaker WebSurfer" as its
// thought every round, between its instruction and the worker's answer.
// Read as a turn, the same note came back every round, answered alike, and
// a run making progress round after round read as the orchestrator
// re-planning in a loop; and it stood between each instruction and its
// answer. It is bookkeeping, as AgentChat's SelectSpeakerEvent is: no
// step, and no answer to the turn before it.
var reRoutingNote = regexp.MustCompile(`^Next speaker:?[ \t]+[^\n]{1,80}$`)

// ag2Selectors are the two agents of AG2's speaker selection: with
// speaker_selection_method "auto", a group chat's manager runs a two-agent
// chat between them to pick the next speaker (the checking agent asks,
// the selection agent names one), and prints it when told to be verbose.
// Their turns choose who speaks, as a routing note does.
var ag2Selectors = map[string]bool{"checking_agent": true, "speaker_selection_agent": true}

// routingNote reports whether m is a named agent's routing note, or a turn
// of AG2's speaker selection.
func routingNote(m *chatMessage) bool {
	if m.Name == "" || len(m.ToolCalls) > 0 || m.FunctionCall != nil {
		return false
	}
	// Every named turn of every conversation is asked: its words are
	// decoded only when their bytes may hold a note.
	return ag2Selectors[m.Name] || bytes.Contains(m.Content, []byte("Next speaker")) &&
		reRoutingNote.MatchString(strings.TrimSpace(text(m.Content)))
}

// dropRoutingNotes is msgs without routing notes, the others keeping their
// step numbers: a list numbered by position already loses the notes'
// places; a list numbered by index is numbered by position from here on,
// unless it holds calls, whose parallel replies number their steps by
// index (then the notes stay).
func dropRoutingNotes(msgs []chatMessage, positioned bool) ([]chatMessage, bool) {
	found := false
	for i := range msgs {
		if routingNote(&msgs[i]) {
			found = true
			break
		}
	}
	if !found {
		return msgs, positioned
	}
	if !positioned {
		for i := range msgs {
			if len(msgs[i].ToolCalls) > 0 || msgs[i].FunctionCall != nil {
				return msgs, false
			}
		}
	}
	out := make([]chatMessage, 0, len(msgs))
	for i := range msgs {
		if routingNote(&msgs[i]) {
			continue
		}
		m := msgs[i]
		if !positioned {
			m.pos = i
		}
		out = append(out, m)
	}
	return out, true
}
