package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe in a test directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return path
}

// scanUntilCancelled runs a scan of path, cancels it after a moment, and
// fails the test unless the scan then ends, interrupted, at once.
func scanUntilCancelled(t *testing.T, path string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cfg := scanConfig(path)
		cfg.Format = "ndjson"
		var out, errb bytes.Buffer
		_, err := Scan(ctx, cfg, strings.NewReader(""), &out, &errb)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		var interrupted *InterruptedError
		if !errors.As(err, &interrupted) {
			t.Errorf("a cancelled scan ended with %v, want interrupted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the scan still waits on the pipe 10 s after it was cancelled")
	}
}

// A FIFO nobody writes to: opening it waits for a writer forever; a signal
// (the cancelled context) must still end the scan.
func TestScanOfAFIFOWithoutWriterIsInterruptible(t *testing.T) {
	scanUntilCancelled(t, mkfifo(t))
}

// A FIFO whose writer stalls mid-line: the read waits; a signal must end it.
func TestScanOfAStalledFIFOIsInterruptible(t *testing.T) {
	path := mkfifo(t)
	// O_RDWR opens a FIFO without waiting for the other end (Linux).
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString(`{"run_id":"r","step":0,"state":"ACT","tool_call":{"name":"sea`); err != nil {
		t.Fatal(err)
	}
	scanUntilCancelled(t, path)
}

// The html overview reads the input again for its timelines: from a FIFO
// (or stdin) that is the copy kept as it was first read, so the page has
// the timelines a regular file gives, and the scan does not wait on a pipe
// whose writer is gone.
func TestScanHTMLOfAFIFOHasItsTimelines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	htmlOf := func(path, stdin string) string {
		cfg := scanConfig(path)
		cfg.Format, cfg.FailOn = "html", "never"
		cfg.SpillDir = t.TempDir()
		code, page, stderr := runScan(t, stdin, cfg)
		if code != ExitClean {
			t.Fatalf("scan %s: exit %d: %s", path, code, stderr)
		}
		if left, _ := os.ReadDir(cfg.SpillDir); len(left) != 0 {
			t.Errorf("scan %s left %d temporary files", path, len(left))
		}
		return page
	}
	const timeline = `<svg class="timeline"`
	want := htmlOf(file, "")
	if strings.Count(want, timeline) == 0 {
		t.Fatal("the page of the regular file has no timeline: the test would show nothing")
	}
	fifo := mkfifo(t)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(data)
		w.Close()
	}()
	done := make(chan string, 1)
	go func() { done <- htmlOf(fifo, "") }()
	select {
	case page := <-done:
		if got := strings.Count(page, timeline); got != strings.Count(want, timeline) {
			t.Errorf("a FIFO's page has %d timelines, a file's %d", got, strings.Count(want, timeline))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the html scan of a FIFO waits on it a second time")
	}
	if got := strings.Count(htmlOf("-", string(data)), timeline); got != strings.Count(want, timeline) {
		t.Errorf("stdin's page has %d timelines, a file's %d", got, strings.Count(want, timeline))
	}
}
