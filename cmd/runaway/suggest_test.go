package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run id that is not in the input is usually a typo or a truncated
// copy: explain and fixture name up to three run ids of the input that are
// close to it, closest first, then in byte order, and none when nothing is
// close.
func TestRunNotFoundSuggestsCloseRunIDs(t *testing.T) {
	src := readFile(t, filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	var logs []byte
	for _, id := range []string{"run-13", "run-10", "run-12", "run-11", "job-7f3a9c", "Checkout-Agent-42"} {
		logs = append(logs, bytes.ReplaceAll(src, []byte(`"fx-RA101-positive"`), []byte(`"`+id+`"`))...)
	}
	path := filepath.Join(t.TempDir(), "logs.jsonl")
	if err := os.WriteFile(path, logs, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		asked string
		want  string // the suggestion, "" for none
	}{
		{"run-1", `"run-10", "run-11", "run-12"`},   // four at one edit: the first three in byte order
		{"run-011", `"run-11", "run-10", "run-12"`}, // one edit, then two
		{"job-7f3a", `"job-7f3a9c"`},                // a truncated copy
		{"checkout-agent-42", `"Checkout-Agent-42"`},
		{"zzzzzz-nothing-alike", ""},
	} {
		for _, cmd := range [][]string{
			{"explain", c.asked, path},
			{"fixture", c.asked, path, "--out", t.TempDir()},
		} {
			code, _, stderr := runCLI(t, "", cmd...)
			if code != exitFailure || !strings.Contains(stderr, "not found") {
				t.Fatalf("%q: exit %d, %q", cmd, code, stderr)
			}
			has := strings.Contains(stderr, "close run ids")
			if c.want == "" && has {
				t.Errorf("%q: suggests %q", cmd, stderr)
			}
			if c.want != "" && !strings.Contains(stderr, "close run ids: "+c.want+"\n") && !strings.Contains(stderr, "close run ids: "+c.want+")") {
				t.Errorf("%q: stderr %q; want it to suggest %s", cmd, stderr, c.want)
			}
		}
	}
}
