package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Spool keeps a copy of the inputs that cannot be read twice (a FIFO, a
// process substitution, a device, standard input) as they are first read,
// so that a later read of the same arguments (scan's html timelines)
// reads the copy instead of waiting on a pipe that has no writer any more
// or reading whatever a new writer sends. Regular files are read again
// from where they are; only the others cost their size on disk, under
// Dir, until Close.
type Spool struct {
	dir    string
	mu     sync.Mutex
	copies map[string]*spoolCopy
}

type spoolCopy struct {
	path     string
	complete bool // the first read reached the input's end
}

// NewSpool is a spool that keeps its copies under dir ("" is the system's
// temporary directory).
func NewSpool(dir string) *Spool { return &Spool{dir: dir, copies: map[string]*spoolCopy{}} }

// Close removes the copies.
func (s *Spool) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, c := range s.copies {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	s.copies = map[string]*spoolCopy{}
	return errors.Join(errs...)
}

// open opens the input named key: the first time with open, copying what
// is read, and then from the copy.
func (s *Spool) open(key string, open func() (io.ReadCloser, error)) (io.ReadCloser, error) {
	s.mu.Lock()
	c := s.copies[key]
	s.mu.Unlock()
	if c != nil {
		if !c.complete {
			return nil, fmt.Errorf("%s cannot be read again (a pipe or standard input), and its first read did not reach its end", key)
		}
		return os.Open(c.path)
	}
	rc, err := open()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(s.dir, "runaway-spool-*")
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("keeping a copy of %s to read it again: %w", key, err)
	}
	c = &spoolCopy{path: f.Name()}
	s.mu.Lock()
	s.copies[key] = c
	s.mu.Unlock()
	return &teeReader{src: rc, copy: f, done: func() { s.mu.Lock(); c.complete = true; s.mu.Unlock() }}, nil
}

// teeReader reads src and writes what it read to copy; done is called
// when src ends.
type teeReader struct {
	src  io.ReadCloser
	copy *os.File
	done func()
	err  error // a failed write to the copy
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	if n > 0 && t.err == nil {
		if _, werr := t.copy.Write(p[:n]); werr != nil {
			t.err = fmt.Errorf("keeping a copy to read it again: %w", werr)
		}
	}
	if errors.Is(err, io.EOF) && t.err == nil {
		t.done()
	}
	if t.err != nil && err == nil {
		err = t.err
	}
	return n, err
}

func (t *teeReader) Close() error {
	err := t.src.Close()
	if cerr := t.copy.Close(); err == nil {
		err = cerr
	}
	return err
}
