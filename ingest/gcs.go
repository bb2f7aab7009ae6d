package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// gs:// is read through Cloud Storage's public HTTP interface: the JSON API
// lists objects, the XML API reads their bytes (by range), with an OAuth2
// token from Application Default Credentials. A scan only lists and
// reads, and Google's Go client for all of Cloud Storage brings gRPC,
// xDS and OpenTelemetry with it: a third of the binary, and 20 MiB of
// memory at start. STORAGE_EMULATOR_HOST points both at an emulator, as
// the official clients do.

// gcsBucket is one Cloud Storage bucket.
type gcsBucket struct {
	client  *http.Client
	jsonAPI string // https://storage.googleapis.com/storage/v1
	xmlAPI  string // https://storage.googleapis.com
	bucket  string
}

// openGCS returns a bucket read through client (which adds the token).
// universeDomain, when set, is the Google Cloud universe the bucket is in.
func openGCS(client *http.Client, bucket, universeDomain string) *gcsBucket {
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
	return &gcsBucket{client: client, jsonAPI: host + "/storage/v1", xmlAPI: host, bucket: bucket}
}

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
	return nil, &statusError{status: resp.StatusCode, msg: "Cloud Storage: " + msg}
}

// gcsObject is the part of an object's metadata a scan reads.
type gcsObject struct {
	Name string `json:"name"`
	Size string `json:"size"` // int64 as a string, as the JSON API writes it
}

func (b *gcsBucket) list(ctx context.Context, prefix, token string, max int) ([]objectInfo, string, error) {
	q := url.Values{}
	q.Set("prefix", prefix)
	q.Set("maxResults", strconv.Itoa(max))
	if token != "" {
		q.Set("pageToken", token)
	}
	q.Set("fields", "items(name,size),nextPageToken")
	resp, err := b.do(ctx, http.MethodGet, b.jsonAPI+"/b/"+url.PathEscape(b.bucket)+"/o?"+q.Encode(), nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var page struct {
		Items         []gcsObject `json:"items"`
		NextPageToken string      `json:"nextPageToken"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, "", fmt.Errorf("Cloud Storage: listing: %v", err)
	}
	objs := make([]objectInfo, 0, len(page.Items))
	for _, o := range page.Items {
		size, err := strconv.ParseInt(o.Size, 10, 64)
		if err != nil {
			return nil, "", fmt.Errorf("Cloud Storage: listing: object %q has size %q", o.Name, o.Size)
		}
		objs = append(objs, objectInfo{key: o.Name, size: size})
	}
	return objs, page.NextPageToken, nil
}

func (b *gcsBucket) read(ctx context.Context, key string, off int64) (io.ReadCloser, error) {
	h := http.Header{}
	if off > 0 {
		h.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	// Bytes as stored: a gzip-encoded object is read as its gzip stream,
	// which ingest recognises by its magic.
	h.Set("Accept-Encoding", "gzip")
	resp, err := b.do(ctx, http.MethodGet, b.xmlAPI+"/"+url.PathEscape(b.bucket)+"/"+escapeKey(key), h)
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// escapeKey escapes an object name for a URL path, keeping its slashes.
func escapeKey(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
