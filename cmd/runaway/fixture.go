package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/pipeline"
)

func runFixture(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("fixture", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in   inputFlags
		cfg  pipeline.FixtureConfig
		runs []string
	)
	fs.StringVarP(&cfg.Out, "out", "o", "", "directory to write the fixtures to (created if missing; required)")
	fs.StringArrayVar(&runs, "run", nil, "also make a fixture of this run (repeatable)")
	fs.BoolVar(&cfg.AllFlagged, "all-flagged", false, "make a fixture of every run with verdict runaway (then every argument is an input)")
	fs.BoolVar(&cfg.Minimize, "minimize", false, "shrink each run to a few steps and fields with the same verdict, root cause, detectors and onset step")
	fs.IntVar(&cfg.MinimizeBudget, "minimize-budget", fixture.DefaultBudget, "most detection calls --minimize makes per run")
	fs.BoolVar(&cfg.NoRedact, "no-redact", false, "keep the logged text and values (default: placeholders that keep equality; secrets removed)")
	fs.StringVar(&cfg.RedactKeyFile, "redact-key-file", "", "key placeholders are derived from (default: a fixed public key, so output is reproducible)")
	fs.BoolVar(&cfg.Force, "force", false, "replace existing fixtures of the same runs")
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway fixture RUN_ID PATH... --out DIR [--run ID]... [flags]\n"+
			"       runaway fixture --all-flagged PATH... --out DIR [flags]\n\n"+
			"Writes each run as DIR/<name>.jsonl (its steps, redacted unless --no-redact) and\n"+
			"DIR/<name>.want.json (its verdict, root cause, onset step and detectors), the format\n"+
			"'runaway verify' and fixtures/ use (docs/fixtures.md). <name> is the run id made safe.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "fixture", stderr); !ok {
		return code
	}
	// Without --all-flagged, the first argument is a run id and the others
	// are the inputs; with no argument at all there is no run id (--run
	// alone does not name the inputs).
	paths := fs.Args()
	switch {
	case cfg.AllFlagged:
		cfg.RunIDs = runs
	case len(paths) > 0:
		cfg.RunIDs, paths = append([]string{paths[0]}, runs...), paths[1:]
	}
	cfg.Config = in.config(fs, paths, stderr)
	cfg.BeforeMinimize = relaxGCForMinimize
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	return exit("fixture", fs, stderr, pipeline.Fixture(ctx, cfg, stdin, stderr))
}
