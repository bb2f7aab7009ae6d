package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/runawayhq/runaway/synth"
)

// The binary and a large input, made once for the tests that signal a
// process of their own.
var (
	built    sync.Once
	builtDir string // removed by TestMain
	bigInput string
	builtErr error
)

// binaryAndInput is the built runaway and 150 MB of generated steps with
// three rejected lines near the top, written once.
func binaryAndInput(t *testing.T) (bin, input string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and generates 150 MB")
	}
	bin = runawayBinary(t)
	built.Do(func() {
		if builtDir, builtErr = os.MkdirTemp("", "runaway-cmd-test-"); builtErr != nil {
			return
		}
		bigInput = filepath.Join(builtDir, "in.jsonl")
		f, err := os.Create(bigInput)
		if builtErr = err; err != nil {
			return
		}
		defer f.Close()
		f.WriteString("not json\n{\"run_id\":\"x\"}\n[1]\n")
		_, builtErr = synth.Generate(synth.Config{TargetBytes: 150 << 20, Seed: 3, Interleave: 64}, f, nil)
	})
	if builtErr != nil {
		t.Fatalf("writing the input: %v", builtErr)
	}
	return bin, bigInput
}

// A signal in the middle of a scan that has temporary files: exit 3 with a
// message saying how far it got, no report, no rejects file, and no
// temporary file left behind, whether the signal is SIGINT, SIGTERM, SIGHUP
// (a closed terminal) or SIGQUIT, which also prints every goroutine's stack
// first (what SIGQUIT is for: a hung process). It runs the real binary,
// because the signal must reach a process of its own.
func TestSignalsLeaveNothingBehind(t *testing.T) {
	bin, input := binaryAndInput(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "scan", "--max-memory", "64MiB", "--format", "ndjson", "--out", filepath.Join(out, "report.ndjson"),
				"--output", "json="+filepath.Join(out, "report.json"), "--rejects", filepath.Join(out, "rejects.jsonl"), input, input, input)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOMAXPROCS=2")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signal once the scan has temporary files: spilled steps, or
			// the results of runs it analyzed early.
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
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			code := -1
			if exit, ok := err.(*exec.ExitError); ok {
				code = exit.ExitCode()
			} else if err == nil {
				code = 0
			}
			msg := stderr.String()
			if code != exitFailure || !strings.Contains(msg, "interrupted") || !strings.Contains(msg, "no report written") {
				t.Fatalf("exit %d, stderr %q; want exit %d saying how far it got", code, tail(msg), exitFailure)
			}
			if stacks := strings.Contains(msg, "goroutine "); stacks != (sig == syscall.SIGQUIT) {
				t.Errorf("goroutine stacks on stderr: %v; want them only after SIGQUIT", stacks)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("temporary files left behind: %v", names(left))
			}
			if left, _ := os.ReadDir(out); len(left) != 0 { // no report, no rejects, no temporary file
				t.Errorf("files in the output directory: %v", names(left))
			}
		})
	}
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

// A process killed with SIGKILL cannot clean up: the next scan removes the
// spill directories of dead processes (their pid is in the name), once they
// are a minute old, and leaves those of live processes, and fresh ones.
func TestScanRemovesStaleSpillDirectories(t *testing.T) {
	tmp := t.TempDir()
	dead := deadPID(t)
	mk := func(name string, age time.Duration) string {
		d := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(d, "part-000"), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "part-000", "seg"), []byte("x"), 0o600)
		old := time.Now().Add(-age)
		for _, p := range []string{filepath.Join(d, "part-000", "seg"), filepath.Join(d, "part-000"), d} {
			os.Chtimes(p, old, old)
		}
		return d
	}
	stale := mk(fmt.Sprintf("runaway-spill-%d-123456", dead), 2*time.Minute)
	staleSpool := filepath.Join(tmp, fmt.Sprintf("runaway-json-%d-99.spool", dead))
	os.WriteFile(staleSpool, []byte("x"), 0o600)
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(staleSpool, old, old)
	fresh := mk(fmt.Sprintf("runaway-spill-%d-654321", dead), 0)
	live := mk(fmt.Sprintf("runaway-spill-%d-777", os.Getppid()), 2*time.Minute)
	other := mk("runaway-spill-notapid", 2*time.Minute)

	if code, _, stderr := runCLI(t, "", "scan", "--spill-dir", tmp, fixturesDir); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{stale, staleSpool} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s of a dead process is still there (%v)", filepath.Base(p), err)
		}
	}
	for _, p := range []string{fresh, live, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

// gen writes large files too: interrupted, it leaves neither them nor
// their temporary files.
func TestGenInterruptedWritesNothing(t *testing.T) {
	bin, _ := binaryAndInput(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "gen", "--size", "4GB", "--out", filepath.Join(dir, "corpus.jsonl"), "--labels", filepath.Join(dir, "labels.jsonl"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if tmps, _ := filepath.Glob(filepath.Join(dir, ".corpus.jsonl.tmp-*")); len(tmps) > 0 {
			if st, err := os.Stat(tmps[0]); err == nil && st.Size() > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("gen never wrote; stderr: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("%v, stderr %q; want exit 3 saying it was interrupted", err, stderr.String())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left behind: %v", names(left))
	}
}

// A scan blocked where a signal cannot reach it (here: reading stdin, a
// pipe whose writer stays idle) ends at the second signal, exit 3.
func TestSecondSignalEndsABlockedScan(t *testing.T) {
	bin, _ := binaryAndInput(t)
	cmd := exec.Command(bin, "scan", "--format", "ndjson", "-")
	stdin, err := cmd.StdinPipe() // held open, never written: the read waits
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		// The read was interruptible after all: fine, if it says so.
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != exitFailure {
			t.Fatalf("after one signal: %v, stderr %q", err, stderr.String())
		}
		return
	case <-time.After(time.Second):
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		exit, ok := err.(*exec.ExitError)
		if !ok || exit.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "second signal") {
			t.Fatalf("after a second signal: %v, stderr %q", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("a second signal did not end the scan")
	}
}
