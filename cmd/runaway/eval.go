package main

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

// evalCmd holds what eval's flags set.
type evalCmd struct {
	cfg pipeline.EvalConfig
	in  inputFlags
	mem memoryFlags
}

func (c *evalCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("eval")
	fs.StringVar(&c.cfg.Labels, "labels", "", "labels file, one JSON per run as 'runaway gen --labels' writes (required)")
	fs.StringVar(&c.cfg.Format, "format", pipeline.EvalFormats[0], "output format: "+strings.Join(pipeline.EvalFormats, ", "))
	setValues(fs, "format", pipeline.EvalFormats...)
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&c.cfg.Split, "split", "", "score only the labels of this split (corpus/real has dev, test and holdout)")
	fs.BoolVar(&c.cfg.Blind, "blind", false, "print the figures only: how many runs disagree with their labels, not which (to score a held-out split without learning its runs)")
	fs.Float64Var(&c.cfg.Min.Precision, "min-precision", 0, "exit 1 when the runaway verdict's precision is below this")
	fs.Float64Var(&c.cfg.Min.Recall, "min-recall", 0, "exit 1 when the runaway verdict's recall is below this")
	fs.Float64Var(&c.cfg.Min.CauseAccuracy, "min-cause-accuracy", 0, "exit 1 when root-cause accuracy (over runaway runs found) is below this")
	fs.Float64Var(&c.cfg.Min.OnsetAccuracy, "min-onset-accuracy", 0, "exit 1 when the share of onsets within +-2 steps of the label is below this")
	bindMemoryFlags(fs, &c.mem, "memory eval")
	bindInputFlags(fs, &c.in)
	return fs
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := new(evalCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "eval", stdout, stderr); !ok {
		return code
	}
	cfg := c.cfg
	cfg.Config = c.in.config(fs, fs.Args(), stderr)
	mem, err := c.mem.memory()
	if err != nil {
		return exit("eval", stderr, err)
	}
	cfg.Memory = mem
	cfg.Width = tableWidth(stdout)
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	limitMemory(mem.MaxMemory)
	return exit("eval", stderr, pipeline.Eval(ctx, cfg, stdin, stdout, stderr))
}
