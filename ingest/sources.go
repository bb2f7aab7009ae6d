package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/runawayhq/runaway/ingest/adapters"
)

// Source is one input: a file, an object, or stdin.
type Source struct {
	Name string                        // as shown in messages: the path, the object's URL, or "<stdin>"
	Size int64                         // bytes on disk if known, else -1
	Open func() (io.ReadCloser, error) // raw (possibly compressed) bytes
	// Found says a directory walk or a prefix listing found the source: the
	// user named the directory, not this file. A file found so that turns
	// out to be no log (a results folder's preds.json beside its
	// trajectories) is passed over, where a file named is an error.
	Found bool
}

// StdinName is the Name of the source read from standard input.
const StdinName = "<stdin>"

// ExpandPaths turns CLI arguments into sources, in a deterministic order:
//
//   - "-" is stdin, read once however often it is given.
//   - A directory is walked recursively in lexical order. It contributes the
//     files whose name, after stripping .gz, .zst or .zstd, ends in .jsonl,
//     .ndjson, .json, .traj or .parquet (any case), and .log files that hold
//     JSON, except *.want.json (golden files live beside fixtures). Hidden files and directories (leading '.') below it are
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
//   - An s3://, gs:// or file:// URL is listed as ExpandArgs describes.
//
// It is ExpandArgs without a filter, collected into a list: the first
// listing failure is its error.
func ExpandPaths(args []string, stdin io.Reader) ([]Source, error) {
	seq, err := ExpandArgs(context.Background(), args, stdin, Filter{})
	if err != nil {
		return nil, err
	}
	var sources []Source
	for src, err := range seq {
		if err != nil {
			return nil, err
		}
		sources = append(sources, src)
	}
	return sources, nil
}

