package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// releaseExecutablePages unmaps the pages of the runaway binary that the
// process holds but has no use for: by the time a scan starts, package
// initialisation has run code and read tables of every dependency (cloud
// SDKs, Parquet, gRPC), and the kernel mapped around each page it touched.
// On the 1 GB bench corpus about 39 MiB of the binary is resident when the
// scan starts, and the scan itself needs about 10 (RssFile 14.5-15 MiB
// mid-scan, libc included). Resident pages count against --max-memory
// (heapBudget subtracts them from what the heap may use), so unmapping them
// gives the heap that room: 1 GB at --max-memory 64MiB took 15% less CPU
// with peak RSS 69 -> 53 MiB, at the default 1GiB peak RSS 157 -> 133 MiB
// (docs/performance.md, "Measurements behind specific choices"). Pages the
// scan needs come back from the page cache on first use; none is lost, since
// only clean file pages are unmapped.
//
// Only the binary's read-only mappings with no anonymous (copied-on-write)
// page are released: a position-independent binary's relocated read-only
// data is such a copy, and dropping it would bring back the file's
// unrelocated bytes.
func releaseExecutablePages() {
	exe, err := os.Readlink("/proc/self/exe")
	// A binary deleted or replaced since it started reads "path (deleted)":
	// names with spaces are left alone rather than matched loosely.
	if err != nil || strings.Contains(exe, " ") {
		return
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return
	}
	ranges := cleanReadOnlyMappings(f, exe)
	f.Close()
	for _, r := range ranges {
		// The ranges are this process's own mappings of its executable, read
		// from the kernel a moment ago. (unix.Madvise takes a []byte, which
		// would mean making a pointer from an address.)
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, r[0], r[1]-r[0], unix.MADV_DONTNEED)
	}
}

// cleanReadOnlyMappings reads an smaps file and returns the address ranges
// of the read-only mappings of path whose pages are all the file's own.
func cleanReadOnlyMappings(smaps io.Reader, path string) [][2]uintptr {
	var (
		out      [][2]uintptr
		cur      mapping
		inside   bool // cur is one of path's read-only mappings
		copied   bool // it has anonymous pages
		sawCount bool // it has an Anonymous line (an smaps without one is not trusted)
	)
	flush := func() {
		if inside && sawCount && !copied {
			out = append(out, [2]uintptr{cur.start, cur.end})
		}
		inside, copied, sawCount = false, false, false
	}
	sc := bufio.NewScanner(smaps)
	for sc.Scan() {
		line := sc.Bytes()
		if m, ok := parseMapping(line); ok {
			flush()
			cur = m
			inside = m.name == path && (m.perms == "r-xp" || m.perms == "r--p")
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("Anonymous:")); ok && inside {
			n, ok := kilobytes(v)
			sawCount, copied = ok, !ok || n != 0
		}
	}
	flush()
	return out
}
