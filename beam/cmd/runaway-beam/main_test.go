package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The test binary is also the command: run with RUNAWAY_BEAM_MAIN set, it
// is runaway-beam, so the tests run the real command line, exit codes
// included, without building it apart.
func TestMain(m *testing.M) {
	if os.Getenv("RUNAWAY_BEAM_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runCommand(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RUNAWAY_BEAM_MAIN=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// As documented: prism over a directory writes every output and says
// what it found.
func TestPrismJob(t *testing.T) {
	out := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	_, stderr, code := runCommand(t, "--runner=prism", "--input", "../../../fixtures", "--output", out, "--parquet")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// A job leaves nothing in the temporary directory.
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the job left %d entries in TMPDIR, the first %s", len(left), left[0].Name())
	}
	for _, name := range []string{"runs.ndjson", "runs.parquet", "summary.json", "runaway.prom", "rejects.ndjson", "sources.ndjson"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The job finds the runs runaway scan finds in the same fixtures: its
	// reviewed golden output has a line per run.
	golden, err := os.ReadFile("../../../cmd/runaway/testdata/scan-fixtures.ndjson.golden")
	if err != nil {
		t.Fatal(err)
	}
	runs := bytes.Count(golden, []byte("\n"))
	if want := fmt.Sprintf("runaway-beam: %d runs: ", runs); runs == 0 || !strings.Contains(stderr, want) {
		t.Errorf("no summary line %q on stderr:\n%s", want, stderr)
	}
}

// An input that gives no run is a failed job (exit 3), not an empty
// success; a bad flag value is a usage error (exit 2).
func TestNothingAnalysedAndUsage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.jsonl"), []byte("{oops\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCommand(t, "--runner=prism", "--input", dir, "--output", t.TempDir())
	if code != 3 || !strings.Contains(stderr, "no run analysed") {
		t.Errorf("all lines rejected: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"--input", dir},
		{"--input", dir, "--output", t.TempDir(), "--shards", "0"},
		{"--input", dir, "--output", t.TempDir(), "--repeat-runaway", "many"},
	} {
		if _, stderr, code := runCommand(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}

// On Dataflow, --dry_run translates the job without submitting it: the
// pipeline's stages reach the job description the service would get.
func TestDataflowDryRun(t *testing.T) {
	_, stderr, code := runCommand(t, "--runner=dataflow", "--dry_run", "--project=demo", "--region=us-central1",
		"--staging_location=gs://demo-bucket/staging", "--input", "../../../fixtures/healthy", "--output", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%.2000s", code, stderr)
	}
	for _, stage := range []string{"scanbeam.readFn", "scanbeam.analyseFn", "scanbeam.writeShardFn", "scanbeam.writeSummaryFn", `"projectId\": \"demo\"`} {
		if !strings.Contains(stderr, stage) {
			t.Errorf("the dry run's job has no %s", stage)
		}
	}
}
