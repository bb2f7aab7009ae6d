package ingest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestFilterKeep(t *testing.T) {
	f := Filter{Include: []string{"*.jsonl", "agent-b/*.gz"}, Exclude: []string{"debug-*", "tmp/*"}}
	for rel, want := range map[string]bool{
		"a.jsonl":               true,
		"x/y/z/a.jsonl":         true,  // no '/': the base name at any depth
		"debug-1.jsonl":         false, // excluded by base name
		"x/debug-1.jsonl":       false,
		"tmp/a.jsonl":           false, // with '/': the path from the root
		"x/tmp/a.jsonl":         true,  // ... so not below it
		"agent-b/a.jsonl.gz":    true,
		"x/agent-b/a.jsonl.gz":  false, // '*' and the root anchor: no match deeper
		"agent-b/sub/a.json.gz": false, // '*' does not cross '/'
		"a.ndjson":              false, // matches no include
	} {
		if got := f.keep(rel); got != want {
			t.Errorf("keep(%q) = %v, want %v", rel, got, want)
		}
	}
	if !(Filter{}).keep("anything/at/all") {
		t.Error("the empty filter keeps everything")
	}
	if (Filter{Exclude: []string{"*"}}).keep("a/b.jsonl") {
		t.Error("exclude * drops everything")
	}
}

func TestExpandArgsFiltersWalksAndGlobsButNotNamedFiles(t *testing.T) {
	root := makeTree(t, map[string]string{
		"logs/2026-11-28/a.jsonl":       "x",
		"logs/2026-11-29/a.jsonl":       "x",
		"logs/2026-11-29/debug.jsonl":   "x",
		"logs/2026-11-29/agent/b.jsonl": "x",
		"logs/top.jsonl":                "x",
		"logs/debug.jsonl":              "x",
	})
	t.Chdir(root)
	for _, tc := range []struct {
		args   []string
		filter Filter
		want   []string
	}{
		// A directory: paths relative to it.
		{[]string{"logs"}, Filter{Exclude: []string{"debug.*"}},
			[]string{"logs/2026-11-28/a.jsonl", "logs/2026-11-29/a.jsonl", "logs/2026-11-29/agent/b.jsonl", "logs/top.jsonl"}},
		{[]string{"logs"}, Filter{Include: []string{"2026-11-29/*"}},
			[]string{"logs/2026-11-29/a.jsonl", "logs/2026-11-29/debug.jsonl"}},
		{[]string{"logs/2026-11-29"}, Filter{Include: []string{"agent/*"}},
			[]string{"logs/2026-11-29/agent/b.jsonl"}},
		// A glob: paths relative to the part before its first metacharacter.
		{[]string{"logs/2026-*"}, Filter{Include: []string{"2026-11-28/*", "b.*"}},
			[]string{"logs/2026-11-28/a.jsonl", "logs/2026-11-29/agent/b.jsonl"}},
		{[]string{"logs/*.jsonl"}, Filter{Exclude: []string{"debug.*"}},
			[]string{"logs/top.jsonl"}},
		// A named file is read whatever the filter says.
		{[]string{"logs/debug.jsonl", "logs"}, Filter{Include: []string{"a.*"}},
			[]string{"logs/debug.jsonl", "logs/2026-11-28/a.jsonl", "logs/2026-11-29/a.jsonl"}},
	} {
		seq, err := ExpandArgs(t.Context(), tc.args, nil, tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := collect(seq)
		if len(errs) > 0 || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q %+v:\n got  %q %v\n want %q", tc.args, tc.filter, got, errs, tc.want)
		}
	}
}

func TestExpandArgsIsLazyOverDirectories(t *testing.T) {
	files := map[string]string{}
	for _, d := range []string{"a", "b", "c"} {
		files[d+"/x.jsonl"] = "x"
	}
	root := makeTree(t, files)
	seq, err := ExpandArgs(t.Context(), []string{root}, nil, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	// Remove c/x.jsonl after the first source: a walk done up front would have listed it.
	n := 0
	for src, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 1 {
			if err := os.Remove(filepath.Join(root, "c", "x.jsonl")); err != nil {
				t.Fatal(err)
			}
		}
		if filepath.Base(filepath.Dir(src.Name)) == "c" {
			t.Errorf("%s: removed before the walk got there", src.Name)
		}
	}
	if n != 2 {
		t.Errorf("%d sources, want 2: the walk is done as the sequence is pulled", n)
	}
}
