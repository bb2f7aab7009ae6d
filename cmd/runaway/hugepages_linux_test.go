package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"unsafe"
)

func TestHugePagesWanted(t *testing.T) {
	for _, c := range []struct {
		thp, godebug, overcommit string
		want                     bool
	}{
		{"always madvise [never]\n", "", "0\n", false},
		{"always [madvise] never\n", "", "0\n", true},
		{"[always] madvise never\n", "", "0\n", false}, // the kernel does it already
		{"", "", "0\n", false},                         // no THP in this kernel
		{"always [madvise] never\n", "", "1\n", true},
		{"always [madvise] never\n", "", "2\n", false}, // strict accounting
		{"always [madvise] never\n", "disablethp=1", "0\n", false},
		{"always [madvise] never\n", "gctrace=1, disablethp=1", "0\n", false},
		{"always [madvise] never\n", "disablethp=1,disablethp=0", "0\n", true}, // the last wins
		{"always [madvise] never\n", "disablethp=0", "0\n", true},
		{"always [madvise] never\n", "madvdontneed=1", "0\n", true},
	} {
		if got := hugePagesWanted(c.thp, c.godebug, c.overcommit); got != c.want {
			t.Errorf("hugePagesWanted(%q, %q, %q) = %v, want %v", c.thp, c.godebug, c.overcommit, got, c.want)
		}
	}
}

func TestHugeHeapBytes(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		maxMemory int64
		ram       uint64
		want      int64
	}{
		{64 * mib, 16 << 30, 0}, // too tight a budget: no advice
		{127 * mib, 16 << 30, 0},
		{128 * mib, 16 << 30, 128 * mib},
		{1 << 30, 16 << 30, 256 * mib}, // the default budget: the heap stays under 256 MiB
		{1 << 30, 512 * mib, 128 * mib},
		{1 << 30, 0, 256 * mib}, // RAM unknown
		{200*mib + 12345, 16 << 30, 200 * mib},
	} {
		if got := hugeHeapBytes(c.maxMemory, c.ram); got != c.want {
			t.Errorf("hugeHeapBytes(%d MiB, %d MiB RAM) = %d MiB, want %d MiB", c.maxMemory/mib, c.ram/mib, got/mib, c.want/mib)
		}
	}
}

// A maps file as a Go program with cgo shows it: the heap in pieces (split
// where the runtime named them or where advice differs), its reservation
// around it, the C allocator's [heap], thread stacks with guard pages.
const sampleMaps = `00400000-023e8000 r-xp 00000000 fd:01 1234 /usr/local/bin/runaway
04913000-0696d000 rw-p 00000000 00:00 0 
42486000-424a7000 rw-p 00000000 00:00 0                                  [heap]
424a7000-424c8000 rw-p 00000000 00:00 0 
25bdb0000000-25bdb0400000 ---p 00000000 00:00 0 
25bdb0400000-25bdb0800000 rw-p 00000000 00:00 0                          [anon: Go: heap]
25bdb0800000-25bdb4c00000 rw-p 00000000 00:00 0 
25bdb4c00000-25bdb5000000 rw-p 00000000 00:00 0                          [anon: Go: heap]
25bdb5000000-25bdb8000000 ---p 00000000 00:00 0 
7f1094599000-7f109459a000 ---p 00000000 00:00 0 
7f109459a000-7f1094d9a000 rw-p 00000000 00:00 0 
7f1094d9a000-7f1094f1a000 rw-p 00000000 00:00 0 
7ffc20efa000-7ffc20f1b000 rw-p 00000000 00:00 0                          [stack]
`

