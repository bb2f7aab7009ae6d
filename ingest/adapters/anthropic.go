package adapters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// AnthropicMessages reads conversations in Anthropic's Messages shape:
// messages whose content is a list of blocks, the assistant's tool_use
// blocks answered by tool_result blocks in the next user message. The
// containers are openai-messages' (a JSON array of messages, an object
// with a "messages" list, a JSON array of such objects, one per line of a
// JSON Lines file). It also reads Claude Code's session transcripts, a
// session an event a line (claudecode.go). Anthropic's blocks are turned
// into the chat messages convertChat reads, so both chat formats number,
// pair and judge calls alike.
var AnthropicMessages = &Format{
	Name:       "anthropic-messages",
	Title:      "Anthropic Messages API conversations with tool use, and Claude Code session transcripts",
	Recognize:  recognizeAnthropic,
	Convert:    convertAnthropic,
	Transcript: isClaudeCode,
}

func recognizeAnthropic(d *Doc) error {
	// As for openai-messages: trajectories that hold chat messages are
	// their own adapters'.
	for _, other := range chatHolders {
		if other.recognize(d) == nil {
			return fmt.Errorf("a document of the %s format, not a conversation", other.name)
		}
	}
	if isClaudeCode(d) {
		return nil
	}
	msgs, err := firstConversation(d)
	if err != nil {
		return fmt.Errorf("neither a Claude Code event (\"type\" with \"sessionId\", \"parentUuid\", ...) nor a conversation: %v", err)
	}
	if !anthropicDialect(msgs) {
		return errors.New("a conversation without Anthropic content blocks (tool_use, tool_result, a list of typed blocks), read by openai-messages")
	}
	return nil
}

// chatHolders are the trajectory formats whose documents hold lists of
// chat messages, which both chat formats refuse.
var chatHolders = []struct {
	name      string
	recognize func(*Doc) error
}{{"swe-agent", recognizeSWEAgent}, {"mini-swe-agent", recognizeMini}, {"openhands", recognizeOpenHands}, {"inspect", recognizeInspect}}

// anthropicDialect reports whether a list of {"role": ...} messages is
// Anthropic's rather than OpenAI's. The first message that says which
// decides: OpenAI's calls and replies ("tool_calls", "function_call",
// "tool_call_id", a "tool" or "function" role) or content parts
// ("image_url", ...) say OpenAI; Anthropic's blocks (tool_use,
// tool_result, thinking, image, ...) say Anthropic. A conversation that
// says neither is Anthropic's when a content is a list of typed blocks,
// else OpenAI's (plain strings read alike either way). Both chat formats
// ask it, so they never both take a document.
func anthropicDialect(raw json.RawMessage) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false
	}
	typed := false
	for dec.More() {
		var m struct {
			Role         json.RawMessage `json:"role"`
			Content      json.RawMessage `json:"content"`
			ToolCalls    json.RawMessage `json:"tool_calls"`
			FunctionCall json.RawMessage `json:"function_call"`
			ToolCallID   json.RawMessage `json:"tool_call_id"`
		}
		if dec.Decode(&m) != nil {
			return false
		}
		role := scalar(m.Role)
		if len(m.Role) == 0 || role == "tool" || role == "function" || filled(m.ToolCalls) || filled(m.FunctionCall) || filled(m.ToolCallID) {
			return false
		}
		if converseDialect(m.Content) {
			return true // Bedrock Converse's blocks, read as Anthropic's (converse.go)
		}
		switch blockDialect(m.Content) {
		case dialectAnthropic:
			return true
		case dialectOpenAI:
			return false
		case dialectTyped:
			typed = true
		}
	}
	return typed
}

type dialect uint8

const (
	dialectNone      dialect = iota // a string, or nothing that says
	dialectTyped                    // a list of typed blocks both formats write ({"type": "text"})
	dialectAnthropic                // a block only Anthropic writes
	dialectOpenAI                   // a content part only OpenAI writes
)

// blockDialect says what a message's content says of its format.
func blockDialect(content json.RawMessage) dialect {
	if len(content) == 0 || content[0] != '[' {
		return dialectNone
	}
	var blocks []struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return dialectNone
	}
	out := dialectNone
	for _, b := range blocks {
		t := scalar(b.Type)
		switch {
		case t == "":
			return dialectNone
		case t == "image_url" || t == "input_audio" || t == "refusal" || t == "file":
			return dialectOpenAI
		case t == "toolRequest" || t == "toolResponse":
			return dialectOpenAI // Goose's parts, read by openai-messages (goose.go)
		case isCallBlock(t) || isResultBlock(t) || t == "thinking" || t == "redacted_thinking" ||
			t == "image" || t == "document" || t == "search_result":
			return dialectAnthropic
		}
		out = dialectTyped
	}
	return out
}

