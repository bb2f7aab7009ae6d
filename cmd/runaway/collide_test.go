package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output path that is an input, or another output, would replace it:
// `runaway scan in.jsonl --rejects in.jsonl` silently lost the input. Every
// command that writes files refuses such a path as a usage error (exit 2),
// naming both, before it writes anything; the files are as they were.
// Paths are compared as the file system sees them: ./in.jsonl and
// in.jsonl, a symbolic link and its target, a file not written yet inside a
// directory being read whose walk would read it (next time, at least).
func TestOutputPathsThatCollideAreRefused(t *testing.T) {
	logs := readFile(t, filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	want := readFile(t, filepath.Join(fixturesDir, "detectors", "RA101.positive.want.json"))
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(path string, data []byte) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("in.jsonl", logs)
	write("logs/a.jsonl", logs)
	write("fx/fx-RA101-positive.jsonl", logs)
	write("fx/fx-RA101-positive.want.json", want)
	write("labels.jsonl", []byte(`{"run_id":"fx-RA101-positive","label":"runaway"}`+"\n"))
	write("policy.yaml", []byte("repeat_runaway: 4\n"))
	if err := os.Symlink("in.jsonl", "link.jsonl"); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("logs")
	const run = "fx-RA101-positive"

	for _, c := range []struct {
		args []string
		both [2]string // what the message must name
	}{
		{[]string{"scan", "in.jsonl", "--rejects", "in.jsonl"}, [2]string{"--rejects", "in.jsonl"}},
		{[]string{"scan", "in.jsonl", "--out", "r.json", "--rejects", "r.json"}, [2]string{"--out", "--rejects"}},
		{[]string{"scan", "in.jsonl", "--output", "json=r.json", "--out", "r.json"}, [2]string{"--out", "--output json=r.json"}},
		{[]string{"scan", "in.jsonl", "--output", "json=./r.json", "--output", "ndjson=r.json"}, [2]string{"json=./r.json", "ndjson=r.json"}},
		{[]string{"scan", "in.jsonl", "--format", "ndjson", "--out", "./in.jsonl"}, [2]string{"--out ./in.jsonl", "in.jsonl"}},
		{[]string{"scan", "link.jsonl", "--out", "in.jsonl"}, [2]string{"--out", "link.jsonl"}},
		{[]string{"scan", "in.jsonl", "--out", "link.jsonl"}, [2]string{"--out link.jsonl", "in.jsonl"}},
		{[]string{"scan", "in.jsonl", "--out", "rj.index.ndjson", "--rejects", "rj"}, [2]string{"--out", "rj.index.ndjson"}},
		{[]string{"scan", "in.jsonl", "--policy", "policy.yaml", "--out", "policy.yaml"}, [2]string{"--out", "--policy"}},
		{[]string{"scan", "logs", "--format", "ndjson", "--out", "logs/report.ndjson"}, [2]string{"--out logs/report.ndjson", "logs"}},
		{[]string{"scan", "logs", "--rejects", "logs/sub/rejects.jsonl"}, [2]string{"--rejects", "logs"}},
		{[]string{"scan", "logs/*.jsonl", "--format", "ndjson", "--out", "logs/new.jsonl"}, [2]string{"--out", "logs/*.jsonl"}},
		{[]string{"scan", "file://" + abs + "/", "--output", "json=logs/r.json"}, [2]string{"--output", "file://"}},
		{[]string{"explain", run, "in.jsonl", "--out", "in.jsonl"}, [2]string{"--out", "in.jsonl"}},
		{[]string{"explain", run, "in.jsonl", "--rejects", "./in.jsonl"}, [2]string{"--rejects", "in.jsonl"}},
		{[]string{"replay", "in.jsonl", "--out", "in.jsonl"}, [2]string{"--out", "in.jsonl"}},
		{[]string{"replay", "in.jsonl", "--labels", "labels.jsonl", "--out", "labels.jsonl"}, [2]string{"--out", "--labels"}},
		{[]string{"eval", "in.jsonl", "--labels", "labels.jsonl", "--out", "labels.jsonl"}, [2]string{"--out", "--labels"}},
		{[]string{"eval", "in.jsonl", "--labels", "labels.jsonl", "--rejects", "r", "--out", "r"}, [2]string{"--out", "--rejects"}},
		{[]string{"fixture", run, "in.jsonl", "--out", "out", "--rejects", "in.jsonl"}, [2]string{"--rejects", "in.jsonl"}},
		{[]string{"fixture", run, "logs", "--out", "logs/fixtures"}, [2]string{"--out logs/fixtures", "logs"}},
		{[]string{"fixture", run, "fx/" + run + ".jsonl", "--out", "fx", "--force"}, [2]string{"fx/" + run + ".jsonl", "input"}},
		{[]string{"fixture", run, "in.jsonl", "--out", "fx2", "--rejects", "fx2/" + run + ".want.json"}, [2]string{"--rejects", run + ".want.json"}},
		{[]string{"verify", "fx", "--out", "fx/report.jsonl"}, [2]string{"--out", "fx"}},
		{[]string{"verify", "fx", "--out", "fx/" + run + ".jsonl"}, [2]string{"--out", "fx"}},
		{[]string{"gen", "--runs", "3", "--out", "c.jsonl", "--labels", "./c.jsonl"}, [2]string{"--out", "--labels"}},
	} {
		before := snapshot(t, dir)
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.both[0]) || !strings.Contains(stderr, c.both[1]) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 naming %q and %q", c.args, code, firstLine(stderr), c.both[0], c.both[1])
		}
		if stdout != "" {
			t.Errorf("%q: wrote to stdout", c.args)
		}
		if after := snapshot(t, dir); after != before {
			t.Errorf("%q changed the files:\nbefore %s\nafter  %s", c.args, before, after)
		}
	}

	// What does not collide is written: a file the walk does not read, one
	// excluded, devices, which are not replaced.
	for _, args := range [][]string{
		{"scan", "logs", "--out", "logs/report.txt"},
		{"scan", "logs", "--format", "ndjson", "--out", "logs/report.ndjson", "--exclude", "report.ndjson"},
		{"scan", "logs", "--format", "ndjson", "--out", "logs/.report.ndjson"},
		{"scan", "in.jsonl", "--out", os.DevNull, "--output", "json=" + os.DevNull},
		{"verify", "fx", "--out", "fx/report.xml", "--format", "junit"},
	} {
		if code, _, stderr := runCLI(t, "", args...); code == exitUsage {
			t.Errorf("%q: refused: %s", args, firstLine(stderr))
		}
	}
}

// snapshot is every file under dir with its content, for comparing.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s:%x ", rel, sha256.Sum256(data))
		return nil
	})
	return b.String()
}
