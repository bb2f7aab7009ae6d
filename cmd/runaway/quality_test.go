package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/internal/score"
)

// The quality gates: what `runaway eval` must report on a fresh generated
// corpus (docs/quality.md).
var qualityGates = []string{
	"--min-precision", "0.97",
	"--min-recall", "0.97",
	"--min-cause-accuracy", "0.95",
	"--min-onset-accuracy", "0.9",
}

// TestQualityOnAGeneratedCorpus scores a scan of a fresh synthetic corpus
// against its labels with `runaway eval`. It fails when precision or recall
// of the runaway verdict drops below 0.97, root-cause accuracy below 0.95,
// onset accuracy (+-2 steps) below 0.9, or more than 1% of healthy runs are
// flagged.
func TestQualityOnAGeneratedCorpus(t *testing.T) {
	runs := 4000
	if testing.Short() {
		runs = 800
	}
	for _, seed := range []string{"11", "12"} {
		t.Run("seed="+seed, func(t *testing.T) {
			rep := scoreGenerated(t, runs, seed, "")
			if rep.Missing != 0 || rep.Unlabelled != 0 {
				t.Fatalf("labels and scan disagree on runs: missing %d unlabelled %d", rep.Missing, rep.Unlabelled)
			}
			if rep.HealthyFlaggedRate > 0.01 {
				t.Errorf("%.2f%% of healthy runs flagged, want <= 1%%", 100*rep.HealthyFlaggedRate)
			}
		})
	}
}

// Every root cause must be named right, and the onset found within 2 steps.
func TestRootCausesOnAGeneratedCorpus(t *testing.T) {
	rep := scoreGenerated(t, 3000, "21", "")
	for cause, row := range rep.Confusion {
		if row[cause] == 0 {
			t.Errorf("no %s run named right: %v", cause, row)
		}
	}
	if len(rep.Confusion) != 6 {
		t.Errorf("the corpus must hold all six root causes, got %d", len(rep.Confusion))
	}
}

// scoreGenerated generates a corpus and scores it with `runaway eval` and
// the quality gates; a missed gate fails the test with eval's report.
func scoreGenerated(t *testing.T, runs int, seed, causes string) score.Report {
	t.Helper()
	dir := t.TempDir()
	corpus, labelsPath := filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "labels.jsonl")
	args := []string{"gen", "--runs", fmt.Sprint(runs), "--runaway-rate", "0.3", "--seed", seed, "--out", corpus, "--labels", labelsPath}
	if causes != "" {
		args = append(args, "--causes", causes)
	}
	if code, _, stderr := runCLI(t, "", args...); code != exitClean {
		t.Fatalf("gen: exit %d %s", code, stderr)
	}
	evalArgs := append([]string{"eval", "--strict", "--format", "json", "--labels", labelsPath}, qualityGates...)
	code, out, stderr := runCLI(t, "", append(evalArgs, corpus)...)
	var doc struct {
		Score score.Report `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("eval: exit %d %s: %v", code, stderr, err)
	}
	t.Logf("\n%s", doc.Score)
	if code != exitClean {
		t.Errorf("eval: exit %d: %s", code, strings.TrimSpace(stderr))
	}
	return doc.Score
}
