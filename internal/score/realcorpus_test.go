package score_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/score"
)

// The labelled real corpus (corpus/real) is what the figures in
// docs/quality.md are measured on. Its runs are fetched, not committed, so
// CI cannot score them; it can check that the labels read as `runaway
// eval` reads them and say what they claim to: every run has a source and a
// split, a root cause from the list when it is not healthy, an onset inside
// its stuck stretch, and its input among the listed paths.
func TestRealCorpusLabels(t *testing.T) {
	labels, err := score.ReadLabelsFile("../../corpus/real/labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	paths := readLines(t, "../../corpus/real/paths.txt")
	causes := map[string]bool{}
	for _, c := range detect.RootCauses {
		causes[string(c)] = true
	}
	count := map[string]int{}
	for id, l := range labels {
		count[l.Label]++
		if l.Source == "" || (l.Split != "dev" && l.Split != "test") {
			t.Errorf("%s: source %q split %q", id, l.Source, l.Split)
		}
		if l.Label == score.LabelHealthy {
			if l.RootCause != "" || l.OnsetStep != -1 {
				t.Errorf("%s: healthy with root cause %q onset %d", id, l.RootCause, l.OnsetStep)
			}
		} else if !causes[l.RootCause] || l.OnsetStep < 0 || l.EndStep < l.OnsetStep {
			t.Errorf("%s: %s with root cause %q, stretch %d-%d", id, l.Label, l.RootCause, l.OnsetStep, l.EndStep)
		}
		if !inPaths(id, paths) {
			t.Errorf("%s: its input is not in paths.txt", id)
		}
	}
	if len(labels) < 250 || count[score.LabelRunaway] == 0 || count[score.LabelHealthy] == 0 {
		t.Errorf("labels: %d runs, %v", len(labels), count)
	}
}

// inPaths reports whether a run id names a listed input: the path itself,
// or the path followed by the run's place in it (:line, [index], #id).
func inPaths(id string, paths map[string]bool) bool {
	if paths[id] {
		return true
	}
	for i := len(id) - 1; i > 0; i-- {
		if strings.ContainsRune(":[#", rune(id[i])) && paths[id[:i]] {
			return true
		}
	}
	return false
}

func readLines(t *testing.T, name string) map[string]bool {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out[l] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
