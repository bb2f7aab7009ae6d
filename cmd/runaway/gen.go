package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/synth"
)

// genCmd holds what gen's flags set.
type genCmd struct {
	cfg    pipeline.GenConfig
	causes string
	size   string
}

func (c *genCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("gen")
	fs.IntVar(&c.cfg.Runs, "runs", 1000, "number of runs")
	fs.Float64Var(&c.cfg.RunawayRate, "runaway-rate", 0.2, "fraction of runs with an injected runaway pattern (0..1)")
	fs.Uint64Var(&c.cfg.Seed, "seed", 1, "random seed: the same seed gives the same bytes")
	fs.IntVar(&c.cfg.Interleave, "interleave", 16, "runs whose steps are interleaved in the output")
	fs.StringVar(&c.causes, "causes", "", "comma-separated root causes to inject: "+strings.Join(synth.AllCauses, ", ")+" (default: all)")
	setValues(fs, "causes", synth.AllCauses...)
	fs.StringVar(&c.size, "size", "", "generate about this much data instead of --runs (e.g. 100MB, 1GB)")
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the steps to FILE (atomically; default stdout)")
	fs.StringVar(&c.cfg.Labels, "labels", "", "write the labels (one JSON per run) to FILE")
	return fs
}

func runGen(args []string, stdout, stderr io.Writer) int {
	c := new(genCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "gen", stdout, stderr); !ok {
		return code
	}
	cfg, causes, size := c.cfg, c.causes, c.size
	if fs.NArg() > 0 {
		return exit("gen", stderr, &pipeline.UsageError{Err: fmt.Errorf("unexpected arguments %v", fs.Args())})
	}
	if causes != "" {
		cfg.Causes = strings.Split(causes, ",")
	}
	if size != "" {
		n, err := parseSize(size)
		if err != nil {
			return exit("gen", stderr, &pipeline.UsageError{Err: fmt.Errorf("--size: %w", err)})
		}
		cfg.TargetBytes = n
	}
	ctx, stop := interruptible(stderr)
	defer stop()
	return exit("gen", stderr, pipeline.Gen(ctx, cfg, stdout, stderr))
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
