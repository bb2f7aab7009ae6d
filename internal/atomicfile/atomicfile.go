// Package atomicfile writes a file so that readers see either its old content
// or its complete new content, never a partial write: the bytes go to a
// temporary file in the same directory, which is fsynced and renamed over the
// target only on Commit.
//
// A report that fails half-way (disk full, a killed nightly job) must not
// leave a truncated JSON document where the previous night's good one was,
// because downstream jobs would read it as valid-but-short.
//
// The target is replaced, not written through: if it is a symbolic link, the
// link is replaced by a regular file. Targets that exist and are not regular
// files (devices, pipes, directories) are refused, since replacing
// /dev/stdout or a FIFO by a file is never what the caller meant.
//
// It must not import pipeline or cmd: they call it.
package atomicfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/runawayhq/runaway/internal/tmpfiles"
)

// File is a pending replacement of a file. Write to it, then Commit to
// publish, or Abort to discard. The usual shape is
//
//	f, err := atomicfile.Create(path)
//	if err != nil { return err }
//	defer f.Abort() // no-op after a successful Commit
//	... write to f ...
//	return f.Commit()
type File struct {
	path string   // the target
	tmp  *os.File // nil once committed or aborted
	buf  *bufio.Writer
	err  error // first write error; Commit reports it
	// prepared is the closed temporary file CommitAll renames next.
	prepared string
}

// Create starts a replacement of path. The temporary file is created next to
// path (rename is atomic only within one file system), named
// ".<base>.tmp-<pid>-<random>" so that it is hidden and recognisable if a
// crash leaves it behind, and so that Create removes those that processes
// killed before they could (SIGKILL) left for the same path, once they are
// a minute old (tmpfiles.RemoveStale).
//
// The new file gets the mode of the file it replaces, or 0666 minus the umask
// for a new file, as os.Create would give.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("atomicfile: empty path")
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	perm, replacing := fs.FileMode(0o666), false
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("cannot write %s: not a regular file (%s)", path, info.Mode().Type())
		}
		perm, replacing = info.Mode().Perm(), true
	}
	removeStaleTemps(dir, base)
	tmp, err := createTemp(dir, tmpfiles.Prefix("."+base+".tmp-"), perm)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	// The kernel applied the umask at creation; an existing target's mode
	// must be copied exactly, umask or not.
	if replacing {
		if err := tmp.Chmod(perm); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return nil, fmt.Errorf("cannot write %s: %w", path, err)
		}
	}
	return &File{path: path, tmp: tmp, buf: bufio.NewWriterSize(tmp, 64<<10)}, nil
}

// staleTemps are the temporary files of other processes found in each
// directory written to, by the target's base name: a directory is listed
// once per process, not at every Create (fixture writes thousands of files
// into one).
var staleTemps struct {
	sync.Mutex
	dirs map[string]map[string][]ownedTemp
}

type ownedTemp struct {
	name string
	pid  int
}

// removeStaleTemps removes the temporary files that processes which no
// longer exist left for dir/base (tmpfiles.Stale): killed ones, which could
// not remove them.
func removeStaleTemps(dir, base string) {
	staleTemps.Lock()
	defer staleTemps.Unlock()
	key := filepath.Clean(dir)
	byBase, ok := staleTemps.dirs[key]
	if !ok {
		byBase = listTemps(dir)
		if staleTemps.dirs == nil {
			staleTemps.dirs = map[string]map[string][]ownedTemp{}
		}
		staleTemps.dirs[key] = byBase
	}
	for _, t := range byBase[base] {
		if p := filepath.Join(dir, t.name); tmpfiles.Stale(p, t.pid) {
			os.Remove(p)
		}
	}
	delete(byBase, base)
}

