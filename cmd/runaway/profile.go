package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile to $RUNAWAY_CPUPROFILE while a command
// runs, for docs/performance.md's "where the time goes"; it is not a flag
// because users have no use for it.
func startProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv("RUNAWAY_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "runaway: RUNAWAY_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
