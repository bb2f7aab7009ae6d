package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// readFailure marks an error of the raw source (disk, network), as opposed to
// an error of the decompressor: the first is a runtime failure, the second
// means the data is truncated or corrupt and becomes a reject.
type readFailure struct{ err error }

func (e *readFailure) Error() string { return e.err.Error() }
func (e *readFailure) Unwrap() error { return e.err }

type failureTaggingReader struct{ r io.Reader }

func (t failureTaggingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		err = &readFailure{err}
	}
	return n, err
}

func isReadFailure(err error) bool {
	var f *readFailure
	return errors.As(err, &f)
}

// decompressed is a source's bytes after decompression.
type decompressed struct {
	io.Reader
	format string // "", "gzip" or "zstd"
	close  func()
}

// decompress recognises the compression by its magic bytes, not by the file
// name: logs get renamed, and a .jsonl that is really gzip must still be read.
// An error is either a readFailure or a broken stream (see streamBreakReason).
// size is the source's size if known (< 0 if not): a small source gets a
// read buffer no larger than itself, so reading many small inputs (a
// fixture, each minimize trial) does not allocate 256 KiB each.
func decompress(raw io.Reader, size int64) (*decompressed, error) {
	bufSize := 256 << 10
	if size >= 0 && size < int64(bufSize) {
		bufSize = max(int(size), 4<<10)
	}
	br := bufio.NewReaderSize(failureTaggingReader{raw}, bufSize)
	head, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return &decompressed{Reader: br, close: func() {}}, err
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br) // multistream by default: concatenated members are one stream
		if err != nil {
			return &decompressed{Reader: br, format: "gzip", close: func() {}}, err
		}
		return &decompressed{Reader: zr, format: "gzip", close: func() { zr.Close() }}, nil
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			return &decompressed{Reader: br, format: "zstd", close: func() {}}, err
		}
		return &decompressed{Reader: zr, format: "zstd", close: zr.Close}, nil
	}
	return &decompressed{Reader: br, close: func() {}}, nil
}

// streamBreakReason is the reject reason at the line where a compressed
// stream ended early or turned out corrupt.
func streamBreakReason(format string, err error) string {
	if format == "" {
		format = "input"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated " + format + " stream: unexpected EOF"
	}
	return "corrupt " + format + " stream: " + err.Error()
}
