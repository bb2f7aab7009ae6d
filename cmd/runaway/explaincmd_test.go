package main

import (
	"bytes"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The html overview tells the reader how to explain each flagged run. That
// command, pasted into a POSIX shell, must explain that run: a run id that
// starts with '-' must not be taken for a flag, and one with quotes or
// spaces must reach runaway as one argument.
func TestHTMLExplainCommandWorksWhenPasted(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	ids := []string{"-rf", "--run=x", "-", "it's a run", "plain-id"}
	src, err := os.ReadFile(filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var logs []byte
	for _, id := range ids {
		q, _ := quoteJSON(id)
		logs = append(logs, bytes.ReplaceAll(src, []byte(`"fx-RA101-positive"`), q)...)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "logs.jsonl")
	if err := os.WriteFile(path, logs, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page.html")
	if code, _, stderr := runCLI(t, "", "scan", "--format", "html", "--html-timelines", "0", "--out", page, path); code != exitClean {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]bool{}
	for _, m := range regexp.MustCompile(`runaway explain [^<]*? PATH\.\.\.`).FindAllString(string(data), -1) {
		cmds[html.UnescapeString(m)] = true
	}
	if len(cmds) != len(ids) {
		t.Fatalf("%d distinct commands in the page, want %d: %v", len(cmds), len(ids), cmds)
	}
	explained := map[string]bool{}
	for c := range cmds {
		// What the shell hands runaway: the words after "runaway", with
		// PATH... the log.
		script := "printf '%s\\0' " + strings.TrimSuffix(strings.TrimPrefix(c, "runaway "), "PATH...") + "'" + path + "'"
		out, err := exec.Command(sh, "-c", script).Output()
		if err != nil {
			t.Fatalf("%q does not parse in sh: %v", c, err)
		}
		argv := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		code, stdout, stderr := runCLI(t, "", argv...)
		if code != exitClean {
			t.Errorf("%q: exit %d: %s", c, code, stderr)
			continue
		}
		for _, id := range ids {
			if strings.HasPrefix(stdout, "Run "+id+"\n") {
				explained[id] = true
			}
		}
	}
	for _, id := range ids {
		if !explained[id] {
			t.Errorf("no command in the page explains run %q: %v", id, cmds)
		}
	}
}

func quoteJSON(s string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.Bytes(), nil
}
