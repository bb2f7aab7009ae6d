package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfile writes a CPU profile to $RUNAWAY_CPUPROFILE and an execution
// trace to $RUNAWAY_TRACE while a command runs, and the allocations it made
// to $RUNAWAY_MEMPROFILE when it ends, for docs/performance.md's "Where the
// time and memory go" (the trace shows when a core sits idle); they are not
// flags because users have no use for them.
func startProfile(stderr io.Writer) (stop func()) {
	stopCPU := startCPUProfile(stderr)
	stopTrace := startTrace(stderr)
	return func() {
		stopTrace()
		stopCPU()
		writeAllocProfile(stderr)
	}
}

func startTrace(stderr io.Writer) (stop func()) {
	path := os.Getenv("RUNAWAY_TRACE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = trace.Start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_TRACE: %s\n", errText(err))
		return func() {}
	}
	return func() {
		trace.Stop()
		f.Close()
	}
}

func startCPUProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv("RUNAWAY_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_CPUPROFILE: %s\n", errText(err))
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_CPUPROFILE: %s\n", errText(err))
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func writeAllocProfile(stderr io.Writer) {
	path := os.Getenv("RUNAWAY_MEMPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_MEMPROFILE: %s\n", errText(err))
	}
}
