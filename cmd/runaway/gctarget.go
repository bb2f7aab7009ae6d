package main

import (
	"os"
	"runtime/debug"
)

// The garbage collector's settings are the process's: the commands set
// them here, before they call the pipeline, and the pipeline never does.

// lowerGCTarget collects at 40% heap growth instead of Go's 100% unless the
// user set GOGC: a scan's live heap is mostly the collected columns, which
// are pointer-free (cheap to collect) and only grow, so the default target
// nearly doubles peak memory for nothing. Measured on the 1 GB bench corpus
// (ndjson, streamed): GOGC 100 ~390 MiB, 50 320 MiB, 40 299 MiB for about 8%
// more CPU than 50, 25 274 MiB for 13% more (docs/performance.md,
// "Measurements behind specific choices").
func lowerGCTarget() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(40)
	}
}

// budgetMemory is the memory setting of a scan, whose --max-memory is its
// budget: the Go runtime's soft limit at four fifths of it, and at least
// 20 MiB under it (the rest is the binary's pages, stacks and buffers
// outside the heap; at 64MiB a fifth was not enough), and GOGC=200 below
// the limit, so that the limit, not the pace, holds the heap in the budget:
// a spilling scan's live heap is small, and a low GOGC collected every few
// MB (409 collections on 1 GB at 128MiB). GOGC and GOMEMLIMIT set by the
// user win. Measured in docs/performance.md, "Measurements behind specific
// choices".
func budgetMemory(maxMemory int64) {
	limitMemory(maxMemory)
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(200)
	}
}

// limitMemory sets the Go runtime's soft limit for a budget of maxMemory,
// as budgetMemory does, unless the user set GOMEMLIMIT: explain's, whose
// heap is mostly the one run it explains, keeps lowerGCTarget's pace.
func limitMemory(maxMemory int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(min(maxMemory*4/5, maxMemory-20<<20))
	}
}

// relaxGCForMinimize collects at 400% heap growth unless the user set GOGC.
// Minimizing analyses a small run hundreds of times, and every analysis
// allocates its decoder's and collector's buffers, garbage at once, while
// the live heap is only the runs' lines: at read's 40% the garbage
// collector runs all the time (300 generated runs, --all-flagged
// --minimize: 33 s at GOGC=40, 15 s at 400).
func relaxGCForMinimize() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
}
