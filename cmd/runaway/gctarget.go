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

// setMemoryLimit makes the garbage collector work harder as the heap nears
// limit (a soft limit: GOMEMLIMIT, which wins when set).
func setMemoryLimit(limit int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(limit)
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
