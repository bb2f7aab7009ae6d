package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/creack/pty"

	"github.com/runawayhq/runaway/report"
)

// Without a terminal (a pipe, a file, a CI log) nothing but messages reaches
// stderr: no bar, no carriage returns.
func TestNoProgressBarWithoutATerminal(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"scan", "../../fixtures/"}, strings.NewReader(""), &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.ContainsAny(stderr.String(), "\r\x1b") {
		t.Fatalf("stderr has control characters: %q", stderr.String())
	}
	if isTerminal(&stderr) {
		t.Fatal("a buffer is not a terminal")
	}
}

// buildRunaway builds the binary once for the tests that need a process of
// its own (a terminal, a signal), into binDir, which TestMain removes.
var (
	binDir       string
	buildRunaway = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "runaway-bin-")
		if err != nil {
			return "", err
		}
		binDir = dir
		bin := filepath.Join(dir, "runaway")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			return "", errors.New(string(out))
		}
		return bin, nil
	})
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{binDir, builtDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

func runawayBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin, err := buildRunaway()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

// runOnPTY runs the binary with stderr on a pseudo-terminal and returns
// what the terminal received; stdin is the file in, if any.
func runOnPTY(t *testing.T, bin string, env []string, in string, args ...string) (stderr string, code int) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	if err := pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = io.Discard
	cmd.Stderr = slave
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close() // the child has it; the read below ends when the child does
	var out bytes.Buffer
	readDone := make(chan struct{})
	go func() {
		io.Copy(&out, master) // ends with EIO once the child closed the terminal
		close(readDone)
	}()
	err = cmd.Wait()
	<-readDone
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), code
}

// lastFrame is the last frame the bar drew on the terminal.
func lastFrame(out string) string {
	out = strings.ReplaceAll(out, "\r\n", "\n") // the terminal's newline
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "\r") {
			frames := strings.Split(lines[i], "\r")
			return strings.TrimSuffix(frames[len(frames)-1], "\x1b[K")
		}
	}
	return ""
}

var stepRate = regexp.MustCompile(`, [0-9,]+ steps \([0-9,]+ steps/s\)`)

// The bar tells the truth on a real terminal: on a generated 20 MB corpus
// its last frame says 100% of the file's size in bytes, the steps and
// steps a second, and the runs; read from stdin, whose size is unknown, it
// says the bytes read without a percentage. With TERM=dumb, or stderr not
// a terminal, there is no bar at all.
func TestProgressBarOnATerminal(t *testing.T) {
	bin := runawayBinary(t)
	corpus := filepath.Join(t.TempDir(), "corpus.jsonl")
	if out, err := exec.Command(bin, "gen", "--size", "20MB", "--out", corpus).CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	st, err := os.Stat(corpus)
	if err != nil {
		t.Fatal(err)
	}
	size := report.FormatCount(st.Size())
	env := []string{"TERM=xterm", "NO_COLOR="}

	out, code := runOnPTY(t, bin, env, "", "scan", corpus)
	frame := lastFrame(out)
	if code != exitClean || !strings.HasPrefix(frame, "read [####################] 100% of "+size+" bytes, ") ||
		!stepRate.MatchString(frame) || !regexp.MustCompile(`, [0-9,]+ runs, [0-9,]+ flagged$`).MatchString(frame) {
		t.Fatalf("exit %d; last frame %q, want 100%% of %s bytes, steps/s and runs; the terminal got:\n%q", code, frame, size, tail(out))
	}

	out, code = runOnPTY(t, bin, env, corpus, "scan", "-")
	frame = lastFrame(out)
	if code != exitClean || !strings.HasPrefix(frame, "read "+size+" bytes, ") || strings.Contains(frame, "%") || !stepRate.MatchString(frame) {
		t.Fatalf("stdin: exit %d; last frame %q, want %s bytes without a percentage", code, frame, size)
	}

	out, _ = runOnPTY(t, bin, []string{"TERM=dumb"}, "", "scan", corpus)
	if strings.ContainsAny(out, "\r\x1b") || strings.Contains(out, "steps/s") {
		t.Fatalf("TERM=dumb: the terminal got a bar: %q", tail(out))
	}

	cmd := exec.Command(bin, "scan", corpus)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Fatalf("stderr a pipe: %q", tail(stderr.String()))
	}
}
