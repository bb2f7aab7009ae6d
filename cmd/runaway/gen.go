package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/internal/atomicfile"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/synth"
)

// genCmd holds what gen's flags set.
type genCmd struct {
	cfg    synth.Config
	out    string
	labels string
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
	fs.StringVarP(&c.out, "out", "o", "", "write the steps to FILE (atomically; default stdout)")
	fs.StringVar(&c.labels, "labels", "", "write the labels (one JSON per run) to FILE")
	return fs
}

func runGen(args []string, stdout, stderr io.Writer) int {
	c := new(genCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "gen", stdout, stderr); !ok {
		return code
	}
	cfg, out, labels, causes, size := c.cfg, c.out, c.labels, c.causes, c.size
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
			fmt.Fprintf(stderr, "runaway gen: --size: %v\n", err)
			return exitUsage
		}
		cfg.TargetBytes = n
	}
	if cfg.RunawayRate < 0 || cfg.RunawayRate > 1 || cfg.Runs < 0 {
		fmt.Fprintln(stderr, "runaway gen: --runaway-rate must be within 0..1 and --runs >= 0")
		return exitUsage
	}
	var labelsFile *atomicfile.File
	var labelsW io.Writer
	if labels != "" {
		f, err := atomicfile.Create(labels)
		if err != nil {
			fmt.Fprintf(stderr, "runaway gen: --labels: %v\n", err)
			return exitFailure
		}
		defer f.Abort()
		labelsFile, labelsW = f, f
	}
	var sum synth.Summary
	err := pipeline.WriteOutput(out, stdout, func(w io.Writer) error {
		var err error
		sum, err = synth.Generate(cfg, w, labelsW)
		return err
	})
	if err == nil && labelsFile != nil {
		err = labelsFile.Commit()
	}
	if err != nil {
		fmt.Fprintf(stderr, "runaway gen: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(stderr, "runaway gen: %d runs (%d runaway), %d lines, %d bytes\n", sum.Runs, sum.RunawayRuns, sum.Lines, sum.Bytes)
	return exitClean
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
