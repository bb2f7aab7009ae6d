package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"testing"
	"time"
)

// TestCorpusStats prints the statistics of the reference corpus (Runs 10000,
// RunawayRate 0.2, Seed 1). Run with SYNTH_STATS=1.
func TestCorpusStats(t *testing.T) {
	if os.Getenv("SYNTH_STATS") == "" {
		t.Skip("set SYNTH_STATS=1")
	}
	var steps, labels bytes.Buffer
	t0 := time.Now()
	sum, err := Generate(Config{Runs: 10000, RunawayRate: 0.2, Seed: 1}, &steps, &labels)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	fmt.Printf("runs %d runaway %d lines %d bytes %d mean bytes/line %.1f in %v (%.0f MB/s)\n", sum.Runs, sum.RunawayRuns,
		sum.Lines, sum.Bytes, float64(sum.Bytes)/float64(sum.Lines), el, float64(sum.Bytes)/1e6/el.Seconds())
	labs, err := ReadLabels(&labels)
	if err != nil {
		t.Fatal(err)
	}
	perRun := map[string]int{}
	runBytes := map[string]int{}
	minLine := 1 << 30
	bytesByState := map[string]int{}
	linesByState := map[string]int{}
	dec := json.NewDecoder(&steps)
	for {
		var s struct {
			RunID string `json:"run_id"`
			State string `json:"state"`
		}
		raw := json.RawMessage{}
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(raw, &s)
		perRun[s.RunID]++
		runBytes[s.RunID] += len(raw) + 1
		minLine = min(minLine, len(raw)+1)
		bytesByState[s.State] += len(raw) + 1
		linesByState[s.State]++
	}
	minRun := 1 << 30
	for _, n := range runBytes {
		minRun = min(minRun, n)
	}
	fmt.Printf("smallest line %d bytes, smallest run %d bytes\n", minLine, minRun)
	groups := map[string][]int{}
	for id, n := range perRun {
		l := labs[id]
		k := l.RootCause
		if k == "" {
			k = "healthy"
			if l.Confounder != "" {
				groups["healthy+confounder"] = append(groups["healthy+confounder"], n)
			}
		}
		groups[k] = append(groups[k], n)
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := groups[k]
		sort.Ints(v)
		tot := 0
		for _, x := range v {
			tot += x
		}
		fmt.Printf("%-22s runs %5d steps min %3d p50 %3d mean %5.1f p90 %3d max %3d\n", k, len(v), v[0], v[len(v)/2],
			float64(tot)/float64(len(v)), v[len(v)*9/10], v[len(v)-1])
	}
	for st, n := range linesByState {
		fmt.Printf("state %-8s lines %7d mean bytes %.0f\n", st, n, float64(bytesByState[st])/float64(n))
	}
}

// TestBenchCorpus writes the benchmark corpus (TargetBytes from
// SYNTH_BENCH_BYTES, e.g. 1073741824) to SYNTH_BENCH_OUT (default discard)
// and prints time, speed and peak heap.
func TestBenchCorpus(t *testing.T) {
	n, _ := strconv.ParseInt(os.Getenv("SYNTH_BENCH_BYTES"), 10, 64)
	if n <= 0 {
		t.Skip("set SYNTH_BENCH_BYTES")
	}
	var w io.Writer = io.Discard
	if p := os.Getenv("SYNTH_BENCH_OUT"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	t0 := time.Now()
	sum, err := Generate(Config{TargetBytes: n, RunawayRate: 0.2, Seed: 1}, w, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("%+v in %v: %.0f MB/s, %.0f lines/s, heap sys %d MB, GOMAXPROCS %d\n", sum, el,
		float64(sum.Bytes)/1e6/el.Seconds(), float64(sum.Lines)/el.Seconds(), ms.HeapSys>>20, runtime.GOMAXPROCS(0))
}
