package pipeline

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/spill"
	"github.com/runawayhq/runaway/synth"
)

// The report is the same, byte for byte, whatever the order of the input
// files and of the lines in them (docs/output.md, "Deterministic"): a
// generated corpus cut into three files is scanned with the files in order,
// reversed, and with its lines shuffled across the files (several seeds),
// in memory and spilled, and every report must be the same. The corpus
// also holds exact re-shipped copies of lines and conflicting lines (the
// same run, step and ts, other content), placed at random: which copy is
// kept and which comes first must not depend on where they were read.
//
// data_problems name where the lines of a duplicate were read (file:line):
// when lines move, so do those locations, and only they may differ.
func TestReportDoesNotDependOnInputOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("scans a generated corpus eleven times")
	}
	var gen bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 600, RunawayRate: 0.3, Seed: 42}, &gen, nil); err != nil {
		t.Fatal(err)
	}
	clean := strings.SplitAfter(strings.TrimSuffix(gen.String(), "\n")+"\n", "\n")
	clean = clean[:len(clean)-1] // after the last "\n"
	mixed := withDuplicates(clean, rand.New(rand.NewPCG(7, 7)))

	// Writes lines as three files, a third each, in a new directory.
	write := func(lines []string) []string {
		dir := t.TempDir()
		var paths []string
		third := (len(lines) + 2) / 3
		for i, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
			lo, hi := min(i*third, len(lines)), min((i+1)*third, len(lines))
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(strings.Join(lines[lo:hi], "")), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, path)
		}
		return paths
	}
	shuffled := func(lines []string, seed uint64) []string {
		out := append([]string(nil), lines...)
		rand.New(rand.NewPCG(seed, seed)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	reversed := func(paths []string) []string {
		return []string{paths[2], paths[1], paths[0]}
	}

	for _, corpus := range []struct {
		name  string
		lines []string
	}{{"generated", clean}, {"with duplicates", mixed}} {
		t.Run(corpus.name, func(t *testing.T) {
			inOrder := write(corpus.lines)
			want, _ := scanReports(t, inOrder, true, 0)
			if !bytes.Contains(want["ndjson"], []byte(`"keys":["`)) {
				t.Fatal("no evidence key in the report")
			}
			if corpus.name == "with duplicates" && !bytes.Contains(want["ndjson"], []byte(`"conflicting_steps"`)) {
				t.Fatal("the corpus has no conflicting steps")
			}
			got, _ := scanReports(t, reversed(inOrder), true, 0)
			sameReports(t, "files reversed", want, got, false)
			paths := write(shuffled(corpus.lines, 1))
			got, _ = scanReports(t, paths, true, 0)
			sameReports(t, "lines shuffled", want, got, true)
			got, _ = scanReports(t, reversed(paths), false, 0)
			sameReports(t, "lines shuffled, files reversed", want, got, true)
			if corpus.name == "generated" {
				// A small budget: the scan analyzes the runs that look
				// finished while it reads. With the files reversed, the runs
				// that cross from one file to the next log again after that
				// and are read again: the report is the same but for the
				// json summary's count of them (docs/output.md).
				got, _ := scanReports(t, reversed(inOrder), true, 128<<10)
				if !bytes.Contains(got["json"], []byte(`"runs_read_again": 0,`)) {
					got["json"] = readAgain.ReplaceAll(got["json"], []byte(`"runs_read_again": 0,`))
				} else {
					t.Error("no run was read again: the case is not exercised")
				}
				sameReports(t, "files reversed, idle runs closed", want, got, false)
				return
			}
			for _, seed := range []uint64{2, 3} {
				got, _ := scanReports(t, write(shuffled(corpus.lines, seed)), false, 0)
				sameReports(t, fmt.Sprintf("lines shuffled (seed %d)", seed), want, got, true)
			}
			// Every run is going on at once in the shuffled input: with a
			// small budget the scan spills it to partitions.
			got, spilled := scanReports(t, paths, false, 256<<10)
			if !spilled {
				t.Error("the scan did not spill")
			}
			sameReports(t, "lines shuffled, spilled", want, got, true)
		})
	}
}

// readAgain is the json summary's count of runs read again.
var readAgain = regexp.MustCompile(`"runs_read_again": [0-9]+,`)

// withDuplicates adds, for one run in 25, an exact copy of one of its lines
// and a line that conflicts with another (same run, step and ts; another
// token count and an unknown field), each at a random place.
func withDuplicates(lines []string, r *rand.Rand) []string {
	out := append([]string(nil), lines...)
	seen := map[string]bool{}
	var extra []string
	for _, l := range lines {
		id := lineRunID(l)
		if seen[id] {
			continue
		}
		seen[id] = true
		if len(seen)%25 != 0 {
			continue
		}
		var own []string
		for _, m := range lines {
			if lineRunID(m) == id {
				own = append(own, m)
			}
		}
		extra = append(extra, own[r.IntN(len(own))])
		c := own[r.IntN(len(own))]
		c = strings.Replace(c, `{`, `{"shipped_by":"retry",`, 1)
		c = strings.Replace(c, `"prompt_tokens":`, `"prompt_tokens":7`, 1)
		extra = append(extra, c)
	}
	for _, l := range extra {
		at := r.IntN(len(out) + 1)
		out = append(out[:at], append([]string{l}, out[at:]...)...)
	}
	return out
}

// scanReports scans paths and returns its reports, and whether it
// spilled: ndjson on stdout, json and parquet as --output files, and with
// all table and html (which reads the input again for its timelines). prom
// holds the scan's duration and is left out. budget > 0 is the collector's
// (spill.Options.MaxBytes), to make the scan close idle runs and spill.
func scanReports(t *testing.T, paths []string, all bool, budget int64) (map[string][]byte, bool) {
	t.Helper()
	dir := t.TempDir()
	cfg := scanConfig(paths...)
	cfg.Format, cfg.Workers = "ndjson", 2
	formats := []string{"json", "parquet"}
	if all {
		formats = append(formats, "table", "html")
	}
	for _, f := range formats {
		cfg.Outputs = append(cfg.Outputs, f+"="+filepath.Join(dir, "report."+f))
	}
	var store *spill.Store
	newJobStore = func(opts spill.Options) (*spill.Store, error) {
		if budget > 0 {
			opts.MaxBytes = budget
		}
		var err error
		store, err = spill.New(opts)
		return store, err
	}
	defer func() { newJobStore = nil }()
	code, stdout, stderr := runScan(t, "", cfg)
	if code != ExitClean {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	spilled, _ := store.Spilled()
	if spilled && budget == 0 {
		t.Fatal("the scan spilled at the default budget")
	}
	out := map[string][]byte{"ndjson": []byte(stdout)}
	for _, f := range formats {
		b, err := os.ReadFile(filepath.Join(dir, "report."+f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	// Where lines were read, for data_problems, without the directory.
	for f, b := range out {
		if f != "parquet" {
			out[f] = bytes.ReplaceAll(b, []byte(filepath.Dir(paths[0])+string(filepath.Separator)), []byte("DIR/"))
		}
	}
	return out, spilled
}

// where is a location in data_problems.
var where = regexp.MustCompile(`DIR/[abc]\.jsonl:[0-9]+`)

// same compares the reports of a scan with the wanted ones; moved, the
// lines were moved, so data_problems' locations are left out (and the
// Parquet file, which holds them, is not compared when there are any).
func sameReports(t *testing.T, name string, want, got map[string][]byte, moved bool) {
	t.Helper()
	for f, g := range got {
		w := want[f]
		if moved {
			if f == "parquet" && bytes.Contains(want["ndjson"], []byte(`"data_problems"`)) {
				continue
			}
			w, g = where.ReplaceAll(w, []byte("FILE:LINE")), where.ReplaceAll(g, []byte("FILE:LINE"))
		}
		if !bytes.Equal(w, g) {
			t.Errorf("%s: the %s report differs: %s", name, f, firstDifference(w, g))
		}
	}
}

// firstDifference shows where two reports first differ.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-150, 0)
	return fmt.Sprintf("at byte %d:\n  want ...%q\n  got  ...%q", i, a[lo:min(i+150, len(a))], b[lo:min(i+150, len(b))])
}
