package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/spill"
	"github.com/runawayhq/runaway/synth"
)

// replay, eval and fixture --all-flagged analyze every run of their input
// within --max-memory as a scan does: what does not fit spills, partitioned
// by run id. Their reports must not depend on whether it did.
func TestBoundedJobsGiveTheSameReportsWhenTheySpill(t *testing.T) {
	dir := t.TempDir()
	var steps, labels bytes.Buffer
	if _, err := synth.Generate(synth.Config{Runs: 500, RunawayRate: 0.3, Seed: 9, Interleave: 32}, &steps, &labels); err != nil {
		t.Fatal(err)
	}
	input, labelsFile := filepath.Join(dir, "runs.jsonl"), filepath.Join(dir, "labels.jsonl")
	for path, b := range map[string][]byte{input: steps.Bytes(), labelsFile: labels.Bytes()} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config := func() Config {
		c := DefaultConfig()
		c.Paths, c.Workers = []string{input}, 2
		return c
	}
	jobs := map[string]func(t *testing.T) string{
		"replay table": func(t *testing.T) string {
			var out, errb bytes.Buffer
			err := Replay(context.Background(), ReplayConfig{Config: config(), Format: "table", Examples: 3}, nil, &out, &errb)
			check(t, err, &errb)
			return out.String()
		},
		"replay json, labels": func(t *testing.T) string {
			var out, errb bytes.Buffer
			err := Replay(context.Background(), ReplayConfig{Config: config(), Format: "json", Labels: labelsFile}, nil, &out, &errb)
			check(t, err, &errb)
			return out.String()
		},
		"eval json": func(t *testing.T) string {
			var out, errb bytes.Buffer
			err := Eval(context.Background(), EvalConfig{Config: config(), Format: "json", Labels: labelsFile}, nil, &out, &errb)
			check(t, err, &errb)
			return out.String()
		},
		"fixture --all-flagged": func(t *testing.T) string {
			out := t.TempDir()
			var errb bytes.Buffer
			err := Fixture(context.Background(), FixtureConfig{Config: config(), AllFlagged: true, Out: out, MinimizeBudget: fixture.DefaultBudget}, nil, &errb)
			check(t, err, &errb)
			var listing strings.Builder
			filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(path)
					listing.WriteString(filepath.Base(path) + "\n" + string(b))
				}
				return err
			})
			return listing.String()
		},
	}
	for name, job := range jobs {
		t.Run(name, func(t *testing.T) {
			var stores []*spill.Store
			newJobStore = func(opts spill.Options) (*spill.Store, error) {
				opts.MaxBytes = 64 << 10
				s, err := spill.New(opts)
				stores = append(stores, s)
				return s, err
			}
			spilled := job(t)
			newJobStore = nil
			if len(stores) == 0 {
				t.Fatal("the job read through no store")
			}
			if ok, _ := stores[0].Spilled(); !ok {
				t.Fatal("the job did not spill at a 64 KiB budget: the test does not test it")
			}
			held := job(t)
			if len(held) < 1000 {
				t.Fatalf("report of %d bytes: %q", len(held), held)
			}
			if spilled != held {
				t.Errorf("the report changed when the job spilled:\n--- held\n%.2000s\n--- spilled\n%.2000s", held, spilled)
			}
		})
	}
}

// check fails the test on an error other than a finding.
func check(t *testing.T, err error, stderr *bytes.Buffer) {
	t.Helper()
	if err != nil && ExitCode(err) != ExitFindings {
		t.Fatalf("%v; stderr:\n%s", err, stderr)
	}
}