func TestAnonRunAround(t *testing.T) {
	for _, c := range []struct {
		name   string
		p      uintptr
		lo, hi uintptr
		ok     bool
	}{
		{"inside the heap's middle piece", 0x25bdb1000000, 0x25bdb0400000, 0x25bdb5000000, true},
		{"inside its first, named piece", 0x25bdb0400010, 0x25bdb0400000, 0x25bdb5000000, true},
		{"at its last byte", 0x25bdb4ffffff, 0x25bdb0400000, 0x25bdb5000000, true},
		{"in the reservation above it", 0x25bdb5000000, 0, 0, false},
		{"a thread's stack and the mapping after it", 0x7f1094e00000, 0x7f109459a000, 0x7f1094f1a000, true},
		{"next to the C allocator's [heap]", 0x424b0000, 0x424a7000, 0x424c8000, true},
		{"in the C allocator's [heap]", 0x42490000, 0, 0, false},
		{"in the binary", 0x500000, 0, 0, false},
		{"unmapped", 0x1000, 0, 0, false},
	} {
		lo, hi, ok := anonRunAround(strings.NewReader(sampleMaps), c.p)
		if lo != c.lo || hi != c.hi || ok != c.ok {
			t.Errorf("%s (%#x): got %#x-%#x %v, want %#x-%#x %v", c.name, c.p, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
	if _, _, ok := anonRunAround(strings.NewReader("garbage\n0-0 rw-p 0 0 0\nzz-yy rw-p 0 0 0\n"), 0); ok {
		t.Error("a maps file without mappings gave a run")
	}
}

// TestAdviseHeapHugePagesAdvisesTheHeap checks the effect on this process:
// memory the heap hands out afterwards lies in a mapping advised for huge
// pages, and growing the heap to advise it made nothing resident.
func TestAdviseHeapHugePagesAdvisesTheHeap(t *testing.T) {
	if !hugePagesWanted(readSmallFile("/sys/kernel/mm/transparent_hugepage/enabled"),
		os.Getenv("GODEBUG"), readSmallFile("/proc/sys/vm/overcommit_memory")) {
		t.Skip("transparent huge pages are not on request here (or GODEBUG or the overcommit policy says no)")
	}
	// Writing 5 to clear_refs resets the peak (VmHWM) to what is resident now.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak resident size: %v", err)
	}
	before := statusBytes(t, "VmHWM:")
	adviseHeapHugePages(256 << 20)
	if peak := statusBytes(t, "VmHWM:"); peak-before > 32<<20 {
		t.Errorf("peak resident memory grew by %d MiB while advising a 256 MiB heap: its pages were touched", (peak-before)>>20)
	}
	later := make([]byte, 8<<20)
	flags := vmFlagsAt(t, uintptr(unsafe.Pointer(unsafe.SliceData(later))))
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("an 8 MiB slice made after the advice lies in a mapping with VmFlags %q, want hg (MADV_HUGEPAGE)", flags)
	}
}

// statusBytes reads a size field of /proc/self/status, such as "VmHWM:".
func statusBytes(t *testing.T, field string) int64 {
	t.Helper()
	for line := range strings.SplitSeq(readSmallFile("/proc/self/status"), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			n, ok := kilobytes([]byte(v))
			if !ok {
				t.Fatalf("%s %q", field, v)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// vmFlagsAt returns the VmFlags line of the mapping holding p.
func vmFlagsAt(t *testing.T, p uintptr) string {
	t.Helper()
	flags := smapsValues(t, func(m mapping) bool { return m.contains(p) }, "VmFlags:")
	if len(flags) == 0 {
		t.Fatalf("no mapping in /proc/self/smaps holds %#x", p)
	}
	return flags[0]
}

// smapsValues returns the values of field ("Rss:") of the mappings in
// /proc/self/smaps that keep accepts.
func smapsValues(t *testing.T, keep func(mapping) bool, field string) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	var values []string
	inside := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := parseMapping(sc.Bytes()); ok {
			inside = keep(m)
			continue
		}
		if v, ok := strings.CutPrefix(sc.Text(), field); ok && inside {
			values = append(values, strings.TrimSpace(v))
		}
	}
	return values
}
