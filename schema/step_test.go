package schema

import (
	"encoding/json"
	"testing"
)

// A page of a listing that says there is more asks for the next page; a
// last page, text output and data without such a key do not.
func TestSaysMore(t *testing.T) {
	for data, want := range map[string]bool{
		`{"items": [1, 2], "has_more": true}`:       true,
		`{"data": [], "next_cursor": "c2"}`:         true,
		`{"results": [], "nextPageToken": "AbC"}`:   true,
		`{"items": [1], "next": 3}`:                 true,
		`{"items": [1], "has_more": false}`:         false,
		`{"items": [1], "nextPageToken": ""}`:       false,
		`{"items": [1], "next": null}`:              false,
		`{"text": "see the next section for more"}`: false,
		`"has_more: true, print the next page"`:     false,
		`[{"has_more": true}]`:                      false,
	} {
		r := &ToolResult{Data: json.RawMessage(data)}
		if got := r.SaysMore(); got != want {
			t.Errorf("SaysMore(%s) = %v, want %v", data, got, want)
		}
	}
}