// ExpandArgs turns CLI arguments into a lazy sequence of sources, for
// ReadSeq: local paths as ExpandPaths describes, and object-storage URLs
// (s3://bucket/prefix, gs://bucket/prefix, file:///dir), which are listed
// only as the sequence is pulled. filter narrows what walks, globs and
// listings find (see Filter).
//
// The returned error is found before anything is listed or read: a
// *UsageError for a URL that cannot be one (unknown scheme, no bucket) or a
// bad filter pattern, or, as in ExpandPaths, a local path that does not exist
// or a glob that matches nothing. A URL that cannot be listed (missing
// bucket, denied access, network, no object under the prefix) is yielded as
// a *SourceError naming it, in its place; the sequence then goes on with the
// next argument. A URL prefix is listed once per iteration; ctx bounds the
// listing and every object's read.
func ExpandArgs(ctx context.Context, args []string, stdin io.Reader, filter Filter) (iter.Seq2[Source, error], error) {
	if err := filter.check(); err != nil {
		return nil, err
	}
	plans := make([]argPlan, 0, len(args))
	for _, arg := range args {
		p, err := planArg(arg)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	// Shared by every iteration: a stream can be read once, and a second Read
	// of the same sequence must not see an empty stdin as a valid empty input.
	stdinOpened := new(atomic.Bool)
	return func(yield func(Source, error) bool) {
		e := &expander{
			ctx:         ctx,
			filter:      filter,
			stdin:       stdin,
			stdinOpened: stdinOpened,
			seen:        make(map[string]bool),
			yield:       yield,
			buckets:     make(map[string]*openedBucket),
		}
		for _, p := range plans {
			if !e.expand(p) {
				return
			}
		}
	}, nil
}

type argKind uint8

const (
	argStdin argKind = iota
	argPath          // an existing file or directory
	argGlob          // a pattern and what it matched
	argURL
)

// argPlan is an argument as checked before the sequence starts: everything
// that makes it unusable is found then, the listing of it is left for later.
type argPlan struct {
	kind    argKind
	arg     string
	info    fs.FileInfo   // argPath
	matches []string      // argGlob, sorted
	infos   []fs.FileInfo // argGlob, of the matches
	root    string        // argGlob: the part before the first metacharacter, to which filter paths are relative
	url     *objectURL    // argURL
}

func planArg(arg string) (argPlan, error) {
	if arg == "-" {
		return argPlan{kind: argStdin, arg: arg}, nil
	}
	if looksLikeURL(arg) {
		u, err := parseObjectURL(arg)
		if err != nil {
			return argPlan{}, err
		}
		return argPlan{kind: argURL, arg: arg, url: u}, nil
	}
	info, err := os.Stat(arg)
	if err == nil {
		return argPlan{kind: argPath, arg: arg, info: info}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) || !hasGlobMeta(arg) {
		return argPlan{}, namedPathError(arg, err)
	}
	matches, gerr := filepath.Glob(arg)
	if gerr != nil {
		return argPlan{}, fmt.Errorf("%s: %w", arg, gerr)
	}
	hiddenOK := strings.HasPrefix(filepath.Base(arg), ".")
	matches = slices.DeleteFunc(matches, func(m string) bool {
		return !hiddenOK && strings.HasPrefix(filepath.Base(m), ".")
	})
	if len(matches) == 0 {
		return argPlan{}, fmt.Errorf("%s: no files match", arg)
	}
	slices.Sort(matches)
	p := argPlan{kind: argGlob, arg: arg, matches: matches, root: globRoot(arg)}
	for _, m := range matches {
		info, err := os.Stat(m)
		if err != nil {
			return argPlan{}, namedPathError(m, err)
		}
		p.infos = append(p.infos, info)
	}
	return p, nil
}

// globRoot is the directory part of a pattern before its first
// metacharacter: "logs/2026-*/a.jsonl" -> "logs", "*.jsonl" -> ".".
func globRoot(pattern string) string {
	i := strings.IndexAny(pattern, "*?[")
	dir := pattern[:i]
	if j := strings.LastIndexAny(dir, `/`+string(filepath.Separator)); j >= 0 {
		if j == 0 {
			return dir[:1]
		}
		return dir[:j]
	}
	return "."
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

// expander is one iteration of an ExpandArgs sequence. Its methods return
// false once the consumer has stopped pulling.
type expander struct {
	ctx         context.Context
	filter      Filter
	stdin       io.Reader
	stdinOpened *atomic.Bool
	seen        map[string]bool // cleaned paths and object identities already yielded
	yield       func(Source, error) bool
	buckets     map[string]*openedBucket // by bucket URL, for the URLs of one bucket
}

func (e *expander) expand(p argPlan) bool {
	switch p.kind {
	case argStdin:
		return e.addStdin()
	case argPath:
		return e.addPath(p.arg, p.info, p.arg, false)
	case argGlob:
		for i, m := range p.matches {
			if !e.addPath(m, p.infos[i], p.root, true) {
				return false
			}
		}
		return true
	default:
		return e.addURL(p.url)
	}
}

func (e *expander) addStdin() bool {
	if e.seen["-"] {
		return true
	}
	e.seen["-"] = true
	opened, stdin := e.stdinOpened, e.stdin
	return e.yield(Source{
		Name: StdinName,
		Size: -1,
		Open: func() (io.ReadCloser, error) {
			open := func() (io.ReadCloser, error) {
				if opened.Swap(true) {
					return nil, errors.New("standard input was already read")
				}
				return io.NopCloser(stdin), nil
			}
			if sp := e.filter.Spool; sp != nil {
				return sp.open("-", open)
			}
			return open()
		},
	}, nil)
}

// addPath adds a file, or walks a directory. root is what filter paths are
// relative to; found says the path came from a glob rather than being named.
func (e *expander) addPath(path string, info fs.FileInfo, root string, found bool) bool {
	if !info.IsDir() {
		if found && !e.filter.keep(relSlash(root, path)) {
			return true
		}
		return e.addFile(path, info, false)
	}
	if !found {
		root = path
	}
	if files, ok := eventDirFiles(path); ok {
		return e.addEventDir(path, files, false)
	}
	more := true
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// Listing failed (permissions, a directory removed under us): the
			// failure belongs to Read, where KeepGoing decides what it costs.
			if more = e.addFailing(p, err); !more {
				return fs.SkipAll
			}
			if d != nil && d.IsDir() && p != path {
				return fs.SkipDir
			}
			return nil
		}
		if p != path && strings.HasPrefix(d.Name(), ".") && (d.IsDir() || !agentHistory(d.Name())) {
			if d.IsDir() {
				if !toolDirs[d.Name()] {
					if n, atLeast := hiddenLogs(p, root, e.filter); n > 0 {
						e.skip(p, hiddenDirWhy(n, atLeast))
					}
				}
				return fs.SkipDir
			}
			if readsName(d.Name()) && e.filter.keep(relSlash(root, p)) {
				e.skip(p, hiddenFileWhy)
			}
			return nil
		}
		if d.IsDir() && p != path && modelCallDirs[d.Name()] {
			if e.filter.keep(relSlash(root, p)) {
				e.skip(p, modelCallDirWhy)
			}
			return fs.SkipDir
		}
		if d.IsDir() && p != path {
			if files, ok := eventDirFiles(p); ok {
				if e.filter.keep(relSlash(root, p)) {
					more = e.addEventDir(p, files, true)
				}
				if !more {
					return fs.SkipAll
				}
				return fs.SkipDir
			}
		}
		if d.IsDir() || !e.filter.keep(relSlash(root, p)) {
			return nil
		}
		if why := walkSidecar(p); why != "" {
			e.skip(p, why)
			return nil
		}
		if !isLogName(d.Name()) {
			why, read := notALog(p, d.Name())
			if !read {
				if why != "" {
					e.skip(p, why)
				}
				return nil
			}
		}
		info, err := os.Stat(p) // follows a symlink to a file
		if err != nil {
			more = e.addFailing(p, err)
		} else if info.Mode().IsRegular() {
			more = e.addFile(p, info, true)
		}
		if !more {
			return fs.SkipAll
		}
		return nil
	})
	return more
}

