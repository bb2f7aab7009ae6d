package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// fakeS3 is a real S3 API (gofakes3, in memory) on 127.0.0.1, reached through
// gocloud's s3blob driver and the AWS SDK as a user's bucket would be.
// gofakes3 does not check signatures, so the handler in front of it rejects
// requests signed with another access key, as S3 does.
type fakeS3 struct {
	t       *testing.T
	srv     *httptest.Server
	backend *s3mem.Backend
	lists   atomic.Int64 // ListObjects requests served

	mu    sync.Mutex
	cut   map[string]int // "bucket/key" -> GET bodies end, with the connection, after this many bytes
	stall map[string]int // "bucket/key" -> GET bodies stop after this many bytes, the connection open
}

const (
	testAccessKey = "AKIDRUNAWAYTEST"
	deniedKey     = "AKIDNOPERMISSION" // a valid key without the right to read
)

func newFakeS3(t *testing.T) *fakeS3 {
	t.Helper()
	f := &fakeS3{t: t, backend: s3mem.New(), cut: make(map[string]int), stall: make(map[string]int)}
	s3 := gofakes3.New(f.backend).Server()
	f.srv = httptest.NewServer(f.handler(s3))
	t.Cleanup(f.srv.Close)

	// Credentials come from the environment only: never the developer's
	// ~/.aws, and no instance-metadata probe.
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID":           testAccessKey,
		"AWS_SECRET_ACCESS_KEY":       "runaway-test-secret",
		"AWS_SESSION_TOKEN":           "",
		"AWS_REGION":                  "us-east-1",
		"AWS_DEFAULT_REGION":          "",
		"AWS_PROFILE":                 "",
		"AWS_CONFIG_FILE":             filepath.Join(dir, "config"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED":   "true",
		"AWS_ENDPOINT_URL":            "",
		"AWS_ENDPOINT_URL_S3":         "",
		"AWS_ROLE_ARN":                "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "",
	} {
		t.Setenv(k, v)
	}
	return f
}

var credentialRE = regexp.MustCompile(`Credential=([^/,]+)/`)

func (f *fakeS3) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := ""
		if m := credentialRE.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
			key = m[1]
		}
		switch key {
		case testAccessKey:
			if !validSignature(r) {
				s3Error(w, http.StatusForbidden, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
				return
			}
		case deniedKey:
			s3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
			return
		default:
			s3Error(w, http.StatusForbidden, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
			return
		}
		if r.Method == http.MethodGet && r.URL.Query().Get("list-type") == "2" {
			f.lists.Add(1)
		}
		f.mu.Lock()
		limit, cut := f.cut[strings.TrimPrefix(r.URL.Path, "/")]
		f.mu.Unlock()
		if r.Method == http.MethodGet && cut {
			w = &cuttingWriter{ResponseWriter: w, left: limit}
		}
		f.mu.Lock()
		limit, stall := f.stall[strings.TrimPrefix(r.URL.Path, "/")]
		f.mu.Unlock()
		if r.Method == http.MethodGet && stall {
			w = &cuttingWriter{ResponseWriter: w, left: limit, stall: r.Context()}
		}
		next.ServeHTTP(w, r)
		if cw, ok := w.(*cuttingWriter); ok && cw.cut {
			// The body is shorter than its Content-Length: abort the
			// connection as a network failure would.
			panic(http.ErrAbortHandler)
		}
	})
}

// validSignature signs the request as the server received it (its path
// and query as sent, its headers, its X-Amz-Date) with the test's secret
// and compares with the signature it came with: S3 refuses a request whose
// key was escaped one way when signed and another way when sent.
func validSignature(r *http.Request) bool {
	signed := r.Header.Get("Authorization")
	when, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return false
	}
	u, err := url.Parse("http://" + r.Host + r.RequestURI)
	if err != nil {
		return false
	}
	// S3 signs the path it decoded, encoded again its own way: every
	// byte but letters, digits, '-', '_', '.', '~' and '/' as %XX.
	segs := strings.Split(u.Path, "/")
	for i, seg := range segs {
		seg = url.PathEscape(seg)
		for _, c := range "!$&'()*+,;=:@" {
			seg = strings.ReplaceAll(seg, string(c), fmt.Sprintf("%%%02X", c))
		}
		segs[i] = seg
	}
	u.RawPath = strings.Join(segs, "/")
	again, _ := http.NewRequest(r.Method, u.String(), nil)
	again.URL = u
	for k, v := range r.Header {
		if k != "Authorization" {
			again.Header[k] = v
		}
	}
	m := regexp.MustCompile(`Credential=[^/]+/\d+/([^/]+)/s3/aws4_request, SignedHeaders=([^,]+),`).FindStringSubmatch(signed)
	if m == nil {
		return false
	}
	for h := range again.Header {
		if !slices.Contains(strings.Split(m[2], ";"), strings.ToLower(h)) {
			again.Header.Del(h) // sign what the client signed, no more
		}
	}
	creds := aws.Credentials{AccessKeyID: testAccessKey, SecretAccessKey: "runaway-test-secret"}
	signer := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	if err := signer.SignHTTP(context.Background(), creds, again, r.Header.Get("X-Amz-Content-Sha256"), "s3", m[1], when); err != nil {
		return false
	}
	return again.Header.Get("Authorization") == signed
}

