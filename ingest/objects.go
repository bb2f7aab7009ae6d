package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// Object storage. s3:// and gs:// URLs are listed and read through a small
// read-only bucket interface (objstore.go): S3 with the AWS SDK's client and
// credential chain, Cloud Storage over its HTTP API with Application
// Default Credentials. file:// is walked here, in key order.

// objectURL is a parsed s3://, gs:// or file:// argument.
type objectURL struct {
	arg    string   // as given, for messages
	scheme string   // "s3", "gs" or "file"
	bucket *url.URL // scheme, host and query: what opens the bucket
	key    string   // s3, gs: the key or prefix, without the path's leading '/'; file: the URL's path
	local  string   // file: the local path
}

var objectSchemes = []string{"s3", "gs", "file"}

// looksLikeURL reports whether arg is written as scheme://...: such an
// argument is never taken for a local path, so that a mistyped scheme is an
// error rather than "no such file". A scheme has two letters at least, so
// that C:// stays a path.
func looksLikeURL(arg string) bool {
	i := strings.Index(arg, "://")
	if i < 2 {
		return false
	}
	for j, c := range arg[:i] {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

func parseObjectURL(arg string) (*objectURL, error) {
	bad := func(format string, a ...any) error { return &UsageError{arg, fmt.Errorf(format, a...)} }
	u, err := url.Parse(arg)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, bad("malformed URL: %v", err)
	}
	if !slices.Contains(objectSchemes, u.Scheme) {
		return nil, bad("unsupported URL scheme %q (want s3://, gs:// or file://)", u.Scheme)
	}
	if u.User != nil || u.Port() != "" {
		return nil, bad("%s:// URLs name a bucket, not a user or port", u.Scheme)
	}
	if u.Fragment != "" || strings.HasSuffix(arg, "#") {
		// '#' is legal in object keys, and url.Parse takes it for a fragment.
		return nil, bad("'#' starts a URL fragment; write it as %%23 in a key")
	}
	o := &objectURL{arg: arg, scheme: u.Scheme, key: strings.TrimPrefix(u.Path, "/")}
	if u.Scheme == "file" {
		if u.RawQuery != "" {
			return nil, bad("file:// URLs take no query parameters")
		}
		o.key = u.Path
		switch u.Host {
		case "", "localhost":
			o.local = u.Path
		case ".": // gocloud's spelling of a relative path: file://./logs
			o.local = "." + u.Path
		default:
			return nil, bad("file:// URLs name a local path; host %q is not local", u.Host)
		}
		if o.local == "" {
			return nil, bad("file:// URL without a path")
		}
		o.bucket = &url.URL{Scheme: u.Scheme, Host: u.Host}
		return o, nil
	}
	if u.Host == "" {
		return nil, bad("no bucket: write %s://BUCKET/PREFIX", u.Scheme)
	}
	o.bucket = &url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: u.RawQuery}
	return o, nil
}

// objectName is the URL that names an object in messages and reports: the
// bucket and key, without the query, which says how to reach the object, not
// which one it is.
func (o *objectURL) objectName(key string) string {
	return o.scheme + "://" + o.bucket.Host + "/" + key
}

// hiddenKey applies the directory walk's rule to a key found under a
// prefix: an element of the path below the prefix that begins with '.'
// hides it, but for an agent's own history file (agentHistory).
func hiddenKey(rel string) bool {
	for elem := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(elem, ".") && (elem != path.Base(rel) || !agentHistory(elem)) {
			return true
		}
	}
	return false
}

// listPageSize is how many keys one listing request asks for: S3's and GCS's
// maximum. Tests shrink it.
var listPageSize = 1000

type openedBucket struct {
	b   bucket
	err error
}

