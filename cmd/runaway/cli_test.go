package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixturesDir = "../../fixtures"

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersionAndSchema(t *testing.T) {
	code, out, _ := runCLI(t, "", "version")
	if code != exitClean || !strings.HasPrefix(out, "runaway ") || !strings.Contains(out, "input schema v1") {
		t.Fatalf("version: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "schema")
	var doc map[string]any
	if code != exitClean || json.Unmarshal([]byte(out), &doc) != nil || doc["required"] == nil {
		t.Fatalf("schema must print the JSON Schema: %d %.80q", code, out)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	cases := [][]string{
		{},
		{"frobnicate"},
		{"scan"},
		{"scan", "--format", "xml", fixturesDir},
		{"scan", "--fail-on", "sometimes", fixturesDir},
		{"scan", "--no-such-flag", fixturesDir},
		{"scan", "--repeat-suspicious", "9", "--repeat-runaway", "5", fixturesDir},
		{"schema", "extra"},
		{"detectors", "RA999"},
	}
	for _, args := range cases {
		if code, _, stderr := runCLI(t, "", args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

func TestFailOn(t *testing.T) {
	for failOn, want := range map[string]int{"never": exitClean, "runaway": exitFindings, "suspicious": exitFindings} {
		if code, _, stderr := runCLI(t, "", "scan", "--fail-on", failOn, fixturesDir); code != want {
			t.Errorf("--fail-on %s: exit %d, want %d (%s)", failOn, code, want, stderr)
		}
	}
	healthy := filepath.Join(fixturesDir, "healthy")
	if code, _, _ := runCLI(t, "", "scan", "--fail-on", "suspicious", healthy); code != exitClean {
		t.Errorf("healthy fixtures with --fail-on suspicious: exit %d, want 0", code)
	}
}

func TestMissingInputIsARuntimeFailure(t *testing.T) {
	code, _, stderr := runCLI(t, "", "scan", "no/such/file.jsonl")
	if code != exitFailure || !strings.Contains(stderr, "no/such/file.jsonl") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

const badInput = `{"run_id":"a","step":0,"state":"PLAN"}
{"run_id":"a","step":1,"state":"ACT",
{"run_id":"a","step":"two"}
{"step":3}
{"run_id":"a","step":2,"state":"STOP"}
`

func TestRejectsAreLocatedCountedAndKeptVerbatim(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	rejects := filepath.Join(dir, "rejects.jsonl")
	if err := os.WriteFile(in, []byte(badInput), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "scan", "--format", "json", "--rejects", rejects, in)
	if code != exitClean {
		t.Fatalf("rejects alone must not fail the scan: exit %d %s", code, stderr)
	}
	for _, loc := range []string{"in.jsonl:2:", "in.jsonl:3:", "in.jsonl:4:"} {
		if !strings.Contains(stderr, loc) {
			t.Errorf("stderr must locate %s: %s", loc, stderr)
		}
	}
	kept, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(badInput, "\n")
	if string(kept) != lines[1]+"\n"+lines[2]+"\n"+lines[3]+"\n" {
		t.Fatalf("rejects file must hold the bad lines verbatim, got %q", kept)
	}
	var doc struct {
		Summary struct {
			Input struct {
				LinesRead     int64 `json:"lines_read"`
				LinesRejected int64 `json:"lines_rejected"`
			} `json:"input"`
			Runs int `json:"runs"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary.Input.LinesRejected != 3 || doc.Summary.Input.LinesRead != 5 || doc.Summary.Runs != 1 {
		t.Fatalf("summary: %+v", doc.Summary)
	}
	if code, _, _ := runCLI(t, "", "scan", "--strict", in); code != exitFailure {
		t.Fatalf("--strict with rejects: exit %d, want 3", code)
	}
}

func TestStdinAndCompressedInputGiveTheSameReport(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, plain, _ := runCLI(t, "", "scan", "--format", "ndjson", filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl"))
	_, fromStdin, stderr := runCLI(t, string(data), "scan", "--format", "ndjson", "-")
	if plain == "" || plain != fromStdin {
		t.Fatalf("stdin report differs (%s):\n%s\n%s", stderr, plain, fromStdin)
	}
	gz := filepath.Join(t.TempDir(), "run.log") // no .gz suffix: detected by magic bytes
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, fromGzip, _ := runCLI(t, "", "scan", "--format", "ndjson", gz)
	if fromGzip != plain {
		t.Fatalf("gzip report differs:\n%s\n%s", plain, fromGzip)
	}
}

func TestOutIsWrittenAndIdenticalToStdout(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	_, stdout, _ := runCLI(t, "", "scan", "--format", "json", fixturesDir)
	code, empty, stderr := runCLI(t, "", "scan", "--format", "json", "--out", out, fixturesDir)
	if code != exitClean || empty != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, empty, stderr)
	}
	written, err := os.ReadFile(out)
	if err != nil || string(written) != stdout {
		t.Fatalf("--out differs from stdout (%v)", err)
	}
	// Same input, byte-identical report.
	_, again, _ := runCLI(t, "", "scan", "--format", "json", fixturesDir)
	if again != stdout {
		t.Fatal("two scans of the same input differ")
	}
	// A device is written directly (benchmarks use --out /dev/null).
	if code, _, stderr := runCLI(t, "", "scan", "--out", os.DevNull, fixturesDir); code != exitClean {
		t.Fatalf("--out %s: exit %d %s", os.DevNull, code, stderr)
	}
	// An output that cannot be written is a runtime failure.
	if code, _, _ := runCLI(t, "", "scan", "--out", filepath.Join(t.TempDir(), "no", "dir", "r.json"), fixturesDir); code != exitFailure {
		t.Fatalf("unwritable --out: exit %d, want 3", code)
	}
}

func TestPolicyFileAndFlags(t *testing.T) {
	fixture := filepath.Join(fixturesDir, "detectors", "RA101.positive.jsonl")
	policy := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(policy, []byte("repeat_suspicious: 20\nrepeat_runaway: 30\nno_progress_suspicious: 50\nno_progress_runaway: 60\nno_terminal_tail: 50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, "", "scan", "--fail-on", "suspicious", "--policy", policy, fixture); code != exitClean {
		t.Fatalf("with loose thresholds from the policy file the fixture is healthy, exit %d", code)
	}
	// A flag overrides the file.
	if code, _, _ := runCLI(t, "", "scan", "--fail-on", "runaway", "--policy", policy, "--repeat-suspicious", "3", "--repeat-runaway", "5", fixture); code != exitFindings {
		t.Fatalf("flags must override the policy file, exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("repeat_suspicous: 3\n"), 0o644)
	if code, _, stderr := runCLI(t, "", "scan", "--policy", bad, fixture); code != exitUsage || !strings.Contains(stderr, "repeat_suspicous") {
		t.Fatalf("a typo in the policy file: exit %d %s", code, stderr)
	}
}

func TestDetectorsCommand(t *testing.T) {
	code, out, _ := runCLI(t, "", "detectors")
	for _, want := range []string{"RA101", "repeated-identical-call", "tool-retry-loop", "Gemini CLI", "RA401"} {
		if !strings.Contains(out, want) {
			t.Errorf("detectors list lacks %q", want)
		}
	}
	if code != exitClean {
		t.Fatalf("exit %d", code)
	}
	code, out, _ = runCLI(t, "", "detectors", "RA301")
	if code != exitClean || !strings.HasPrefix(out, "# RA301 error-streak") {
		t.Fatalf("detectors RA301: %d %.60q", code, out)
	}
	// The page's thresholds table is there, without the markers of the
	// generated part.
	if !strings.Contains(out, "| `error_streak_runaway` | 4 |") || strings.Contains(out, "<!--") {
		t.Errorf("detectors RA301 thresholds:\n%s", out)
	}
}
