package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/gcerrors"
)

// gs:// is read through Cloud Storage's public HTTP interface: the JSON API
// lists objects, the XML API reads their bytes (by range), with an OAuth2
// token from Application Default Credentials. A scan only lists and
// reads, and Google's Go client for all of Cloud Storage brings gRPC,
// xDS and OpenTelemetry with it: a third of the binary, and 20 MiB of
// memory at start. STORAGE_EMULATOR_HOST points both at an emulator, as
// the official clients do.

// gcsBucket is a read-only gocloud.dev/blob driver for one bucket.
type gcsBucket struct {
	client  *http.Client
	jsonAPI string // https://storage.googleapis.com/storage/v1
	xmlAPI  string // https://storage.googleapis.com
	bucket  string
}

// openGCS returns a bucket read through client (which adds the token).
// universeDomain, when set, is the Google Cloud universe the bucket is in.
func openGCS(client *http.Client, bucket, universeDomain string) *blob.Bucket {
	host := "https://storage.googleapis.com"
	if universeDomain != "" && universeDomain != "googleapis.com" {
		host = "https://storage." + universeDomain
	}
	if e := os.Getenv("STORAGE_EMULATOR_HOST"); e != "" {
		host = e
		if !strings.Contains(host, "://") {
			host = "http://" + host
		}
	}
	host = strings.TrimSuffix(host, "/")
	return blob.NewBucket(&gcsBucket{client: client, jsonAPI: host + "/storage/v1", xmlAPI: host, bucket: bucket})
}

// gcsError is a failed request: its status and what the service said.
type gcsError struct {
	status int
	msg    string
}

func (e *gcsError) Error() string {
	return fmt.Sprintf("Cloud Storage: %s (HTTP %d)", e.msg, e.status)
}

// errGCSReadOnly is what the methods a scan never calls return.
var errGCSReadOnly = errors.New("Cloud Storage: runaway only lists and reads objects")

func (b *gcsBucket) ErrorCode(err error) gcerrors.ErrorCode {
	var ge *gcsError
	switch {
	case errors.As(err, &ge) && ge.status == http.StatusNotFound:
		return gcerrors.NotFound
	case errors.As(err, &ge) && (ge.status == http.StatusUnauthorized || ge.status == http.StatusForbidden):
		return gcerrors.PermissionDenied
	case errors.Is(err, errGCSReadOnly):
		return gcerrors.Unimplemented
	}
	return gcerrors.Unknown
}

func (b *gcsBucket) As(any) bool             { return false }
func (b *gcsBucket) ErrorAs(error, any) bool { return false }
func (b *gcsBucket) Close() error            { return nil }

// do sends a request and returns the response, or the service's error.
func (b *gcsBucket) do(ctx context.Context, method, u string, header http.Header) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return nil, &gcsError{status: resp.StatusCode, msg: msg}
}

// gcsObject is the part of an object's metadata a scan reads.
type gcsObject struct {
	Name        string    `json:"name"`
	Size        string    `json:"size"` // int64 as a string, as the JSON API writes it
	Updated     time.Time `json:"updated"`
	ContentType string    `json:"contentType"`
}

func (o *gcsObject) size() int64 {
	n, _ := strconv.ParseInt(o.Size, 10, 64)
	return n
}

