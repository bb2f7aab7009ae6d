package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// concatFixtures writes the steps of some project fixtures into one log
// file, as a production log holds many runs.
func concatFixtures(t *testing.T, names ...string) string {
	t.Helper()
	var all []byte
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(fixturesDir, n+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	path := filepath.Join(t.TempDir(), "logs.jsonl")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A fixture written from a log holding the project's fixture runs gets
// exactly the project's want file, redacted or not, and verify passes it.
func TestFixtureWritesTheProjectsWantFiles(t *testing.T) {
	logs := concatFixtures(t, "causes/error-storm-one-call", "detectors/RA101.positive", "healthy/seed001-minimal")
	for _, redacted := range []bool{true, false} {
		out := t.TempDir()
		args := []string{"fixture", "fx-cause-error-storm-one-call", logs, "--run", "fx-RA101-positive", "--out", out}
		if !redacted {
			args = append(args, "--no-redact")
		}
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitClean || stdout != "" {
			t.Fatalf("redacted %v: exit %d, stdout %q, stderr %s", redacted, code, stdout, stderr)
		}
		for id, project := range map[string]string{"fx-cause-error-storm-one-call": "causes/error-storm-one-call", "fx-RA101-positive": "detectors/RA101.positive"} {
			got := readFile(t, filepath.Join(out, id+".want.json"))
			if want := readFile(t, filepath.Join(fixturesDir, project+".want.json")); !bytes.Equal(got, want) {
				t.Errorf("redacted %v: %s.want.json\n%s\nwant\n%s", redacted, id, got, want)
			}
			steps := readFile(t, filepath.Join(out, id+".jsonl"))
			if has := bytes.Contains(steps, []byte("Summarize incident and propose fix")); has == redacted {
				t.Errorf("redacted %v: the goal's text is in the fixture: %v", redacted, has)
			}
			if !strings.Contains(stderr, filepath.Join(out, id+".jsonl")) {
				t.Errorf("stderr does not name %s: %s", id, stderr)
			}
		}
		if code, stdout, stderr := runCLI(t, "", "verify", out); code != exitClean || !strings.Contains(stdout, "2 fixtures: 2 passed") {
			t.Errorf("verify of the new fixtures: exit %d\n%s%s", code, stdout, stderr)
		}
	}
}

func TestFixtureDoesNotOverwriteWithoutForce(t *testing.T) {
	logs := concatFixtures(t, "detectors/RA101.positive")
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "", "fixture", "fx-RA101-positive", logs, "--out", out); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	steps := filepath.Join(out, "fx-RA101-positive.jsonl")
	os.WriteFile(steps, []byte("hand-edited\n"), 0o644)
	code, _, stderr := runCLI(t, "", "fixture", "fx-RA101-positive", logs, "--out", out)
	if code != exitFailure || !strings.Contains(stderr, "--force") {
		t.Errorf("existing fixture: exit %d, stderr %s", code, stderr)
	}
	if got := readFile(t, steps); string(got) != "hand-edited\n" {
		t.Error("the existing fixture was overwritten without --force")
	}
	if code, _, stderr := runCLI(t, "", "fixture", "fx-RA101-positive", logs, "--out", out, "--force"); code != exitClean {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	if got := readFile(t, steps); string(got) == "hand-edited\n" {
		t.Error("--force did not replace the fixture")
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// A run asked for and not in the input is an error naming it, after the
// runs that are there are written.
func TestFixtureMissingRunExits3AfterWritingTheOthers(t *testing.T) {
	logs := concatFixtures(t, "detectors/RA101.positive")
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "fixture", "no-such-run", logs, "--run", "fx-RA101-positive", "--out", out)
	if code != exitFailure || !strings.Contains(stderr, `run "no-such-run": not found`) {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "fx-RA101-positive.want.json")); err != nil {
		t.Errorf("the run that was found was not written: %v", err)
	}
}

// A run id that is a path cannot write outside --out.
func TestFixtureHostileRunIDStaysInOut(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "a", "b", "out")
	lines := readFile(t, filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	hostile := "../../../evil"
	lines = bytes.ReplaceAll(lines, []byte(`"fx-RA101-positive"`), []byte(`"../../../evil"`))
	logs := filepath.Join(base, "logs.jsonl")
	os.WriteFile(logs, lines, 0o644)
	code, _, stderr := runCLI(t, "", "fixture", hostile, logs, "--out", out)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var written []string
	filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != logs {
			written = append(written, p)
		}
		return nil
	})
	if len(written) != 2 {
		t.Fatalf("wrote %v", written)
	}
	for _, p := range written {
		if filepath.Dir(p) != out {
			t.Errorf("%s is outside %s", p, out)
		}
	}
	var w struct {
		RunID string `json:"run_id"`
	}
	json.Unmarshal(readFile(t, strings.TrimSuffix(written[0], ".jsonl")+".want.json"), &w)
	if w.RunID != hostile {
		t.Errorf("the want file names run %q, want %q", w.RunID, hostile)
	}
}

