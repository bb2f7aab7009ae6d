package adapters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/schema"
)

// fileLines is a `cat -n` view of lines from..to of a file.
func fileLines(from, to int, edited map[int]string) string {
	var b strings.Builder
	b.WriteString("Here's the result of running `cat -n` on /repo/app.py:\n")
	for i := from; i <= to; i++ {
		text := fmt.Sprintf("value_%d = compute(%d)", i, i)
		if e, ok := edited[i]; ok {
			text = e
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i, text)
	}
	return b.String()
}

// An output is seen when it only repeats lines the run's outputs showed
// before: a window moved over lines already read, the same view again
// after an edit of one line. Paging on to new lines, a change of three
// lines, a short answer and a failure are not.
func TestSeenOutputs(t *testing.T) {
	r := &run{id: "r"}
	cases := []struct {
		name string
		text string
		err  string
		want bool
	}{
		{"first view", fileLines(1, 20, nil), "", false},
		{"paging on", fileLines(21, 40, nil), "", false},
		{"the first window again", fileLines(1, 20, nil), "", true},
		{"a window over lines read", fileLines(11, 30, nil), "", true},
		{"after an edit of one line", fileLines(1, 20, map[int]string{5: "value_5 = fixed(5)"}), "", true},
		{"after an edit of three lines", fileLines(1, 20, map[int]string{6: "a = 1", 7: "b = 2", 8: "c = 3"}), "", false},
		{"a short answer", "3 passed\n", "", false},
		{"a failure that repeats", fileLines(1, 20, nil), "EXIT_CODE", false},
		{"further on, new", fileLines(41, 60, nil), "", false},
	}
	for i, c := range cases {
		s := r.add(i, schema.StateAct.String())
		r.setResult(s, c.text, c.err, false)
		got := s.ToolResult.Seen != nil && *s.ToolResult.Seen
		if got != c.want {
			t.Errorf("%s: seen %v, want %v", c.name, got, c.want)
		}
	}
	// Stripped output shows nothing, so nothing is seen.
	strip := &run{id: "s", strip: true}
	for i := range 3 {
		s := strip.add(i, schema.StateAct.String())
		strip.setResult(s, fileLines(1, 20, nil), "", false)
		if s.ToolResult.Seen != nil {
			t.Fatalf("stripped output marked seen at %d", i)
		}
	}
}
