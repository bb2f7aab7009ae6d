// Command traceidle reads a Go execution trace of a scan
// (RUNAWAY_TRACE=FILE runaway scan ...) and reports the time a processor
// sat idle: how long no goroutine ran, how long exactly one did, and, for
// the latter, which goroutine it was and where it had last stopped (what
// it was waiting for, or the call it was preempted in). That is the time
// the pipeline did not keep both cores busy: docs/performance.md, "Where the
// time and memory go".
//
//	go run ./traceidle [-procs 2] [-top 15] [-from MS -to MS] FILE
//
// With -from and -to it also lists the goroutine transitions in that window.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/exp/trace"
)

func main() {
	procs := flag.Int("procs", 2, "processors the scan ran on (GOMAXPROCS)")
	top := flag.Int("top", 15, "how many single-goroutine stretches to list")
	from := flag.Float64("from", -1, "list transitions from this many ms into the trace")
	to := flag.Float64("to", -1, "... up to this many ms")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: traceidle [-procs N] [-top N] [-from MS -to MS] TRACE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "traceidle:", err)
		os.Exit(1)
	}
	defer f.Close()
	if err := report(f, os.Stdout, *procs, *top, *from, *to); err != nil {
		fmt.Fprintln(os.Stderr, "traceidle:", err)
		os.Exit(1)
	}
}

func report(in io.Reader, out io.Writer, procs, top int, from, to float64) error {
	r, err := trace.NewReader(in)
	if err != nil {
		return err
	}
	busy := map[trace.ProcID]bool{}     // processors running goroutines
	running := map[trace.GoID]bool{}    // goroutines running (not in a syscall)
	lastStop := map[trace.GoID]string{} // where each goroutine last stopped running
	byCount := map[int]float64{}        // ms with n goroutines running
	alone := map[string]float64{}       // ms one goroutine ran alone, by goroutine and stop
	var start, prev trace.Time
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if start == 0 {
			start, prev = ev.Time(), ev.Time()
		}
		dt := float64(ev.Time()-prev) / 1e6
		byCount[min(len(busy), procs)] += dt
		if len(busy) == 1 {
			for g := range running {
				alone[fmt.Sprintf("g%d after %s", g, lastStop[g])] += dt
			}
		}
		prev = ev.Time()
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind == trace.ResourceProc {
			// A processor is busy while it runs a goroutine, in a syscall
			// too, until the runtime takes it from a syscall that blocks.
			if _, after := st.Proc(); after == trace.ProcRunning {
				busy[st.Resource.Proc()] = true
			} else {
				delete(busy, st.Resource.Proc())
			}
			continue
		}
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		g := st.Resource.Goroutine()
		before, after := st.Goroutine()
		switch {
		case after == trace.GoRunning:
			running[g] = true
		case before == trace.GoRunning:
			delete(running, g)
			lastStop[g] = frames(st.Stack, 3)
		}
		if t := float64(ev.Time()-start) / 1e6; from >= 0 && t >= from && t <= to {
			fmt.Fprintf(out, "%9.3f ms  g%-5d %-9v -> %-9v %s %s\n", t, g, before, after, st.Reason, frames(st.Stack, 3))
		}
	}
	total := float64(prev-start) / 1e6
	idle := 0.0
	for n, ms := range byCount {
		idle += float64(procs-n) * ms
	}
	fmt.Fprintf(out, "traced %.0f ms on %d processors: idle %.0f processor-ms (%.1f%%); none running %.1f ms, one running %.1f ms\n",
		total, procs, idle, 100*idle/(float64(procs)*total), byCount[0], byCount[1])
	type stretch struct {
		what string
		ms   float64
	}
	var l []stretch
	for k, v := range alone {
		l = append(l, stretch{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].ms > l[j].ms || l[i].ms == l[j].ms && l[i].what < l[j].what })
	for i, s := range l {
		if i == top {
			break
		}
		fmt.Fprintf(out, "%8.1f ms alone  %s\n", s.ms, s.what)
	}
	return nil
}

// frames names the innermost n frames of st, package paths cut.
func frames(st trace.Stack, n int) string {
	var names []string
	for f := range st.Frames() {
		name := f.Func
		if i := strings.LastIndex(name, "/"); i >= 0 {
			name = name[i+1:]
		}
		names = append(names, name)
		if len(names) == n {
			break
		}
	}
	if len(names) == 0 {
		return "(no stack)"
	}
	return strings.Join(names, " < ")
}
