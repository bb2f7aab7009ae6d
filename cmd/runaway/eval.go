package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in  inputFlags
		cfg pipeline.EvalConfig
	)
	fs.StringVar(&cfg.Labels, "labels", "", "labels file, one JSON per run as 'runaway gen --labels' writes (required)")
	fs.StringVar(&cfg.Format, "format", "table", "output format: table, json")
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&cfg.Split, "split", "", "score only the labels of this split (a labels file of real runs has dev and test)")
	fs.Float64Var(&cfg.Min.Precision, "min-precision", 0, "exit 1 when the runaway verdict's precision is below this")
	fs.Float64Var(&cfg.Min.Recall, "min-recall", 0, "exit 1 when the runaway verdict's recall is below this")
	fs.Float64Var(&cfg.Min.CauseAccuracy, "min-cause-accuracy", 0, "exit 1 when root-cause accuracy (over runaway runs found) is below this")
	fs.Float64Var(&cfg.Min.OnsetAccuracy, "min-onset-accuracy", 0, "exit 1 when the share of onsets within +-2 steps of the label is below this")
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway eval --labels FILE [flags] PATH...\n\n"+
			"Scans the logs and scores the verdicts against the labels: precision, recall and F1 of the\n"+
			"runaway verdict, the root-cause confusion matrix, onset accuracy (+-2 steps), and the healthy\n"+
			"runs flagged, per confounder. Findings are not failures: the exit code is 0 unless a --min-*\n"+
			"threshold is missed (1), the flags are wrong (2) or the input cannot be read (3).\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "eval", stderr); !ok {
		return code
	}
	cfg.Config = in.config(fs, fs.Args(), stderr)
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	return exit("eval", fs, stderr, pipeline.Eval(ctx, cfg, stdin, stdout, stderr))
}
