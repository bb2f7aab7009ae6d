package adapters

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// Google's Agent Development Kit (ADK) keeps a session as a list of
// events: {"id", "appName", "userId", "state", "events": [...]}, as its
// API server returns it and its web UI exports it (camel case), or as a
// Python dump of the Session writes it (snake case). An event is a Gemini
// Content ("content": {"role", "parts"}) with who wrote it ("author": the
// user or an agent's name), the run it belongs to ("invocationId"), when
// ("timestamp", seconds), the model call's "usageMetadata", and a failed
// model call's "errorCode" and "errorMessage". openai-messages reads the
// events as the chat messages convertChat reads, each content as Gemini's
// (gemini.go) with the agent's name.

// adkEvent is one event: the fields read, in both spellings.
type adkEvent struct {
	Author            string      `json:"author"`
	Content           *gemContent `json:"content"`
	Timestamp         float64     `json:"timestamp"`
	Partial           bool        `json:"partial"`
	ErrorCode         string      `json:"errorCode"`
	ErrorCodeSnake    string      `json:"error_code"`
	ErrorMessage      string      `json:"errorMessage"`
	ErrorMessageSnake string      `json:"error_message"`
	ModelVersion      string      `json:"modelVersion"`
	ModelVersionSnake string      `json:"model_version"`
	Usage             *adkUsage   `json:"usageMetadata"`
	UsageSnake        *adkUsage   `json:"usage_metadata"`
}

// adkUsage is a model call's usage metadata, in both spellings.
type adkUsage struct {
	Prompt          int64 `json:"promptTokenCount"`
	PromptSnake     int64 `json:"prompt_token_count"`
	Candidates      int64 `json:"candidatesTokenCount"`
	CandidatesSnake int64 `json:"candidates_token_count"`
	Thoughts        int64 `json:"thoughtsTokenCount"`
	ThoughtsSnake   int64 `json:"thoughts_token_count"`
}

// mayHoldADKEvents is a cheap first look at a list's bytes.
func mayHoldADKEvents(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"author"`)) &&
		(bytes.Contains(raw, []byte(`"invocationId"`)) || bytes.Contains(raw, []byte(`"invocation_id"`)))
}

// isADKEvent reports whether raw is an ADK event: an object with a string
// "author" and an invocation id.
func isADKEvent(raw json.RawMessage) bool {
	if !mayHoldADKEvents(raw) {
		return false
	}
	var e struct {
		Author       *string `json:"author"`
		Invocation   *string `json:"invocationId"`
		InvocationSn *string `json:"invocation_id"`
	}
	return json.Unmarshal(raw, &e) == nil && e.Author != nil && (e.Invocation != nil || e.InvocationSn != nil)
}

// adkMessages turns a session's events into chat messages, each with its
// position in the list; an event of n function calls takes n positions
// from its own (the events after it move on by n-1). Streaming chunks
// (partial) and events without content (a state change, an agent
// transfer's bookkeeping) are no message; a failed model call (an error
// code without content) is a call of "model" that failed, so failures in
// a row read as such. ok is false when no element is an ADK event.
func adkMessages(els []json.RawMessage) ([]chatMessage, bool, error) {
	return dialectMessages(els, isADKEvent, adkEventMessages)
}

// adkEventMessages turns one event, element i of its list at position at,
// into chat messages, and says how many positions it takes.
func adkEventMessages(el json.RawMessage, i, at int) ([]chatMessage, int, error) {
	var e adkEvent
	if err := json.Unmarshal(el, &e); err != nil {
		return nil, 0, err
	}
	ts := epochTS(e.Timestamp)
	if e.Partial {
		return nil, 1, nil
	}
	if e.Content == nil || len(e.Content.Parts) == 0 {
		code, words := firstNonEmpty(e.ErrorCode, e.ErrorCodeSnake), firstNonEmpty(e.ErrorMessage, e.ErrorMessageSnake)
		if code == "" || e.Author == "user" {
			return nil, 1, nil
		}
		msg := strings.TrimSpace(code + ": " + words)
		return failedModelCall("adk-error", e.Author, msg, at, ts), 1, nil
	}
	c := *e.Content
	name := e.Author
	if name == "user" {
		c.Role, name = "user", ""
	}
	added, n := gemContentMessages(&c, i, at, name)
	for k := range added {
		added[k].ts = ts
	}
	if m := &added[0]; m.Role == "assistant" {
		m.usage = e.usage()
	}
	return added, n, nil
}

// usage is the event's model call: its tokens (the model's thoughts
// counted with its answer) and model.
func (e *adkEvent) usage() *schema.Usage {
	u := e.Usage
	if u == nil {
		u = e.UsageSnake
	}
	model := firstNonEmpty(e.ModelVersion, e.ModelVersionSnake)
	if u == nil && model == "" {
		return nil
	}
	us := &schema.Usage{Model: model}
	if u != nil {
		us.PromptTokens = max(u.Prompt, u.PromptSnake)
		us.CompletionTokens = max(u.Candidates, u.CandidatesSnake) + max(u.Thoughts, u.ThoughtsSnake)
	}
	return us
}
