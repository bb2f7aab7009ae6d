package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
)

// paceGCByBudget sets the garbage collector's pace from --max-memory and
// returns a function that restores the previous settings.
//
// Collecting at a fixed 40% of heap growth (GOGC=40, what keeps a scan that
// holds its whole input lean) collected every few MB when the live heap was
// small, which it is whenever the scan spills: 409 collections on the 1 GB
// bench corpus at 128MiB, with a 25 MB live heap, costing about a fifth of
// the CPU once mark assists, write barriers and returning pages to the OS
// are counted (both in docs/performance.md, "Measurements behind specific
// choices"). So the heap may grow by at least a fixed headroom (half of
// what the budget leaves the heap, at most 64 MiB) or by 40%, whichever is
// more, and the runtime's memory limit holds it to the budget. Letting it
// fill the whole budget instead is slower on a large budget: fresh pages
// cost faults, reused ones are warm (1 GB at 1GiB: 940 MiB RSS and 10% more
// CPU).
//
// A user who set GOGC or GOMEMLIMIT keeps them: the old policy (collect at
// 40% growth, limit at 7/8 of the budget) fills in only what they left.
func paceGCByBudget(maxMemory int64) (restore func()) {
	_, gogcSet := os.LookupEnv("GOGC")
	_, limitSet := os.LookupEnv("GOMEMLIMIT")
	if gogcSet || limitSet {
		lowerGCTarget()
		setMemoryLimit(maxMemory * 7 / 8)
		return func() {}
	}
	p := &gcPacer{maxMemory: maxMemory}
	p.live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	oldLimit := debug.SetMemoryLimit(-1)
	p.budget(residentFileBytes())
	oldPercent := debug.SetGCPercent(p.percent(0))
	p.arm()
	return func() {
		// Under mu, so that a finalizer running now cannot set GOGC after
		// the old value is back.
		p.mu.Lock()
		defer p.mu.Unlock()
		p.stopped = true
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}

// heapBudget is the Go runtime's share of maxMemory when the process
// already holds fileBytes of file-backed pages: what remains less a slack of
// a tenth (at least 6 MiB) for pages touched later, and never under half
// of maxMemory: below that the live heap outgrows the limit and the
// collector runs without pause (64MiB with a quarter: 20.6 s and 35 CPU s
// on 1 GB, against 5.2 s and 9 CPU s with half). At such budgets the cap
// cannot hold anyway: the binary's own pages are about 40 MiB.
//
// A sixteenth left 4 MiB under 128MiB at 20 GB (123.7 MiB peak RSS); a
// tenth peaks at 114-116 MiB on 1 GB for the same CPU (3 runs each).
func heapBudget(maxMemory, fileBytes int64) int64 {
	slack := max(maxMemory/10, 6<<20)
	return max(maxMemory-fileBytes-slack, maxMemory/2)
}

// gcPacer re-sets GOGC after every collection so that the next one comes
// after the heap grew by headroom bytes or 40%, whichever is more, and the
// memory limit from the file pages resident then (budget).
type gcPacer struct {
	maxMemory int64
	fileBytes int64 // the binary's and libraries' resident pages, as last read
	headroom  int64
	live      []metrics.Sample
	mu        sync.Mutex
	stopped   bool
}

// gcCycle is garbage whose finalizer runs after the collection that found
// it: the pacer's hook. It holds a pointer so that it is not a tiny
// allocation (those share a block, and their finalizers run late).
type gcCycle struct{ p *gcPacer }

func (p *gcPacer) arm() {
	runtime.SetFinalizer(&gcCycle{p}, func(c *gcCycle) {
		p := c.p
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.stopped {
			return
		}
		p.budget(residentFileBytes())
		metrics.Read(p.live)
		debug.SetGCPercent(p.percent(int64(p.live[0].Value.Uint64())))
		p.arm()
	})
}

// budget sets the memory limit and the headroom for fileBytes of resident
// file pages. They are read again after every collection: the binary's pages
// come back as the scan runs code it had not run since they were released
// (releaseExecutablePages), and the heap's share shrinks by what they take.
func (p *gcPacer) budget(fileBytes int64) {
	if fileBytes == p.fileBytes {
		return
	}
	p.fileBytes = fileBytes
	limit := heapBudget(p.maxMemory, fileBytes)
	p.headroom = min(limit/2, 64<<20)
	debug.SetMemoryLimit(limit)
}

// percent is the GOGC that lets a heap of live bytes grow by the headroom,
// and by at least 40%.
func (p *gcPacer) percent(live int64) int {
	live = max(live, 4<<20) // the runtime's smallest heap goal
	return int(max(40, min(100*p.headroom/live, 10000)))
}

// unknownFileBytes stands in for the binary's resident pages where
// /proc/self/statm cannot be read: what Linux shows for it.
const unknownFileBytes = 48 << 20

// residentFileBytes is the process's resident file-backed memory (the
// "shared" field of /proc/self/statm: mostly the binary's pages).
func residentFileBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return unknownFileBytes
	}
	if n, ok := statmSharedBytes(b); ok {
		return n
	}
	return unknownFileBytes
}

// statmSharedBytes reads the "shared" field of /proc/self/statm, in bytes.
func statmSharedBytes(statm []byte) (int64, bool) {
	fields := bytes.Fields(statm)
	if len(fields) < 3 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(fields[2]), 10, 64)
	if err != nil || pages <= 0 {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
