// Command runaway-beam runs runaway's scan as an Apache Beam pipeline:
// prism on this machine, Dataflow, Flink or Spark through Beam's runners
// (docs/scale-out.md). It writes what `runaway scan` writes: one ndjson
// line per run (and Parquet), the summary, the Prometheus textfile, and
// the rejected lines with their file and line.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx" // registers Beam's runners: prism, dataflow, flink, spark, universal

	"github.com/runawayhq/runaway/beam/scanbeam"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
)

// inputs is the repeatable --input flag.
type inputs []string

func (in *inputs) String() string     { return strings.Join(*in, ",") }
func (in *inputs) Set(v string) error { *in = append(*in, v); return nil }

func main() {
	var in inputs
	flag.Var(&in, "input", "a file, directory or glob to scan, as runaway scan takes it (repeatable); on a cluster, paths the workers can read (gs://, s3://)")
	output := flag.String("output", "", "directory (local, gs:// or s3://) for the runs (ndjson, sorted by run id in each shard), summary.json, runaway.prom, rejects.ndjson and sources.ndjson")
	shards := flag.Int("shards", 1, "files of runs, each sorted by run id: runs.ndjson for 1, runs-00000-of-NNNNN.ndjson and so on for more")
	parquet := flag.Bool("parquet", false, "also write the runs as Parquet, in as many files as --shards")
	inputFormat := flag.String("input-format", "", "as runaway scan's --input-format (default: auto)")
	policyFile := flag.String("policy", "", "a policy file (YAML), as runaway scan's --policy")
	maxRunBytes := flag.Int64("max-run-bytes", scanbeam.DefaultMaxRunBytes, "the bound on one run's steps held in memory by its analysis; a run over it gets a line with an error instead of its result")
	thresholds := bindThresholds(flag.CommandLine)
	flag.Parse()
	// Beam finds the functions by name on its workers, which run this
	// binary again: they are registered before Init, in both.
	scanbeam.Register()
	beam.Init()
	if len(in) == 0 || *output == "" || *shards < 1 || *maxRunBytes < 1 {
		fmt.Fprintln(os.Stderr, "usage: runaway-beam --runner=prism --input PATH... --output DIR [--shards N >= 1] [--parquet] [--policy FILE]")
		os.Exit(2)
	}
	cfg := pipeline.DefaultConfig()
	cfg.PolicyFile = *policyFile
	cfg.Thresholds = thresholds.set(flag.CommandLine)
	policy, err := cfg.Policy()
	if err != nil {
		fail(2, err)
	}
	ctx := context.Background()
	start := time.Now()
	sources, skipped, err := expand(ctx, in)
	if err != nil {
		fail(3, err)
	}
	p, s := beam.NewPipelineWithRoot()
	err = scanbeam.Scan(ctx, s, sources, scanbeam.Options{InputFormat: *inputFormat, Policy: policy, MaxRunBytes: *maxRunBytes,
		Output: *output, Shards: *shards, Parquet: *parquet, Skipped: skipped, Start: start})
	if err != nil {
		fail(3, err)
	}
	result, err := runInPrivateTemp(func() (beam.PipelineResult, error) { return beamx.RunWithMetrics(ctx, p) })
	if err != nil {
		fail(3, err)
	}
	// A dry run (Dataflow's --dry_run) has no result, and an --async job
	// has not written its summary yet.
	if result == nil || *jobopts.Async {
		return
	}
	if err := reportSummary(ctx, strings.TrimSuffix(*output, "/")); err != nil {
		fail(3, err)
	}
	reportCounters(result)
}

// reportCounters prints the job's counters (scanbeam's "runaway"
// namespace) on stderr: the input read and what it sent to the shuffle.
func reportCounters(result beam.PipelineResult) {
	got := map[string]int64{}
	for _, c := range result.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "runaway" {
			got[c.Name()] += c.Result()
		}
	}
	if in := got["input_bytes"]; in > 0 {
		fmt.Fprintf(os.Stderr, "runaway-beam: read %d bytes; shuffled %d bytes of rows by run id (%.2f a byte read) and %d bytes of results (%.3f)\n",
			in, got["shuffled_row_bytes"], float64(got["shuffled_row_bytes"])/float64(in),
			got["shuffled_result_bytes"], float64(got["shuffled_result_bytes"])/float64(in))
	}
}

func fail(code int, err error) {
	fmt.Fprintf(os.Stderr, "runaway-beam: %s\n", report.Sanitize(err.Error()))
	os.Exit(code)
}

// reportSummary says on stderr what the job found, from its summary, and
// fails a job that analysed no run: an input that gave nothing is never
// a silent success.
func reportSummary(ctx context.Context, dir string) error {
	fs, err := filesystem.New(ctx, dir+"/summary.json")
	if err != nil {
		return err
	}
	defer fs.Close()
	data, err := filesystem.Read(ctx, fs, dir+"/summary.json")
	if err != nil {
		return fmt.Errorf("the job's summary: %w", err)
	}
	var doc struct {
		Summary report.Summary `json:"summary"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("the job's summary: %w", err)
	}
	sum := doc.Summary
	if sum.Runs == 0 {
		return fmt.Errorf("no run analysed: %d file(s), %d line(s) read, %d rejected (%s/rejects.ndjson)",
			sum.Input.Files, sum.Input.LinesRead, sum.Input.LinesRejected, dir)
	}
	fmt.Fprintf(os.Stderr, "runaway-beam: %d runs: %d runaway, %d suspicious, %d healthy; %d file(s), %d line(s) rejected; wrote %s\n",
		sum.Runs, sum.Runaway, sum.Suspicious, sum.Healthy, sum.Input.Files, sum.Input.LinesRejected, dir)
	if sum.Partial {
		fmt.Fprintf(os.Stderr, "runaway-beam: partial: %d source(s) or run(s) not read or not analysed (summary.json, failed_sources)\n", len(sum.Input.FailedSources))
	}
	return nil
}

// expand lists the sources as runaway scan numbers them, and the files
// the listing passed over.
func expand(ctx context.Context, args []string) ([]scanbeam.Source, []string, error) {
	var skipped []string
	seq, err := ingest.ExpandArgs(ctx, args, nil, ingest.Filter{Skipped: func(name, why string) { skipped = append(skipped, name+": "+why) }})
	if err != nil {
		return nil, nil, err
	}
	var out []scanbeam.Source
	for src, err := range seq {
		if err != nil {
			return nil, nil, err
		}
		out = append(out, scanbeam.Source{Index: len(out), Name: src.Name, Found: src.Found})
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no input under %s", strings.Join(args, " "))
	}
	return out, skipped, nil
}

// runInPrivateTemp runs the job with a temporary directory of its own,
// removed afterwards. The Beam SDK leaves an empty placeholder file
// (beamloopbackworker-*) in the temporary directory on every run whose
// workers run in this process, as prism's do, and never removes it (the
// SDK's TODO, apache/beam#27569): a nightly job would fill /tmp with them.
func runInPrivateTemp(run func() (beam.PipelineResult, error)) (beam.PipelineResult, error) {
	dir, err := os.MkdirTemp("", "runaway-beam-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	defer func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	return run()
}
