package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// entries lists a directory's names, so tests can prove no temp file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCommitCreatesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, err := f.Write([]byte("hello ")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("world\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("target exists before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "hello world\n" {
		t.Fatalf("content = %q", got)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "report.json" {
		t.Fatalf("directory holds %q, want only report.json", got)
	}
	f.Abort() // after Commit: must not remove the committed file
	if got := readFile(t, path); got != "hello world\n" {
		t.Fatalf("Abort after Commit changed the file: %q", got)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("second Commit succeeded")
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("Write after Commit succeeded")
	}
}

func TestCommitReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.ndjson")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Fatalf("content = %q", got)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o640 {
		t.Fatalf("mode = %v, want the replaced file's 0640", info.Mode().Perm())
	}
}

func TestAbortLeavesNoTraceAndKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Repeat([]byte("x"), 200<<10)) // larger than the buffer: reaches the temp file
	f.Abort()
	f.Abort() // idempotent
	if got := readFile(t, path); got != "previous" {
		t.Fatalf("content = %q, want the previous content", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %q, want only report.json", got)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
}

func TestAbortWithoutPreviousFile(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "new.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	f.Abort()
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("directory holds %q, want nothing", got)
	}
}

func TestCreateFailsNamingPath(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"missing directory":     filepath.Join(dir, "no", "such", "report.json"),
		"parent is a file":      filepath.Join(notDir, "report.json"),
		"target is a directory": dir,
		"target is a device":    os.DevNull,
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Create(path)
			if err == nil {
				f.Abort()
				t.Fatal("Create succeeded")
			}
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %q does not name %s", err, path)
			}
		})
	}
	if _, err := Create(""); err == nil {
		t.Fatal("Create(\"\") succeeded")
	}
}

// Permission bits do not stop root, and the tests run as root in CI, so this
// case only runs for ordinary users.
func TestCreateFailsInReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "report.json")
	_, err := Create(path)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want an error naming %s", err, path)
	}
}

// The directory disappears between Create and Commit (a cleanup job, an
// unmounted volume): Commit must fail, not report success.
func TestCommitIntoRemovedDirectoryFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "report.json")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	f.Write([]byte("data"))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	err = f.Commit()
	if err == nil {
		t.Fatal("Commit succeeded into a removed directory")
	}
	if !strings.Contains(err.Error(), path) {
		t.Fatalf("error %q does not name %s", err, path)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("directory came back: %v", err)
	}
}

// A write that fails (here: the temp file closed under us, as a full disk or
// a dead NFS server would make it fail) poisons the File: Commit reports the
// error, the old content stays and the temp file goes.
func TestWriteErrorKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	f.tmp.Close()
	if _, err := f.Write(bytes.Repeat([]byte("x"), 1<<20)); err == nil {
		t.Fatal("Write to a closed file succeeded")
	}
	if _, err := f.Write([]byte("y")); err == nil {
		t.Fatal("Write after a failed Write succeeded")
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after a failed Write succeeded")
	}
	if got := readFile(t, path); got != "previous" {
		t.Fatalf("content = %q, want the previous content", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %q, want only report.json", got)
	}
}

// A failure only visible at flush time (small writes stay in the buffer)
// must also keep the old file.
func TestFlushErrorKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("small"))
	f.tmp.Close()
	if err := f.Commit(); err == nil {
		t.Fatal("Commit succeeded although the flush failed")
	}
	if got := readFile(t, path); got != "previous" {
		t.Fatalf("content = %q", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %q", got)
	}
}

// A reader polling the target while a large new version is written and
// committed sees the complete old version or the complete new one, nothing
// in between.
func TestReaderNeverSeesPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	oldContent := bytes.Repeat([]byte("old-line\n"), 10_000)
	if err := os.WriteFile(path, oldContent, 0o644); err != nil {
		t.Fatal(err)
	}
	newContent := bytes.Repeat([]byte("new-content-line\n"), 100_000)

	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			got, err := os.ReadFile(path)
			if err != nil {
				errs <- err
				return
			}
			switch {
			case bytes.Equal(got, oldContent), bytes.Equal(got, newContent):
			default:
				errs <- fmt.Errorf("reader saw a partial file of %d bytes", len(got))
				return
			}
		}
	}()

	for round := 0; round < 5; round++ {
		want := newContent
		if round%2 == 1 {
			want = oldContent
		}
		f, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		for chunk := range slices.Chunk(want, 4096) {
			if _, err := f.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if got := readFile(t, path); got != string(newContent) {
		t.Fatal("final content is not the last committed version")
	}
}

// Files committed together appear together, and a failure leaves no new
// one beside an old one it does not match.
func TestCommitAllIsBothOrNeither(t *testing.T) {
	dir := t.TempDir()
	data, index := filepath.Join(dir, "rejects"), filepath.Join(dir, "rejects.index")
	create := func(path, text string) *File {
		f, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(text))
		return f
	}
	if err := CommitAll(create(index, "i1"), create(data, "d1")); err != nil {
		t.Fatal(err)
	}
	if readFile(t, data) != "d1" || readFile(t, index) != "i1" {
		t.Fatal("first commit")
	}

	// A write that failed: neither target changes.
	broken := create(data, "d2")
	broken.err = errors.New("disk full")
	if err := CommitAll(create(index, "i2"), broken); err == nil {
		t.Fatal("a failed write committed")
	}
	if readFile(t, data) != "d1" || readFile(t, index) != "i1" {
		t.Fatal("a failed write changed a target")
	}

	// The second rename fails (its target became a directory that is not
	// empty): the first target, renamed already, is removed.
	second := create(data, "d3")
	first := create(index, "i3")
	os.Remove(data)
	os.MkdirAll(filepath.Join(data, "x"), 0o755)
	if err := CommitAll(first, second); err == nil {
		t.Fatal("a failed rename committed")
	}
	if _, err := os.Stat(index); !os.IsNotExist(err) {
		t.Fatalf("the index is left without its data: %v", err)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"rejects"}) {
		t.Fatalf("left behind: %v", got)
	}
}

// Temporary files carry their process's pid; the next Create of the same
// path removes those of processes that are gone (SIGKILL cannot be
// caught), once a minute old, and no other.
func TestCreateRemovesStaleTemporariesOfThePath(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead, live := cmd.Process.Pid, os.Getppid()
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Minute)
	mk := func(name string, stale bool) {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("half a report"), 0o644)
		if stale {
			os.Chtimes(p, old, old)
		}
	}
	mk(fmt.Sprintf(".out.json.tmp-%d-0123abcd", dead), true)
	keep := []string{
		fmt.Sprintf(".out.json.tmp-%d-fresh", dead), // may be a run that is still starting
		fmt.Sprintf(".out.json.tmp-%d-live", live),  // its process runs
		fmt.Sprintf(".other.json.tmp-%d-x", dead),   // another path's: its own Create removes it
		".out.json.tmp-0123abcd",                    // no pid: not ours to judge
	}
	mk(keep[0], false)
	mk(keep[1], true)
	mk(keep[2], true)
	mk(keep[3], true)
	f, err := Create(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	if tmp := filepath.Base(f.tmp.Name()); !strings.HasPrefix(tmp, fmt.Sprintf(".out.json.tmp-%d-", os.Getpid())) {
		t.Errorf("temporary file %s does not name the process", tmp)
	}
	f.Write([]byte("{}"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(keep), "out.json")
	slices.Sort(want)
	if got := entries(t, dir); !slices.Equal(got, want) {
		t.Fatalf("entries %v, want %v", got, want)
	}
}