// relSlash is p relative to root, slash-separated, for Filter.
func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		rel = p
	}
	return filepath.ToSlash(rel)
}

func (e *expander) addFile(path string, info fs.FileInfo, found bool) bool {
	key := filepath.Clean(path)
	if e.seen[key] {
		return true
	}
	e.seen[key] = true
	size := int64(-1)
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	if info.Mode().IsRegular() {
		size = info.Size()
	} else if sp := e.filter.Spool; sp != nil {
		open = func() (io.ReadCloser, error) {
			return sp.open(key, func() (io.ReadCloser, error) { return os.Open(path) })
		}
	}
	return e.yield(Source{Name: path, Size: size, Open: open, Found: found}, nil)
}

// addEventDir adds an OpenHands event directory as one source (eventdir.go).
func (e *expander) addEventDir(path string, files []string, found bool) bool {
	key := filepath.Clean(path)
	if e.seen[key] {
		return true
	}
	e.seen[key] = true
	src := eventDirSource(path, files)
	src.Found = found
	return e.yield(src, nil)
}

func (e *expander) addFailing(path string, err error) bool {
	key := filepath.Clean(path)
	if e.seen[key] {
		return true
	}
	e.seen[key] = true
	return e.yield(unopenableSource(path, err), nil)
}

// unopenableSource is a source that fails to open: a directory that could not
// be listed is reported by Read in its place, where KeepGoing applies.
func unopenableSource(name string, err error) Source {
	return Source{
		Name: name,
		Size: -1,
		Open: func() (io.ReadCloser, error) { return nil, err },
	}
}

// skip tells the filter's Skipped of a file passed over.
func (e *expander) skip(name, why string) {
	if e.filter.Skipped != nil {
		e.filter.Skipped(name, why)
	}
}

// notALog says whether a file a walk found, whose name is not a log's, is
// read after all (a .log file whose first bytes, once decompressed, open a
// JSON value, as loggers that write JSON Lines often name their files), and
// if not, why; path "" means it cannot be looked into. Files no one would
// take for a log (a fixture's expected findings, source code, documents)
// are passed over without a word: why is "".
func notALog(path, name string) (why string, read bool) {
	lower := strings.ToLower(name)
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		lower = strings.TrimSuffix(lower, ext)
	}
	switch {
	case strings.HasSuffix(lower, ".want.json"):
		return "", false
	case strings.HasSuffix(lower, ".ipynb"):
		// A notebook is read when a cell of it printed an agent's log:
		// most notebooks a walk meets ran no agent, and are passed over
		// saying so rather than rejected one by one.
		if path == "" {
			return "a .ipynb object (a listing does not open it to look inside: name it to read it)", false
		}
		if notebookPrintedALog(path) {
			return "", true
		}
		return "a notebook none of whose cells printed an agent's console log", false
	case strings.HasSuffix(lower, ".log"):
		if path == "" {
			return "a .log object (a listing does not open it to look inside: name it to read it)", false
		}
		if startsWithJSON(path) || opensTranscript(path) {
			return "", true
		}
		return "a .log file that does not begin with a JSON value", false
	}
	ext := strings.ToLower(filepath.Ext(lower))
	if (ext == ".txt" || ext == ".md" || !reFileExt.MatchString(ext)) && path != "" && opensTranscript(path) {
		// Some agents write a run as a plain-text transcript, named by
		// the task alone (Rovo Dev's trajs/<instance>, where a task of
		// mrdoob/three.js is mrdoob__three.js-20991: no extension); people
		// keep a crew's console output as Markdown (logs/run.md). Other
		// documents are passed over below, without a word.
		return "", true
	}
	if dataExts[ext] {
		return "a " + ext + " file: runaway reads JSON Lines, JSON and Parquet (.jsonl, .ndjson, .json, .traj, .parquet, or a .log holding JSON Lines); name it to read it anyway", false
	}
	return "", false // source code, documents, images: not what a log directory is for
}