// listTemps finds the temporary files of other processes in dir, by the
// base name of their target.
func listTemps(dir string) map[string][]ownedTemp {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var byBase map[string][]ownedTemp
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndex(name, ".tmp-")
		if !strings.HasPrefix(name, ".") || i < 1 || !e.Type().IsRegular() {
			continue
		}
		base := name[1:i]
		if pid, ok := tmpfiles.Owner(name, "."+base+".tmp-"); ok && pid != os.Getpid() {
			if byBase == nil {
				byBase = map[string][]ownedTemp{}
			}
			byBase[base] = append(byBase[base], ownedTemp{name, pid})
		}
	}
	return byBase
}

// createTemp is os.CreateTemp with a chosen permission: os.CreateTemp always
// uses 0600, which would make every report unreadable to the rest of the team.
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	var random [8]byte
	for range 100 {
		rand.Read(random[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(random[:]))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no unused temporary name in %s", dir)
}

// Path is the file that Commit replaces.
func (f *File) Path() string { return f.path }

// Write buffers p for the new content. After the first error every later
// Write returns it too, and Commit refuses to publish.
func (f *File) Write(p []byte) (int, error) {
	if f.tmp == nil {
		return 0, fmt.Errorf("write %s: %w", f.path, os.ErrClosed)
	}
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.buf.Write(p)
	if err != nil {
		f.err = fmt.Errorf("write %s: %w", f.path, err)
	}
	return n, f.err
}

// Commit publishes the new content: flush, fsync, close, rename over the
// target, then fsync the directory so the rename itself survives a crash
// (best effort: not every platform can sync a directory). On any failure the
// target keeps its old content and the temporary file is removed.
func (f *File) Commit() error {
	// Without the fsync in prepare, a crash soon after the rename can leave
	// the new name pointing at an empty file on some file systems (ext4
	// delalloc).
	if err := f.prepare(); err != nil {
		return err
	}
	if err := f.rename(); err != nil {
		return err
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// CommitAll publishes files that belong together (a file and its index):
// every one is written and synced before the first is renamed, so that a
// failure to write any leaves every target as it was. The renames follow,
// in order; if one fails, the targets already renamed are removed, so that
// no new file is left beside an old one it does not match, and the rest
// are discarded. Only a crash between two renames can leave some renamed
// and not the others: put first what is useless without the rest.
func CommitAll(files ...*File) error {
	var err error
	for _, f := range files {
		if err == nil {
			err = f.prepare()
		}
	}
	if err != nil {
		for _, f := range files {
			f.Abort()
		}
		return err
	}
	for i, f := range files {
		if err := f.rename(); err != nil {
			for _, done := range files[:i] {
				os.Remove(done.path)
			}
			for _, rest := range files[i+1:] {
				rest.Abort()
			}
			return err
		}
	}
	syncDir(filepath.Dir(files[0].path))
	return nil
}

// prepare flushes, syncs and closes the temporary file, ready to rename;
// on failure it is removed.
func (f *File) prepare() error {
	if f.tmp == nil {
		return fmt.Errorf("commit %s: %w", f.path, os.ErrClosed)
	}
	fail := func(err error) error {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
		f.tmp = nil
		return err
	}
	if f.err != nil {
		return fail(f.err)
	}
	if err := f.buf.Flush(); err != nil {
		return fail(fmt.Errorf("write %s: %w", f.path, err))
	}
	if err := f.tmp.Sync(); err != nil {
		return fail(fmt.Errorf("write %s: %w", f.path, err))
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(f.tmp.Name())
		f.tmp = nil
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	f.prepared = f.tmp.Name()
	f.tmp = nil
	return nil
}

// rename moves a prepared temporary file over the target.
func (f *File) rename() error {
	name := f.prepared
	f.prepared = ""
	if err := os.Rename(name, f.path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Abort discards the new content and removes the temporary file. It is safe
// to call more than once and after Commit, where it does nothing, so it can be
// deferred right after Create.
func (f *File) Abort() {
	if f.prepared != "" {
		os.Remove(f.prepared)
		f.prepared = ""
	}
	if f.tmp == nil {
		return
	}
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	f.tmp = nil
}

func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
