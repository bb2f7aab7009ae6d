package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/internal/score"
)

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in     inputFlags
		labels string
		format string
		out    string
		split  string
		min    score.Thresholds
	)
	fs.StringVar(&labels, "labels", "", "labels file, one JSON per run as 'runaway gen --labels' writes (required)")
	fs.StringVar(&format, "format", "table", "output format: table, json")
	fs.StringVarP(&out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&split, "split", "", "score only the labels of this split (a labels file of real runs has dev and test)")
	fs.Float64Var(&min.Precision, "min-precision", 0, "exit 1 when the runaway verdict's precision is below this")
	fs.Float64Var(&min.Recall, "min-recall", 0, "exit 1 when the runaway verdict's recall is below this")
	fs.Float64Var(&min.CauseAccuracy, "min-cause-accuracy", 0, "exit 1 when root-cause accuracy (over runaway runs found) is below this")
	fs.Float64Var(&min.OnsetAccuracy, "min-onset-accuracy", 0, "exit 1 when the share of onsets within +-2 steps of the label is below this")
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
	if labels == "" {
		fmt.Fprintln(stderr, "runaway eval: --labels FILE is required")
		return exitUsage
	}
	if format != "table" && format != "json" {
		fmt.Fprintf(stderr, "runaway eval: --format %q: want table or json\n", format)
		return exitUsage
	}
	for name, v := range map[string]float64{"precision": min.Precision, "recall": min.Recall,
		"cause-accuracy": min.CauseAccuracy, "onset-accuracy": min.OnsetAccuracy} {
		if v < 0 || v > 1 {
			fmt.Fprintf(stderr, "runaway eval: --min-%s %v: want a fraction within 0..1\n", name, v)
			return exitUsage
		}
	}
	truth, err := score.ReadLabelsFile(labels)
	if err != nil {
		fmt.Fprintf(stderr, "runaway eval: --labels: %v\n", err)
		return exitFailure
	}
	if split != "" {
		if truth = score.SelectSplit(truth, split); len(truth) == 0 {
			fmt.Fprintf(stderr, "runaway eval: --split %q: no label has this split\n", split)
			return exitUsage
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	collector, policy, stats, code := in.read(ctx, "eval", fs, stdin, stderr)
	if code != exitClean {
		return code
	}
	in.progress.finish() // the bar shows reading; the analysis is quick next to it
	rep := score.Score(truth, collector.Results(policy, in.workers))
	for _, fail := range stats.Failed {
		rep.FailedSources = append(rep.FailedSources, fail.Error())
	}
	checks := rep.Check(min)
	if rep.Runs == 0 {
		fmt.Fprintln(stderr, "runaway eval: warning: no run in the logs has a label")
	}
	if err := writeOutput(out, stdout, func(w io.Writer) error {
		if format == "json" {
			return score.WriteJSON(w, rep, checks)
		}
		return score.WriteTable(w, rep, checks)
	}); err != nil {
		fmt.Fprintf(stderr, "runaway eval: writing the report: %v\n", err)
		return exitFailure
	}
	if in.strict && stats.Rejected > 0 {
		fmt.Fprintf(stderr, "runaway eval: %d input lines rejected (--strict)\n", stats.Rejected)
		return exitFailure
	}
	failed := false
	for _, c := range checks {
		if !c.OK {
			fmt.Fprintf(stderr, "runaway eval: %s %.4f is below --min %.4f\n", c.Name, c.Value, c.Min)
			failed = true
		}
	}
	if failed {
		return exitFindings
	}
	return exitClean
}
