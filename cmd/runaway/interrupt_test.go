package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runawayhq/runaway/synth"
)

// SIGINT in the middle of a scan that has temporary files: exit 3 with a message saying how
// far it got, no report file, and no spill file left behind. It runs the
// real binary, because the signal must reach a process of its own.
func TestInterruptLeavesNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and generates 150 MB")
	}
	bin := runawayBinary(t)
	dir := t.TempDir()
	input := filepath.Join(dir, "in.jsonl")
	f, err := os.Create(input)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := synth.Generate(synth.Config{TargetBytes: 150 << 20, Seed: 3, Interleave: 64}, f, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.ndjson")
	cmd := exec.Command(bin, "scan", "--max-memory", "64MiB", "--format", "ndjson", "--out", report, input, input, input)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOMAXPROCS=2")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the scan has temporary files: spilled steps, or the
	// results of runs it analyzed early.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if spilled, _ := filepath.Glob(filepath.Join(tmp, "runaway-spill-*", "*")); len(spilled) > 0 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the scan never wrote a temporary file; stderr: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	code := -1
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err == nil {
		code = 0
	}
	if code != exitFailure || !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "no report written") {
		t.Fatalf("exit %d, stderr %q; want exit %d saying how far it got", code, stderr.String(), exitFailure)
	}
	if _, err := os.Stat(report); !os.IsNotExist(err) {
		t.Fatalf("a report was written: %v", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("spill files left behind: %v", left)
	}
	if left, _ := os.ReadDir(dir); len(left) != 2 { // in.jsonl, tmp: no report, no temporary file
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Fatalf("files in the output directory: %v", names)
	}
}