func (e *expander) addURL(o *objectURL) bool {
	if o.scheme == "file" {
		return e.addFileURL(o)
	}
	id := o.bucket.String()
	ob := e.buckets[id]
	if ob == nil {
		ob = &openedBucket{}
		ob.b, ob.err = e.openBucket(o.bucket)
		e.buckets[id] = ob
	}
	if ob.err != nil {
		return e.yield(Source{}, &SourceError{Source: o.arg, Err: ob.err})
	}
	b := ob.b
	prefix := o.key
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		// A URL may name one object. The probe costs one request; listing
		// "logs" instead of "logs/" would walk through every "logs-old/..."
		// key, which sorts before "logs/".
		objs, _, err := b.list(e.ctx, prefix, "", 1)
		if err != nil {
			return e.yield(Source{}, &SourceError{Source: o.arg, Err: listError(err)})
		}
		if len(objs) == 1 && objs[0].key == prefix {
			return e.addObject(b, o, objs[0].key, objs[0].size, false)
		}
		// A prefix names a "directory": s3://b/logs lists logs/..., not logs-old/...
		prefix += "/"
	}
	found := false
	modelCalls := map[string]bool{} // directories of model calls told to Skipped
	runFiles := map[string]bool{}   // keys listed that hold a run beside sidecars
	for token, first := "", true; first || token != ""; first = false {
		objs, next, err := b.list(e.ctx, prefix, token, listPageSize)
		if err != nil {
			return e.yield(Source{}, &SourceError{Source: o.arg, Err: listError(err)})
		}
		for _, obj := range objs {
			found = true
			rel := strings.TrimPrefix(obj.key, prefix)
			if strings.HasSuffix(rel, "/") {
				continue // a "directory" marker
			}
			if hiddenKey(rel) {
				if hiddenReadable(rel, e.filter) {
					e.skip(o.objectName(obj.key), "below a hidden prefix (an element with a leading '.'); name the prefix to read it")
				}
				continue
			}
			if !e.filter.keep(rel) {
				continue
			}
			if dir := modelCallDir(rel); dir != "" {
				if !modelCalls[dir] {
					modelCalls[dir] = true
					e.skip(o.objectName(prefix+dir), modelCallDirWhy)
				}
				continue
			}
			if isSidecarRun(rel) {
				runFiles[rel] = true
			}
			if why := listedSidecar(rel, runFiles); why != "" {
				e.skip(o.objectName(obj.key), why)
				continue
			}
			if !isLogName(path.Base(rel)) {
				if why, _ := notALog("", path.Base(rel)); why != "" {
					e.skip(o.objectName(obj.key), why)
				}
				continue
			}
			if !e.addObject(b, o, obj.key, obj.size, true) {
				return false
			}
		}
		token = next
	}
	if !found {
		// Object stores have no directories: an empty prefix is what a
		// missing directory is on a disk, and a nightly scan of a day whose
		// upload failed must not pass as clean.
		return e.yield(Source{}, &SourceError{Source: o.arg, Err: errNoObjects})
	}
	return true
}

// errNoObjects is the error of a URL under which nothing is stored.
var errNoObjects error = noObjectsError{}

type noObjectsError struct{}

func (noObjectsError) Error() string        { return "no object has this name or prefix" }
func (noObjectsError) Is(target error) bool { return target == fs.ErrNotExist }

func (e *expander) addObject(b bucket, o *objectURL, key string, size int64, found bool) bool {
	id := o.bucket.String() + "\x00" + key
	if e.seen[id] {
		return true
	}
	e.seen[id] = true
	ctx := e.ctx
	return e.yield(Source{
		Name:  o.objectName(key),
		Size:  size,
		Found: found,
		Open: func() (io.ReadCloser, error) {
			return &objectReader{ctx: ctx, b: b, key: key, size: size}, nil
		},
	}, nil)
}

func (e *expander) openBucket(u *url.URL) (bucket, error) {
	switch u.Scheme {
	case "s3":
		return openS3Bucket(e.ctx, u)
	case "gs":
		return e.openGCSBucket(u)
	}
	return nil, fmt.Errorf("unsupported URL scheme %q", u.Scheme)
}

// openGCSBucket opens a gs:// bucket (gcs.go) with Application Default
// Credentials. Missing credentials are the error they are, named before
// anything is read; ?anonymous=true (or gocloud's access_id=-) reads a
// public bucket without them.
func (e *expander) openGCSBucket(u *url.URL) (bucket, error) {
	q := u.Query()
	for k := range q {
		if k != "anonymous" && k != "access_id" && k != "universe_domain" {
			return nil, fmt.Errorf("unknown parameter %q for gs:// (runaway takes anonymous, access_id=- and universe_domain)", k)
		}
	}
	anonymous, _ := strconv.ParseBool(q.Get("anonymous"))
	ud := q.Get("universe_domain")
	if anonymous || q.Get("access_id") == "-" || os.Getenv("STORAGE_EMULATOR_HOST") != "" {
		return openGCS(objectClient, u.Host, ud), nil
	}
	creds, err := gcsCredentials(e.ctx, ud)
	if err != nil {
		return nil, fmt.Errorf("no Google Cloud credentials (set GOOGLE_APPLICATION_CREDENTIALS or run `gcloud auth application-default login`): %w", err)
	}
	if d, err := creds.GetUniverseDomain(); err == nil && d != "" {
		ud = d
	}
	return openGCS(oauth2.NewClient(e.ctx, creds.TokenSource), u.Host, ud), nil
}

// gcsReadOnly is the OAuth2 scope a scan needs.
const gcsReadOnly = "https://www.googleapis.com/auth/devstorage.read_only"

