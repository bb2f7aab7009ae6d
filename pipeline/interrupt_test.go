package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scan interrupted after it has read everything, while it draws the
// html overview's timelines, commits nothing: no report and no rejects
// file, though the rejects were all known by then. An interrupted job is
// one that did not happen.
func TestInterruptAfterReadingCommitsNoRejects(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(input, append([]byte("not json\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := scanConfig(input)
	cfg.Format, cfg.Out, cfg.RejectsFile = "html", filepath.Join(out, "page.html"), filepath.Join(out, "rejects.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	beforeTimelineRead = cancel
	defer func() { beforeTimelineRead = nil }()
	var stdout, stderr bytes.Buffer
	_, err = Scan(ctx, cfg, strings.NewReader(""), &stdout, &stderr)
	var interrupted *InterruptedError
	if !errors.As(err, &interrupted) {
		t.Fatalf("err %v; want an *InterruptedError", err)
	}
	if left, _ := os.ReadDir(out); len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Fatalf("an interrupted scan left %v", names)
	}

	// Not interrupted, the same scan writes both.
	beforeTimelineRead = nil
	if _, err := Scan(context.Background(), cfg, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(cfg.RejectsFile); err != nil || string(got) != "not json\n" {
		t.Fatalf("rejects %q, %v", got, err)
	}
}
