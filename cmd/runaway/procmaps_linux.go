package main

import (
	"bytes"
	"strconv"
	"strings"
)

// mapping is a line of /proc/self/maps, or the first line of a mapping in
// /proc/self/smaps: "start-end perms offset dev inode [name]".
type mapping struct {
	start, end uintptr
	perms      string
	name       string // a path, or a kernel name ("[heap]", "[anon:...]"); "" for anonymous memory
}

// parseMapping reads a mapping's line; ok is false for any other line
// (smaps' "Rss:   12 kB" and the like).
func parseMapping(line []byte) (m mapping, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 5 {
		return m, false
	}
	from, to, cut := bytes.Cut(fields[0], []byte{'-'})
	if !cut {
		return m, false
	}
	a, errA := strconv.ParseUint(string(from), 16, 64)
	b, errB := strconv.ParseUint(string(to), 16, 64)
	if errA != nil || errB != nil || b <= a {
		return m, false
	}
	m = mapping{start: uintptr(a), end: uintptr(b), perms: string(fields[1])}
	if len(fields) > 5 {
		m.name = string(bytes.Join(fields[5:], []byte{' '}))
	}
	return m, true
}

// contains reports whether address p lies in m.
func (m mapping) contains(p uintptr) bool { return m.start <= p && p < m.end }

// anonymousRW reports whether m is private read-write memory with no file
// behind it: no name, or a name the kernel gives anonymous memory
// ("[anon:...]", which is how the runtime labels its heap where the kernel
// lets it); "[heap]" is the C allocator's, "[stack]" a thread's.
func (m mapping) anonymousRW() bool {
	return m.perms == "rw-p" && (m.name == "" || strings.HasPrefix(m.name, "[anon:"))
}

// kilobytes reads the value of a size line of smaps or status after its
// key ("  1234 kB"), in bytes.
func kilobytes(v []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))), 10, 64)
	return n << 10, err == nil
}
