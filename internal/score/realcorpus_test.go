package score_test

import (
	"bufio"
	"encoding/json"
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
// split (dev, test, or holdout for the batch kept out of all tuning), a root cause from the list when it is not healthy, an onset inside
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
		if l.Source == "" || (l.Split != "dev" && l.Split != "test" && l.Split != "holdout") {
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

// labelsAndCauses reads the labels and the root causes a label may name.
func labelsAndCauses(t *testing.T) (map[string]score.Label, map[string]bool) {
	t.Helper()
	labels, err := score.ReadLabelsFile("../../corpus/real/labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	causes := map[string]bool{}
	for _, c := range detect.RootCauses {
		causes[string(c)] = true
	}
	return labels, causes
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

// eachLine calls fn with every line of the file at path and its number.
func eachLine(t *testing.T, path string, fn func(n int, line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		fn(n, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, name string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	eachLine(t, name, func(_ int, line []byte) {
		if l := strings.TrimSpace(string(line)); l != "" {
			out[l] = true
		}
	})
	return out
}

// The second reading (corpus/real/agreement.jsonl) covers exactly the
// runaway runs, each once, with a root cause from the list and a stretch
// that ends after it begins: the agreement figures of docs/quality.md are
// computed over those runs.
func TestRealCorpusSecondReading(t *testing.T) {
	labels, causes := labelsAndCauses(t)
	seen := map[string]bool{}
	for n, r := range readReadings[reading](t, "../../corpus/real/agreement.jsonl") {
		l, ok := labels[r.RunID]
		switch {
		case !ok || l.Label != score.LabelRunaway:
			t.Errorf("agreement.jsonl:%d: %s is not a runaway run", n+1, r.RunID)
		case seen[r.RunID]:
			t.Errorf("agreement.jsonl:%d: %s read twice", n+1, r.RunID)
		case !causes[r.RootCause] || r.OnsetStep < 0 || r.EndStep < r.OnsetStep:
			t.Errorf("agreement.jsonl:%d: root cause %q, stretch %d-%d", n+1, r.RootCause, r.OnsetStep, r.EndStep)
		}
		seen[r.RunID] = true
	}
	for id, l := range labels {
		if l.Label == score.LabelRunaway && !seen[id] {
			t.Errorf("%s: runaway run without a second reading", id)
		}
	}
}

// A reading of a runaway run: where its stuck stretch begins and ends, and
// why.
type reading struct {
	RunID     string `json:"run_id"`
	OnsetStep int64  `json:"onset_step"`
	EndStep   int64  `json:"end_step"`
	RootCause string `json:"root_cause"`
}

func readReadings[T any](t *testing.T, path string) []T {
	t.Helper()
	var out []T
	eachLine(t, path, func(n int, line []byte) {
		var r T
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, r)
	})
	return out
}

// The third reading (corpus/real/adjudication.jsonl) covers exactly the
// runs whose first two readings disagree (onsets more than 2 steps apart,
// or another root cause), and labels.jsonl holds what its rule gives: the
// median onset and end of the three readings, the root cause at least two
// readers gave (else the first reading's). A third reader who did not
// find the run runaway (its "label" says what they found) gives no onset:
// the label is then the earlier onset and end of the first two.
func TestRealCorpusAdjudication(t *testing.T) {
	labels, err := score.ReadLabelsFile("../../corpus/real/labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	second := map[string]reading{}
	for _, r := range readReadings[reading](t, "../../corpus/real/agreement.jsonl") {
		second[r.RunID] = r
	}
	type adjudicated struct {
		reading
		FirstOnset int64  `json:"first_onset_step"`
		FirstEnd   int64  `json:"first_end_step"`
		FirstCause string `json:"first_root_cause"`
		Label      string `json:"label"` // the third reader's, when not runaway
	}
	third := map[string]adjudicated{}
	for _, r := range readReadings[adjudicated](t, "../../corpus/real/adjudication.jsonl") {
		if _, dup := third[r.RunID]; dup {
			t.Errorf("%s read a third time twice", r.RunID)
		}
		third[r.RunID] = r
	}
	median := func(a, b, c int64) int64 { return max(min(a, b), min(max(a, b), c)) }
	for id, l := range labels {
		if l.Label != score.LabelRunaway {
			continue
		}
		s := second[id]
		a, ok := third[id]
		first := reading{id, l.OnsetStep, l.EndStep, l.RootCause}
		if ok {
			first = reading{id, a.FirstOnset, a.FirstEnd, a.FirstCause}
		}
		if d := first.OnsetStep - s.OnsetStep; (d > 2 || d < -2 || first.RootCause != s.RootCause) != ok {
			t.Errorf("%s: first and second readings %+v / %+v, read a third time: %v", id, first, s, ok)
			continue
		}
		if !ok {
			continue
		}
		cause := first.RootCause
		if s.RootCause == a.RootCause {
			cause = s.RootCause
		}
		want := reading{id, median(first.OnsetStep, s.OnsetStep, a.OnsetStep), median(first.EndStep, s.EndStep, a.EndStep), cause}
		if a.Label != "" && a.Label != score.LabelRunaway {
			want = reading{id, min(first.OnsetStep, s.OnsetStep), min(first.EndStep, s.EndStep), first.RootCause}
			if first.RootCause == s.RootCause {
				want.RootCause = s.RootCause
			}
		}
		if got := (reading{id, l.OnsetStep, l.EndStep, l.RootCause}); got != want {
			t.Errorf("%s: label %+v, the three readings give %+v", id, got, want)
		}
	}
	for id := range third {
		if l, ok := labels[id]; !ok || l.Label != score.LabelRunaway {
			t.Errorf("%s: read a third time but not a runaway run", id)
		}
	}
}

// The readings without the output (corpus/real/stripped-reading.jsonl, and
// stripped-reading-second.jsonl, a second reader's of some of the same
// runs) are of dev runs only, each once per reading, drawn from the
// stratum they name: runaway runs found with the output stripped, found
// only with it logged, or missed either way, and healthy runs. Their labels
// are the rubric's, with a root cause and a stretch where not healthy:
// docs/quality.md's estimate of what a person sees without the output is
// computed from them.
func TestRealCorpusStrippedReading(t *testing.T) {
	labels, causes := labelsAndCauses(t)
	type strippedReading struct {
		reading
		Label       string `json:"label"`
		SampledFrom string `json:"sampled_from"`
		Evidence    string `json:"evidence"`
	}
	wantLabel := map[string]string{"found-stripped": score.LabelRunaway, "found-logged-only": score.LabelRunaway, "missed": score.LabelRunaway, "healthy": score.LabelHealthy}
	first := map[string]string{} // run id -> stratum, of the first reading
	for _, name := range []string{"stripped-reading.jsonl", "stripped-reading-second.jsonl"} {
		seen := map[string]bool{}
		count := map[string]int{}
		for n, r := range readReadings[strippedReading](t, "../../corpus/real/"+name) {
			l, ok := labels[r.RunID]
			want, known := wantLabel[r.SampledFrom]
			switch {
			case !ok || l.Split != "dev":
				t.Errorf("%s:%d: %s is not a dev run", name, n+1, r.RunID)
			case seen[r.RunID]:
				t.Errorf("%s:%d: %s read twice", name, n+1, r.RunID)
			case !known || l.Label != want:
				t.Errorf("%s:%d: sampled from %q, labelled %s", name, n+1, r.SampledFrom, l.Label)
			case name != "stripped-reading.jsonl" && first[r.RunID] != r.SampledFrom:
				t.Errorf("%s:%d: %s not read first from stratum %q", name, n+1, r.RunID, r.SampledFrom)
			case r.Label == score.LabelHealthy && (r.RootCause != "" || r.OnsetStep != -1):
				t.Errorf("%s:%d: healthy with root cause %q onset %d", name, n+1, r.RootCause, r.OnsetStep)
			case r.Label != score.LabelHealthy && (r.Label != score.LabelRunaway && r.Label != score.LabelBorderline || !causes[r.RootCause] || r.OnsetStep < 0 || r.EndStep < r.OnsetStep):
				t.Errorf("%s:%d: %s with root cause %q, stretch %d-%d", name, n+1, r.Label, r.RootCause, r.OnsetStep, r.EndStep)
			case r.Evidence == "":
				t.Errorf("%s:%d: no evidence", name, n+1)
			}
			seen[r.RunID] = true
			count[r.SampledFrom]++
			if name == "stripped-reading.jsonl" {
				first[r.RunID] = r.SampledFrom
			}
		}
		if count["found-logged-only"] == 0 || count["healthy"] == 0 {
			t.Errorf("%s: strata read %v", name, count)
		}
	}
}

// manifest.tsv says where every listed path comes from: one row per path
// of paths.txt and no other, each with a repository, a full commit id, a
// path inside it, a licence and a sha256, so that fetch.sh can rebuild
// exactly the tree the labels were read from.
func TestRealCorpusManifest(t *testing.T) {
	paths := readLines(t, "../../corpus/real/paths.txt")
	hex := func(s string, n int) bool {
		if len(s) != n {
			return false
		}
		for _, c := range s {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	seen := map[string]bool{}
	eachLine(t, "../../corpus/real/manifest.tsv", func(n int, line []byte) {
		f := strings.Split(string(line), "\t")
		if n == 1 {
			if strings.Join(f, ",") != "corpus_path,repository,commit,repo_path,license,sha256" {
				t.Errorf("manifest.tsv header %q", line)
			}
			return
		}
		if len(f) != 6 {
			t.Errorf("manifest.tsv:%d: %d fields, want 6", n, len(f))
			return
		}
		switch {
		case !paths[f[0]]:
			t.Errorf("manifest.tsv:%d: %s is not in paths.txt", n, f[0])
		case seen[f[0]]:
			t.Errorf("manifest.tsv:%d: %s listed twice", n, f[0])
		case strings.Count(f[1], "/") != 1 || !hex(f[2], 40) || f[3] == "" || f[4] == "" || !hex(f[5], 64):
			t.Errorf("manifest.tsv:%d: row %q", n, line)
		}
		seen[f[0]] = true
	})
	for p := range paths {
		if !seen[p] {
			t.Errorf("%s: in paths.txt without a manifest row", p)
		}
	}
}

// The AG2 batch (corpus/real/ag2-reading.jsonl, read once, blind; a second
// reading of the runs it did not find healthy and of some it did, in
// ag2-reading-second.jsonl) labels runs of the listed AutoGen notebooks,
// dev, each once, each label and stretch valid; the second reading reads
// only runs of the first.
func TestRealCorpusAG2Reading(t *testing.T) {
	paths := readLines(t, "../../corpus/real/paths.txt")
	_, causes := labelsAndCauses(t)
	first := map[string]bool{}
	for _, name := range []string{"ag2-reading.jsonl", "ag2-reading-second.jsonl"} {
		labels, err := score.ReadLabelsFile("../../corpus/real/" + name)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for id, l := range labels {
			count[l.Label]++
			switch {
			case !inPaths(id, paths) || !strings.HasPrefix(id, "autogen/"):
				t.Errorf("%s: %s is not a listed AutoGen notebook's run", name, id)
			case l.Split != "dev" || l.Source != "autogen":
				t.Errorf("%s: %s split %q source %q", name, id, l.Split, l.Source)
			case name != "ag2-reading.jsonl" && !first[id]:
				t.Errorf("%s: %s was not read first", name, id)
			case l.Label == score.LabelHealthy && (l.RootCause != "" || l.OnsetStep != -1):
				t.Errorf("%s: %s healthy with root cause %q onset %d", name, id, l.RootCause, l.OnsetStep)
			case l.Label != score.LabelHealthy && (!causes[l.RootCause] || l.OnsetStep < 0 || l.EndStep < l.OnsetStep):
				t.Errorf("%s: %s %s with root cause %q, stretch %d-%d", name, id, l.Label, l.RootCause, l.OnsetStep, l.EndStep)
			}
			if name == "ag2-reading.jsonl" {
				first[id] = true
			}
		}
		if count[score.LabelRunaway] == 0 || count[score.LabelHealthy] == 0 {
			t.Errorf("%s: labels %v", name, count)
		}
	}
}
