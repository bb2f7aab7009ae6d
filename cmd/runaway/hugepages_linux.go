package main

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageSize is the x86-64 and arm64 (4 KiB granule) PMD size, the only
// transparent huge page size the advice below asks for.
const hugePageSize = 2 << 20

// adviseHeapHugePages asks the kernel to back the Go heap with 2 MiB pages
// where transparent huge pages are on request only ("madvise", the setting
// of most distributions' kernels). The Go runtime does not ask (it advises
// only some of its own metadata), so the heap gets 4 KiB pages: on the 1 GB
// bench corpus at --max-memory 128MiB the scan takes about 20,000 page
// faults, several microseconds each in a virtual machine, and misses the TLB
// on every hash table lookup. Advised, it takes about 5,000 and 3-5% less
// CPU, as with THP "always"; at the default 1GiB, 32,000 faults become
// 4,500 and the CPU drops 6-10% (docs/performance.md, "Measurements behind
// specific choices").
//
// The advice sticks to a mapping, and the runtime maps heap memory only as
// the heap grows, so the heap is first grown: a slice of hugeHeapBytes is
// allocated (fresh pages are not zeroed, so nothing is touched), the run of
// anonymous mappings holding the heap is advised, and the slice is dropped
// and its pages handed back at once, so that the memory limit does not
// count them and none of them was ever resident. Growth past that size gets
// 4 KiB pages again, which is only slower.
//
// Nothing is done when THP is "always" (already huge) or "never", when
// GODEBUG has disablethp=1 (the user asked the runtime for small pages), or
// when the kernel refuses to overcommit (vm.overcommit_memory=2), where
// mapping that much at once could fail where the scan itself would not.
// Every failure leaves the heap as the runtime made it: this is a hint.
func adviseHeapHugePages(maxMemory int64) {
	heapBytes := hugeHeapBytes(maxMemory, physicalMemory())
	if heapBytes == 0 || !hugePagesWanted(readSmallFile("/sys/kernel/mm/transparent_hugepage/enabled"),
		os.Getenv("GODEBUG"), readSmallFile("/proc/sys/vm/overcommit_memory")) {
		return
	}
	grown := make([]byte, heapBytes)
	lo, hi, ok := heapRun(uintptr(unsafe.Pointer(unsafe.SliceData(grown))))
	runtime.KeepAlive(grown) // dead from here: the collection below frees it
	if ok {
		adviseHuge(lo, hi)
	}
	debug.FreeOSMemory()
}

// hugeHeapBytes is how much heap to advise for a --max-memory budget on a
// machine with ramBytes of memory: the budget, at most 256 MiB (the heap of
// a spilling scan stays under it: at the default 1GiB the whole process
// peaks near 135 MiB) and at most a quarter of the machine, so that the one mapping is
// never one the kernel would refuse. Under 128MiB nothing: the memory limit
// is then so tight that the runtime keeps handing pages back, which splits
// the huge pages again (1 GB at 64MiB: 16,000 faults left, the same CPU,
// and 8 MiB more RSS; once the binary's pages were released too, -1.9% CPU
// in 4 of 6 rounds and 1 MiB more RSS: noise, at the budget where memory
// matters most).
func hugeHeapBytes(maxMemory int64, ramBytes uint64) int64 {
	if maxMemory < 128<<20 {
		return 0
	}
	n := min(maxMemory, 256<<20)
	if ramBytes > 0 {
		n = min(n, int64(ramBytes/4))
	}
	return n &^ (hugePageSize - 1)
}

// physicalMemory is the machine's RAM in bytes, 0 if unknown.
func physicalMemory() uint64 {
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) != nil {
		return 0
	}
	return uint64(info.Totalram) * uint64(info.Unit)
}

// hugePagesWanted reads the THP setting, GODEBUG and the overcommit policy.
func hugePagesWanted(thpEnabled, godebug, overcommit string) bool {
	if !strings.Contains(thpEnabled, "[madvise]") {
		return false
	}
	if strings.TrimSpace(overcommit) == "2" {
		return false
	}
	// The last setting of a repeated key wins, as in the runtime.
	disabled := false
	for kv := range strings.SplitSeq(godebug, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "disablethp="); ok {
			disabled = v != "0"
		}
	}
	return !disabled
}

// heapRun finds in /proc/self/maps the run of adjacent anonymous read-write
// mappings that holds address p: the heap from its base to its top, since
// the runtime maps it upwards in one piece (one mapping or several, split
// where they differ in name or advice).
func heapRun(p uintptr) (lo, hi uintptr, ok bool) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	return anonRunAround(f, p)
}

// anonRunAround reads a maps file and returns the run of adjacent anonymous
// private read-write mappings around p.
func anonRunAround(maps io.Reader, p uintptr) (lo, hi uintptr, ok bool) {
	found := false
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		m, parsed := parseMapping(sc.Bytes())
		if !parsed {
			continue
		}
		anon := m.anonymousRW()
		if !anon || m.start != hi {
			if found {
				break
			}
			lo, hi = 0, 0
		}
		if !anon {
			continue
		}
		if hi == 0 {
			lo = m.start
		}
		hi = m.end
		found = found || m.contains(p)
	}
	if !found {
		return 0, 0, false
	}
	return lo, hi, true
}

// adviseHuge advises the whole huge pages inside [lo, hi).
func adviseHuge(lo, hi uintptr) {
	start := (lo + hugePageSize - 1) &^ (hugePageSize - 1)
	end := hi &^ (hugePageSize - 1)
	if end <= start {
		return
	}
	// The range is the runtime's own heap mapping, read from the kernel a
	// moment ago; madvise only sets a flag on it. (unix.Madvise takes a
	// []byte, which would mean making a pointer from an address.)
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_HUGEPAGE)
}

// readSmallFile returns a /proc or /sys file's text, or "" when it cannot.
func readSmallFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}
