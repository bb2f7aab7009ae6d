// Package tmpfiles names the temporary files and directories runaway makes
// while it runs after the process that owns them, and removes those of
// processes that are gone.
//
// A process ended by SIGKILL (the OOM killer, a CronJob past its deadline)
// cannot remove its temporary files; a spill directory can hold gigabytes.
// Each name carries the owner's pid, "<prefix><pid>-<random>", so that the
// next run can tell them from those of a run still going on: RemoveStale
// removes an entry only when no process has that pid and nothing in it has
// changed for a while. A pid reused by another process keeps the entry
// (safe); a directory shared by processes of other pid namespaces (two
// containers mounting one volume) is not, since their pids mean nothing
// here: the age is the only guard there.
//
// It must not import pipeline or cmd: they call it.
package tmpfiles

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MinAge is how long an entry of a dead process must have been left
// unchanged before RemoveStale removes it.
const MinAge = time.Minute

// Prefix is the start of the names of this process's entries of one kind:
// base, the pid, a dash; a random part follows (os.MkdirTemp,
// os.CreateTemp).
func Prefix(base string) string {
	return base + strconv.Itoa(os.Getpid()) + "-"
}

// Owner is the pid in name, made by Prefix(base), if it has one.
func Owner(name, base string) (int, bool) {
	rest, ok := strings.CutPrefix(name, base)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	// A pid is a positive C int: anything else, kill(2) would read as a
	// process group or wrap around.
	pid, err := strconv.ParseInt(digits, 10, 32)
	if err != nil || pid <= 0 || strconv.FormatInt(pid, 10) != digits {
		return 0, false
	}
	return int(pid), true
}

// RemoveStale removes the entries of dir ("" is os.TempDir()) whose names
// Prefix(base) made in a process that no longer exists, and that have not
// changed for MinAge (an entry that is a directory: nothing in it). It
// returns the paths removed, in dir's order; an entry it cannot remove is
// left for the next time.
func RemoveStale(dir, base string) []string {
	return removeStale(dir, base, time.Now())
}

func removeStale(dir, base string, now time.Time) []string {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ok := Owner(e.Name(), base)
		if !ok {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if stale(path, pid, now) && os.RemoveAll(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed
}

// Stale reports whether the entry at path, named by Prefix in process pid,
// is left over: no process has the pid, and nothing in it has changed for
// MinAge.
func Stale(path string, pid int) bool { return stale(path, pid, time.Now()) }

func stale(path string, pid int, now time.Time) bool {
	if pid == os.Getpid() || alive(pid) {
		return false
	}
	newest, ok := lastChange(path)
	return ok && now.Sub(newest) >= MinAge
}

// lastChange is the newest modification time of path and, for a
// directory, of everything below it.
func lastChange(path string) (time.Time, bool) {
	var newest time.Time
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p != path {
				return nil // removed meanwhile: its owner is alive after all, or cleaning up
			}
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.ModTime().After(newest) {
			newest = info.ModTime()
		}
		return nil
	})
	return newest, err == nil
}
