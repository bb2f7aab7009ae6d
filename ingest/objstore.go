package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// What a scan needs of an object store: list the keys under a prefix, in
// key order, a page at a time, and read an object's bytes from an offset.
// S3 (s3.go) and Cloud Storage (gcs.go) each implement it; nothing is
// written, copied or deleted.

// bucket is one bucket of an object store, read only.
type bucket interface {
	// list returns up to max objects whose keys start with prefix, in key
	// order, from the page token ("" for the first page), and the token of
	// the next page ("" after the last).
	list(ctx context.Context, prefix, token string, max int) (objs []objectInfo, next string, err error)
	// read returns the object's bytes from offset off to its end.
	read(ctx context.Context, key string, off int64) (io.ReadCloser, error)
}

// objectInfo is an object as a listing gives it.
type objectInfo struct {
	key  string
	size int64
}

// statusError is a store's refusal with its HTTP status, which says what
// to check (credentials, the bucket's name); msg is what the store said.
type statusError struct {
	status int
	msg    string
}

func (e *statusError) Error() string { return fmt.Sprintf("%s (HTTP %d)", e.msg, e.status) }

// httpStatus is the HTTP status of a store's error, or 0: ours, or the AWS
// SDK's response errors.
func httpStatus(err error) int {
	var se *statusError
	if errors.As(err, &se) {
		return se.status
	}
	var withStatus interface{ HTTPStatusCode() int }
	if errors.As(err, &withStatus) {
		return withStatus.HTTPStatusCode()
	}
	return 0
}

// listError leads a listing failure with what it means: the store's
// message ("operation error S3: ListObjectsV2, https response error
// StatusCode: 403, ...") is precise but does not say what to check.
func listError(err error) error {
	switch httpStatus(err) {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("list objects: access denied (check the credentials and their permissions): %w", err)
	case http.StatusNotFound:
		return fmt.Errorf("list objects: bucket not found: %w", err)
	}
	return fmt.Errorf("list objects: %w", err)
}

// objectReader reads an object from its start, and seeks by asking for
// its bytes from another offset (a ranged read): a Parquet file is read
// footer first, then column chunk by column chunk.
type objectReader struct {
	ctx  context.Context
	b    bucket
	key  string
	size int64 // from the listing
	off  int64
	body io.ReadCloser
}

func (r *objectReader) Read(p []byte) (int, error) {
	if r.body == nil {
		if r.off >= r.size {
			return 0, io.EOF
		}
		body, err := r.b.read(r.ctx, r.key, r.off)
		if err != nil {
			return 0, err
		}
		r.body = body
	}
	n, err := r.body.Read(p)
	r.off += int64(n)
	if err == io.EOF && r.off < r.size {
		// The listing said there is more: the transfer broke, the object
		// did not end.
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (r *objectReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.size
	}
	if offset < 0 {
		return 0, errors.New("seek before the start of the object")
	}
	if offset != r.off && r.body != nil {
		r.body.Close()
		r.body = nil
	}
	r.off = offset
	return offset, nil
}

func (r *objectReader) Close() error {
	if r.body == nil {
		return nil
	}
	err := r.body.Close()
	r.body = nil
	return err
}
