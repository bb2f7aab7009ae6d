package main

import (
	"encoding/json"
	"github.com/runawayhq/runaway/replay"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplayUsageErrorsExit2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay"}, "no input"},
		{[]string{"replay", "--guard", "nosuch", fixturesDir}, "valid guards: breaker, crewai, dedup"},
		{[]string{"replay", "--guard", "loopguard:max_same=3", fixturesDir}, "valid params: max_same_call (default 2: identical calls allowed per run), max_total_calls (default 10"},
		{[]string{"replay", "--guard", "maxturns:n=x", fixturesDir}, "want an integer"},
		{[]string{"replay", "--format", "xml", fixturesDir}, "--format"},
		{[]string{"replay", "--examples", "-1", fixturesDir}, "--examples"},
		{[]string{"replay", "--no-such-flag", fixturesDir}, "unknown flag"},
		{[]string{"replay", "--max-line-bytes", "10", fixturesDir}, "--max-line-bytes"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestReplayRuntimeFailuresExit3(t *testing.T) {
	if code, _, stderr := runCLI(t, "", "replay", "no/such/file.jsonl"); code != exitFailure || !strings.Contains(stderr, "no/such/file.jsonl") {
		t.Errorf("missing input: exit %d %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "replay", "--labels", "no/such/labels.jsonl", fixturesDir); code != exitFailure || !strings.Contains(stderr, "--labels") {
		t.Errorf("missing labels: exit %d %q", code, stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(badInput), 0o644)
	if code, _, _ := runCLI(t, "", "replay", "--strict", bad); code != exitFailure {
		t.Errorf("--strict with rejects: exit %d, want 3", code)
	}
	if code, _, _ := runCLI(t, "", "replay", bad); code != exitClean {
		t.Errorf("rejects without --strict: exit %d, want 0", code)
	}
}

func TestReplayOverTheFixtures(t *testing.T) {
	code, out, stderr := runCLI(t, "", "replay", "--format", "json", fixturesDir)
	if code != exitClean {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var doc struct {
		SchemaVersion string `json:"schema_version"`
		Truth         string `json:"truth"`
		Runs          struct {
			Total int `json:"total"`
		} `json:"runs"`
		Guards []struct {
			Name    string `json:"name"`
			Runaway struct {
				Runs, Stopped, Missed int
			} `json:"runaway"`
		} `json:"guards"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion == "" || doc.Truth != "verdicts" || doc.Runs.Total == 0 || len(doc.Guards) != len(replay.Defaults()) {
		t.Fatalf("document: %+v", doc)
	}
	for _, g := range doc.Guards {
		if g.Runaway.Stopped+g.Runaway.Missed != g.Runaway.Runs {
			t.Errorf("%s: stopped %d + missed %d != %d runaway runs", g.Name, g.Runaway.Stopped, g.Runaway.Missed, g.Runaway.Runs)
		}
	}
	// Byte-identical twice, whatever the workers; guards in registry order
	// whatever the order of the flags.
	_, again, _ := runCLI(t, "", "replay", "--format", "json", "--workers", "1", fixturesDir)
	if again != out {
		t.Fatal("two replays of the same input differ")
	}
	_, a, _ := runCLI(t, "", "replay", "--guard", "openhands", "--guard", "dedup", "--guard", "maxturns:n=15", fixturesDir)
	_, b, _ := runCLI(t, "", "replay", "--guard", "maxturns:n=15", "--guard", "dedup", "--guard", "openhands", "--guard", "dedup", fixturesDir)
	if a != b || !strings.Contains(a, "Truth: runaway's verdicts") {
		t.Fatalf("guard order changed the table:\n%s\n%s", a, b)
	}
	if strings.Index(a, "\ndedup") > strings.Index(a, "\nmaxturns:n=15") || strings.Index(a, "\nmaxturns:n=15") > strings.Index(a, "\nopenhands") {
		t.Fatalf("guards not in registry order:\n%s", a)
	}
}

func TestReplayWithLabels(t *testing.T) {
	dir := t.TempDir()
	corpus, labels := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "l.jsonl")
	if code, _, stderr := runCLI(t, "", "gen", "--runs", "300", "--seed", "5", "--out", corpus, "--labels", labels); code != exitClean {
		t.Fatalf("gen: %d %s", code, stderr)
	}
	code, out, stderr := runCLI(t, "", "replay", "--labels", labels, "--guard", "crewai", corpus)
	if code != exitClean || !strings.Contains(out, "Truth: the labels (60 runaway, 240 healthy)") {
		t.Fatalf("exit %d %s\n%s", code, stderr, out)
	}
	if strings.Contains(out, "SUSPICIOUS") {
		t.Fatal("labels have no suspicious class")
	}
}

func TestReplayListsItsGuards(t *testing.T) {
	code, out, _ := runCLI(t, "", "replay", "--list")
	if code != exitClean {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"toolloopbreaker", "guide D", "OpenHands", "max_total_calls=10", "n=15"} {
		if !strings.Contains(out, want) {
			t.Errorf("--list lacks %q", want)
		}
	}
}