// gcsCreds caches Application Default Credentials per universe domain:
// finding them may probe the GCE metadata server, once is enough.
var gcsCreds struct {
	sync.Mutex
	byDomain map[string]gcsCredsResult
}

type gcsCredsResult struct {
	creds *google.Credentials
	err   error
}

func gcsCredentials(ctx context.Context, universeDomain string) (*google.Credentials, error) {
	gcsCreds.Lock()
	defer gcsCreds.Unlock()
	key := universeDomain + "\x00" + os.Getenv("GOOGLE_APPLICATION_CREDENTIALS")
	if r, ok := gcsCreds.byDomain[key]; ok {
		return r.creds, r.err
	}
	var r gcsCredsResult
	r.creds, r.err = google.FindDefaultCredentialsWithParams(ctx, google.CredentialsParams{
		Scopes: []string{gcsReadOnly}, UniverseDomain: universeDomain,
	})
	if ctx.Err() == nil { // a cancelled probe says nothing about the next one
		if gcsCreds.byDomain == nil {
			gcsCreds.byDomain = make(map[string]gcsCredsResult)
		}
		gcsCreds.byDomain[key] = r
	}
	return r.creds, r.err
}

// addFileURL lists a file:// URL: a file is one object, read whatever its
// name; a directory is walked in key order.
func (e *expander) addFileURL(o *objectURL) bool {
	root := filepath.FromSlash(o.local)
	info, err := os.Stat(root)
	if err != nil {
		return e.yield(Source{}, &SourceError{Source: o.arg, Err: unwrapPathError(err)})
	}
	if !info.IsDir() {
		return e.addFileObject(o, root, o.key, info, false)
	}
	return e.walkKeys(o, root, strings.TrimSuffix(o.key, "/")+"/", "")
}

// walkKeys yields the log files below dir in the order their keys sort, the
// order of an object listing: a directory sorts as its name followed by
// '/', so "a.jsonl" comes before "a/b.jsonl" ('.' < '/'), unlike in
// filepath.WalkDir. base is the slash path of the walk's root, rel that of
// dir below it. Symbolic links to directories are not followed.
func (e *expander) walkKeys(o *objectURL, dir, base, rel string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return e.addFileObjectFailing(o, dir, base+rel, unwrapPathError(err))
	}
	sortKey := func(d fs.DirEntry) string {
		if d.IsDir() {
			return d.Name() + "/"
		}
		return d.Name()
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(sortKey(a), sortKey(b)) })
	for _, d := range entries {
		name := d.Name()
		if strings.HasPrefix(name, ".") && (d.IsDir() || !agentHistory(name)) {
			e.skipHiddenEntry(d, filepath.Join(dir, name), walkRoot(dir, rel), base+rel+name)
			continue
		}
		p := filepath.Join(dir, name)
		if d.IsDir() && modelCallDirs[name] {
			e.skip(base+rel+name+"/", modelCallDirWhy)
			continue
		}
		if d.IsDir() {
			if !e.walkKeys(o, p, base, rel+name+"/") {
				return false
			}
			continue
		}
		if !e.filter.keep(rel + name) {
			continue
		}
		if !isLogName(name) {
			if why, _ := notALog("", name); why != "" {
				e.skip(base+rel+name, why)
			}
			continue
		}
		info, err := os.Stat(p) // follows a symlink to a file
		if err != nil {
			if !e.addFileObjectFailing(o, p, base+rel+name, unwrapPathError(err)) {
				return false
			}
			continue
		}
		if info.Mode().IsRegular() && !e.addFileObject(o, p, base+rel+name, info, true) {
			return false
		}
	}
	return true
}

func fileObjectName(o *objectURL, slashPath string) string {
	return "file://" + o.bucket.Host + slashPath
}

func (e *expander) addFileObject(o *objectURL, p, slashPath string, info fs.FileInfo, found bool) bool {
	id := "file\x00" + filepath.Clean(p)
	if e.seen[id] {
		return true
	}
	e.seen[id] = true
	size := int64(-1)
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	name := fileObjectName(o, slashPath)
	return e.yield(Source{
		Name:  name,
		Size:  size,
		Found: found,
		Open: func() (io.ReadCloser, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, unwrapPathError(err) // the URL names it, not the local path
			}
			return f, nil
		},
	}, nil)
}

func (e *expander) addFileObjectFailing(o *objectURL, p, slashPath string, err error) bool {
	id := "file\x00" + filepath.Clean(p)
	if e.seen[id] {
		return true
	}
	e.seen[id] = true
	return e.yield(unopenableSource(fileObjectName(o, slashPath), err), nil)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
