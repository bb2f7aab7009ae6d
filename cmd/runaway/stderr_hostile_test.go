package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file name is as hostile as a log line: a name can hold escape
// sequences, and messages on stderr (rejected lines, skipped and unread
// files, errors) name files. Every such message shows them escaped, as the
// table does (report.Sanitize), so no escape sequence reaches the terminal.
func TestHostileFileNamesAreInertOnStderr(t *testing.T) {
	const bad = "\x1b[31m\x1b]0;pwned\x07\u009b31m\u202e"
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	step := `{"run_id":"r-1","step":0,"state":"ACT","tool_call":{"name":"t","args":{}},"tool_result":{"ok":true}}` + "\n"
	logged := write("logs"+bad+".jsonl", step+"{not json\n"+`{"run_id":"r-1","step":"1"}`+"\n")
	unread := write("junk"+bad+".jsonl", "{not json\n")
	write("table"+bad+".csv", "a,b\n1,2\n")
	missing := filepath.Join(dir, "gone"+bad+".jsonl")

	for _, tc := range []struct {
		name string
		args []string
		want []string // in stderr, escaped
	}{
		{"rejects, unread and skipped files", []string{"scan", "--keep-going", dir},
			[]string{`logs\x1b[31m\x1b]0;pwned\x07\u009b31m\u202e.jsonl:2: rejected`, `junk\x1b[31m`, `table\x1b[31m`}},
		{"rejects of one file", []string{"scan", logged}, []string{`logs\x1b[31m`}},
		{"a source that gives nothing", []string{"scan", unread}, []string{`junk\x1b[31m`}},
		{"a missing file", []string{"scan", missing}, []string{`gone\x1b[31m`}},
		{"a rejects file that cannot be made", []string{"scan", "--rejects", filepath.Join(missing, "r.jsonl"), logged}, []string{`gone\x1b[31m`}},
		{"explain", []string{"explain", "r-1", logged}, []string{`logs\x1b[31m`}},
		{"replay", []string{"replay", logged}, []string{`logs\x1b[31m`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, stderr := runCLI(t, "", tc.args...)
			noControls(t, stderr)
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not show %q:\n%s", w, stderr)
				}
			}
		})
	}
}
