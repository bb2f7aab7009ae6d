package ingest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Source is one input: a file, an object, or stdin.
type Source struct {
	Name string                        // as shown in messages: the path, or "<stdin>"
	Size int64                         // bytes on disk if known, else -1
	Open func() (io.ReadCloser, error) // raw (possibly compressed) bytes
}

// StdinName is the Name of the source read from standard input.
const StdinName = "<stdin>"

// ExpandPaths turns CLI arguments into sources, in a deterministic order:
//
//   - "-" is stdin, read once however often it is given.
//   - A directory is walked recursively in lexical order. It contributes the
//     files whose name, after stripping .gz, .zst or .zstd, ends in .jsonl,
//     .ndjson or .json (any case), except *.want.json (golden files live beside
//     fixtures). Hidden files and directories (leading '.') below it are
//     skipped, and symbolic links to directories are not followed. A
//     directory that cannot be listed becomes a source that fails to open, so
//     that Read reports it (or skips it with KeepGoing).
//   - A named file is always read, whatever its name (pipes and devices too:
//     `<(zcat a.gz)` works).
//   - An argument with glob metacharacters that is not an existing path is
//     expanded with filepath.Glob (no `**`); a pattern that matches nothing
//     is an error. Like a shell, `*` does not match a leading '.'.
//   - A path that does not exist is an error naming it.
//   - A path given twice, or found twice (same cleaned path), is read once, at
//     its first place.
func ExpandPaths(args []string, stdin io.Reader) ([]Source, error) {
	e := expander{seen: make(map[string]bool)}
	for _, arg := range args {
		if arg == "-" {
			e.addStdin(stdin)
			continue
		}
		if err := e.addArg(arg); err != nil {
			return nil, err
		}
	}
	return e.sources, nil
}

type expander struct {
	sources []Source
	seen    map[string]bool
}

func (e *expander) addStdin(stdin io.Reader) {
	if e.seen["-"] {
		return
	}
	e.seen["-"] = true
	opened := false
	e.sources = append(e.sources, Source{
		Name: StdinName,
		Size: -1,
		Open: func() (io.ReadCloser, error) {
			// A stream can be read once; a second Read of the same sources must not see an empty stdin as a valid empty input.
			if opened {
				return nil, errors.New("standard input was already read")
			}
			opened = true
			return io.NopCloser(stdin), nil
		},
	})
}

func (e *expander) addArg(arg string) error {
	info, err := os.Stat(arg)
	if err == nil {
		return e.addPath(arg, info)
	}
	if !errors.Is(err, fs.ErrNotExist) || !hasGlobMeta(arg) {
		return namedPathError(arg, err)
	}
	matches, gerr := filepath.Glob(arg)
	if gerr != nil {
		return fmt.Errorf("%s: %w", arg, gerr)
	}
	hiddenOK := strings.HasPrefix(filepath.Base(arg), ".")
	matches = slices.DeleteFunc(matches, func(m string) bool {
		return !hiddenOK && strings.HasPrefix(filepath.Base(m), ".")
	})
	if len(matches) == 0 {
		return fmt.Errorf("%s: no files match", arg)
	}
	slices.Sort(matches)
	for _, m := range matches {
		info, err := os.Stat(m)
		if err != nil {
			return namedPathError(m, err)
		}
		if err := e.addPath(m, info); err != nil {
			return err
		}
	}
	return nil
}

// namedPathError says "logs/a.jsonl: no such file or directory" rather than
// os.Stat's "stat logs/a.jsonl: ...", and stays errors.Is-comparable.
func namedPathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

func (e *expander) addPath(path string, info fs.FileInfo) error {
	if !info.IsDir() {
		e.addFile(path, info)
		return nil
	}
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// Listing failed (permissions, a directory removed under us): the
			// failure belongs to Read, where KeepGoing decides what it costs.
			e.addFailing(p, err)
			if d != nil && d.IsDir() && p != path {
				return fs.SkipDir
			}
			return nil
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !isLogName(d.Name()) {
			return nil
		}
		info, err := os.Stat(p) // follows a symlink to a file
		if err != nil {
			e.addFailing(p, err)
			return nil
		}
		if info.Mode().IsRegular() {
			e.addFile(p, info)
		}
		return nil
	})
}

func (e *expander) addFile(path string, info fs.FileInfo) {
	key := filepath.Clean(path)
	if e.seen[key] {
		return
	}
	e.seen[key] = true
	size := int64(-1)
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	e.sources = append(e.sources, Source{
		Name: path,
		Size: size,
		Open: func() (io.ReadCloser, error) { return os.Open(path) },
	})
}

func (e *expander) addFailing(path string, err error) {
	key := filepath.Clean(path)
	if e.seen[key] {
		return
	}
	e.seen[key] = true
	e.sources = append(e.sources, Source{
		Name: path,
		Size: -1,
		Open: func() (io.ReadCloser, error) { return nil, err },
	})
}

// isLogName reports whether a file found in a directory walk is a step log.
func isLogName(name string) bool {
	name = strings.ToLower(name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		if strings.HasSuffix(name, ext) {
			name = strings.TrimSuffix(name, ext)
			break
		}
	}
	if strings.HasSuffix(name, ".want.json") {
		return false
	}
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".ndjson") || strings.HasSuffix(name, ".json")
}
