package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/synth"
)

// A scan analyzes the runs that look finished while it reads. Runs that
// log again long after (here: the last steps of every 40th run, moved to
// the end of the input) are read again, from the file that holds them
// only, and the report is byte for byte the one of a scan that held
// everything (stdin, which cannot be read twice, is never analyzed early).
func TestRunsThatLogAgainLateAreReadAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 40 MB")
	}
	var gen bytes.Buffer
	if _, err := synth.Generate(synth.Config{TargetBytes: 40 << 20, RunawayRate: 0.3, Seed: 21}, &gen, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(gen.String(), "\n"), "\n")
	seen := map[string]int{} // run id -> its order of appearance
	left := map[string]int{} // run id -> lines still to come
	for _, l := range lines {
		id := lineRunID(l)
		if _, ok := seen[id]; !ok {
			seen[id] = len(seen)
		}
		left[id]++
	}
	var head, tail []string
	for _, l := range lines {
		id := lineRunID(l)
		left[id]--
		if seen[id]%40 == 0 && left[id] < 3 {
			tail = append(tail, l)
		} else {
			head = append(head, l)
		}
	}
	// Another file first, with none of those runs: it is not read again.
	var other bytes.Buffer
	if _, err := synth.Generate(synth.Config{TargetBytes: 4 << 20, Seed: 22}, &other, nil); err != nil {
		t.Fatal(err)
	}
	late := strings.Join(append(head, tail...), "")
	input := other.String() + late
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a-other.jsonl"), other.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b-late.jsonl"), []byte(late), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func() { beforeSplitRead = nil }()
	var readAgain []string
	beforeSplitRead = func(sources []string) {
		readAgain = sources
		// A file that arrives between the reads, listed before the late
		// one, with steps of the late runs: the second read takes the
		// sources it names, not the first ones of a new listing.
		if err := os.WriteFile(filepath.Join(dir, "a-new.jsonl"), []byte(strings.Join(tail, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cfg := scanConfig("-")
	cfg.Format, cfg.MaxMemory = "ndjson", 64<<20
	code, want, stderr := runScan(t, input, cfg)
	if code != ExitClean || strings.Contains(stderr, "read again") {
		t.Fatalf("stdin: exit %d, stderr %q", code, stderr)
	}
	out := t.TempDir()
	jsonPath, promPath := filepath.Join(out, "scan.json"), filepath.Join(out, "scan.prom")
	cfg.Paths, cfg.Outputs = []string{dir}, []string{"json=" + jsonPath, "prom=" + promPath}
	code, got, stderr := runScan(t, "", cfg)
	if code != ExitClean {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var n int
	if _, err := fmt.Sscanf(stderr[strings.Index(stderr, "note: ")+len("note: "):], "%d runs logged again after the scan had taken them for finished; their steps were read again", &n); err != nil || n == 0 {
		t.Fatalf("no run was read again; stderr %q", stderr)
	}
	// The summary and the metrics say so too, for a nightly job's dashboard.
	var doc struct {
		Summary struct {
			Input struct {
				RunsReadAgain int `json:"runs_read_again"`
			} `json:"input"`
		} `json:"summary"`
	}
	if b, err := os.ReadFile(jsonPath); err != nil || json.Unmarshal(b, &doc) != nil || doc.Summary.Input.RunsReadAgain != n {
		t.Fatalf("json summary: runs_read_again %d, want %d (%v)", doc.Summary.Input.RunsReadAgain, n, err)
	}
	if b, err := os.ReadFile(promPath); err != nil || !strings.Contains(string(b), fmt.Sprintf("\nrunaway_input_runs_read_again %d\n", n)) {
		t.Fatalf("prom: no runaway_input_runs_read_again %d (%v)", n, err)
	}
	if want := filepath.Join(dir, "b-late.jsonl"); len(readAgain) != 1 || readAgain[0] != want {
		t.Fatalf("sources read again: %q, want only %q", readAgain, want)
	}
	if got != want {
		t.Fatalf("the report differs from the one of a scan that held every run (%d vs %d bytes)", len(got), len(want))
	}
}

func lineRunID(line string) string {
	_, rest, _ := strings.Cut(line, `"run_id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}
