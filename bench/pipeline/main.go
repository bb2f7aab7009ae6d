// Command pipeline runs runaway's scan pipeline (ingest.Read into a
// runstore.Collector, then Collector.Results) without the CLI and report, for
// profiling: it times the two phases and can write CPU and heap profiles.
// It imports the product packages through bench/go.mod's replace directive.
//
//	pipeline [--workers N] [--cpuprofile FILE] [--memprofile FILE] [--per-run FILE] PATH...
//
// It prints one JSON line: rows, runs, per-phase and total seconds, MB/s and
// the Go heap high-water mark (runtime/metrics), with --per-run one JSON line
// per run (run_id, verdict and indicators), sorted by run_id.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/runstore"
)

type result struct {
	Tool        string  `json:"tool"`
	Workers     int     `json:"workers"`
	Bytes       int64   `json:"bytes"`
	Rows        int64   `json:"rows"`
	Rejected    int64   `json:"rejected"`
	Runs        int     `json:"runs"`
	Runaway     int     `json:"runaway"`
	ReadSeconds float64 `json:"read_s"`
	AnalyzeSecs float64 `json:"analyze_s"`
	WallSeconds float64 `json:"wall_s"`
	MBps        float64 `json:"mb_s"`
	HeapSysMiB  float64 `json:"heap_sys_mib"`
}

func main() {
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "decode and analysis goroutines")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to FILE")
	memProfile := flag.String("memprofile", "", "write a heap profile (after reading, before analysis) to FILE")
	perRun := flag.String("per-run", "", "write one JSON line per run (run_id, verdict, indicators) to FILE")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: pipeline [flags] PATH...")
		os.Exit(2)
	}
	if err := run(*workers, *cpuProfile, *memProfile, *perRun, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(3)
	}
}

func run(workers int, cpuProfile, memProfile, perRun string, paths []string) error {
	sources, err := ingest.ExpandPaths(paths, os.Stdin)
	if err != nil {
		return err
	}
	var size int64
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
		if st, err := os.Stat(s.Name); err == nil {
			size += st.Size()
		}
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	collector := runstore.NewCollector(names)
	opts := ingest.Options{Alloc: memory.NewGoAllocator(), Workers: workers}
	stats, err := ingest.Read(context.Background(), sources, opts, func(rec arrow.RecordBatch) error { return collector.Add(rec) })
	if err != nil {
		return err
	}
	readDone := time.Now()
	if memProfile != "" {
		f, err := os.Create(memProfile)
		if err != nil {
			return err
		}
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	runs := collector.Results(detect.DefaultPolicy(), workers)
	end := time.Now()

	res := result{Tool: "runaway-pipeline", Workers: workers, Bytes: size, Rows: stats.Steps, Rejected: stats.Rejected, Runs: len(runs),
		ReadSeconds: readDone.Sub(start).Seconds(), AnalyzeSecs: end.Sub(readDone).Seconds(), WallSeconds: end.Sub(start).Seconds()}
	for _, r := range runs {
		if r.Verdict == detect.Runaway {
			res.Runaway++
		}
	}
	if res.WallSeconds > 0 {
		res.MBps = float64(size) / 1e6 / res.WallSeconds
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapSysMiB = float64(ms.HeapSys) / (1 << 20)
	if perRun != "" {
		f, err := os.Create(perRun)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		for _, r := range runs {
			if err := enc.Encode(struct {
				RunID      string            `json:"run_id"`
				Verdict    detect.Verdict    `json:"verdict"`
				Indicators detect.Indicators `json:"indicators"`
			}{r.RunID, r.Verdict, r.Indicators}); err != nil {
				f.Close()
				return err
			}
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	line, _ := json.Marshal(res)
	fmt.Println(string(line))
	return nil
}
