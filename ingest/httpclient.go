package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// objectStallTimeout is how long a request to an object store may go
// without a byte: connecting, waiting for the response's headers, or
// between two reads of its body. A server that accepts a connection and
// never answers fails the request after it (and S3's requests are tried
// again), so no scan waits forever. A variable for the tests.
var objectStallTimeout = 60 * time.Second

// errStalled is the cause of a request cancelled by objectStallTimeout.
var errStalled = errors.New("the object store sent nothing")

// objectClient is the HTTP client of the object stores.
var objectClient = &http.Client{Transport: stallTransport{base: http.DefaultTransport}}

// stallTransport cancels a request that goes objectStallTimeout without a
// byte. Closing a body does not end a read blocked on it; cancelling the
// request's context does.
type stallTransport struct {
	base http.RoundTripper
}

func (t stallTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	timeout := objectStallTimeout
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(timeout, func() { cancel(errStalled) })
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		cancel(nil)
		return nil, stalledErr(ctx, err, timeout)
	}
	resp.Body = &stallBody{body: resp.Body, ctx: ctx, cancel: cancel, timer: timer, timeout: timeout}
	return resp, nil
}

// stalledErr says why a request failed when it was cancelled for a stall.
func stalledErr(ctx context.Context, err error, timeout time.Duration) error {
	if context.Cause(ctx) == errStalled {
		return fmt.Errorf("%w for %s: %v", errStalled, timeout, err)
	}
	return err
}

type stallBody struct {
	body    io.ReadCloser
	ctx     context.Context
	cancel  context.CancelCauseFunc
	timer   *time.Timer
	timeout time.Duration
}

func (b *stallBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.timeout)
	n, err := b.body.Read(p)
	b.timer.Stop()
	if err != nil && err != io.EOF {
		err = stalledErr(b.ctx, err, b.timeout)
	}
	return n, err
}

func (b *stallBody) Close() error {
	b.timer.Stop()
	err := b.body.Close()
	b.cancel(nil)
	return err
}