// reFileExt is what an extension looks like: a dot, a letter, up to seven
// letters or digits. What follows the last dot of "three.js-20991" is not
// one, and such a file is looked into as a file without an extension.
var reFileExt = regexp.MustCompile(`^\.[a-z][a-z0-9]{0,7}$`)

// dataExts are extensions of files that hold logs or data runaway does not
// read: a walk names them when it passes them over, since they may be what
// the user meant it to read.
var dataExts = map[string]bool{
	".txt": true, ".out": true, ".err": true, ".csv": true, ".tsv": true,
	".arrow": true, ".feather": true, ".avro": true, ".orc": true, ".pq": true,
	".pb": true, ".otlp": true, ".trace": true, ".har": true, ".yaml": true, ".yml": true,
	".zip": true, ".tar": true, ".tgz": true, ".bz2": true, ".xz": true, ".lz4": true, ".7z": true,
	".db": true, ".sqlite": true,
}

// startsWithJSON reports whether the file's first non-blank byte, after
// decompression, opens a JSON object or array.
func startsWithJSON(path string) bool {
	head, ok := fileHead(path, 512)
	if !ok {
		return true // let Read report what is wrong with it
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[') && !reLogLinePrefix.Match(t)
}

// opensTranscript reports whether the file, after decompression, opens as
// a plain-text transcript of an agent that an adapter reads.
func opensTranscript(path string) bool {
	head, ok := fileHead(path, 1024)
	return ok && adapters.DetectText(head) != nil
}

// fileHead is up to n first bytes of the file, decompressed; ok is false
// when it cannot be opened or decompressed.
func fileHead(path string, n int) (head []byte, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	d, err := decompress(f, -1)
	if err != nil {
		return nil, false
	}
	defer d.close()
	buf := make([]byte, n)
	k, _ := io.ReadFull(d, buf)
	return buf[:k], true
}

// reLogLinePrefix is the bracketed time stamp or level that text loggers
// open a line with ("[2025-03-29 23:27:55 INFO] ...", "[INFO] ..."): a
// '[' that opens no JSON array.
var reLogLinePrefix = regexp.MustCompile(`^\[(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d|[A-Z]{4,8}\]|\d\d:\d\d:\d\d)`)

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
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".ndjson") || strings.HasSuffix(name, ".json") ||
		strings.HasSuffix(name, ".traj") || // SWE-agent's trajectories
		strings.HasSuffix(name, ".parquet") ||
		strings.HasSuffix(name, ".eval") || // Inspect AI's logs, zip archives
		agentHistory(name) // Aider's chat history, Markdown
}

// LocalPath is the local path an input argument reads: a file, directory
// or glob as given, or the path of a file:// URL; ok is false for stdin and
// for objects in a bucket.
func LocalPath(arg string) (path string, ok bool) {
	switch {
	case arg == "-":
		return "", false
	case looksLikeURL(arg):
		o, err := parseObjectURL(arg)
		if err != nil || o.scheme != "file" {
			return "", false
		}
		return filepath.FromSlash(o.local), true
	}
	return arg, true
}

// WalkReads reports whether walking a directory would read the file at rel,
// slash-separated below it, whether or not the file exists yet: no element
// of rel is hidden, filter keeps it, and its name is a log's. A .log file is
// read when it starts with JSON, so it counts as read: what is written
// there may well be JSON.
func WalkReads(rel string, filter Filter) bool {
	for elem := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(elem, ".") {
			return false
		}
	}
	if !filter.keep(rel) {
		return false
	}
	return readsName(path.Base(rel))
}

// maxNotebookPeek bounds what a walk reads of a notebook to see whether it
// holds an agent's log; a larger one is read, as a named file would be.
const maxNotebookPeek = 64 << 20

// notebookPrintedALog reports whether the notebook at path, decompressed,
// has a code cell whose printed output a text format reads.
func notebookPrintedALog(path string) bool {
	raw, ok := fileHead(path, maxNotebookPeek+1)
	if !ok || len(raw) > maxNotebookPeek {
		return true // let Read report what is wrong with it, or read it whole
	}
	return adapters.NotebookPrintedALog(raw)
}
