package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/runawayhq/runaway/ingest"
)

// namedPath is a path a job reads or writes and what names it in messages:
// a flag and its value ("--out r.json"), or "the input in.jsonl".
type namedPath struct {
	name string
	path string
}

func flagPath(flag, path string) namedPath { return namedPath{flag + " " + path, path} }

// located is a path as the file system sees it.
type located struct {
	namedPath
	abs  string      // absolute and clean, as written
	real string      // abs with the symbolic links of its longest existing prefix resolved
	info fs.FileInfo // what it names, links followed; nil when nothing is there
}

func locate(n namedPath) located {
	abs, err := filepath.Abs(n.path)
	if err != nil {
		abs = filepath.Clean(n.path)
	}
	l := located{namedPath: n, abs: abs, real: resolve(abs)}
	l.info, _ = os.Stat(n.path)
	return l
}

// resolve follows the symbolic links of the longest prefix of abs that
// exists: a file not written yet is placed in the directory it will be in.
func resolve(abs string) string {
	dir, rest := abs, ""
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// device reports whether l is something that is written through, not
// replaced (/dev/null, a FIFO): two outputs may share it, and it is
// nobody's input to lose.
func (l located) device() bool {
	return l.info != nil && !l.info.Mode().IsRegular() && !l.info.IsDir()
}

// same reports whether a and b are one file: the same path once resolved,
// or, when both exist, the same file (a hard link, a case-insensitive file
// system).
func same(a, b located) bool {
	if a.real == b.real {
		return true
	}
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info)
}

// below is the slash-separated path of l below dir, if it is below it.
func (l located) below(dir located) (string, bool) {
	rel, err := filepath.Rel(dir.real, l.real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// inputs are the paths a job reads, ready to compare outputs with.
type inputs struct {
	files []located // files named, flags' files, glob matches
	dirs  []located // directories walked
	globs []located // patterns, as written: a file they match is read
	// reads reports whether walking a directory reads the file at rel
	// (slash-separated, below it), whether or not it exists.
	reads func(rel string) bool
}

// jobInputs are the paths c reads, more being flags' files of the job
// (--labels, --redact-key-file), and how its walks choose files.
func (c *Config) jobInputs(more ...namedPath) inputs {
	filter := ingest.Filter{Include: c.Include, Exclude: c.Exclude}
	in := inputs{reads: func(rel string) bool { return ingest.WalkReads(rel, filter) }}
	for _, p := range c.Paths {
		local, ok := ingest.LocalPath(p)
		if !ok {
			continue // stdin, a bucket
		}
		in.add(namedPath{"the input " + p, local})
	}
	for _, f := range []namedPath{flagPath("--policy", c.PolicyFile), flagPath("--prices", c.PricesFile)} {
		if f.path != "" {
			in.files = append(in.files, locate(f))
		}
	}
	for _, f := range more {
		if f.path != "" {
			in.files = append(in.files, locate(f))
		}
	}
	return in
}

// add adds an input argument: a file, a directory, or a glob and what it
// matches now.
func (in *inputs) add(n namedPath) {
	l := locate(n)
	switch {
	case l.info != nil && l.info.IsDir():
		in.dirs = append(in.dirs, l)
	case l.info != nil || !strings.ContainsAny(n.path, "*?["):
		in.files = append(in.files, l)
	default:
		in.globs = append(in.globs, l)
		matches, _ := filepath.Glob(n.path)
		for _, m := range matches {
			in.add(namedPath{n.name, m})
		}
	}
}

// collision says why out may not be written, or "" when it may.
func (in inputs) collision(out located) string {
	for _, f := range in.files {
		if !f.device() && same(out, f) {
			return fmt.Sprintf("%s is %s, which is read: writing it would replace it; give another path", out.name, f.name)
		}
	}
	for _, d := range in.dirs {
		if same(out, d) {
			return fmt.Sprintf("%s is %s, a directory", out.name, d.name)
		}
		if rel, ok := out.below(d); ok && in.reads(rel) {
			return fmt.Sprintf("%s is inside %s, whose walk reads it: it would replace a file read, or be read as input by the next run (--exclude it, or write it elsewhere)", out.name, d.name)
		}
	}
	for _, g := range in.globs {
		hiddenOK := strings.HasPrefix(filepath.Base(g.abs), ".")
		if ok, _ := filepath.Match(g.abs, out.abs); ok && (hiddenOK || !strings.HasPrefix(filepath.Base(out.abs), ".")) {
			return fmt.Sprintf("%s matches %s: it would be read as input (this run's, or the next's); give another path", out.name, g.name)
		}
	}
	return ""
}

// checkPaths refuses outputs that would replace an input or one another
// (a *UsageError naming both), before anything is read or written: `scan
// in.jsonl --rejects in.jsonl` would otherwise replace its input with its
// rejects. stdout ("" and "-") and devices are not compared.
func checkPaths(in inputs, outputs []namedPath) error {
	var outs []located
	for _, o := range outputs {
		if toStdout(o.path) {
			continue
		}
		l := locate(o)
		if l.device() {
			continue
		}
		for _, prev := range outs {
			if same(l, prev) {
				return usagef("%s and %s are the same file: give each output its own path", prev.name, l.name)
			}
		}
		if why := in.collision(l); why != "" {
			return usagef("%s", why)
		}
		outs = append(outs, l)
	}
	return nil
}

// rejectsPaths are the files --rejects writes.
func (c *Config) rejectsPaths() []namedPath {
	if c.RejectsFile == "" {
		return nil
	}
	return []namedPath{flagPath("--rejects", c.RejectsFile),
		{"--rejects' index " + c.RejectsFile + RejectsIndexSuffix, c.RejectsFile + RejectsIndexSuffix}}
}
