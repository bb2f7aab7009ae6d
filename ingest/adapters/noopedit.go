package adapters

import (
	"bytes"

	"github.com/runawayhq/runaway/schema"
)

// markSelfReplacements types an editor's replacement of a text by the
// same text (old_str equal to new_str) EDIT_REJECTED when nothing else
// said it failed: it changes nothing, whatever the editor answered (most
// refuse it: "new_str and old_str must be different"), and a log without
// the output still holds the call's arguments. An agent sending it again
// and again is retrying an edit that cannot land.
func (r *run) markSelfReplacements() {
	for _, s := range r.steps {
		res := s.ToolResult
		if s.ToolCall == nil || s.Intent != schema.IntentEdit || res == nil || res.IsError() || !bytes.Contains(s.ToolCall.Args, []byte(`"new_str"`)) {
			continue
		}
		t, ok := editorTarget(s.ToolCall.Args)
		if !ok || t.old == "" || t.old != t.new {
			continue
		}
		rejectEdit(res, "old_str and new_str are the same: the replacement changes nothing")
	}
}
