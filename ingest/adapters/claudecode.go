package adapters

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Claude Code keeps each session as a JSON Lines file,
// ~/.claude/projects/<project>/<session-id>.jsonl: an event a line, the
// conversation's messages among them ({"type": "user"|"assistant",
// "message": {...}}), one record per content block of a response, a call
// on one line and its result on a later one. The file is one run, read
// whole (Format.Transcript); its headless mode (claude -p --output-format
// stream-json) writes the same events with "session_id".

// ccTypes are the event types Claude Code writes; an event is known by
// one of them with a key only Claude Code writes (ccEvent).
var ccTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "summary": true, "progress": true,
	"file-history-snapshot": true, "queue-operation": true, "custom-title": true, "attachment": true, "result": true,
	// The session's bookkeeping, which Claude Code 2.1 writes first in
	// about a third of its sessions.
	"last-prompt": true, "mode": true, "permission-mode": true, "ai-title": true, "agent-name": true, "tag": true, "pr-link": true,
}

// ccBookkeeping reports whether t names a record of the session's own
// bookkeeping (a lower-case hyphenated word, as "last-prompt"): Claude
// Code adds such types from release to release, each with "sessionId".
func ccBookkeeping(t string) bool {
	if !strings.Contains(t, "-") {
		return false
	}
	for _, c := range t {
		if !(c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

// ccEvent reports whether obj is an event of a Claude Code session: a type
// of ccTypes and Claude Code's own keys ("sessionId", "parentUuid",
// "leafUuid", a file-history-snapshot's "snapshot"), or, from the headless
// mode, a "session_id" on a system, user, assistant or result event.
func ccEvent(obj map[string]json.RawMessage) bool {
	t := scalar(obj["type"])
	if !ccTypes[t] && !(ccBookkeeping(t) && len(obj["sessionId"]) > 0) || qwenRecord(obj) || cursorEvent(obj) {
		// Qwen Code's records have Claude Code's ids and types; their
		// messages are Gemini contents (qwen-code). Cursor's stream opens
		// with an init as Claude Code's does (cursor).
		return false
	}
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch {
	case has("sessionId") || has("parentUuid") || has("leafUuid"):
		return true
	case t == "file-history-snapshot":
		return has("snapshot")
	case has("session_id"):
		return t == "system" || t == "user" || t == "assistant" || t == "result"
	}
	return false
}

// isClaudeCode reports whether d is a Claude Code event, or a list (a
// transcript read whole) whose first element is one.
func isClaudeCode(d *Doc) bool { return d.eventOrFirst(ccEvent) }

// eventOrFirst reports whether d, an event of a transcript format, or a
// transcript read whole (its first element), is one that event accepts.
func (d *Doc) eventOrFirst(event func(obj map[string]json.RawMessage) bool) bool {
	if d.IsObject() {
		return event(d.obj)
	}
	if len(d.arr) == 0 {
		return false
	}
	var obj map[string]json.RawMessage
	return json.Unmarshal(d.arr[0], &obj) == nil && event(obj)
}

// ccRecord is one line of a transcript: the fields read.
type ccRecord struct {
	Type           looseString     `json:"type"`
	UUID           looseString     `json:"uuid"`
	ParentUUID     looseString     `json:"parentUuid"`
	SessionID      looseString     `json:"sessionId"`
	SessionIDSnake looseString     `json:"session_id"`
	Timestamp      looseString     `json:"timestamp"`
	IsSidechain    looseBool       `json:"isSidechain"`
	AgentID        looseString     `json:"agentId"`
	ParentToolUse  looseString     `json:"parent_tool_use_id"`
	IsMeta         looseBool       `json:"isMeta"`
	IsSynthetic    looseBool       `json:"isSynthetic"`
	IsCompact      looseBool       `json:"isCompactSummary"`
	IsAPIError     looseBool       `json:"isApiErrorMessage"`
	QwenVersion    looseString     `json:"qwen_code_version"` // Qwen Code's headless stream says so in its init
	Message        json.RawMessage `json:"message"`
}

// ccThread is the conversation of one run of a transcript: the session's,
// or a subagent's (a sidechain).
type ccThread struct {
	key     string // "" for the session's own; else the sidechain's
	session string // the session it is of
	b       antChat
}

// convertClaudeCode reads a transcript: every record of a message in file
// order (branches a rewind left behind included: they were run), a step's
// number its position among the file's blocks (each record holds one, so
// the line's 0-based index in the file). Subagents' records (sidechains)
// are runs of their own, named after the session and the agent: their
// calls are not the session's, and several run at once.
func convertClaudeCode(d *Doc, emit func(*schema.Step) error) error {
	els := d.arr
	if d.IsObject() {
		els = []json.RawMessage{d.Raw}
	}
	var (
		threads  []*ccThread
		byKey    = map[string]*ccThread{}
		roots    = map[string]string{} // a sidechain record's uuid -> its thread's key
		session  string
		headless string // the headless stream's session of the record read last
		qwen     bool   // the stream is Qwen Code's (qwenStream)
		pos      int
		sidecars int
	)
	for i, el := range els {
		var rec ccRecord
		if err := decodeObject(el, &rec); err != nil {
			if d.skipElement(i, err) {
				pos++ // a line, a step's place, as any record
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		session = cmp.Or(session, string(rec.SessionID), string(rec.SessionIDSnake))
		qwen = qwen || rec.QwenVersion != ""
		if snake := string(rec.SessionIDSnake); snake != "" {
			// Headless runs appended to one file (claude -p ... >> log):
			// each invocation's session is a run of its own.
			headless = snake
		}
		if (rec.Type != "user" && rec.Type != "assistant") || !filled(rec.Message) {
			pos++
			continue
		}
		m := &antMessage{}
		if err := decodeObject(rec.Message, m); err != nil {
			if d.skipElement(i, fmt.Errorf("\"message\": %v", err)) {
				pos++
				continue
			}
			return fmt.Errorf("%s: \"message\": %v", d.where(i), err)
		}
		if m.Role == "" {
			m.Role = rec.Type
		}
		key := ""
		switch {
		case rec.ParentToolUse != "":
			key = "task-" + string(rec.ParentToolUse)
		case !bool(rec.IsSidechain):
		case rec.AgentID != "":
			key = "agent-" + string(rec.AgentID)
		default:
			// Older versions kept subagents in the session's file without an
			// id: a sidechain is the chain of records from its first.
			if k, ok := roots[string(rec.ParentUUID)]; ok && rec.ParentUUID != "" {
				key = k
			} else {
				sidecars++
				key = "sidechain-" + strconv.Itoa(sidecars)
			}
			if rec.UUID != "" {
				roots[string(rec.UUID)] = key
			}
		}
		th := byKey[headless+"\x00"+key]
		if th == nil {
			th = &ccThread{key: key, session: cmp.Or(headless, session)}
			byKey[headless+"\x00"+key] = th
			threads = append(threads, th)
		}
		if rec.Type == "user" && bool(rec.IsMeta || rec.IsCompact || rec.IsSynthetic) {
			// What Claude Code itself put in the user's place (command
			// caveats, a compacted conversation's summary, its nudge after
			// a turn with nothing to show): no one's turn.
			n, _ := antBlockCount(m.Content)
			pos += n
			continue
		}
		if rec.Type == "user" && !ccLocalCommand(m.Content) {
			d.Prompted = true // the user's turn: a run begun
		}
		n, err := th.b.add(m, pos, ccTS(string(rec.Timestamp)), bool(rec.IsAPIError))
		if err != nil {
			// add fails before it keeps anything of the message.
			if d.skipElement(i, err) {
				pos++
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		pos += n
	}
	for _, th := range threads {
		id := th.session
		if th.key != "" {
			id = joinID(th.session, th.key)
		}
		r := d.newRun(runName(d, 0, false, id))
		style, msgs := anthropicStyle, th.b.msgs
		if qwen {
			style, msgs = qwenStreamStyle, qwenStreamTurns(msgs)
		}
		convertChat(r, msgs, style)
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// antBlockCount is how many positions a message takes (antChat.add).
func antBlockCount(content json.RawMessage) (int, error) {
	blocks, err := antBlocks(content)
	return max(len(blocks), 1), err
}

// isoDateTime writes Python's str(datetime), "2025-08-10 13:52:18.357+00:00"
// (what json.dumps(..., default=str) makes of a datetime, the usual way a
// Pydantic model's dump is saved), with RFC 3339's T between date and time.
func isoDateTime(ts string) string {
	if len(ts) >= 19 && ts[10] == ' ' && ts[4] == '-' && ts[7] == '-' && ts[13] == ':' {
		return ts[:10] + "T" + ts[11:]
	}
	return ts
}

func joinID(session, key string) string {
	if session == "" {
		return key
	}
	return session + "#" + key
}

// ccTS reads an event's RFC 3339 timestamp; nil when it has none.
func ccTS(ts string) *schema.Timestamp {
	if ts == "" {
		return nil
	}
	ms, err := schema.ParseTimestamp(isoDateTime(ts))
	if err != nil {
		return nil
	}
	return &schema.Timestamp{UnixMilli: ms}
}

// Qwen Code's headless stream (qwen -o stream-json) is Claude Code's
// stream-json, but each text of a turn comes as an assistant message of
// its own before the message of the turn's call, and its shell answers in
// Gemini CLI's labelled lines (Command:, Output:, Exit Code: ...).
var qwenStreamStyle = func() chatStyle {
	st := anthropicStyle
	st.observation = gcliObservation
	return st
}()

// qwenStreamTurns folds an assistant message that only speaks into the
// assistant message after it that makes calls: one turn, its words the
// calls' reason.
func qwenStreamTurns(msgs []chatMessage) []chatMessage {
	out := msgs[:0:0]
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == "assistant" && len(m.ToolCalls) == 0 && i+1 < len(msgs) && msgs[i+1].Role == "assistant" && len(msgs[i+1].ToolCalls) > 0 {
			next := msgs[i+1]
			next.Content = jsonString(strings.TrimSpace(text(m.Content) + "\n\n" + text(next.Content)))
			if next.usage == nil {
				next.usage = m.usage
			}
			out = append(out, next)
			i++
			continue
		}
		out = append(out, m)
	}
	return out
}

// ccLocalCommand reports whether a user record is a slash command Claude
// Code ran itself (/clear, /model: <command-name>, its <local-command-stdout>),
// which asks the model nothing: a session of such records alone was begun by
// no one's prompt.
func ccLocalCommand(content json.RawMessage) bool {
	blocks, err := antBlocks(content)
	if err != nil || len(blocks) == 0 {
		return false
	}
	t := strings.TrimSpace(string(blocks[0].Text))
	return strings.HasPrefix(t, "<command-name>") || strings.HasPrefix(t, "<command-message>") || strings.HasPrefix(t, "<local-command-")
}
