package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// OpenCode's headless runs (opencode run --format json, as CI jobs use it)
// print an event a line: {"type", "timestamp" (unix ms), "sessionID",
// "part"}, the part being what the session's export keeps of a message
// (openCodeMessage): "step_start" opens a model turn, "text" and
// "reasoning" are its words, "tool_use" a call with its "state" (status,
// input, output or error, metadata.exit), "step_finish" closes the turn
// with its "tokens" and "cost"; an "error" event ({"error": {"name",
// "data": {"message"}}}) is a failed request to the model.
var OpenCode = &Format{
	Name:       "opencode",
	Title:      "OpenCode's headless JSON stream (opencode run --format json)",
	Recognize:  recognizeOpenCodeStream,
	Convert:    convertOpenCodeStream,
	Transcript: func(d *Doc) bool { return d.eventOrFirst(isOpenCodeEvent) },
}

// openCodeEventTypes are the event types of the stream.
var openCodeEventTypes = map[string]bool{"step_start": true, "text": true, "reasoning": true, "tool_use": true, "step_finish": true, "error": true}

// isOpenCodeEvent reports whether obj is an event of the stream: a type of
// its own with a "sessionID", and a "part" (or, for an error, "error").
func isOpenCodeEvent(obj map[string]json.RawMessage) bool {
	if !openCodeEventTypes[scalar(obj["type"])] || scalar(obj["sessionID"]) == "" {
		return false
	}
	return len(obj["part"]) > 0 && obj["part"][0] == '{' || len(obj["error"]) > 0
}

func recognizeOpenCodeStream(d *Doc) error {
	if d.eventOrFirst(isOpenCodeEvent) {
		return nil
	}
	return errors.New(`no OpenCode run event ("type": "step_start", "text", "tool_use", ... with "sessionID" and "part")`)
}

// ocEvent is one line of the stream: the fields read.
type ocEvent struct {
	Type      looseString     `json:"type"`
	Timestamp float64         `json:"timestamp"`
	SessionID looseString     `json:"sessionID"`
	Part      json.RawMessage `json:"part"`
	Error     *ocError        `json:"error"`
}

// ocStreamPart is a part as the stream sends it: an export's part, with a
// step_finish's tokens and cost.
type ocStreamPart struct {
	ocPart
	Tokens *ocTokens `json:"tokens"`
	Cost   float64   `json:"cost"`
}

// convertOpenCodeStream reads the stream: a run per session, a step per
// call at the line of its tool_use event, a turn's words its first call's
// reason (or, for a turn without a call, a step of its own at its first
// text's line), its tokens and cost from its step_finish.
func convertOpenCodeStream(d *Doc, emit func(*schema.Step) error) error {
	els := d.arr
	if d.IsObject() {
		els = []json.RawMessage{d.Raw}
	}
	type session struct {
		id   string
		msgs []chatMessage
	}
	var sessions []*session
	byID := map[string]*session{}
	var turn *chatMessage // the model turn being read
	var replies []chatMessage
	var cur *session
	flush := func() {
		if turn != nil && cur != nil && (len(turn.ToolCalls) > 0 || strings.TrimSpace(text(turn.Content)) != "" || turn.usage != nil) {
			cur.msgs = append(cur.msgs, *turn)
			cur.msgs = append(cur.msgs, replies...)
		}
		turn, replies = nil, nil
	}
	for i, el := range els {
		var ev ocEvent
		if err := decodeObject(el, &ev); err != nil {
			if d.skipElement(i, err) {
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		id := string(ev.SessionID)
		if cur == nil || cur.id != id {
			flush()
			s := byID[id]
			if s == nil {
				s = &session{id: id}
				byID[id] = s
				sessions = append(sessions, s)
			}
			cur = s
		}
		ts := epochTS(ev.Timestamp)
		if turn == nil && ev.Type != "error" {
			turn = &chatMessage{Role: "assistant", Content: jsonString(""), pos: i, ts: ts}
		}
		var p ocStreamPart
		if len(ev.Part) > 0 && ev.Part[0] == '{' {
			json.Unmarshal(ev.Part, &p)
		}
		switch ev.Type {
		case "step_start":
			flush()
			turn = &chatMessage{Role: "assistant", Content: jsonString(""), pos: i, ts: ts}
		case "text", "reasoning":
			if t := strings.TrimSpace(p.Text); t != "" {
				if len(turn.ToolCalls) == 0 && strings.TrimSpace(text(turn.Content)) == "" {
					turn.pos, turn.ts = i, ts
				}
				turn.Content = jsonString(strings.TrimSpace(text(turn.Content) + "\n\n" + t))
			}
		case "tool_use":
			if p.State == nil {
				continue
			}
			cts := ts
			if p.State.Time.Start > 0 {
				cts = epochTS(p.State.Time.Start)
			}
			call, reply := p.call(firstNonEmpty(p.CallID, fmt.Sprint("opencode-", i)), i, i, cts)
			turn.ToolCalls = append(turn.ToolCalls, call)
			if reply != nil {
				replies = append(replies, *reply)
			}
		case "step_finish":
			if t := p.Tokens; t != nil || p.Cost > 0 {
				u := &schema.Usage{}
				if t != nil {
					u = t.usage()
				}
				u.CostUSD = max(p.Cost, 0)
				turn.usage = u
			}
			flush()
		case "error":
			flush()
			msg := "error"
			if ev.Error != nil {
				msg = ev.Error.text()
			}
			cur.msgs = append(cur.msgs, failedModelCall(fmt.Sprint("opencode-error-", i), "", msg, i, ts)...)
		}
	}
	flush()
	if len(sessions) == 0 {
		return errors.New("no event of a session")
	}
	for _, s := range sessions {
		r := d.newRun(runName(d, 0, false, s.id))
		convertChat(r, s.msgs, openCodeStreamStyle)
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// openCodeStreamStyle: OpenCode has no output rules of its own; the shared
// ones read every output.
var openCodeStreamStyle = chatStyle{positioned: true}
