package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

func runGen(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfg    pipeline.GenConfig
		causes string
		size   string
	)
	fs.IntVar(&cfg.Runs, "runs", 1000, "number of runs")
	fs.Float64Var(&cfg.RunawayRate, "runaway-rate", 0.2, "fraction of runs with an injected runaway pattern (0..1)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed: the same seed gives the same bytes")
	fs.IntVar(&cfg.Interleave, "interleave", 16, "runs whose steps are interleaved in the output")
	fs.StringVar(&causes, "causes", "", "comma-separated root causes to inject (default: all)")
	fs.StringVar(&size, "size", "", "generate about this much data instead of --runs (e.g. 100MB, 1GB)")
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the steps to FILE (atomically; default stdout)")
	fs.StringVar(&cfg.Labels, "labels", "", "write the labels (one JSON per run) to FILE")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway gen [flags]\n\nWrites a deterministic synthetic corpus of agent step logs with one labelled\nrunaway pattern per runaway run and realistic confounders in healthy runs.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "gen", stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "runaway gen: unexpected arguments %v\n", fs.Args())
		return exitUsage
	}
	if causes != "" {
		cfg.Causes = strings.Split(causes, ",")
	}
	if size != "" {
		n, err := parseSize(size)
		if err != nil {
			return exit("gen", fs, stderr, &pipeline.UsageError{Err: fmt.Errorf("--size: %w", err)})
		}
		cfg.TargetBytes = n
	}
	ctx, stop := interruptible(stderr)
	defer stop()
	return exit("gen", fs, stderr, pipeline.Gen(ctx, cfg, stdout, stderr))
}

// parseSize reads 500KB, 100MB, 1GB, 1.5GiB or a plain byte count.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, x := range units {
		if strings.HasSuffix(u, x.suffix) {
			u, mult = strings.TrimSpace(strings.TrimSuffix(u, x.suffix)), x.mult
			break
		}
	}
	var f float64
	if _, err := fmt.Sscanf(u, "%g", &f); err != nil || f <= 0 {
		return 0, fmt.Errorf("%q is not a size like 100MB or 1GB", s)
	}
	return int64(f * mult), nil
}