func (b *gcsBucket) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	q := url.Values{}
	q.Set("prefix", opts.Prefix)
	if opts.Delimiter != "" {
		q.Set("delimiter", opts.Delimiter)
	}
	if opts.PageSize > 0 {
		q.Set("maxResults", strconv.Itoa(opts.PageSize))
	}
	if len(opts.PageToken) > 0 {
		q.Set("pageToken", string(opts.PageToken))
	}
	q.Set("fields", "items(name,size,updated,contentType),prefixes,nextPageToken")
	if opts.BeforeList != nil {
		if err := opts.BeforeList(func(any) bool { return false }); err != nil {
			return nil, err
		}
	}
	resp, err := b.do(ctx, http.MethodGet, b.jsonAPI+"/b/"+url.PathEscape(b.bucket)+"/o?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var page struct {
		Items         []gcsObject `json:"items"`
		Prefixes      []string    `json:"prefixes"`
		NextPageToken string      `json:"nextPageToken"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, fmt.Errorf("Cloud Storage: listing: %v", err)
	}
	out := &driver.ListPage{}
	for i := range page.Items {
		o := &page.Items[i]
		out.Objects = append(out.Objects, &driver.ListObject{Key: o.Name, ModTime: o.Updated, Size: o.size()})
	}
	for _, p := range page.Prefixes {
		out.Objects = append(out.Objects, &driver.ListObject{Key: p, IsDir: true})
	}
	if page.NextPageToken != "" {
		out.NextPageToken = []byte(page.NextPageToken)
	}
	return out, nil
}

func (b *gcsBucket) Attributes(ctx context.Context, key string) (*driver.Attributes, error) {
	resp, err := b.do(ctx, http.MethodGet, b.jsonAPI+"/b/"+url.PathEscape(b.bucket)+"/o/"+url.PathEscape(key), nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var o gcsObject
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil {
		return nil, fmt.Errorf("Cloud Storage: %s: %v", key, err)
	}
	return &driver.Attributes{ContentType: o.ContentType, ModTime: o.Updated, Size: o.size()}, nil
}

// gcsReader is an object's bytes from offset, as one response.
type gcsReader struct {
	body  io.ReadCloser
	attrs driver.ReaderAttributes
}

func (r *gcsReader) Read(p []byte) (int, error)           { return r.body.Read(p) }
func (r *gcsReader) Close() error                         { return r.body.Close() }
func (r *gcsReader) Attributes() *driver.ReaderAttributes { return &r.attrs }
func (r *gcsReader) As(any) bool                          { return false }

func (b *gcsBucket) NewRangeReader(ctx context.Context, key string, offset, length int64, _ *driver.ReaderOptions) (driver.Reader, error) {
	method, h := http.MethodGet, http.Header{}
	switch {
	case length == 0:
		method = http.MethodHead
	case length > 0:
		h.Set("Range", fmt.Sprintf("bytes=%d-%d", offset, offset+length-1))
	case offset > 0:
		h.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	// Bytes as stored: a gzip-encoded object is read as its gzip stream,
	// which ingest recognises by its magic.
	h.Set("Accept-Encoding", "gzip")
	resp, err := b.do(ctx, method, b.xmlAPI+"/"+url.PathEscape(b.bucket)+"/"+escapeKey(key), h)
	if err != nil {
		return nil, err
	}
	r := &gcsReader{body: resp.Body, attrs: driver.ReaderAttributes{ContentType: resp.Header.Get("Content-Type"), Size: resp.ContentLength}}
	if cr := resp.Header.Get("Content-Range"); cr != "" {
		if _, total, ok := strings.Cut(cr, "/"); ok {
			if n, err := strconv.ParseInt(total, 10, 64); err == nil {
				r.attrs.Size = n
			}
		}
	}
	if lm, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		r.attrs.ModTime = lm
	}
	if method == http.MethodHead {
		resp.Body.Close()
		r.body = io.NopCloser(strings.NewReader(""))
	}
	return r, nil
}

// escapeKey escapes an object name for a URL path, keeping its slashes.
func escapeKey(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

func (b *gcsBucket) NewTypedWriter(context.Context, string, string, *driver.WriterOptions) (driver.Writer, error) {
	return nil, errGCSReadOnly
}
func (b *gcsBucket) Copy(context.Context, string, string, *driver.CopyOptions) error {
	return errGCSReadOnly
}
func (b *gcsBucket) Delete(context.Context, string, *driver.DeleteOptions) error {
	return errGCSReadOnly
}
func (b *gcsBucket) SignedURL(context.Context, string, *driver.SignedURLOptions) (string, error) {
	return "", errGCSReadOnly
}
