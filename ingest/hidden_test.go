package ingest

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Hidden files and directories are passed over, as tools do; but logs kept
// in one (an evaluation harness's .eval_sessions/) are named on the side,
// with how many, never lost without a word. A tool's own directory (.git)
// is not even looked into, and a hidden directory without logs says
// nothing. Named, a hidden directory is read.
func TestHiddenDirectoriesHoldingLogsAreNamedNotLost(t *testing.T) {
	tree := map[string][]byte{
		"runs/a.jsonl":                          []byte("x"),
		"runs/.eval_sessions/s1/events/0.json":  []byte("x"),
		"runs/.eval_sessions/s1/events/1.json":  []byte("x"),
		"runs/.eval_sessions/s2/out.traj":       []byte("x"),
		"runs/.eval_sessions/s2/notes.md":       []byte("x"),
		"runs/.eval_sessions/.inner/deep.jsonl": []byte("x"),
		"runs/.git/objects/x.json":              []byte("x"),
		"runs/.idea/workspace.json":             []byte("x"),
		"runs/.empty/README.md":                 []byte("x"),
		"runs/.last-run.jsonl":                  []byte("x"),
	}
	root := filepath.ToSlash(writeTree(t, tree))
	for _, arg := range []string{root + "/runs", "file://" + root + "/runs"} {
		var skipped []string
		names, errs := collect(expand(t, []string{arg}, Filter{Skipped: func(name, why string) { skipped = append(skipped, name+": "+why) }}))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		prefix := strings.TrimSuffix(arg, "runs")
		if got := trimAll(names, prefix); !reflect.DeepEqual(got, []string{"runs/a.jsonl"}) {
			t.Errorf("%s: read %q, want only runs/a.jsonl", arg, got)
		}
		slices.Sort(skipped)
		want := []string{
			"runs/.eval_sessions: a hidden directory (a leading '.') holding 3 file(s) runaway reads; name it to read them",
			"runs/.last-run.jsonl: a hidden file (a leading '.'); name it to read it",
		}
		// Skipped names carry no scheme, as the other files a walk passes over.
		if got := trimAll(skipped, strings.TrimPrefix(prefix, "file://")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: skipped\n%q\nwant\n%q", arg, got, want)
		}
	}
	// Named, the hidden directory is read (its own hidden directory is not).
	names, errs := collect(expand(t, []string{root + "/runs/.eval_sessions"}, Filter{}))
	if len(errs) > 0 || len(names) != 2 {
		t.Errorf("naming the hidden directory read %q %v, want its event directory and its .traj", names, errs)
	}
}

// An object store listing has no directories to look into: each object
// with a log's name below a hidden element is named as passed over.
func TestS3ObjectsBelowAHiddenPrefixAreNamed(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	for _, k := range []string{"p/a.jsonl", "p/.eval/b.jsonl", "p/.eval/notes.md", "p/.git/c.json", "p/x/.d.jsonl"} {
		f.put("b", k, []byte(`{"run_id":"r","step":0}`+"\n"))
	}
	var skipped []string
	names, errs := collect(expand(t, []string{f.url("b/p/")}, Filter{Skipped: func(name, why string) { skipped = append(skipped, name) }}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if !reflect.DeepEqual(names, []string{"s3://b/p/a.jsonl"}) {
		t.Errorf("read %q", names)
	}
	if want := []string{"s3://b/p/.eval/b.jsonl", "s3://b/p/x/.d.jsonl"}; !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}
