package ingest

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// makeTree writes files (path -> content) under a new temp dir and returns it.
func makeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func names(t *testing.T, root string, srcs []Source) []string {
	t.Helper()
	var out []string
	for _, s := range srcs {
		rel, err := filepath.Rel(root, s.Name)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = s.Name
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func TestExpandPathsWalksTreesLexicallyAndPicksStepLogs(t *testing.T) {
	root := makeTree(t, map[string]string{
		"b.jsonl":                  "x",
		"a.ndjson":                 "x",
		"c.json":                   "x",
		"d.jsonl.gz":               "x",
		"e.jsonl.zst":              "x",
		"f.ndjson.zstd":            "x",
		"UPPER.JSONL":              "x",
		"notes.txt":                "x",
		"data.csv.gz":              "x",
		"run1.want.json":           "golden",
		"run1.want.json.gz":        "golden",
		".hidden.jsonl":            "x",
		".git/objects.jsonl":       "x",
		"sub/z.jsonl":              "x",
		"sub/deeper/y.jsonl":       "x",
		"sub/a.jsonl":              "x",
		"sub-sibling/k.jsonl":      "x",
		"sub/.cache/skipped.jsonl": "x",
	})
	srcs, err := ExpandPaths([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"UPPER.JSONL", "a.ndjson", "b.jsonl", "c.json", "d.jsonl.gz", "e.jsonl.zst", "f.ndjson.zstd",
		"sub/a.jsonl", "sub/deeper/y.jsonl", "sub/z.jsonl", "sub-sibling/k.jsonl",
	}
	if got := names(t, root, srcs); !reflect.DeepEqual(got, want) {
		t.Errorf("sources:\n got  %q\n want %q", got, want)
	}
	for _, s := range srcs {
		if s.Size != 1 {
			t.Errorf("%s: Size = %d, want 1", s.Name, s.Size)
		}
	}
	rc, err := srcs[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if b, _ := io.ReadAll(rc); string(b) != "x" {
		t.Errorf("Open reads %q", b)
	}
}

func TestExpandPathsNamedFilesGlobsAndDuplicates(t *testing.T) {
	root := makeTree(t, map[string]string{
		"logs/notes.txt":     "x",
		"logs/a.jsonl":       "x",
		"logs/b.jsonl":       "x",
		"logs/c.log":         "x",
		"logs/.hidden.jsonl": "x",
		"logs/x.want.json":   "x",
		"other/d.jsonl":      "x",
	})
	t.Chdir(root)

	// A named file is read whatever its name, even a golden file.
	srcs, err := ExpandPaths([]string{"logs/notes.txt", "logs/x.want.json"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, root, srcs); !reflect.DeepEqual(got, []string{"logs/notes.txt", "logs/x.want.json"}) {
		t.Errorf("named files: %q", got)
	}

	// A glob is expanded in lexical order; like a shell's, * skips hidden files.
	srcs, err = ExpandPaths([]string{"logs/*.jsonl", "logs/*.log"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, root, srcs); !reflect.DeepEqual(got, []string{"logs/a.jsonl", "logs/b.jsonl", "logs/c.log"}) {
		t.Errorf("globs: %q", got)
	}
	srcs, err = ExpandPaths([]string{"logs/.h*"}, nil)
	if err != nil || len(srcs) != 1 {
		t.Errorf("a pattern starting with a dot matches hidden files: %v %v", srcs, err)
	}

	// The same file reached twice is read once, at its first place.
	srcs, err = ExpandPaths([]string{"logs/b.jsonl", "logs", "./logs/a.jsonl", "logs/*.jsonl", "other"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, root, srcs); !reflect.DeepEqual(got, []string{"logs/b.jsonl", "logs/a.jsonl", "other/d.jsonl"}) {
		t.Errorf("duplicates: %q", got)
	}
}

func TestExpandPathsErrorsNameThePath(t *testing.T) {
	root := makeTree(t, map[string]string{"logs/a.jsonl": "x"})
	t.Chdir(root)
	_, err := ExpandPaths([]string{"logs/a.jsonl", "logs/missing.jsonl"}, nil)
	if err == nil || err.Error() != "logs/missing.jsonl: no such file or directory" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: %v", err)
	}
	_, err = ExpandPaths([]string{"logs/*.ndjson"}, nil)
	if err == nil || err.Error() != "logs/*.ndjson: no files match" {
		t.Errorf("glob without match: %v", err)
	}
	_, err = ExpandPaths([]string{"logs/[.jsonl"}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "logs/[.jsonl: ") {
		t.Errorf("bad pattern: %v", err)
	}
}

func TestExpandPathsUnlistableDirectoryFailsInRead(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root lists any directory")
	}
	root := makeTree(t, map[string]string{"ok/a.jsonl": "{\"run_id\":\"r\",\"step\":0}\n", "locked/b.jsonl": "x"})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	srcs, err := ExpandPaths([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, root, srcs); !reflect.DeepEqual(got, []string{"locked", "ok/a.jsonl"}) {
		t.Fatalf("sources = %q", got)
	}
	if res := read(t, srcs, Options{}); !errors.Is(res.err, os.ErrPermission) {
		t.Errorf("err = %v", res.err)
	}
	if res := mustRead(t, srcs, Options{KeepGoing: true}); len(res.stats.Failed) != 1 || len(res.rows) != 1 {
		t.Errorf("Failed = %v, %d rows", res.stats.Failed, len(res.rows))
	}
}

// A source a walk or a listing found is marked Found; one named on the
// command line, or matched by the user's glob, is not: the command line
// passes over a found file that holds no log, and stops on a named one.
func TestFoundSourcesAreMarked(t *testing.T) {
	root := makeTree(t, map[string]string{
		"run.traj":       "x",
		"preds.json":     "x",
		"events/0.json":  `{"id": 0}`,
		"sub/meta.json":  "x",
		"glob/one.jsonl": "x",
	})
	url := "file://" + filepath.ToSlash(root)
	for _, c := range []struct {
		args  []string
		found map[string]bool // by name, every source
	}{
		{[]string{root}, map[string]bool{
			filepath.Join(root, "events"): true, filepath.Join(root, "glob", "one.jsonl"): true,
			filepath.Join(root, "preds.json"): true, filepath.Join(root, "run.traj"): true, filepath.Join(root, "sub", "meta.json"): true,
		}},
		{[]string{filepath.Join(root, "run.traj"), filepath.Join(root, "glob", "*.jsonl"), filepath.Join(root, "events")}, map[string]bool{
			filepath.Join(root, "run.traj"): false, filepath.Join(root, "glob", "one.jsonl"): false, filepath.Join(root, "events"): false,
		}},
		{[]string{url + "/sub", url + "/run.traj"}, map[string]bool{url + "/sub/meta.json": true, url + "/run.traj": false}},
	} {
		got := map[string]bool{}
		for src, err := range expand(t, c.args, Filter{}) {
			if err != nil {
				t.Fatal(err)
			}
			got[src.Name] = src.Found
		}
		if !reflect.DeepEqual(got, c.found) {
			t.Errorf("%q: Found by source %v, want %v", c.args, got, c.found)
		}
	}
}
