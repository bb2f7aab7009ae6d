package ingest

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// A walk or a listing passes over hidden files and directories (a leading
// '.'), as tools do: .git, .venv and caches hold no logs anyone means to
// scan. But logs are kept in hidden directories too (an evaluation harness's
// .eval_sessions/), and passing over those without a word would lose runs
// silently. So a hidden directory is looked into, unless it is one of the
// tools' own, and one that holds files the walk would read is told to
// Filter.Skipped with how many, as are hidden files and objects the walk
// would read: named, they are read.

// agentHistory reports whether a file is named as Aider names the chat
// history it keeps in the repository it works on (.aider.chat.history.md,
// or a name ending so): a hidden file, but the log itself, so a walk or a
// listing reads it (isLogName), whatever else is hidden around it.
func agentHistory(name string) bool {
	name = strings.ToLower(name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		name = strings.TrimSuffix(name, ext)
	}
	return strings.HasSuffix(name, "aider.chat.history.md")
}

// toolDirs are hidden directories that tools keep their own state in:
// passed over without a look, however large.
var toolDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".jj": true,
	".venv": true, ".tox": true, ".nox": true, ".direnv": true,
	".cache": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".ipynb_checkpoints": true,
	".idea": true, ".vscode": true, ".github": true, ".gradle": true, ".terraform": true, ".next": true,
	// Package managers' stores, large in a home directory.
	".npm": true, ".cargo": true, ".rustup": true, ".m2": true, ".gem": true, ".conda": true, ".pyenv": true, ".nvm": true, ".Trash": true,
}

// maxHiddenLook bounds the entries looked at in one hidden directory: a
// large tree of someone else's is counted up to there ("at least").
const maxHiddenLook = 100_000

// hiddenFileWhy is why a hidden file with a log's name was passed over.
const hiddenFileWhy = "a hidden file (a leading '.'); name it to read it"

// hiddenDirWhy is why a hidden directory holding files runaway reads was
// passed over: how many (atLeast: the look stopped at maxHiddenLook), and
// how to read them.
func hiddenDirWhy(files int, atLeast bool) string {
	more := ""
	if atLeast {
		more = " or more"
	}
	return fmt.Sprintf("a hidden directory (a leading '.') holding %d%s file(s) runaway reads; name it to read them", files, more)
}

// hiddenLogs counts the files below the hidden directory dir that a walk
// of it would read (the filter applied to their paths relative to root),
// looking at no more than maxHiddenLook entries; atLeast says it stopped
// there. Directories hidden inside it are not looked into.
func hiddenLogs(dir, root string, filter Filter) (files int, atLeast bool) {
	looked := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: what can be seen is counted
		}
		if looked++; looked > maxHiddenLook {
			atLeast = true
			return fs.SkipAll
		}
		if p == dir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && readsName(d.Name()) && filter.keep(relSlash(root, p)) {
			files++
		}
		return nil
	})
	return files, atLeast
}

// readsName reports whether a walk reads a file of this name: a log's, or
// a .log that may hold JSON.
func readsName(name string) bool {
	if isLogName(name) {
		return true
	}
	lower := strings.ToLower(name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		lower = strings.TrimSuffix(lower, ext)
	}
	return strings.HasSuffix(lower, ".log")
}

// hiddenReadable reports whether a hidden key below a listing's prefix
// (hiddenKey) would be read were it not hidden: its name is a log's, the
// filter keeps it, and none of its directories is a tool's.
func hiddenReadable(rel string, filter Filter) bool {
	if dir := path.Dir(rel); dir != "." {
		for elem := range strings.SplitSeq(dir, "/") {
			if toolDirs[elem] {
				return false
			}
		}
	}
	return readsName(path.Base(rel)) && filter.keep(rel)
}

// skipHiddenEntry tells Filter.Skipped of a hidden entry of a file://
// walk that holds logs: p is its path, root the walk's, name what messages
// call it.
func (e *expander) skipHiddenEntry(d fs.DirEntry, p, root, name string) {
	switch {
	case d.IsDir() && !toolDirs[d.Name()]:
		if n, atLeast := hiddenLogs(p, root, e.filter); n > 0 {
			e.skip(name, hiddenDirWhy(n, atLeast))
		}
	case !d.IsDir() && readsName(d.Name()) && e.filter.keep(relSlash(root, p)):
		e.skip(name, hiddenFileWhy)
	}
}

// walkRoot is the root of a walk whose directory dir lies at rel, a slash
// path ending in '/' ("" for the root itself), below it.
func walkRoot(dir, rel string) string {
	for range strings.Count(rel, "/") {
		dir = filepath.Dir(dir)
	}
	return dir
}
