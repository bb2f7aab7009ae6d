package adapters

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Cursor reads what Cursor's Agent CLI prints in print mode
// (cursor-agent -p --output-format stream-json, or `agent -p ...`): an
// event a line. A run opens with {"type": "system", "subtype": "init",
// "session_id", "model", "apiKeySource", ...}; then the prompt ("user"),
// the model's thinking ("thinking", in deltas), its words ("assistant"),
// each call it makes twice, when it starts and when it completes
// ({"type": "tool_call", "subtype": "started" | "completed", "call_id",
// "tool_call": {"shellToolCall": {"args", "result"}}}), and the run's
// "result". A file of it is read whole (Format.Transcript); one holding
// several runs (appended, or a session resumed) is read as a run per
// session id.
var Cursor = &Format{
	Name:       "cursor",
	Title:      "Cursor Agent CLI: the stream-json output of its print mode (cursor-agent -p --output-format stream-json)",
	Recognize:  recognizeCursor,
	Convert:    convertCursor,
	Transcript: isCursor,
}

// cursorEvent reports whether obj is an event only Cursor's stream has: a
// call ("tool_call" with its "call_id" and a "tool_call" object), a
// thinking delta or its end, or the run's init, which Claude Code's
// stream also writes but with the "tools" and "mcp_servers" it has (and
// a "uuid"), where Cursor's has none of them.
func cursorEvent(obj map[string]json.RawMessage) bool {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch scalar(obj["type"]) {
	case "system":
		return scalar(obj["subtype"]) == "init" && has("session_id") && has("apiKeySource") && has("model") &&
			!has("tools") && !has("mcp_servers") && !has("uuid") && !has("slash_commands")
	case "tool_call":
		tc := obj["tool_call"]
		return has("call_id") && len(tc) > 0 && tc[0] == '{'
	case "thinking":
		st := scalar(obj["subtype"])
		return (st == "delta" || st == "completed") && has("session_id")
	}
	return false
}

// isCursor reports whether d is an event of Cursor's stream, or a file of
// them read whole (its first line).
func isCursor(d *Doc) bool { return d.eventOrFirst(cursorEvent) }

func recognizeCursor(d *Doc) error {
	if isCursor(d) {
		return nil
	}
	return errors.New(`not Cursor Agent CLI's stream-json (a "system" init with "apiKeySource" and no "tools", a "tool_call" with "call_id", or a "thinking" event)`)
}

// cursorLine is an event of the stream: the fields read.
type cursorLine struct {
	Type      looseString `json:"type"`
	Subtype   looseString `json:"subtype"`
	SessionID looseString `json:"session_id"`
	Model     looseString `json:"model"`
	Text      looseString `json:"text"` // a thinking delta's
	Message   *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ModelCallID looseString                `json:"model_call_id"`
	TimestampMS json.RawMessage            `json:"timestamp_ms"`
	CallID      looseString                `json:"call_id"`
	ToolCall    map[string]json.RawMessage `json:"tool_call"`
	IsError     looseBool                  `json:"is_error"`
	Result      json.RawMessage            `json:"result"` // the run's result: its text
	Usage       *struct {
		Input  looseCount `json:"inputTokens"`
		Output looseCount `json:"outputTokens"`
	} `json:"usage"`
}

func (e *cursorLine) ts() *schema.Timestamp {
	f, err := strconv.ParseFloat(string(e.TimestampMS), 64)
	if err != nil {
		return nil
	}
	return epochTS(f)
}

// delta reports whether an assistant event is a piece of text streamed
// with --stream-partial-output: it has a time and no model call id. With
// that flag the CLI also writes the text again, whole, before a call
// (with both) and at the turn's end (with neither); without it, every
// assistant event is a message of its own.
func (e *cursorLine) delta() bool { return filled(e.TimestampMS) && e.ModelCallID == "" }

// cursorBody is a call's tool object: {"args": ..., "result": ...}.
type cursorBody struct {
	Args   json.RawMessage            `json:"args"`
	Result map[string]json.RawMessage `json:"result"`
}

