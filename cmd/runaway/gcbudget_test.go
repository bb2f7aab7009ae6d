package main

import (
	"runtime"
	"testing"
)

func TestHeapBudgetLeavesRoomForTheBinarysPages(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ maxMemory, file, want int64 }{
		{128 * mib, 42 * mib, 78 * mib},   // the bench: 128 less the pages, less 8 MiB slack
		{1024 * mib, 42 * mib, 918 * mib}, // slack a sixteenth: 64 MiB
		{64 * mib, 48 * mib, 16 * mib},    // never under a quarter
		{64 * mib, 10 * mib, 48 * mib},    // slack at least 6 MiB
	} {
		if got := heapBudget(c.maxMemory, c.file); got != c.want {
			t.Errorf("heapBudget(%d MiB, %d MiB) = %d MiB, want %d MiB", c.maxMemory/mib, c.file/mib, got/mib, c.want/mib)
		}
	}
}

func TestResidentFileBytesSeesTheBinary(t *testing.T) {
	got := residentFileBytes()
	if runtime.GOOS == "linux" && (got <= 0 || got == unknownFileBytes) {
		t.Fatalf("residentFileBytes() = %d on Linux: /proc/self/statm was not read", got)
	}
	if got <= 0 {
		t.Fatalf("residentFileBytes() = %d", got)
	}
}
