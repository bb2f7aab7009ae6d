package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/internal/score"
)

// genCorpus writes a generated corpus and its labels into a temp dir.
func genCorpus(t *testing.T, runs, seed string) (corpus, labels string) {
	t.Helper()
	dir := t.TempDir()
	corpus, labels = filepath.Join(dir, "corpus.jsonl"), filepath.Join(dir, "labels.jsonl")
	if code, _, stderr := runCLI(t, "", "gen", "--runs", runs, "--runaway-rate", "0.3", "--seed", seed, "--out", corpus, "--labels", labels); code != exitClean {
		t.Fatalf("gen: exit %d %s", code, stderr)
	}
	return corpus, labels
}

func TestEvalExitCodes(t *testing.T) {
	corpus, labels := genCorpus(t, "200", "7")
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"run_id":"a","label":"maybe"}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", corpus}, exitUsage, "--labels FILE is required"},
		{[]string{"eval", "--labels", labels}, exitUsage, "no input"},
		{[]string{"eval", "--labels", labels, "--format", "xml", corpus}, exitUsage, "--format"},
		{[]string{"eval", "--labels", labels, "--min-recall", "1.5", corpus}, exitUsage, "--min-recall"},
		{[]string{"eval", "--labels", "no/such/labels.jsonl", corpus}, exitFailure, "no/such/labels.jsonl"},
		{[]string{"eval", "--labels", bad, corpus}, exitUsage, `line 1: label "maybe"`}, // not a labels file: the flag names the wrong file
		{[]string{"eval", "--labels", labels, "no/such/corpus.jsonl"}, exitFailure, "no/such/corpus.jsonl"},
		// Findings are not failures; a missed threshold is.
		{[]string{"eval", "--labels", labels, corpus}, exitClean, ""},
		{[]string{"eval", "--labels", labels, "--min-precision", "0.5", "--min-onset-accuracy", "0.5", corpus}, exitClean, ""},
		{[]string{"eval", "--labels", labels, "--min-onset-accuracy", "1", "--min-cause-accuracy", "1", corpus}, exitFindings, "below --min"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestEvalReportsEveryFigure(t *testing.T) {
	corpus, labels := genCorpus(t, "600", "8")
	code, out, stderr := runCLI(t, "", "eval", "--labels", labels, "--min-precision", "0.9", corpus)
	if code != exitClean {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, want := range []string{"Scored 600 labelled runs: 180 runaway, 420 healthy", "precision", "recall", "F1",
		"LABELLED CAUSE", "error-storm", "CONFOUNDER", "pagination", "none", "Checks:", "precision"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, js, _ := runCLI(t, "", "eval", "--labels", labels, "--format", "json", "--min-recall", "0.9", corpus)
	var doc struct {
		SchemaVersion string        `json:"schema_version"`
		Score         score.Report  `json:"score"`
		Checks        []score.Check `json:"checks"`
	}
	if code != exitClean || json.Unmarshal([]byte(js), &doc) != nil {
		t.Fatalf("json: exit %d %.200s", code, js)
	}
	if doc.SchemaVersion == "" || doc.Score.Runs != 600 || len(doc.Score.Confusion) != 6 || doc.Score.Confounders["none"].Healthy == 0 ||
		len(doc.Checks) != 1 || doc.Checks[0].Name != "recall" || !doc.Checks[0].OK {
		t.Fatalf("json document: %+v", doc)
	}
	// The same input, the same bytes.
	if _, again, _ := runCLI(t, "", "eval", "--labels", labels, "--format", "json", "--min-recall", "0.9", corpus); again != js {
		t.Fatal("two evals differ")
	}
}

// --blind scores a held-out split without naming its runs: the same
// figures, how many runs disagree with their labels, and no run id, in
// the table or the json.
func TestEvalBlindNamesNoRun(t *testing.T) {
	corpus, labels := genCorpus(t, "200", "9")
	// Two labels the verdicts will not match, so that runs disagree.
	raw, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var flipped []string
	for i, l := range lines {
		var lab score.Label
		if json.Unmarshal([]byte(l), &lab) != nil || lab.Label != score.LabelHealthy || len(flipped) == 2 {
			continue
		}
		lab.Label, lab.RootCause, lab.OnsetStep, lab.EndStep = score.LabelRunaway, "error-storm", 1, 3
		b, _ := json.Marshal(lab)
		lines[i] = string(b)
		flipped = append(flipped, lab.RunID)
	}
	os.WriteFile(labels, []byte(strings.Join(lines, "\n")+"\n"), 0o644)

	eval := func(args ...string) score.Report {
		t.Helper()
		code, js, stderr := runCLI(t, "", append([]string{"eval", "--labels", labels, "--format", "json"}, append(args, corpus)...)...)
		var doc struct {
			Score score.Report `json:"score"`
		}
		if code != exitClean || json.Unmarshal([]byte(js), &doc) != nil {
			t.Fatalf("eval %v: exit %d %s %.200s", args, code, stderr, js)
		}
		for _, id := range flipped {
			if len(args) > 0 && strings.Contains(js, id) {
				t.Errorf("--blind json names run %s", id)
			}
		}
		return doc.Score
	}
	open, blind := eval(), eval("--blind")
	if len(open.Disagreements) < len(flipped) || blind.Unnamed != len(open.Disagreements) || blind.Disagreements != nil {
		t.Fatalf("disagreements: %d named without --blind; with it %d named, %d counted", len(open.Disagreements), len(blind.Disagreements), blind.Unnamed)
	}
	if open.Recall != blind.Recall || open.Precision != blind.Precision || open.OnsetAccuracy != blind.OnsetAccuracy {
		t.Errorf("--blind changed the figures: %+v / %+v", open, blind)
	}
	code, table, _ := runCLI(t, "", "eval", "--labels", labels, "--blind", corpus)
	if code != exitClean || !strings.Contains(table, "not named: --blind") {
		t.Errorf("table: exit %d\n%s", code, table)
	}
	for _, id := range flipped {
		if strings.Contains(table, id) {
			t.Errorf("--blind table names run %s", id)
		}
	}
}
