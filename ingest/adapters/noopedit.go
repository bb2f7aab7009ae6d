package adapters

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// markSelfReplacements types an editor's replacement of a text by the
// same text (old_str equal to new_str) EDIT_REJECTED when nothing else
// said it failed: it changes nothing, whatever the editor answered (most
// refuse it: "new_str and old_str must be different"), and a log without
// the output still holds the call's arguments. An agent sending it again
// and again is retrying an edit that cannot land.
//
// Aider's SEARCH/REPLACE blocks are such replacements too: a reply whose
// every block puts back the text it searched for changes nothing, though
// Aider answers "Applied edit".
//
// Such a result is not retryable (tool_result.retryable false): the same
// arguments change nothing however often they are sent, so sending them
// again is the agent's retry loop, not a change failing to land.
func (r *run) markSelfReplacements() {
	for _, s := range r.steps {
		res := s.ToolResult
		if s.ToolCall == nil || s.Intent != schema.IntentEdit || res == nil || res.IsError() {
			continue
		}
		if bytes.Contains(s.ToolCall.Args, []byte(`"search"`)) && blocksReplaceBySame(s.ToolCall.Args) {
			rejectEdit(res, "every SEARCH/REPLACE block puts back the text it searched for: the reply changes nothing")
			res.Retryable = new(bool)
			continue
		}
		if !bytes.Contains(s.ToolCall.Args, []byte(`"new_str"`)) {
			continue
		}
		t, ok := editorTarget(s.ToolCall.Args)
		if !ok || t.old == "" || t.old != t.new {
			continue
		}
		rejectEdit(res, "old_str and new_str are the same: the replacement changes nothing")
		res.Retryable = new(bool)
	}
}

// blocksReplaceBySame reports whether args ({"edits": [{"file", "search",
// "replace"}, ...]}, as the Aider adapter writes them) hold at least one
// block and every block replaces a text that is not empty by the same text.
func blocksReplaceBySame(args json.RawMessage) bool {
	var a struct {
		Edits []struct {
			Search  *string `json:"search"`
			Replace *string `json:"replace"`
		} `json:"edits"`
	}
	if json.Unmarshal(args, &a) != nil || len(a.Edits) == 0 {
		return false
	}
	for _, e := range a.Edits {
		if e.Search == nil || e.Replace == nil || strings.TrimSpace(*e.Search) == "" || *e.Search != *e.Replace {
			return false
		}
	}
	return true
}
