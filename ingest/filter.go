package ingest

import (
	"fmt"
	"path"
	"strings"
)

// Filter narrows what directory walks, globs and object listings find. Its
// patterns use path.Match syntax. A pattern without '/' is matched against the
// base name, at any depth; a pattern with '/' against the whole path relative
// to the directory, glob or URL prefix that was given (slash-separated, no
// leading '/'), where '*' does not cross a '/'. A name is kept when it matches
// at least one Include pattern (or there are none) and no Exclude pattern.
//
// Inputs named explicitly (a file, a URL naming one object, stdin) are not
// filtered: they are read whatever their name, like a named file is read
// whatever its extension.
type Filter struct {
	Include, Exclude []string
	// Skipped, when set, is told of every file a directory walk or object
	// listing passes over although the filter keeps it, because it does not
	// hold logs runaway reads (a Parquet export, a text log), with why: an
	// input that yields nothing must say what it left out.
	Skipped func(name, why string)
	// Spool, when set, keeps a copy of every input that cannot be read
	// twice as it is first read; ExpandArgs calls given the same Spool
	// open the copy after that (spool.go).
	Spool *Spool
}

// UsageError is a command-line argument that cannot work whatever the state
// of the world: an unknown URL scheme, a malformed URL, a bad pattern. The CLI
// reports it as a usage error (exit 2), before reading anything.
type UsageError struct {
	Arg string // the argument as given, or a description of it
	Err error
}

func (e *UsageError) Error() string { return e.Arg + ": " + e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// check finds bad patterns before anything is read: path.Match reports a
// malformed pattern only when it gets that far into a name, so a bad pattern
// would otherwise fail halfway through a listing, or never.
func (f Filter) check() error {
	for _, set := range []struct {
		what     string
		patterns []string
	}{{"include", f.Include}, {"exclude", f.Exclude}} {
		for _, p := range set.patterns {
			if err := CheckPattern(p); err != nil {
				return &UsageError{fmt.Sprintf("%s pattern %q", set.what, p), err}
			}
		}
	}
	return nil
}

// CheckPattern says what is wrong with a pattern of Filter, or returns nil.
func CheckPattern(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty pattern")
	case strings.HasPrefix(p, "/"):
		// Relative paths never start with '/': the pattern could never match.
		return fmt.Errorf("patterns match paths relative to the directory or prefix given; drop the leading '/'")
	case strings.Contains(p, "**"):
		// path.Match reads ** as *, which does not cross '/': silently not what was meant.
		return fmt.Errorf("** is not supported; a pattern without '/' matches the base name at any depth")
	}
	_, err := path.Match(p, "")
	return err
}

// keep reports whether a file or object found below a root passes the
// filter; rel is its slash-separated path relative to that root.
func (f Filter) keep(rel string) bool {
	if len(f.Include) > 0 && !matchAny(f.Include, rel) {
		return false
	}
	return !matchAny(f.Exclude, rel)
}

func matchAny(patterns []string, rel string) bool {
	base := path.Base(rel)
	for _, p := range patterns {
		name := base
		if strings.Contains(p, "/") {
			name = rel
		}
		if ok, _ := path.Match(p, name); ok { // patterns were checked: no error
			return true
		}
	}
	return false
}
