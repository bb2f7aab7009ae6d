package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

// An smaps excerpt as a position-independent build shows it: text, clean
// read-only data, relocated read-only data (copied on write), writable data,
// and a library.
const sampleSmaps = `555555554000-555555600000 r-xp 00000000 fd:01 42 /usr/local/bin/runaway
Rss:                 600 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me
555555600000-555555700000 r--p 000ac000 fd:01 42 /usr/local/bin/runaway
Rss:                 300 kB
Anonymous:             0 kB
555555700000-555555710000 r--p 001ac000 fd:01 42 /usr/local/bin/runaway
Rss:                  64 kB
Anonymous:            64 kB
555555710000-555555720000 rw-p 001bc000 fd:01 42 /usr/local/bin/runaway
Rss:                  64 kB
Anonymous:            12 kB
7f0000000000-7f0000100000 r-xp 00000000 fd:01 77 /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                 800 kB
Anonymous:             0 kB
7f0000200000-7f0000300000 r--p 00000000 fd:01 42 /usr/local/bin/runaway
Rss:                  20 kB
`

func TestCleanReadOnlyMappings(t *testing.T) {
	got := cleanReadOnlyMappings(strings.NewReader(sampleSmaps), "/usr/local/bin/runaway")
	want := [][2]uintptr{{0x555555554000, 0x555555600000}, {0x555555600000, 0x555555700000}}
	if len(got) != len(want) {
		t.Fatalf("got %d ranges %#x, want %#x: only the clean read-only mappings of the binary (not copied-on-write data, writable data, a library, or a mapping whose Anonymous line is missing)", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("range %d: %#x, want %#x", i, got[i], want[i])
		}
	}
}

// TestReleaseExecutablePages checks the effect on this test binary: fewer of
// its pages are resident afterwards, and its code still runs.
func TestReleaseExecutablePages(t *testing.T) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skipf("no /proc/self/exe: %v", err)
	}
	before := exeResidentKB(t, exe)
	releaseExecutablePages()
	after := exeResidentKB(t, exe)
	if after >= before {
		t.Errorf("the binary's resident pages: %d kB before, %d kB after; want fewer", before, after)
	}
	// The rest of this test binary's tests run after it: code and tables
	// come back from the page cache as they are used.
}

// exeResidentKB sums the Rss of the mappings of path in /proc/self/smaps.
func exeResidentKB(t *testing.T, path string) int64 {
	t.Helper()
	var total int64
	for _, v := range smapsValues(t, func(m mapping) bool { return m.name == path }, "Rss:") {
		n, ok := kilobytes([]byte(v))
		if !ok {
			t.Fatalf("Rss %q", v)
		}
		total += n >> 10
	}
	return total
}

func TestPacerBudgetFollowsFilePages(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	p := &gcPacer{maxMemory: 256 << 20}
	p.budget(10 << 20)
	first := debug.SetMemoryLimit(-1)
	if first != heapBudget(256<<20, 10<<20) {
		t.Fatalf("limit %d MiB, want heapBudget's %d MiB", first>>20, heapBudget(256<<20, 10<<20)>>20)
	}
	p.budget(40 << 20) // the binary's pages came back
	if got := debug.SetMemoryLimit(-1); got != first-30<<20 {
		t.Errorf("limit after 30 MiB more file pages: %d MiB, want %d MiB", got>>20, (first-30<<20)>>20)
	}
	if p.headroom != min(heapBudget(256<<20, 40<<20)/2, 64<<20) {
		t.Errorf("headroom %d MiB not recomputed from the new limit", p.headroom>>20)
	}
}
