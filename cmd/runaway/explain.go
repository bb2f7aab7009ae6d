package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("explain", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in        inputFlags
		cfg       pipeline.ExplainConfig
		more      []string
		maxMemory string
	)
	fs.StringArrayVar(&more, "run", nil, "explain this run too (repeatable)")
	fs.StringVar(&cfg.Format, "format", "text", "output format: "+strings.Join(pipeline.ExplainFormats, ", "))
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the post-mortem to FILE (atomically) instead of stdout")
	fs.StringArrayVar(&cfg.Guards, "guard", nil, "consider only this guard when choosing the one that would have stopped the run, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	fs.StringVar(&maxMemory, "max-memory", "1GiB", "memory explain aims to stay under (at least 64MiB), as scan's: a run with more steps than this lets one run hold is explained up to that step, and says so")
	fs.BoolVar(&cfg.Redact, "redact", false, "replace args values, goals and reasons, and secrets anywhere (run ids, tools, error types, memory ids), with stable placeholders (the same text, the same placeholder), so the report can be shared")
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway explain RUN_ID [--run ID]... [flags] PATH...\n\n"+
			"Explains runs step by step: a timeline with the loop segment marked and repeated steps\n"+
			"folded, the onset, the memory that contaminated the loop, the verdict, root cause, waste,\n"+
			"and the guard that would have stopped the run (docs/explain.md). Only the lines that can\n"+
			"hold the run ids are decoded.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "explain", stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "runaway explain: want a run id and at least one input: runaway explain RUN_ID PATH...")
		fs.Usage()
		return exitUsage
	}
	// The first argument is a run id, the others are the inputs.
	cfg.RunIDs = append([]string{fs.Arg(0)}, more...)
	cfg.Config = in.config(fs, fs.Args()[1:], stderr)
	cfg.Color = colorWanted(stdout)
	n, err := humanize.ParseBytes(maxMemory)
	if err != nil || n < pipeline.MinMemory {
		fmt.Fprintf(stderr, "runaway explain: --max-memory %q: want a size of at least 64MiB, such as 512MiB or 2GiB\n", maxMemory)
		return exitUsage
	}
	cfg.MaxMemory = int64(n)
	ctx, stop := interruptible()
	defer stop()
	lowerGCTarget()
	limitMemory(cfg.MaxMemory)
	return exit("explain", fs, stderr, pipeline.Explain(ctx, cfg, stdin, stdout, stderr))
}
