package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeGCS is the part of Cloud Storage's JSON and XML APIs that listing
// and reading objects use, served on 127.0.0.1 the way the storage client
// reaches an emulator (STORAGE_EMULATOR_HOST): object listings as JSON,
// object bytes (whole, by range, or their headers) by path.
type fakeGCS struct {
	objects map[string][]byte // "bucket/key" -> bytes
	ranges  int               // GETs that asked for a range
}

func newFakeGCS(t *testing.T) *fakeGCS {
	t.Helper()
	f := &fakeGCS{objects: map[string][]byte{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL, "http://"))
	t.Setenv("STORAGE_EMULATOR_HOST_GRPC", "")
	return f
}

var modTime = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

func (f *fakeGCS) serve(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/storage/v1/b/"); ok {
		bucket, tail, _ := strings.Cut(rest, "/")
		if tail != "o" {
			http.Error(w, "not served here", http.StatusNotImplemented)
			return
		}
		if bucket == "locked" {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"error":{"code":403,"message":"caller does not have storage.objects.list access"}}`))
			return
		}
		prefix := r.URL.Query().Get("prefix")
		type item struct {
			Bucket  string `json:"bucket"`
			Name    string `json:"name"`
			Size    string `json:"size"`
			Updated string `json:"updated"`
		}
		var items []item
		for k, v := range f.objects {
			b, name, _ := strings.Cut(k, "/")
			if b == bucket && strings.HasPrefix(name, prefix) {
				items = append(items, item{b, name, itoa(len(v)), modTime.Format(time.RFC3339)})
			}
		}
		slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.Name, b.Name) })
		// Pages as the service cuts them: maxResults items, then a token.
		page := map[string]any{"kind": "storage#objects"}
		from, _ := strconv.Atoi(r.URL.Query().Get("pageToken"))
		items = items[min(from, len(items)):]
		if n, err := strconv.Atoi(r.URL.Query().Get("maxResults")); err == nil && n < len(items) {
			items = items[:n]
			page["nextPageToken"] = strconv.Itoa(from + n)
		}
		page["items"] = items
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(page)
		return
	}
	data, ok := f.objects[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.Error(w, "no such object", http.StatusNotFound)
		return
	}
	if r.Header.Get("Range") != "" {
		f.ranges++
	}
	w.Header().Set("X-Goog-Generation", "1")
	w.Header().Set("X-Goog-Metageneration", "1")
	http.ServeContent(w, r, "", modTime, bytes.NewReader(data))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A gs:// prefix lists its objects in key order and reads them: JSON Lines
// from the start, a Parquet table at offsets (the footer first, then its
// column chunks, each by a ranged read).
func TestGSReadsLogsAndParquet(t *testing.T) {
	f := newFakeGCS(t)
	lines := fixtureLines(t)
	f.objects["logs/day/steps.parquet"] = parquetOf(t, stepTableSchema(), tableLines(t, lines), 50)
	f.objects["logs/day/a.jsonl"] = []byte(lines[0] + "\n")
	f.objects["logs/other/b.jsonl"] = []byte(lines[1] + "\n")
	withPageSize(t, 1) // every object on a page of its own
	res := readSeq(t, expand(t, []string{"gs://logs/day/"}, Filter{}), Options{})
	if res.err != nil || len(res.rejects) != 0 {
		t.Fatalf("err %v, rejects %v", res.err, reasons(res.rejects))
	}
	if want := []string{"gs://logs/day/a.jsonl", "gs://logs/day/steps.parquet"}; !slices.Equal(res.names, want) {
		t.Errorf("sources %q, want %q", res.names, want)
	}
	if len(res.rows) != len(lines)+1 {
		t.Errorf("%d rows, want %d", len(res.rows), len(lines)+1)
	}
	if f.ranges == 0 {
		t.Error("the Parquet object was not read by ranges")
	}
}

// A bucket the credentials may not list is a failure that says so and
// names the URL, not an empty listing.
func TestGSDeniedIsAFailureNamingTheURL(t *testing.T) {
	newFakeGCS(t)
	u := "gs://locked/logs/"
	_, errs := collect(expand(t, []string{u}, Filter{}))
	var se *SourceError
	if len(errs) != 1 || !errors.As(errs[0], &se) || se.Source != u || !strings.Contains(errs[0].Error(), "access denied") ||
		!strings.Contains(errs[0].Error(), "storage.objects.list") {
		t.Fatalf("errors %v", errs)
	}
}

// A gs:// parameter runaway does not take is refused by name, not ignored.
func TestGSUnknownParameter(t *testing.T) {
	newFakeGCS(t)
	_, errs := collect(expand(t, []string{"gs://logs/day/?grpc=true"}, Filter{}))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `unknown parameter "grpc"`) {
		t.Fatalf("errors %v", errs)
	}
}