// cursorTool finds the call in a "tool_call" object: the key that ends in
// "ToolCall" and holds an object (newer versions put "toolCallId",
// "startedAtMs" and others beside it), or the documented generic form
// {"function": {"name", "arguments"}}. name is the tool's: the key without
// its suffix ("shell", "read", "edit", "grep", ...), an MCP tool's own
// name, or the function's.
func cursorTool(tc map[string]json.RawMessage) (name, key string, args json.RawMessage, result map[string]json.RawMessage, ok bool) {
	keys := make([]string, 0, len(tc))
	for k := range tc {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one choice whatever the map's order, should two match
	for _, k := range keys {
		v := tc[k]
		if !strings.HasSuffix(k, "ToolCall") || len(v) == 0 || v[0] != '{' {
			continue
		}
		var b cursorBody
		if json.Unmarshal(v, &b) != nil {
			continue
		}
		name, args := cursorCall(strings.TrimSuffix(k, "ToolCall"), b.Args)
		return name, k, args, b.Result, true
	}
	if f := tc["function"]; len(f) > 0 && f[0] == '{' {
		var fn chatFunction
		if json.Unmarshal(f, &fn) == nil && fn.Name != "" {
			return fn.Name, "function", fn.args(), nil, true
		}
	}
	return "", "", nil, nil, false
}

// cursorCall names a call and keeps the arguments that say what it does:
// a shell call's command (and its directory, when given) without what the
// CLI adds to it (its parse of the command, its timeout); of any call,
// not the "toolCallId" it repeats, which differs every time and would make
// every call a new one. A delete is delete_file (an edit); an MCP call is
// its tool's, with its tool's arguments.
func cursorCall(kind string, raw json.RawMessage) (string, json.RawMessage) {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil || args == nil {
		return cursorToolName(kind), json.RawMessage("{}")
	}
	delete(args, "toolCallId")
	switch kind {
	case "shell":
		keep := map[string]json.RawMessage{"command": args["command"]}
		if wd := scalar(args["workingDirectory"]); wd != "" {
			keep["workingDirectory"] = args["workingDirectory"]
		}
		if args["command"] == nil {
			delete(keep, "command")
		}
		args = keep
	case "mcp":
		name := firstNonEmpty(scalar(args["name"]), scalar(args["toolName"]))
		inner := args["args"]
		if name != "" {
			if !filled(inner) {
				inner = json.RawMessage("{}")
			}
			return name, inner
		}
	}
	out, err := json.Marshal(args)
	if err != nil {
		return cursorToolName(kind), json.RawMessage("{}")
	}
	return cursorToolName(kind), out
}

func cursorToolName(kind string) string {
	if kind == "delete" {
		return "delete_file"
	}
	return kind
}

// cursorOutcome reads a completed call's result, which holds one outcome
// under its own key: "success" (and the likes of "complete"), or
// "failure" (a command that exited non-zero), "rejected" (refused by the
// permissions or the user), "timeout", "permissionDenied",
// "fileNotFound", "error" and others; "isBackground" and the other keys
// beside it say nothing of how the call went. out is what the call gave
// the model, exit a command's exit code, errType the failure as the
// result names it.
func cursorOutcome(kind string, result map[string]json.RawMessage) (out string, exit *int, errType string) {
	key := ""
	keys := make([]string, 0, len(result))
	for k := range result {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if cursorSuccess[k] {
			key = k
			break
		}
		if !cursorBeside[k] && key == "" {
			key = k
		}
	}
	if key == "" {
		return "", nil, ""
	}
	var body map[string]json.RawMessage
	json.Unmarshal(result[key], &body)
	if code, ok := cursorExitCode(body); ok {
		exit = &code
	}
	switch {
	case cursorSuccess[key]:
		out = cursorSuccessText(kind, body, result[key])
	case key == "failure":
		out = cursorShellText(body)
		if exit == nil {
			errType = "ERROR"
		}
	case key == "rejected":
		out, errType = firstNonEmpty(scalar(body["reason"]), "rejected"), "REJECTED"
	case key == "timeout":
		out, errType = "timed out", "TIMEOUT"
	case key == "permissionDenied" || key == "readPermissionDenied" || key == "writePermissionDenied":
		out, errType = firstNonEmpty(scalar(body["error"]), scalar(body["reason"]), "permission denied"), "PERMISSION_DENIED"
	case key == "fileNotFound" || key == "notFound" || key == "notFile":
		out, errType = "file not found: "+scalar(body["path"]), "NO_SUCH_FILE"
	default:
		// "error" and the rest: the message the model was shown, else
		// the error itself. An edit that failed did not land.
		out = firstNonEmpty(scalar(body["modelVisibleError"]), scalar(body["error"]), scalar(body["message"]), key)
		errType = "ERROR"
		if kind == "edit" || kind == "write" || kind == "delete" {
			errType = schema.ErrEditRejected
		}
	}
	if exit != nil && *exit == 0 && errType == "" && key == "failure" {
		errType = "ERROR"
	}
	return out, exit, errType
}

// cursorSuccess are the keys of an outcome that went through.
var cursorSuccess = map[string]bool{"success": true, "complete": true, "registered": true, "startSuccess": true, "saveSuccess": true, "discardSuccess": true}

// cursorBeside are keys a result holds beside its outcome.
var cursorBeside = map[string]bool{"isBackground": true, "sandboxPolicy": true, "terminalsFolder": true}

func cursorExitCode(body map[string]json.RawMessage) (int, bool) {
	raw := body["exitCode"]
	if len(raw) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.Trim(string(raw), `"`))
	return n, err == nil
}

