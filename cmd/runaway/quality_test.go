package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/score"
)


// TestQualityOnAGeneratedCorpus scores a scan of a fresh synthetic corpus
// against its labels. It fails when precision or recall of the runaway
// verdict drops below 0.95 or more than 1% of healthy runs are flagged.
func TestQualityOnAGeneratedCorpus(t *testing.T) {
	runs := 4000
	if testing.Short() {
		runs = 800
	}
	for _, seed := range []string{"11", "12"} {
		t.Run("seed="+seed, func(t *testing.T) {
			rep := scoreGenerated(t, runs, seed, "")
			t.Logf("\n%s", rep)
			if rep.Missing != 0 || rep.Unlabelled != 0 {
				t.Fatalf("labels and scan disagree on runs: missing %d unlabelled %d", rep.Missing, rep.Unlabelled)
			}
			if rep.Precision < 0.95 || rep.Recall < 0.95 {
				t.Errorf("precision %.4f recall %.4f, want both >= 0.95", rep.Precision, rep.Recall)
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
	t.Logf("\n%s", rep)
	if rep.RootCauseAccuracy < 0.95 {
		t.Errorf("root-cause accuracy %.4f, want >= 0.95", rep.RootCauseAccuracy)
	}
	if rep.OnsetAccuracy < 0.9 {
		t.Errorf("onset within +-2 steps %.4f, want >= 0.9", rep.OnsetAccuracy)
	}
}

func scoreGenerated(t *testing.T, runs int, seed, causes string) score.Report {
	t.Helper()
	dir := t.TempDir()
	corpus, labelsPath, out := filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "labels.jsonl"), filepath.Join(dir, "scan.ndjson")
	args := []string{"gen", "--runs", fmt.Sprint(runs), "--runaway-rate", "0.3", "--seed", seed, "--out", corpus, "--labels", labelsPath}
	if causes != "" {
		args = append(args, "--causes", causes)
	}
	if code, _, stderr := runCLI(t, "", args...); code != exitClean {
		t.Fatalf("gen: exit %d %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "scan", "--strict", "--format", "ndjson", "--out", out, corpus); code != exitClean {
		t.Fatalf("scan: exit %d %s", code, stderr)
	}
	labels := map[string]score.Label{}
	readJSONLines(t, labelsPath, func(b []byte) {
		var l score.Label
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		labels[l.RunID] = l
	})
	var results []detect.RunResult
	readJSONLines(t, out, func(b []byte) {
		var r detect.RunResult
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	})
	return score.Score(labels, results)
}

func readJSONLines(t *testing.T, path string, each func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		each(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
