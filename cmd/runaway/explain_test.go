package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/runawayhq/runaway/pipeline"
)

// goldenExplain are the fixtures whose explain output is pinned: a
// contaminated memory loop, an error storm on one call, a re-planning loop.
var goldenExplain = []struct{ name, run string }{
	{"RA501.positive", "fx-RA501-positive"},
	{"error-storm-one-call", "fx-cause-error-storm-one-call"},
	{"replan-repeats-call", "fx-cause-replan-repeats-call"},
}

// The text, Markdown and HTML post-mortems of the golden fixtures are
// byte-identical to their golden files (rewrite with -update after
// checking the diff), and the same whatever the number of workers.
func TestExplainGolden(t *testing.T) {
	for _, g := range goldenExplain {
		for _, format := range pipeline.ExplainFormats {
			name := fmt.Sprintf("explain-%s.%s.golden", g.name, format)
			t.Run(name, func(t *testing.T) {
				code, out, stderr := runCLI(t, "", "explain", g.run, "--format", format, "--workers", "1", fixturesDir)
				if code != exitClean {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if _, again, _ := runCLI(t, "", "explain", g.run, "--format", format, "--workers", "8", fixturesDir); again != out {
					t.Fatal("output depends on --workers")
				}
				path := filepath.Join("testdata", name)
				if *update {
					if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if out != string(want) {
					t.Errorf("%s differs from the golden file (run with -update after checking):\n%s", name, out)
				}
				if format == "html" {
					doc, err := html.Parse(strings.NewReader(out))
					if err != nil {
						t.Fatal(err)
					}
					selfContained(t, doc)
				}
			})
		}
	}
}

// What an incident document needs is in the Markdown: the four sections,
// the onset, the folded loop with its count, the guard and its stop step.
func TestExplainMarkdownSections(t *testing.T) {
	code, out, stderr := runCLI(t, "", "explain", "fx-cause-error-storm-one-call", "--format", "md", fixturesDir)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"## Post-mortem: run `fx-cause-error-storm-one-call`\n",
		"\n### Summary\n", "\n### Timeline\n", "\n### Evidence\n", "\n### Recommended guard\n",
		"| Onset | step 2 (RA303 ratelimit-no-backoff); loop segment steps 2-10 |",
		"| ▶ | 2-10 | +3s | ACT | `web_search {\"q\":\"AutoGPT memory loop runaway\"}` x9 | 9 RATE_LIMIT |",
		"**breaker**: breaker would have stopped the run at step 5, 3 steps after the onset",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

// Several runs: in the order asked, each once; a run that is not in the
// input is named on stderr and exits 3, after the runs found are written.
func TestExplainSeveralRunsAndAMissingOne(t *testing.T) {
	code, out, stderr := runCLI(t, "", "explain", "fx-RA303-positive", "--run", "fx-RA101-positive", "--run", "no-such-run", "--run", "fx-RA303-positive", fixturesDir)
	if code != exitFailure {
		t.Fatalf("exit %d, want 3", code)
	}
	a, b := strings.Index(out, "Run fx-RA303-positive\n"), strings.Index(out, "Run fx-RA101-positive\n")
	if a != 0 || b < 0 || strings.Count(out, "Run fx-RA303-positive\n") != 1 {
		t.Fatalf("runs not printed once each in the order asked:\n%s", out)
	}
	if !strings.Contains(stderr, `run "no-such-run" not found`) {
		t.Errorf("stderr does not name the missing run: %q", stderr)
	}
}

// Only the selected runs' lines are decoded: the others are skipped before
// decoding, and counted.
func TestExplainSkipsOtherRuns(t *testing.T) {
	code, _, stderr := runCLI(t, "", "explain", "absent-run", fixturesDir)
	if code != exitFailure {
		t.Fatalf("exit %d, want 3", code)
	}
	// None of the fixtures' lines is of run absent-run: step lines, the
	// lines of the trajectories, whose steps are skipped once converted,
	// and the lines of the traces, whose steps are skipped once assembled.
	// explain reads what scan reads, and skips every step scan analyses.
	_, out, _ := runCLI(t, "", "scan", "--format", "json", fixturesDir)
	var scanned struct {
		Summary struct {
			Input struct {
				LinesRead int64 `json:"lines_read"`
				Steps     int64 `json:"steps"`
			} `json:"input"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &scanned); err != nil || scanned.Summary.Input.Steps == 0 {
		t.Fatalf("scan of the fixtures: %v", err)
	}
	in := scanned.Summary.Input
	if want := fmt.Sprintf("(%d lines read, %d of other runs skipped)", in.LinesRead, in.Steps); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %s", stderr, want)
	}
}

func TestExplainUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain"}, "want a run id and at least one input"},
		{[]string{"explain", "fx-RA101-positive"}, "want a run id and at least one input"},
		{[]string{"explain", "--format", "pdf", "x", fixturesDir}, `--format "pdf"`},
		{[]string{"explain", "--guard", "nosuch", "x", fixturesDir}, "valid guards"},
		{[]string{"explain", "--run", "", "x", fixturesDir}, "a run id is empty"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// --out writes the file atomically and nothing to stdout; the policy flags
// reach the analysis (a stricter threshold changes the verdict).
func TestExplainOutAndPolicy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pm.md")
	code, out, stderr := runCLI(t, "", "explain", "fx-RA101-positive", "--format", "md", "--out", path, fixturesDir)
	if code != exitClean || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte("## Post-mortem: run `fx-RA101-positive`")) {
		t.Fatalf("%v: %.80s", err, data)
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	_, out, _ = runCLI(t, "", "explain", "fx-RA101-positive", "--repeat-suspicious", "50", "--repeat-runaway", "60", fixturesDir)
	if strings.Contains(out, "repeated-identical-call") || !strings.Contains(out, "Verdict:   suspicious") {
		t.Errorf("--repeat-* thresholds not applied:\n%s", out)
	}
}

// A guard given with --guard is the only one replayed.
func TestExplainGuardFlag(t *testing.T) {
	_, out, _ := runCLI(t, "", "explain", "fx-RA101-positive", "--guard", "gemini", fixturesDir)
	_, table, _ := strings.Cut(out, "Guards replayed")
	if !strings.Contains(out, "Guard:     gemini would have stopped the run") || strings.Count(table, "\n") != 5 {
		t.Errorf("--guard gemini:\n%s", out)
	}
}
