package adapters

import (
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// A replacement of a text by itself changes nothing: it is an edit that
// did not land, read from its arguments alone, with the output logged or
// not, and not retryable: the same arguments change nothing however often
// they are sent. A replacement by other text, or an insertion, is read as
// before.
func TestSelfReplacementIsRejected(t *testing.T) {
	edit := func(oldStr, newStr string) map[string]any {
		return map[string]any{"command": "str_replace", "path": "/repo/app.py", "old_str": oldStr, "new_str": newStr}
	}
	for _, c := range []struct {
		name  string
		args  map[string]any
		out   string
		strip bool
		want  string
	}{
		{"the same text, stripped", edit("x = 1", "x = 1"), "", true, "error " + schema.ErrEditRejected},
		{"the same text, logged as edited", edit("x = 1", "x = 1"), "The file /repo/app.py has been edited.", false, "error " + schema.ErrEditRejected},
		{"other text, stripped", edit("x = 1", "x = 2"), "", true, "ok"},
		{"other text, logged", edit("x = 1", "x = 2"), "The file /repo/app.py has been edited.", false, "ok"},
		{"an insertion", map[string]any{"command": "insert", "path": "/repo/app.py", "insert_line": 3, "new_str": "y = 2"}, "The file /repo/app.py has been edited.", false, "ok"},
	} {
		doc := ohDoc(t, "edit", c.args, c.out, nil)
		conv, run := convertRead(t, OpenHands, doc, c.strip)
		s := conv.step(t, run, 0)
		if got := result(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		final := s.ToolResult != nil && s.ToolResult.Retryable != nil && !*s.ToolResult.Retryable
		if rejected := c.want != "ok"; final != rejected {
			t.Errorf("%s: not retryable %v, want %v", c.name, final, rejected)
		}
	}
}