// cursorShellText is what a command printed: its interleaved output
// when the CLI kept it, else its stdout and stderr.
func cursorShellText(body map[string]json.RawMessage) string {
	if s := scalar(body["interleavedOutput"]); s != "" {
		return s
	}
	out, errs := scalar(body["stdout"]), scalar(body["stderr"])
	if out != "" && errs != "" {
		return out + "\n" + errs
	}
	return out + errs
}

// cursorSuccessText is what a call that went through gave: a command's
// output, a file's content, a search's matches (file:line:text, or the
// files), a listing's names, an edit's message and diff; for any other
// tool, its result as the CLI wrote it.
func cursorSuccessText(kind string, body map[string]json.RawMessage, raw json.RawMessage) string {
	switch kind {
	case "shell":
		return cursorShellText(body)
	case "read":
		return scalar(body["content"])
	case "edit", "write", "delete":
		msg := scalar(body["message"])
		if d := scalar(body["diffString"]); d != "" {
			return strings.TrimSpace(msg + "\n" + d)
		}
		if msg == "" && body["linesCreated"] != nil {
			msg = "Wrote " + strings.Trim(string(body["linesCreated"]), `"`) + " lines to " + scalar(body["path"])
		}
		return msg
	case "grep":
		return cursorGrepText(raw)
	case "glob":
		var files []string
		json.Unmarshal(body["files"], &files)
		return strings.Join(files, "\n")
	case "ls":
		return cursorTreeText(body["directoryTreeRoot"])
	case "mcp":
		var r struct {
			Content []struct {
				Text *struct {
					Text string `json:"text"`
				} `json:"text"`
			} `json:"content"`
		}
		json.Unmarshal(raw, &r)
		var parts []string
		for _, c := range r.Content {
			if c.Text != nil {
				parts = append(parts, c.Text.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	case "webFetch":
		return scalar(body["markdown"])
	case "task":
		var r struct {
			Steps []struct {
				Assistant *struct {
					Text string `json:"text"`
				} `json:"assistantMessage"`
			} `json:"conversationSteps"`
		}
		json.Unmarshal(raw, &r)
		var parts []string
		for _, s := range r.Steps {
			if s.Assistant != nil {
				parts = append(parts, s.Assistant.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	if string(raw) == "{}" {
		return ""
	}
	return string(raw)
}

// cursorGrepText writes a grep's answer as grep would print it: in
// content mode, file:line:text for every line it matched; listing files,
// their paths.
func cursorGrepText(raw json.RawMessage) string {
	var r struct {
		Workspaces map[string]struct {
			Content *struct {
				Matches []struct {
					File    string `json:"file"`
					Matches []struct {
						Line    looseCount `json:"lineNumber"`
						Content string     `json:"content"`
					} `json:"matches"`
				} `json:"matches"`
			} `json:"content"`
			Files *struct {
				Files []string `json:"files"`
			} `json:"files"`
		} `json:"workspaceResults"`
	}
	json.Unmarshal(raw, &r)
	roots := make([]string, 0, len(r.Workspaces))
	for k := range r.Workspaces {
		roots = append(roots, k)
	}
	sort.Strings(roots)
	var b strings.Builder
	for _, root := range roots {
		w := r.Workspaces[root]
		if w.Content != nil {
			for _, f := range w.Content.Matches {
				for _, m := range f.Matches {
					fmt.Fprintf(&b, "%s:%d:%s\n", f.File, int64(m.Line), m.Content)
				}
			}
		}
		if w.Files != nil {
			for _, f := range w.Files.Files {
				b.WriteString(f + "\n")
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// cursorTreeText lists a directory tree's entries, a path a line.
func cursorTreeText(raw json.RawMessage) string {
	var lines []string
	var walk func(raw json.RawMessage, depth int)
	walk = func(raw json.RawMessage, depth int) {
		var n struct {
			AbsPath string            `json:"absPath"`
			Dirs    []json.RawMessage `json:"childrenDirs"`
			Files   []struct {
				Name string `json:"name"`
			} `json:"childrenFiles"`
		}
		if depth > 32 || json.Unmarshal(raw, &n) != nil {
			return
		}
		if n.AbsPath != "" {
			lines = append(lines, n.AbsPath+"/")
		}
		for _, d := range n.Dirs {
			walk(d, depth+1)
		}
		for _, f := range n.Files {
			lines = append(lines, strings.TrimSuffix(n.AbsPath, "/")+"/"+f.Name)
		}
	}
	walk(raw, 0)
	return strings.Join(lines, "\n")
}

// cursorText is an assistant or user message's text: its text parts
// joined, or the content itself when it is a string.
func cursorText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		return scalar(raw)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Type == "" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// cursorSession gathers one session's messages as the stream goes.
type cursorSession struct {
	id      string
	model   string
	msgs    []chatMessage
	open    int // the model's message calls are added to, -1 none
	chunk   int // the model's message whose deltas are still coming, -1 none
	reply   strings.Builder
	thought strings.Builder
	lead    map[int]string // the thinking that came before a message of the model
	calls   map[string]bool
	input   int64
	output  int64
}

// assistant opens a message of the model at line i, with the thinking
// that came before it.
func (s *cursorSession) assistant(i int, ts *schema.Timestamp) int {
	s.msgs = append(s.msgs, chatMessage{Role: "assistant", Content: jsonString(""), pos: i, ts: ts})
	at := len(s.msgs) - 1
	if th := strings.TrimSpace(s.thought.String()); th != "" {
		s.lead[at] = th
		s.msgs[at].Content = jsonString(th)
	}
	s.thought.Reset()
	return at
}

// say sets a message of the model's words, after its thinking.
func (s *cursorSession) say(at int, words string) {
	if th := s.lead[at]; th != "" {
		words = th + "\n\n" + words
	}
	s.msgs[at].Content = jsonString(strings.TrimSpace(words))
}

// endChunk writes the deltas gathered into their message: once, not at
// every delta (a long reply streams in hundreds).
func (s *cursorSession) endChunk() {
	if s.chunk >= 0 {
		s.say(s.chunk, s.reply.String())
		s.reply.Reset()
		s.chunk = -1
	}
}

// call adds a call at line i to the model's open message (a new one if
// none is open), once per call id.
func (s *cursorSession) call(id, name string, args json.RawMessage, i int, ts *schema.Timestamp) {
	if s.calls[id] {
		return
	}
	s.calls[id] = true
	if s.open < 0 {
		s.open = s.assistant(i, ts)
	}
	s.msgs[s.open].ToolCalls = append(s.msgs[s.open].ToolCalls, chatToolCall{ID: id, Function: chatFunction{Name: name, Arguments: args}, pos: i, ts: ts})
}

// convertCursor reads the stream: a step's number is the 0-based line of
// the event that started its call (of a reply without a call, its first
// line). Without --stream-partial-output an assistant event is a message;
// with it, the deltas of one message gather until a call or another
// event comes, and the copies the CLI writes of whole messages are left
// out. The thinking before a message is the first of its words. A result
// that says it is an error is a failed request to the model; its token
// counts are spread over the session's calls.
func convertCursor(d *Doc, emit func(*schema.Step) error) error {
	els := d.arr
	if d.IsObject() {
		els = []json.RawMessage{d.Raw}
	}
	lines := make([]cursorLine, len(els))
	bad := make([]bool, len(els))
	partial := false
	for i, el := range els {
		if err := decodeObject(el, &lines[i]); err != nil {
			if d.skipElement(i, err) {
				bad[i] = true
				continue
			}
			return fmt.Errorf("%s: %v", d.where(i), err)
		}
		if lines[i].Type == "assistant" && lines[i].delta() {
			partial = true
		}
	}
	var (
		sessions []*cursorSession
		byID     = map[string]*cursorSession{}
		cur      *cursorSession
	)
	session := func(id string) *cursorSession {
		if s, ok := byID[id]; ok {
			return s
		}
		s := &cursorSession{id: id, open: -1, chunk: -1, lead: map[int]string{}, calls: map[string]bool{}}
		byID[id] = s
		sessions = append(sessions, s)
		return s
	}
	for i := range lines {
		if bad[i] {
			continue
		}
		e := &lines[i]
		if cur == nil || (e.SessionID != "" && string(e.SessionID) != cur.id && e.Type == "system") {
			if cur != nil {
				cur.endChunk()
			}
			cur = session(string(e.SessionID))
		}
		s := cur
		ts := e.ts()
		switch e.Type {
		case "system":
			if e.Subtype == "init" {
				s.model = firstNonEmpty(string(e.Model), s.model)
				s.open = -1
			}
		case "user":
			s.endChunk()
			words := ""
			if e.Message != nil {
				words = cursorText(e.Message.Content)
			}
			s.msgs = append(s.msgs, chatMessage{Role: "user", Content: jsonString(words), pos: i, ts: ts})
			s.open = -1
		case "thinking":
			if e.Subtype == "delta" {
				s.thought.WriteString(string(e.Text))
			}
		case "assistant":
			words := ""
			if e.Message != nil {
				words = cursorText(e.Message.Content)
			}
			if partial {
				if !e.delta() {
					continue // a copy of words streamed already
				}
				if s.chunk < 0 {
					s.chunk = s.assistant(i, ts)
					s.open = s.chunk
				}
				s.reply.WriteString(words)
				continue
			}
			at := s.assistant(i, ts)
			s.say(at, words)
			s.open = at
		case "tool_call":
			s.endChunk()
			name, kind, args, result, ok := cursorTool(e.ToolCall)
			if !ok {
				continue
			}
			id := firstNonEmpty(string(e.CallID), "cursor-"+strconv.Itoa(i))
			s.call(id, name, args, i, ts)
			if e.Subtype != "completed" || result == nil {
				continue
			}
			out, exit, errType := cursorOutcome(strings.TrimSuffix(kind, "ToolCall"), result)
			s.msgs = append(s.msgs, chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(out), pos: i, ts: ts, exit: exit, errType: errType})
			s.open = -1
		case "result":
			s.endChunk()
			if e.Usage != nil {
				s.input += int64(e.Usage.Input)
				s.output += int64(e.Usage.Output)
			}
			if e.IsError {
				msg := firstNonEmpty(scalar(e.Result), "the run ended in an error")
				s.msgs = append(s.msgs, failedModelCall("cursor-error-"+strconv.Itoa(i), "", msg, i, ts)...)
			}
			s.open = -1
		}
	}
	for k, s := range sessions {
		s.endChunk()
		r := d.newRun(runName(d, k, len(sessions) > 1 && s.id == "", s.id))
		convertChat(r, s.msgs, cursorStyle)
		r.spreadUsage(s.input, s.output, 0)
		for _, st := range r.steps {
			if st.Usage != nil && st.Usage.Model == "" {
				st.Usage.Model = s.model
			}
		}
		if err := r.emit(emit); err != nil {
			return err
		}
	}
	return nil
}

// cursorStyle reads Cursor's tools: the shell runs commands, read shows a
// file, ls a directory, grep, glob and the semantic and web searches
// search.
var cursorStyle = chatStyle{toolKind: cursorToolKind, positioned: true}

func cursorToolKind(tool string, args json.RawMessage) (search, view bool) {
	switch tool {
	case "shell":
		return chatToolKind("bash", args)
	case "read", "ls":
		return false, true
	case "grep", "glob", "semSearch", "webSearch":
		return true, false
	}
	return chatToolKind(tool, args)
}