// --all-flagged writes one fixture per runaway run of the scan, and
// --minimize shrinks each, says so, keeps verify passing, and gives the
// same bytes every time.
func TestFixtureAllFlaggedMinimized(t *testing.T) {
	corpus, _ := genCorpus(t, "12", "3")
	_, ndjson, _ := runCLI(t, "", "scan", "--format", "ndjson", corpus)
	runaway := strings.Count(ndjson, `"verdict":"runaway"`)
	if runaway == 0 {
		t.Fatal("the corpus has no runaway run")
	}
	var dirs []string
	for range 2 {
		out := t.TempDir()
		code, _, stderr := runCLI(t, "", "fixture", "--all-flagged", corpus, "--out", out, "--minimize")
		if code != exitClean {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		reductions := regexp.MustCompile(`minimized: (\d+) -> (\d+) steps`).FindAllStringSubmatch(stderr, -1)
		if len(reductions) != runaway {
			t.Errorf("%d reductions printed for %d runaway runs:\n%s", len(reductions), runaway, stderr)
		}
		for _, r := range reductions {
			before, _ := strconv.Atoi(r[1])
			after, _ := strconv.Atoi(r[2])
			if after >= before || after == 0 {
				t.Errorf("not reduced: %s", r[0])
			}
		}
		wants, _ := filepath.Glob(filepath.Join(out, "*.want.json"))
		if len(wants) != runaway {
			t.Errorf("%d want files for %d runaway runs", len(wants), runaway)
		}
		if code, stdout, stderr := runCLI(t, "", "verify", out); code != exitClean {
			t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
		}
		dirs = append(dirs, out)
	}
	files, _ := os.ReadDir(dirs[0])
	for _, f := range files {
		if a, b := readFile(t, filepath.Join(dirs[0], f.Name())), readFile(t, filepath.Join(dirs[1], f.Name())); !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs of the same command", f.Name())
		}
	}
}

func TestFixtureUsageErrors(t *testing.T) {
	logs := concatFixtures(t, "detectors/RA101.positive")
	for _, args := range [][]string{
		{"fixture", "fx-RA101-positive", logs},                                 // no --out
		{"fixture", "--out", t.TempDir()},                                      // no run id
		{"fixture", "fx-RA101-positive", "--out", t.TempDir()},                 // no input
		{"fixture", "--all-flagged", "-", "--out", t.TempDir()},                // stdin read twice
		{"fixture", "--all-flagged", logs, "--run", "x", "--out", t.TempDir()}, // both
		{"fixture", "x", logs, "--out", t.TempDir(), "--minimize-budget", "0"}, // no budget
		{"fixture", "x", logs, "--out", t.TempDir(), "--no-redact", "--redact-key-file", logs},
		{"fixture", "x", logs, "--out", t.TempDir(), "--redact-key-file", emptyFile(t)}, // would silently be the public key
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

func emptyFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(p, []byte("\n"), 0o600)
	return p
}

// A private key gives other placeholders than the public default, and the
// same ones every time.
func TestFixtureRedactKeyFile(t *testing.T) {
	logs := concatFixtures(t, "detectors/RA101.positive")
	key := filepath.Join(t.TempDir(), "key")
	os.WriteFile(key, []byte("team-secret-key\n"), 0o600)
	steps := func(args ...string) string {
		out := t.TempDir()
		if code, _, stderr := runCLI(t, "", append([]string{"fixture", "fx-RA101-positive", logs, "--out", out}, args...)...); code != exitClean {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return string(readFile(t, filepath.Join(out, "fx-RA101-positive.jsonl")))
	}
	public, private := steps(), steps("--redact-key-file", key)
	if public == private {
		t.Error("--redact-key-file did not change the placeholders")
	}
	if again := steps("--redact-key-file", key); again != private {
		t.Error("the same key gave other placeholders")
	}
}
