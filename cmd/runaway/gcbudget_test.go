package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestHeapBudgetLeavesRoomForTheBinarysPages(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ maxMemory, file, want int64 }{
		{128 * mib, 42 * mib, 128*mib - 42*mib - 128*mib/10}, // the bench: less the pages, less a tenth
		{1024 * mib, 42 * mib, 1024*mib - 42*mib - 1024*mib/10},
		{64 * mib, 48 * mib, 32 * mib},                    // never under half: the heap would thrash
		{96 * mib, 10 * mib, 96*mib - 10*mib - 96*mib/10}, // slack a tenth
		{40 * mib, 4 * mib, 30 * mib},                     // slack at least 6 MiB
	} {
		if got := heapBudget(c.maxMemory, c.file); got != c.want {
			t.Errorf("heapBudget(%d MiB, %d MiB) = %d MiB, want %d MiB", c.maxMemory/mib, c.file/mib, got/mib, c.want/mib)
		}
	}
}

func TestResidentFileBytesSeesTheBinary(t *testing.T) {
	if got := residentFileBytes(); got <= 0 {
		t.Fatalf("residentFileBytes() = %d", got)
	}
	if runtime.GOOS != "linux" {
		return
	}
	// Not residentFileBytes() != unknownFileBytes: the binary's pages can
	// be exactly that many (a CI run saw 48 MiB).
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := statmSharedBytes(b); !ok || n <= 0 {
		t.Fatalf("statm %q: shared bytes %d, %v", b, n, ok)
	}
	if _, ok := statmSharedBytes([]byte("765 441")); ok {
		t.Error("a statm without its shared field was read")
	}
}

// The pacer must follow the collections: after one, GOGC gives the small
// live heap of a test the headroom (far above 40%), and restoring puts the
// caller's settings back and stops it.
func TestGCPacerFollowsCollectionsAndRestores(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the pacer leaves it alone")
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the pacer leaves it alone")
	}
	before := debug.SetGCPercent(73)
	defer debug.SetGCPercent(before)
	limitBefore := debug.SetMemoryLimit(-1)

	restore := paceGCByBudget(256 << 20)
	debug.SetGCPercent(41) // the pacer must set it again after the next collection
	var got int
	for range 20 { // the finalizer runs on its own goroutine, soon after the cycle
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		got = debug.SetGCPercent(41)
		if got != 41 {
			break
		}
	}
	if got <= 100 {
		t.Errorf("GOGC after a collection with a small live heap: %d, want the headroom's (well above 100)", got)
	}
	if limit := debug.SetMemoryLimit(-1); limit >= 256<<20 || limit < 64<<20 {
		t.Errorf("memory limit %d MiB, want under the 256 MiB budget by the binary's pages", limit>>20)
	}
	restore()
	if got := debug.SetGCPercent(-1); got != 73 {
		t.Errorf("GOGC after restore: %d, want the caller's 73", got)
	}
	debug.SetGCPercent(73)
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := debug.SetGCPercent(-1); got != 73 {
		t.Errorf("GOGC after restore and a collection: %d, want 73 (the pacer must stop)", got)
	}
	debug.SetGCPercent(73)
	if limit := debug.SetMemoryLimit(-1); limit != limitBefore {
		t.Errorf("memory limit after restore: %d, want %d", limit, limitBefore)
	}
}