func s3Error(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>%s</Code><Message>%s</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`, code, msg)
}

// cuttingWriter passes the first left bytes of a body on, then drops the rest.
type cuttingWriter struct {
	http.ResponseWriter
	left  int
	cut   bool
	stall context.Context // if set, after the cut: wait until the client gives up, sending nothing
}

func (c *cuttingWriter) Write(p []byte) (int, error) {
	n := len(p)
	if n > c.left {
		p, c.cut = p[:c.left], true
	}
	c.left -= len(p)
	if _, err := c.ResponseWriter.Write(p); err != nil {
		return 0, err
	}
	if c.cut {
		c.ResponseWriter.(http.Flusher).Flush() // the client gets these bytes before the connection drops
		if c.stall != nil {
			<-c.stall.Done()
			return 0, c.stall.Err()
		}
	}
	return n, nil
}

func (f *fakeS3) bucket(name string) {
	f.t.Helper()
	if err := f.backend.CreateBucket(name); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeS3) put(bucket, key string, data []byte) {
	f.t.Helper()
	if _, err := f.backend.PutObject(bucket, key, nil, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		f.t.Fatal(err)
	}
}

// cutAfter makes every GET of the object end after n bytes.
func (f *fakeS3) stallAfter(bucket, key string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stall[bucket+"/"+key] = n
}

func (f *fakeS3) cutAfter(bucket, key string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cut[bucket+"/"+key] = n
}

// url is an s3:// URL reaching this server, as a user of MinIO or another
// S3-compatible store writes it.
func (f *fakeS3) url(bucketAndPath string) string {
	return "s3://" + bucketAndPath + "?endpoint=" + url.QueryEscape(f.srv.URL) + "&use_path_style=true&region=us-east-1"
}

// seqResult is what ReadSeq showed its caller.
type seqResult struct {
	readResult
	names []string // OnSource's table: index -> name
}

// readSeq runs ReadSeq like read runs Read, and checks that OnSource named
// every src_file before its rows arrived.
func readSeq(t testing.TB, seq func(func(Source, error) bool), opts Options) seqResult {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var res seqResult
	var rejected bytes.Buffer
	opts.Alloc = mem
	opts.Rejects = &rejected
	opts.OnReject = func(r Reject) {
		res.rejects = append(res.rejects, Reject{File: r.File, Line: r.Line, Reason: r.Reason})
	}
	opts.OnSource = func(i int, name string) {
		if i != len(res.names) {
			t.Errorf("OnSource(%d, %q) after %d sources", i, name, len(res.names))
		}
		res.names = append(res.names, name)
	}
	res.stats, res.err = ReadSeq(t.Context(), seq, opts, func(b arrow.RecordBatch) error {
		js, err := b.MarshalJSON()
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var rows []map[string]any
		if err := dec.Decode(&rows); err != nil {
			return err
		}
		for _, row := range rows {
			if i, _ := row["src_file"].(json.Number).Int64(); int(i) >= len(res.names) {
				t.Errorf("row of source %d before OnSource named it", i)
			}
		}
		res.rows = append(res.rows, rows...)
		return nil
	})
	res.rejected = rejected.String()
	return res
}

func expand(t *testing.T, args []string, filter Filter) func(func(Source, error) bool) {
	t.Helper()
	seq, err := ExpandArgs(t.Context(), args, nil, filter)
	if err != nil {
		t.Fatalf("ExpandArgs(%q): %v", args, err)
	}
	return seq
}

// collect pulls a whole sequence: its sources' names and its errors.
func collect(seq func(func(Source, error) bool)) (names []string, errs []error) {
	for src, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		names = append(names, src.Name)
	}
	return names, errs
}

// logTree is a day of logs: nested prefixes, plain, gzip and zstd files,
// rejects, and files that are not logs. Names sort the same as keys and as a
// directory walk, so both orders can be compared.
func logTree(t *testing.T, objects int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{
		"README.txt":                []byte("not a log\n"),
		"d00/run.want.json":         []byte(`{"verdict":"runaway"}`),
		"d00/.partial/x.jsonl":      []byte(`{"run_id":"hidden","step":0}` + "\n"),
		"d01/.upload.jsonl":         []byte(`{"run_id":"hidden","step":0}` + "\n"),
		"d02/notes.md":              []byte("# notes\n"),
		"d03/e00/bad.jsonl":         []byte(`{"run_id":"bad","step":"x"}` + "\n" + `{"run_id":"bad","step":1}` + "\n"),
		"d04/e01/no-newline.ndjson": []byte(`{"run_id":"nn","step":0}`),
	}
	for i := range objects {
		var lines strings.Builder
		for s := range 1 + i%4 {
			fmt.Fprintf(&lines, `{"run_id":"r%03d","step":%d,"state":"ACT","tool_call":{"name":"search","args":{"q":"%d"}}}`+"\n", i, s, i%7)
		}
		data := []byte(lines.String())
		name := fmt.Sprintf("d%02d/e%02d/f%03d.jsonl", i%10, i/10%3, i)
		switch i % 5 {
		case 1:
			name, data = name+".gz", gzipBytes(t, data)
		case 2:
			name, data = name+".zst", zstdBytes(t, data)
		}
		files[name] = data
	}
	return files
}

func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// relRows are the rows with src_file replaced by the source's name below
// root, so that reads of the same files from two places compare.
func relRows(t *testing.T, rows []map[string]any, names []string, root string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(rows))
	for i, row := range rows {
		r := cloneRow(row)
		idx, _ := row["src_file"].(json.Number).Int64()
		r["src_file"] = strings.TrimPrefix(filepath.ToSlash(names[idx]), root)
		out[i] = r
	}
	return out
}

func cloneRow(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func withPageSize(t *testing.T, n int) {
	old := listPageSize
	listPageSize = n
	t.Cleanup(func() { listPageSize = old })
}

func TestS3ReadsNestedPrefixesInKeyOrderLikeALocalDirectory(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("logs")
	files := logTree(t, 300)
	for name, data := range files {
		f.put("logs", "2026/11/29/"+name, data)
	}
	f.put("logs", "2026/11/28/other-day.jsonl", []byte(`{"run_id":"x","step":0}`+"\n"))
	f.put("logs", "2026/11/29-late.jsonl", []byte(`{"run_id":"x","step":0}`+"\n"))
	withPageSize(t, 7) // pages end everywhere: inside prefixes, between them

	// Without the trailing '/' the URL still names the prefix 2026/11/29/, not 2026/11/29-late.
	s3 := readSeq(t, expand(t, []string{f.url("logs/2026/11/29")}, Filter{}), Options{Workers: 3, BatchRows: 5})
	if s3.err != nil {
		t.Fatal(s3.err)
	}
	root := writeTree(t, files)
	srcs, err := ExpandPaths([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	local := read(t, srcs, Options{Workers: 2, BatchRows: 5})

	if len(s3.names) != 300+2 { // the 300 logs, bad.jsonl and no-newline.ndjson
		t.Fatalf("%d sources from S3, want 302", len(s3.names))
	}
	var localNames []string
	for _, s := range srcs {
		localNames = append(localNames, s.Name)
	}
	for i, name := range s3.names {
		rel, ok := strings.CutPrefix(name, "s3://logs/2026/11/29/")
		if !ok || localNames[i] != filepath.Join(root, filepath.FromSlash(rel)) {
			t.Fatalf("source %d: S3 %q, local %q", i, name, localNames[i])
		}
	}
	if !slices.IsSorted(s3.names) {
		t.Error("objects are not in key order")
	}
	if got, want := relRows(t, s3.rows, s3.names, "s3://logs/2026/11/29/"), relRows(t, local.rows, localNames, filepath.ToSlash(root)+"/"); !reflect.DeepEqual(got, want) {
		t.Errorf("S3 rows differ from the same files read from a directory (%d vs %d rows)", len(got), len(want))
	}
	s3.stats.Failed, local.stats.Failed = nil, nil
	if !reflect.DeepEqual(s3.stats, local.stats) {
		t.Errorf("stats:\n S3    %+v\n local %+v", s3.stats, local.stats)
	}
	if s3.stats.Steps == 0 || s3.stats.Rejected != 1 || len(s3.rejects) != 1 || s3.rejects[0].File != "s3://logs/2026/11/29/d03/e00/bad.jsonl" || s3.rejects[0].Line != 1 {
		t.Errorf("stats %+v, rejects %+v: the reject must name the object's URL", s3.stats, s3.rejects)
	}
	// Sizes come from the listing.
	for src := range expand(t, []string{f.url("logs/2026/11/29/d03/")}, Filter{}) {
		if want := int64(len(files[strings.TrimPrefix(src.Name, "s3://logs/2026/11/29/")])); src.Size != want {
			t.Errorf("%s: Size %d, want %d", src.Name, src.Size, want)
		}
	}
}

func TestObjectKeysSortAsKeysNotAsADirectoryWalk(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	tree := map[string][]byte{}
	for _, name := range []string{"a/b.jsonl", "a.jsonl", "a-b/c.jsonl", "a0.jsonl", "Z.jsonl"} {
		tree[name] = []byte(`{"run_id":"r","step":0}` + "\n")
		f.put("b", "p/"+name, tree[name])
	}
	want := []string{"Z.jsonl", "a-b/c.jsonl", "a.jsonl", "a/b.jsonl", "a0.jsonl"}

	names, errs := collect(expand(t, []string{f.url("b/p/")}, Filter{}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := trimAll(names, "s3://b/p/"); !reflect.DeepEqual(got, want) {
		t.Errorf("s3:// order %q, want %q", got, want)
	}
	// file:// lists a directory the same way, so a local copy of a bucket
	// gives the same src_file numbers.
	root := filepath.ToSlash(writeTree(t, tree))
	names, errs = collect(expand(t, []string{"file://" + root}, Filter{}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := trimAll(names, "file://"+root+"/"); !reflect.DeepEqual(got, want) {
		t.Errorf("file:// order %q, want %q", got, want)
	}
}

func trimAll(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		out = append(out, strings.TrimPrefix(n, prefix))
	}
	return out
}

func TestS3URLNamingOneObjectReadsItWhateverItsName(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	for _, k := range []string{"incident/trace.log", "incident/trace.log.1", "incident/x.jsonl", "incident/y.jsonl"} {
		f.put("b", k, []byte(`{"run_id":"r","step":0}`+"\n"))
	}
	args := []string{f.url("b/incident/trace.log"), f.url("b/incident/x.jsonl"), f.url("b/incident/")}
	want := []string{"s3://b/incident/trace.log", "s3://b/incident/x.jsonl", "s3://b/incident/y.jsonl"}

	// trace.log is no log name, but named; x.jsonl is named, then listed: read once, at its first place.
	res := readSeq(t, expand(t, args, Filter{}), Options{})
	if res.err != nil || !reflect.DeepEqual(res.names, want) || len(res.rows) != 3 {
		t.Errorf("err %v, sources %q, %d rows; want %q", res.err, res.names, len(res.rows), want)
	}
	// Filters narrow listings, not what is named.
	names, errs := collect(expand(t, args, Filter{Exclude: []string{"x.*", "trace*"}}))
	if len(errs) > 0 || !reflect.DeepEqual(names, want) {
		t.Errorf("filtered: %q %v; want %q", names, errs, want)
	}
	names, errs = collect(expand(t, args[2:], Filter{Exclude: []string{"x.*"}}))
	if len(errs) > 0 || !reflect.DeepEqual(names, want[2:]) {
		t.Errorf("listing filtered: %q %v; want %q", names, errs, want[2:])
	}
}

func TestS3IncludeExclude(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	for _, k := range []string{
		"day/agent-a/1.jsonl", "day/agent-a/2.jsonl.gz", "day/agent-a/debug.jsonl",
		"day/agent-b/1.jsonl", "day/agent-b/sub/3.jsonl", "day/top.jsonl",
	} {
		f.put("b", k, []byte(`{"run_id":"r","step":0}`+"\n"))
	}
	for _, tc := range []struct {
		filter Filter
		want   []string
	}{
		{Filter{}, []string{"agent-a/1.jsonl", "agent-a/2.jsonl.gz", "agent-a/debug.jsonl", "agent-b/1.jsonl", "agent-b/sub/3.jsonl", "top.jsonl"}},
		// No '/': the base name, at any depth.
		{Filter{Exclude: []string{"debug.*"}}, []string{"agent-a/1.jsonl", "agent-a/2.jsonl.gz", "agent-b/1.jsonl", "agent-b/sub/3.jsonl", "top.jsonl"}},
		{Filter{Include: []string{"*.gz", "3.*"}}, []string{"agent-a/2.jsonl.gz", "agent-b/sub/3.jsonl"}},
		// With '/': the path below the prefix, where * stops at '/'.
		{Filter{Include: []string{"agent-b/*"}}, []string{"agent-b/1.jsonl"}},
		{Filter{Include: []string{"agent-*/*"}, Exclude: []string{"agent-a/d*", "*.gz"}}, []string{"agent-a/1.jsonl", "agent-b/1.jsonl"}},
	} {
		names, errs := collect(expand(t, []string{f.url("b/day/")}, tc.filter))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := trimAll(names, "s3://b/day/"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.filter, got, tc.want)
		}
	}
}

func TestS3MissingBucketIsAFailureNamingTheURL(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	f.put("b", "a.jsonl", []byte(`{"run_id":"a","step":0}`+"\n"))
	f.put("b", "c.jsonl", []byte(`{"run_id":"c","step":0}`+"\n"))
	missing := f.url("no-such-bucket/2026/")
	args := []string{f.url("b/a.jsonl"), missing, f.url("b/c.jsonl")}

	res := readSeq(t, expand(t, args, Filter{}), Options{})
	var se *SourceError
	if !errors.As(res.err, &se) || se.Source != missing {
		t.Fatalf("err = %v, want a *SourceError for %s", res.err, missing)
	}
	msg := res.err.Error()
	if !strings.HasPrefix(msg, missing+": list objects: bucket not found: ") || !strings.Contains(msg, "NoSuchBucket") {
		t.Errorf("message: %s", msg)
	}
	// What came before is reported; what comes after is not read.
	if len(res.rows) != 1 || res.stats.Files != 1 || !reflect.DeepEqual(res.names, []string{"s3://b/a.jsonl"}) {
		t.Errorf("rows %d, stats %+v, sources %q", len(res.rows), res.stats, res.names)
	}

	res = readSeq(t, expand(t, args, Filter{}), Options{KeepGoing: true})
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.stats.Failed) != 1 || res.stats.Failed[0].Source != missing || len(res.rows) != 2 {
		t.Errorf("Failed %v, %d rows", res.stats.Failed, len(res.rows))
	}
	// A listing failure takes no src_file: the next object is source 1.
	if !reflect.DeepEqual(res.names, []string{"s3://b/a.jsonl", "s3://b/c.jsonl"}) || num(res.rows[1]["src_file"]) != "1" {
		t.Errorf("sources %q, rows %v", res.names, res.rows)
	}

	if _, err := ExpandPaths([]string{missing}, nil); err == nil || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("ExpandPaths: %v", err)
	}
}

func TestS3PrefixWithoutObjectsIsAFailure(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	f.put("b", "2026-11-28/a.jsonl", []byte(`{"run_id":"a","step":0}`+"\n"))
	f.put("b", "2026-11-29/notes.txt", []byte("no logs today\n"))

	u := f.url("b/2026-11-30/")
	_, errs := collect(expand(t, []string{u}, Filter{}))
	if len(errs) != 1 || !errors.Is(errs[0], fs.ErrNotExist) || errs[0].Error() != u+": no object has this name or prefix" {
		t.Errorf("errors %v", errs)
	}
	// Objects that are not logs: nothing to read, but the prefix exists.
	names, errs := collect(expand(t, []string{f.url("b/2026-11-29")}, Filter{}))
	if len(names) != 0 || len(errs) != 0 {
		t.Errorf("names %q, errors %v", names, errs)
	}
}

func TestS3BadCredentialsNameTheURL(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	f.put("b", "p/a.jsonl", []byte(`{"run_id":"a","step":0}`+"\n"))
	u := f.url("b/p/")
	for _, tc := range []struct{ key, code string }{
		{"AKIDWRONG", "InvalidAccessKeyId"},
		{deniedKey, "AccessDenied"},
	} {
		t.Setenv("AWS_ACCESS_KEY_ID", tc.key)
		res := readSeq(t, expand(t, []string{u}, Filter{}), Options{})
		if res.err == nil {
			t.Fatalf("%s: no error", tc.key)
		}
		msg := res.err.Error()
		if !strings.HasPrefix(msg, u+": list objects: access denied (check the credentials and their permissions): ") || !strings.Contains(msg, tc.code) {
			t.Errorf("%s: %s", tc.key, msg)
		}
		if len(res.rows) != 0 || len(res.names) != 0 {
			t.Errorf("%s: read %d rows of %q", tc.key, len(res.rows), res.names)
		}
	}
}

func TestS3ReadFailingHalfwayIsAFailureNamingTheObject(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	var big strings.Builder
	for i := range 200 {
		fmt.Fprintf(&big, `{"run_id":"b","step":%d,"tool_call":{"name":"search","args":{"q":"padding padding padding"}}}`+"\n", i)
	}
	f.put("b", "p/a.jsonl", []byte(`{"run_id":"a","step":0}`+"\n"))
	f.put("b", "p/b.jsonl", []byte(big.String()))
	f.put("b", "p/c.jsonl.gz", gzipBytes(t, []byte(big.String())))
	f.put("b", "p/d.jsonl", []byte(`{"run_id":"d","step":0}`+"\n"))
	f.cutAfter("b", "p/b.jsonl", big.Len()/2) // mid-line, after complete lines
	f.cutAfter("b", "p/c.jsonl.gz", 300)
	u := f.url("b/p/")

	// Small blocks and chunks: rows before the cut reach emit before the failure.
	res := readSeq(t, expand(t, []string{u}, Filter{}), Options{Workers: 2, BatchRows: 16, blockBytes: 1024, chunkBytes: 1024})
	var se *SourceError
	if !errors.As(res.err, &se) || se.Source != "s3://b/p/b.jsonl" || !errors.Is(res.err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want an unexpected EOF of s3://b/p/b.jsonl", res.err)
	}
	if !strings.HasPrefix(res.err.Error(), "s3://b/p/b.jsonl: ") {
		t.Errorf("message: %s", res.err)
	}
	if res.stats.Files != 1 || len(res.stats.Failed) != 0 {
		t.Errorf("stats %+v: b.jsonl must not count as read", res.stats)
	}

	res = readSeq(t, expand(t, []string{u}, Filter{}), Options{KeepGoing: true, Workers: 2, BatchRows: 16, blockBytes: 1024, chunkBytes: 1024})
	if res.err != nil {
		t.Fatal(res.err)
	}
	var failed []string
	for _, fl := range res.stats.Failed {
		failed = append(failed, fl.Source)
		if !errors.Is(fl, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v", fl.Source, fl.Err)
		}
	}
	// A transfer cut short is a failure, not bad data: the gzip object is not
	// a "truncated_input" reject.
	if !reflect.DeepEqual(failed, []string{"s3://b/p/b.jsonl", "s3://b/p/c.jsonl.gz"}) || res.stats.Rejected != 0 {
		t.Errorf("Failed %q, %d rejects %v", failed, res.stats.Rejected, res.rejects)
	}
	if res.stats.Files != 2 || !slices.ContainsFunc(res.rows, func(r map[string]any) bool { return r["run_id"] == "d" }) {
		t.Errorf("stats %+v: a.jsonl and d.jsonl are read", res.stats)
	}
	var partial int
	for _, r := range res.rows {
		if r["run_id"] == "b" {
			partial++
		}
	}
	if partial == 0 || partial >= 200 {
		t.Errorf("%d rows of b.jsonl; the ones before the cut are analysed, the rest never arrive", partial)
	}
}

func TestS3ListingIsLazy(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	for i := range 300 {
		f.put("b", fmt.Sprintf("p/%03d.jsonl", i), []byte(fmt.Sprintf(`{"run_id":"r%d","step":0}`+"\n", i)))
	}
	withPageSize(t, 10)
	u := f.url("b/p/")

	// A consumer that stops early stops the listing.
	n := 0
	for _, err := range expand(t, []string{u}, Filter{}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 15 {
			break
		}
	}
	if got := f.lists.Load(); got != 2 {
		t.Errorf("15 sources of 300 cost %d list requests, want 2 (of 30)", got)
	}

	// ReadSeq reads while listing and stops the lister when it stops: the
	// first batch fails, after which little more than the look-ahead has been
	// listed.
	f.lists.Store(0)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	var listedAtFirstRow int64
	stop := errors.New("stop")
	_, err := ReadSeq(t.Context(), expand(t, []string{u}, Filter{}), Options{Alloc: mem, Workers: 1},
		func(arrow.RecordBatch) error {
			// Give the lister all the time it wants to run ahead.
			listedAtFirstRow = settle(&f.lists)
			return stop
		})
	mem.AssertSize(t, 0)
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v", err)
	}
	// 16 sources of look-ahead (listAhead) and a few in hand: 3 pages of 10.
	const bound = 3
	if listedAtFirstRow > bound || f.lists.Load() > bound {
		t.Errorf("list requests: %d at the first row, %d in all; want at most %d of 30", listedAtFirstRow, f.lists.Load(), bound)
	}

	// Without a stop, everything is listed and read, in order.
	f.lists.Store(0)
	res := readSeq(t, expand(t, []string{u}, Filter{}), Options{Workers: 4})
	if lists := f.lists.Load(); res.err != nil || len(res.names) != 300 || len(res.rows) != 300 || lists < 30 || lists > 31 {
		t.Fatalf("err %v, %d sources, %d rows, %d list requests", res.err, len(res.names), len(res.rows), f.lists.Load())
	}
	for i, row := range res.rows {
		if row["run_id"] != fmt.Sprintf("r%d", i) || num(row["src_file"]) != fmt.Sprint(i) {
			t.Fatalf("row %d: %v", i, row)
		}
	}
}

// settle waits until a counter has stopped moving (or a few seconds passed),
// and returns it: a goroutine allowed to run ahead without bound would keep
// it moving.
func settle(n *atomic.Int64) int64 {
	last, still := n.Load(), 0
	for range 300 {
		time.Sleep(10 * time.Millisecond)
		if cur := n.Load(); cur != last {
			last, still = cur, 0
		} else if still++; still == 20 {
			break
		}
	}
	return last
}

func TestFileURLs(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"day/b.jsonl":         []byte(`{"run_id":"b","step":0}` + "\n"),
		"day/a.jsonl.gz":      gzipBytes(t, []byte(`{"run_id":"a","step":0}`+"\n")),
		"day/sub/c.ndjson":    []byte(`{"run_id":"c","step":0}` + "\n"),
		"day/.hidden/d.jsonl": []byte(`{"run_id":"d","step":0}` + "\n"),
		"day/notes.txt":       []byte("x\n"),
		"single.log":          []byte(`{"run_id":"s","step":0}` + "\n"),
	})
	slash := filepath.ToSlash(root)
	res := readSeq(t, expand(t, []string{"file://" + slash + "/day/", "file://" + slash + "/single.log"}, Filter{Exclude: []string{"b.*"}}), Options{})
	if res.err != nil {
		t.Fatal(res.err)
	}
	want := []string{"file://" + slash + "/day/a.jsonl.gz", "file://" + slash + "/day/sub/c.ndjson", "file://" + slash + "/single.log"}
	if !reflect.DeepEqual(res.names, want) || len(res.rows) != 3 {
		t.Errorf("sources %q, %d rows; want %q", res.names, len(res.rows), want)
	}

	// Relative, in gocloud's spelling.
	t.Chdir(root)
	names, errs := collect(expand(t, []string{"file://./day/sub"}, Filter{}))
	if len(errs) > 0 || !reflect.DeepEqual(names, []string{"file://./day/sub/c.ndjson"}) {
		t.Errorf("relative: %q %v", names, errs)
	}

	// A missing path is a failure of that URL, found when it is reached.
	missing := "file://" + slash + "/nope"
	res = readSeq(t, expand(t, []string{"file://./single.log", missing}, Filter{}), Options{KeepGoing: true})
	if res.err != nil || len(res.rows) != 1 || len(res.stats.Failed) != 1 ||
		res.stats.Failed[0].Error() != missing+": no such file or directory" || !errors.Is(res.stats.Failed[0], fs.ErrNotExist) {
		t.Errorf("err %v, %d rows, Failed %v", res.err, len(res.rows), res.stats.Failed)
	}
}

func TestFileURLUnreadableDirectoryFailsInRead(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root lists any directory")
	}
	root := writeTree(t, map[string][]byte{"ok/a.jsonl": []byte(`{"run_id":"r","step":0}` + "\n"), "locked/b.jsonl": []byte("x")})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	u := "file://" + filepath.ToSlash(root)
	res := readSeq(t, expand(t, []string{u}, Filter{}), Options{KeepGoing: true})
	if res.err != nil || len(res.rows) != 1 || len(res.stats.Failed) != 1 || res.stats.Failed[0].Source != u+"/locked" || !errors.Is(res.stats.Failed[0], fs.ErrPermission) {
		t.Errorf("err %v, %d rows, Failed %v", res.err, len(res.rows), res.stats.Failed)
	}
}

func TestGSWithoutCredentialsIsAFailureNamingTheURL(t *testing.T) {
	// Credentials named but absent: found out from the file system alone,
	// without the metadata server or the network.
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "missing.json"))
	t.Setenv("STORAGE_EMULATOR_HOST", "")
	t.Setenv("STORAGE_EMULATOR_HOST_GRPC", "")
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	u := "gs://runaway-test-bucket/2026/11/29/"
	seq, err := ExpandArgs(ctx, []string{u}, nil, Filter{})
	if err != nil {
		t.Fatalf("gs:// URL refused: %v", err)
	}
	_, errs := collect(seq)
	var se *SourceError
	if len(errs) != 1 || !errors.As(errs[0], &se) || se.Source != u {
		t.Fatalf("errors %v", errs)
	}
	if msg := errs[0].Error(); !strings.HasPrefix(msg, u+": no Google Cloud credentials (set GOOGLE_APPLICATION_CREDENTIALS") || !strings.Contains(msg, "missing.json") {
		t.Errorf("message: %s", msg)
	}
}

func TestExpandArgsUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		filter Filter
		want   string
	}{
		{[]string{"ftp://host/logs/"}, Filter{}, `ftp://host/logs/: unsupported URL scheme "ftp" (want s3://, gs:// or file://)`},
		{[]string{"S4://b/x"}, Filter{}, `S4://b/x: unsupported URL scheme "s4" (want s3://, gs:// or file://)`},
		{[]string{"s3:///2026/"}, Filter{}, `s3:///2026/: no bucket: write s3://BUCKET/PREFIX`},
		{[]string{"s3://b/a#1.jsonl"}, Filter{}, `s3://b/a#1.jsonl: '#' starts a URL fragment; write it as %23 in a key`},
		{[]string{"s3://user@b/x"}, Filter{}, `s3://user@b/x: s3:// URLs name a bucket, not a user or port`},
		{[]string{"s3://b%zz/x"}, Filter{}, `s3://b%zz/x: malformed URL: invalid URL escape "%zz"`},
		{[]string{"file://server/share"}, Filter{}, `file://server/share: file:// URLs name a local path; host "server" is not local`},
		{[]string{"file:///tmp?create_dir=1"}, Filter{}, `file:///tmp?create_dir=1: file:// URLs take no query parameters`},
		{nil, Filter{Include: []string{"*.jsonl", "[a-"}}, `include pattern "[a-": syntax error in pattern`},
		{nil, Filter{Exclude: []string{`a\`}}, `exclude pattern "a\\": syntax error in pattern`},
		{nil, Filter{Include: []string{"**/*.jsonl"}}, `include pattern "**/*.jsonl": ** is not supported; a pattern without '/' matches the base name at any depth`},
		{nil, Filter{Exclude: []string{"/tmp/*"}}, `exclude pattern "/tmp/*": patterns match paths relative to the directory or prefix given; drop the leading '/'`},
		{nil, Filter{Include: []string{""}}, `include pattern "": empty pattern`},
	} {
		_, err := ExpandArgs(t.Context(), append([]string{"-"}, tc.args...), nil, tc.filter)
		var ue *UsageError
		if !errors.As(err, &ue) || err.Error() != tc.want {
			t.Errorf("%q %+v:\n got  %v\n want %s", tc.args, tc.filter, err, tc.want)
		}
		if strings.Contains(tc.want, "syntax error") && !errors.Is(err, path.ErrBadPattern) {
			t.Errorf("%v is not path.ErrBadPattern", err)
		}
	}
	// A local path that is not there stays what it was: an error, not a usage error.
	_, err := ExpandArgs(t.Context(), []string{filepath.Join(t.TempDir(), "missing.jsonl")}, nil, Filter{})
	var ue *UsageError
	if !errors.Is(err, fs.ErrNotExist) || errors.As(err, &ue) {
		t.Errorf("missing path: %v", err)
	}
}

// Keys with spaces, '+', parentheses and non-ASCII letters are listed and
// read, and every request is signed for the path it is sent to (the fake
// checks each signature), also on the ranged reads of a Parquet object.
func TestS3KeysThatNeedEscaping(t *testing.T) {
	f := newFakeS3(t)
	f.bucket("b")
	keys := []string{"day 1/a+b (copy).jsonl", "day 1/é!.jsonl", "day 1/q=1&x.jsonl"}
	for i, k := range keys {
		f.put("b", k, []byte(fmt.Sprintf(`{"run_id":"r%d","step":0,"state":"ACT"}`+"\n", i)))
	}
	res := readSeq(t, expand(t, []string{f.url("b/day%201/")}, Filter{}), Options{})
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.stats.Steps != int64(len(keys)) || len(res.names) != len(keys) {
		t.Fatalf("read %d steps from %q, want one from each of %q", res.stats.Steps, res.names, keys)
	}
}

// An object store that accepts connections and never answers, or stops
// sending in the middle of an object, fails the read after
// objectStallTimeout with a message saying so, instead of hanging the scan.
func TestObjectStoreThatStallsFailsInsteadOfHanging(t *testing.T) {
	defer func(d time.Duration) { objectStallTimeout = d }(objectStallTimeout)
	objectStallTimeout = 300 * time.Millisecond

	// Accepts, reads the request, answers nothing.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c)
		}
	}()
	silent := "s3://b/p/?endpoint=" + url.QueryEscape("http://"+l.Addr().String()) + "&use_path_style=true&region=us-east-1"
	t.Setenv("AWS_ACCESS_KEY_ID", testAccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	done := make(chan error, 1)
	go func() {
		seq, err := ExpandArgs(context.Background(), []string{silent}, nil, Filter{})
		if err == nil {
			for _, err = range seq {
				if err != nil {
					break
				}
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errStalled) || !strings.Contains(err.Error(), "sent nothing for 300ms") {
			t.Errorf("listing a silent store: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("listing a store that never answers still waits after 20 s")
	}

	// Sends half an object, then nothing, the connection open.
	f := newFakeS3(t)
	f.bucket("b")
	var big strings.Builder
	for i := range 200 {
		fmt.Fprintf(&big, `{"run_id":"b","step":%d,"tool_call":{"name":"search","args":{"q":"padding padding padding"}}}`+"\n", i)
	}
	f.put("b", "p/b.jsonl", []byte(big.String()))
	f.stallAfter("b", "p/b.jsonl", big.Len()/2)
	go func() {
		res := readSeq(t, expand(t, []string{f.url("b/p/")}, Filter{}), Options{Workers: 2})
		done <- res.err
	}()
	select {
	case err := <-done:
		var se *SourceError
		if !errors.As(err, &se) || se.Source != "s3://b/p/b.jsonl" || !errors.Is(err, errStalled) {
			t.Errorf("reading a stalled object: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("reading an object whose transfer stalls still waits after 20 s")
	}
}