// filled reports whether a JSON value is there and not null.
func filled(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// isCallBlock: a block by which the model calls a tool (client, server or
// MCP connector tools).
func isCallBlock(t string) bool {
	return t == "tool_use" || t == "server_tool_use" || t == "mcp_tool_use"
}

// isResultBlock: a block that answers a call, in a user message
// (tool_result) or, for a server tool, in the assistant's own
// (web_search_tool_result, mcp_tool_result, ...).
func isResultBlock(t string) bool {
	return t == "tool_result" || strings.HasSuffix(t, "_tool_result")
}

// antMessage is one message of an Anthropic conversation (or the message
// of a Claude Code event). The API's responses carry their id, model and
// usage, which dumps of them keep.
type antMessage struct {
	Role    looseString     `json:"role"`
	Content json.RawMessage `json:"content"`
	ID      looseString     `json:"id"`
	Model   looseString     `json:"model"`
	Usage   *antUsage       `json:"usage"`
	clineMeta
}

// antBlock is one content block, of any type: the fields of the types
// read.
type antBlock struct {
	Type      looseString     `json:"type"`
	Text      looseString     `json:"text"`
	Thinking  looseString     `json:"thinking"`
	ID        looseString     `json:"id"`
	Name      looseString     `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID looseString     `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   looseBool       `json:"is_error"`
	Title     looseString     `json:"title"`  // a search result's
	URL       looseString     `json:"url"`    // a web search result's
	Source    looseString     `json:"source"` // a search result's (an image's is an object: "")
}

// antUsage is a response's token counts. Anthropic counts the prompt's
// cached tokens apart from input_tokens: they are input all the same.
type antUsage struct {
	Input         looseCount `json:"input_tokens"`
	Output        looseCount `json:"output_tokens"`
	CacheCreation looseCount `json:"cache_creation_input_tokens"`
	CacheRead     looseCount `json:"cache_read_input_tokens"`
	// CacheCreationBy splits the writes by how long they are kept; the
	// hour's are priced higher than the 5 minutes'.
	CacheCreationBy struct {
		OneHour looseCount `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

// UnmarshalJSON reads the counts of an object, and nothing of any other
// value: a usage of an unexpected shape does not cost the run.
func (u *antUsage) UnmarshalJSON(b []byte) error {
	type counts antUsage
	var c counts
	if len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &c) == nil {
		*u = antUsage(c)
	}
	return nil
}

// maxOf keeps the larger of each count: Claude Code repeats a response's
// usage on each of its records, and an early record may hold less.
func (u *antUsage) maxOf(o *antUsage) {
	u.Input = max(u.Input, o.Input)
	u.Output = max(u.Output, o.Output)
	u.CacheCreation = max(u.CacheCreation, o.CacheCreation)
	u.CacheRead = max(u.CacheRead, o.CacheRead)
	u.CacheCreationBy.OneHour = max(u.CacheCreationBy.OneHour, o.CacheCreationBy.OneHour)
}

// usage is the step's usage: the prompt's tokens (cached ones included)
// and the output's, with the model that priced them; nil when none.
func (u *antUsage) usage(model string) *schema.Usage {
	prompt := min(int64(u.Input)+int64(u.CacheCreation)+int64(u.CacheRead), maxTokenCount)
	if prompt == 0 && u.Output == 0 {
		return nil
	}
	if model == "<synthetic>" { // Claude Code's own messages, which no model wrote
		model = ""
	}
	return &schema.Usage{PromptTokens: prompt, CompletionTokens: int64(u.Output), Model: model,
		CacheReadTokens: min(int64(u.CacheRead), prompt), CacheWriteTokens: min(int64(u.CacheCreation), prompt),
		CacheWrite1hTokens: min(int64(u.CacheCreationBy.OneHour), int64(u.CacheCreation), prompt)}
}

// maxTokenCount bounds one count, so that sums over a run stay in range.
const maxTokenCount = 1e12

// looseString is a string field that is "" when the value is not a string:
// a field of an unexpected type does not cost the whole run.
type looseString string

func (s *looseString) UnmarshalJSON(b []byte) error {
	*s = looseString(scalar(b))
	return nil
}

// looseBool is true only for JSON true.
type looseBool bool

func (v *looseBool) UnmarshalJSON(b []byte) error {
	*v = string(b) == "true"
	return nil
}

// looseCount is a token count: a non-negative number, 0 when it is not one.
type looseCount int64

func (c *looseCount) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || f < 0 {
		f = 0
	}
	*c = looseCount(math.Min(f, maxTokenCount))
	return nil
}

// antBlocks decodes a message's content: a string is one text block.
func antBlocks(content json.RawMessage) ([]antBlock, error) {
	switch {
	case len(content) == 0 || string(content) == "null":
		return nil, nil
	case content[0] == '"':
		return []antBlock{{Type: "text", Text: looseString(scalar(content))}}, nil
	case content[0] != '[':
		return nil, errors.New(`"content" is neither a string nor a list of blocks`)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(content, &raws); err != nil {
		return nil, jsonError(err)
	}
	blocks := make([]antBlock, len(raws))
	for i, raw := range raws {
		if err := decodeObject(raw, &blocks[i]); err != nil {
			return nil, fmt.Errorf("block %d: %v", i, err)
		}
	}
	return blocks, nil
}

// decodeObject decodes raw, which must be a JSON object, into v.
func decodeObject(raw json.RawMessage, v any) error {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonError(err)
	}
	return nil
}

var anthropicStyle = chatStyle{rules: anthropicRules, toolKind: anthropicToolKind, positioned: true,
	// Cline ends a task with attempt_completion (cline.go).
	stop: func(tool string, _ json.RawMessage) bool { return tool == "attempt_completion" }}

func convertAnthropic(d *Doc, emit func(*schema.Step) error) error {
	if isClaudeCode(d) {
		return convertClaudeCode(d, emit)
	}
	return eachConversation(d, func(index int, many bool, obj map[string]json.RawMessage, raw json.RawMessage) error {
		var raws []json.RawMessage
		if err := json.Unmarshal(raw, &raws); err != nil {
			return jsonError(err)
		}
		model := scalar(obj["model"]) // a request's model, for messages that do not say
		// Bedrock Converse's blocks are rewritten as Anthropic's (converse.go);
		// a conversation without a toolUse or toolResult is not Converse.
		converse := bytes.Contains(raw, []byte(`"toolUse"`)) || bytes.Contains(raw, []byte(`"toolResult"`))
		var b antChat
		pos := 0
		for i := range raws {
			m := &antMessage{}
			msg := raws[i]
			if converse {
				msg = converseAsAnthropic(msg)
			}
			if err := decodeObject(msg, m); err != nil {
				return fmt.Errorf("message %d: %v", i, err)
			}
			if m.Model == "" {
				m.Model = looseString(model)
			}
			n, err := b.add(m, pos, m.timestamp(), false)
			if err != nil {
				return fmt.Errorf("message %d: %v", i, err)
			}
			pos += n
		}
		r := d.newRun(runName(d, index, many, ownID(obj)))
		convertChat(r, b.msgs, anthropicStyle)
		return r.emit(emit)
	})
}

// antChat builds the chat messages (chat.go) of an Anthropic conversation,
// a message or a Claude Code record at a time. A message is at a position
// of the source's list of blocks: the messages' blocks laid end to end, a
// message without blocks counting one.
type antChat struct {
	msgs []chatMessage
	// The last assistant message: a Claude Code record of the same
	// response (the same message id) adds its blocks to it.
	last    int
	lastID  string
	text    string // its words
	thought string // its thinking, its words when it says none
	usage   antUsage
	// pending are its calls not yet answered, for Cline's answers in text
	// (cline.go).
	pending []pendingCall
}

// add converts one message at position pos (its first block's) and
// returns how many positions it takes. apiError says the message is the
// text of a failed model call (Claude Code's isApiErrorMessage).
func (b *antChat) add(m *antMessage, pos int, ts *schema.Timestamp, apiError bool) (int, error) {
	blocks, err := antBlocks(m.Content)
	if err != nil {
		return 0, err
	}
	switch {
	case m.Role == "assistant" && apiError:
		b.apiError(m, blocks, pos, ts)
	case m.Role == "assistant":
		b.assistant(m, blocks, pos, ts)
	case m.Role == "user":
		b.user(blocks, pos, ts)
	default:
		// A system message some dumps keep in the list: not a step, and
		// not a reply either.
		b.msgs = append(b.msgs, chatMessage{Role: string(m.Role), Content: jsonString(blocksText(blocks, 0)), pos: pos, ts: ts})
	}
	return max(len(blocks), 1), nil
}

func (b *antChat) assistant(m *antMessage, blocks []antBlock, pos int, ts *schema.Timestamp) {
	id := string(m.ID)
	if id == "" || len(b.msgs) == 0 || b.lastID != id || b.msgs[b.last].Role != "assistant" {
		b.msgs = append(b.msgs, chatMessage{Role: "assistant", pos: pos, ts: ts})
		b.last, b.lastID, b.text, b.thought, b.usage = len(b.msgs)-1, id, "", "", antUsage{}
		b.pending = b.pending[:0]
	}
	for j := range blocks {
		blk := &blocks[j]
		t := string(blk.Type)
		switch {
		case t == "text":
			b.text = joinLine(b.text, string(blk.Text))
		case t == "thinking":
			b.thought = joinLine(b.thought, string(blk.Thinking))
		case isCallBlock(t):
			input := blk.Input
			if !filled(input) {
				input = json.RawMessage("{}")
			}
			name := cmp.Or(string(blk.Name), t)
			b.msgs[b.last].ToolCalls = append(b.msgs[b.last].ToolCalls, chatToolCall{
				ID: string(blk.ID), Function: chatFunction{Name: name, Arguments: input}, pos: pos + j, ts: ts})
			b.pending = append(b.pending, pendingCall{id: string(blk.ID), name: name})
		case isResultBlock(t):
			// A server tool's result, in the response that called it.
			b.msgs = append(b.msgs, antResult(blk, pos+j, ts))
		}
	}
	words := b.text
	if len(b.msgs[b.last].ToolCalls) == 0 {
		if tool, args, before, ok := clineXMLCall(b.text); ok {
			// Cline's call written in the text (cline.go): answered as
			// its tool_use blocks are.
			id := "cline-" + strconv.Itoa(pos)
			b.msgs[b.last].ToolCalls = []chatToolCall{{ID: id, Function: chatFunction{Name: tool, Arguments: args}, pos: b.msgs[b.last].pos, ts: b.msgs[b.last].ts}}
			b.pending = append(b.pending[:0], pendingCall{id: id, name: tool})
			words = before
		}
	}
	if strings.TrimSpace(words) == "" {
		words = b.thought
	}
	b.msgs[b.last].Content = jsonString(words)
	if m.Usage != nil {
		b.usage.maxOf(m.Usage)
	}
	b.msgs[b.last].usage = b.usage.usage(string(m.Model))
	if b.msgs[b.last].usage == nil {
		b.msgs[b.last].usage = m.clineMeta.usage()
	}
}

// apiError records a model call that failed (Claude Code writes the
// error as an assistant message of its own): a call of "model" whose
// result is the error, so failing calls in a row read as such.
func (b *antChat) apiError(m *antMessage, blocks []antBlock, pos int, ts *schema.Timestamp) {
	msg := blocksText(blocks, 0)
	b.msgs = append(b.msgs, failedModelCall("api-error", "", msg, pos, ts)...)
	b.last, b.lastID = len(b.msgs)-2, ""
}

// user converts a user message: each tool_result block a reply of its own,
// the other blocks (the user's words, images) a user turn.
func (b *antChat) user(blocks []antBlock, pos int, ts *schema.Timestamp) {
	if len(blocks) == 0 {
		b.msgs = append(b.msgs, chatMessage{Role: "user", Content: jsonString(""), pos: pos, ts: ts})
		return
	}
	var words []antBlock
	at := -1
	flush := func() {
		if at >= 0 {
			b.msgs = append(b.msgs, chatMessage{Role: "user", Content: jsonString(blocksText(words, 0)), pos: at, ts: ts})
			words, at = words[:0], -1
		}
	}
	for j := range blocks {
		if isResultBlock(string(blocks[j].Type)) {
			flush()
			b.answered(string(blocks[j].ToolUseID))
			if siblingCancelled(&blocks[j]) {
				// Not run: the call keeps no result, so one failure
				// in a batch of parallel calls stays one.
				continue
			}
			b.msgs = append(b.msgs, antResult(&blocks[j], pos+j, ts))
			continue
		}
		if string(blocks[j].Type) == "text" && len(b.pending) > 0 {
			if tool, body, ok := clineResult(string(blocks[j].Text)); ok {
				call, _ := b.answer(tool)
				flush()
				reply := clineReply(call, body, pos+j, ts)
				if tool == "attempt_completion" {
					clineCompletionAnswer(&reply, blocks[j+1:])
				}
				b.msgs = append(b.msgs, reply)
				continue
			}
		}
		if at < 0 {
			at = pos + j
		}
		words = append(words, blocks[j])
	}
	flush()
}

// siblingCancelled reports whether a result block is Claude Code's answer
// to a call it cancelled, unrun, because another call of the same response
// failed ("Sibling tool call errored").
func siblingCancelled(blk *antBlock) bool {
	if !blk.IsError {
		return false
	}
	out, _, _ := resultContent(blk.Content, 0)
	return strings.TrimSpace(out) == "<tool_use_error>Sibling tool call errored</tool_use_error>"
}

// antResult is the reply a result block makes: its text, the exit code a
// shell's failure states ("Exit code 1", as Claude Code writes it, or a
// code execution's return_code), and ERROR when is_error is set or the
// server tool reports an error_code.
func antResult(blk *antBlock, pos int, ts *schema.Timestamp) chatMessage {
	out, exit, errType := resultContent(blk.Content, 0)
	if blk.IsError && errType == "" {
		errType = "ERROR"
	}
	if exit == nil {
		exit = exitLine(out)
	}
	return chatMessage{Role: "tool", ToolCallID: string(blk.ToolUseID), Content: jsonString(out), pos: pos, ts: ts, exit: exit, errType: errType}
}

// resultContent reads a result's content: a string; a list of blocks
// (text, an image, a search's results); or a server tool's object (an
// error with its error_code, a code execution's output and return code).
// depth is how deep in a result's content raw is: content nested deeper
// than results nest is kept as its JSON, not decoded level by level.
func resultContent(raw json.RawMessage, depth int) (out string, exit *int, errType string) {
	if depth > maxResultDepth {
		return string(raw), nil, ""
	}
	if len(raw) == 0 || raw[0] != '{' {
		blocks, err := antBlocks(raw)
		if err != nil {
			return string(raw), nil, ""
		}
		return blocksText(blocks, depth), nil, ""
	}
	var o struct {
		ErrorCode  looseString     `json:"error_code"`
		Stdout     looseString     `json:"stdout"`
		Stderr     looseString     `json:"stderr"`
		ReturnCode json.RawMessage `json:"return_code"`
		Content    json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return string(raw), nil, ""
	}
	switch {
	case o.ErrorCode != "":
		code := string(o.ErrorCode)
		if code == "too_many_requests" {
			return code, nil, schema.ErrRateLimit
		}
		return code, nil, strings.ToUpper(code)
	case o.Stdout != "" || o.Stderr != "" || filled(o.ReturnCode):
		if n, err := strconv.Atoi(scalar(o.ReturnCode)); err == nil {
			exit = &n
		}
		return joinLine(string(o.Stdout), string(o.Stderr)), exit, ""
	case filled(o.Content):
		return resultContent(o.Content, depth+1)
	}
	return string(raw), nil, ""
}

// maxResultDepth bounds the levels of a result's content that are read:
// a search result's text blocks in a tool_result are two.
const maxResultDepth = 4

// blocksText is what blocks say as text: a text block's text, a search
// result's title and address, a block of another type as [type] (an image
// is seen, but not as words). depth is resultContent's.
func blocksText(blocks []antBlock, depth int) string {
	var b strings.Builder
	for i := range blocks {
		blk := &blocks[i]
		var t string
		switch {
		case blk.Text != "":
			t = string(blk.Text)
		case blk.Type == "text":
			continue
		case blk.Type == "web_search_result" || blk.Type == "search_result":
			c, _, _ := resultContent(blk.Content, depth+1)
			t = joinLine(joinLine(string(blk.Title), cmp.Or(string(blk.URL), string(blk.Source))), c)
		case filled(blk.Content):
			t, _, _ = resultContent(blk.Content, depth+1)
		case blk.Type != "":
			t = "[" + string(blk.Type) + "]"
		}
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t)
	}
	return b.String()
}

// reExitLine is the first line of a failed shell command's output in
// Claude Code: "Exit code 1".
var reExitLine = regexp.MustCompile(`^Exit code (-?\d{1,9})\s*(?:\n|$)`)

func exitLine(out string) *int {
	m := reExitLine.FindStringSubmatch(strings.TrimLeft(out, " \t\r\n"))
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}

func joinLine(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// anthropicToolKind knows the tools of Claude Code and Anthropic's
// schema-less tools by name: Read and the text editor's view show files,
// Glob searches, Bash runs a command whose program says.
func anthropicToolKind(tool string, args json.RawMessage) (search, view bool) {
	switch strings.ToLower(tool) {
	case "bash":
		return chatToolKind("bash", args)
	case "read", "notebookread":
		return false, true
	case "glob":
		return true, false
	case "str_replace_based_edit_tool", "str_replace_editor", "text_editor":
		var a struct {
			Command looseString `json:"command"`
		}
		json.Unmarshal(args, &a)
		return false, a.Command == "view"
	}
	return chatToolKind(tool, args)
}

// anthropicRules come before the generic rules for the results of Claude
// Code's tools and Anthropic's text editor tool.
var anthropicRules = []OutputRule{
	clineNoToolRule,
	missingPathRule,
	{
		Name: "tool-use-edit-rejected", ErrorType: schema.ErrEditRejected, Harness: true,
		Doc: "Claude Code refused an edit before making it: the output begins `<tool_use_error>` and says `String to replace not found in file`, `matches of the string to replace, but replace_all is false` or `No changes to make`",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "<tool_use_error>") && (strings.Contains(o.text, "String to replace not found in file") ||
				strings.Contains(o.text, "matches of the string to replace, but replace_all is false") ||
				strings.Contains(o.first, "No changes to make: old_string and new_string are exactly the same"))
		},
	},
	{
		Name: "edit-rejected", ErrorType: schema.ErrEditRejected,
		Doc: "the editor refused the edit: `String to replace not found in file`, `matches of the string to replace, but replace_all is false`, `No changes to make`, `No match found for replacement`",
		match: func(o *output) (string, bool) {
			return "", strings.Contains(o.text, "String to replace not found in file") ||
				strings.Contains(o.text, "matches of the string to replace, but replace_all is false") ||
				strings.Contains(o.first, "No changes to make: old_string and new_string are exactly the same") ||
				strings.Contains(o.first, "No match found for replacement")
		},
	},
	{
		Name: "tool-use-no-such-file", ErrorType: "NO_SUCH_FILE", ViewsToo: true, Harness: true,
		Doc: "Claude Code refused to read or edit a file that is not there: the output begins `<tool_use_error>File does not exist.`",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "<tool_use_error>File does not exist.")
		},
	},
	{
		Name: "tool-use-error", ErrorType: schema.ErrUsage, ViewsToo: true, Harness: true,
		Doc: "Claude Code refused the call before running it: the output begins `<tool_use_error>` (invalid input, a file not read first)",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "<tool_use_error>")
		},
	},
	{
		Name: "user-rejected", ErrorType: "REJECTED", ViewsToo: true, Harness: true,
		Doc: "the user refused or interrupted the call: `The user doesn't want to proceed with this tool use`, `[Request interrupted by user for tool use]`, or the output is only `Interrupted by user` (a read stopped by the user)",
		match: func(o *output) (string, bool) {
			return "", strings.HasPrefix(o.first, "The user doesn't want to proceed with this tool use") ||
				strings.HasPrefix(o.first, "[Request interrupted by user for tool use]") ||
				strings.TrimSpace(o.text) == "Interrupted by user"
		},
	},
	{
		Name: "command-timed-out", ErrorType: schema.ErrTimeout, ViewsToo: true, Harness: true,
		Doc: "Claude Code stopped a command at its time limit: the output begins `Command timed out after 2m 0.0s` (what the command printed before follows)",
		match: func(o *output) (string, bool) {
			return "", reClaudeTimedOut.MatchString(o.first)
		},
	},
}

// reClaudeTimedOut is Claude Code's line for a command it stopped at its
// time limit: `Command timed out after 2m 0.0s`, `... after 15s`.
var reClaudeTimedOut = regexp.MustCompile(`^Command timed out after (?:\d+m )?\d+(?:\.\d+)?s\b`)
