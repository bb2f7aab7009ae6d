// Command runaway-beam runs runaway's scan as an Apache Beam pipeline:
// prism on this machine, Dataflow, Flink or Spark through Beam's runners
// (docs/scale-out.md). It writes one ndjson line per run, the line
// `runaway scan --format ndjson` writes for that run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

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
	flag.Var(&in, "input", "a file, directory or glob to scan, as runaway scan takes it (repeatable)")
	output := flag.String("output", "", "directory for runs.ndjson (one line per run) and rejects.ndjson (rejected lines with their file and line), in no order")
	inputFormat := flag.String("input-format", "", "as runaway scan's --input-format (default: auto)")
	policyFile := flag.String("policy", "", "a policy file (YAML), as runaway scan's --policy")
	maxRunBytes := flag.Int64("max-run-bytes", scanbeam.DefaultMaxRunBytes, "the bound on one run's steps held in memory by its analysis; a run over it gets a line with an error instead of its result")
	thresholds := bindThresholds(flag.CommandLine)
	flag.Parse()
	// Beam finds the functions by name on its workers, which run this
	// binary again: they are registered before Init, in both.
	scanbeam.Register()
	beam.Init()
	if len(in) == 0 || *output == "" {
		fmt.Fprintln(os.Stderr, "usage: runaway-beam --runner=prism --input PATH... --output DIR")
		os.Exit(2)
	}
	cfg := pipeline.DefaultConfig()
	cfg.PolicyFile = *policyFile
	cfg.Thresholds = thresholds.set(flag.CommandLine)
	policy, err := cfg.Policy()
	if err != nil {
		fmt.Fprintf(os.Stderr, "runaway-beam: %s\n", report.Sanitize(err.Error()))
		os.Exit(2)
	}
	ctx := context.Background()
	sources, err := expand(ctx, in)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runaway-beam: %s\n", report.Sanitize(err.Error()))
		os.Exit(3)
	}
	p, s := beam.NewPipelineWithRoot()
	runs, dead := scanbeam.Scan(s, sources, scanbeam.Options{InputFormat: *inputFormat, Policy: policy, MaxRunBytes: *maxRunBytes})
	out := strings.TrimSuffix(*output, "/")
	textio.Write(s, out+"/runs.ndjson", runs)
	textio.Write(s, out+"/rejects.ndjson", dead)
	if err := beamx.Run(ctx, p); err != nil {
		fmt.Fprintf(os.Stderr, "runaway-beam: %s\n", report.Sanitize(err.Error()))
		os.Exit(3)
	}
}

// expand lists the sources as runaway scan numbers them.
func expand(ctx context.Context, args []string) ([]scanbeam.Source, error) {
	seq, err := ingest.ExpandArgs(ctx, args, nil, ingest.Filter{})
	if err != nil {
		return nil, err
	}
	var out []scanbeam.Source
	for src, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, scanbeam.Source{Index: len(out), Name: src.Name})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no input under %s", strings.Join(args, " "))
	}
	return out, nil
}
