package pipeline

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/internal/score"
)

// EvalConfig is a scoring of the verdicts against labels.
type EvalConfig struct {
	Config
	Labels string // --labels: the labels file, one JSON per run (required)
	Split  string // --split: score only the labels of this split ("" all)
	Format string // --format: one of EvalFormats
	Out    string // --out; "" or "-" is stdout
	// Min are the --min-* thresholds, fractions within 0..1: one missed is
	// a *FindingsError.
	Min score.Thresholds
}

// Eval reads the input, analyses every run, scores the verdicts against
// cfg.Labels and writes the report.
func Eval(ctx context.Context, cfg EvalConfig, stdin io.Reader, stdout, stderr io.Writer) error {
	if cfg.Labels == "" {
		return usagef("--labels FILE is required")
	}
	if !slices.Contains(EvalFormats, cfg.Format) {
		return usagef("--format %q: want one of %s", cfg.Format, strings.Join(EvalFormats, ", "))
	}
	for name, v := range map[string]float64{"precision": cfg.Min.Precision, "recall": cfg.Min.Recall,
		"cause-accuracy": cfg.Min.CauseAccuracy, "onset-accuracy": cfg.Min.OnsetAccuracy} {
		if v < 0 || v > 1 {
			return usagef("--min-%s %v: want a fraction within 0..1", name, v)
		}
	}
	truth, err := score.ReadLabelsFile(cfg.Labels)
	if err != nil {
		return inputf("--labels: %v", err)
	}
	if cfg.Split != "" {
		if truth = score.SelectSplit(truth, cfg.Split); len(truth) == 0 {
			return usagef("--split %q: no label has this split", cfg.Split)
		}
	}
	in := input{Config: cfg.Config, job: "eval"}
	collector, policy, stats, err := in.read(ctx, stdin, stderr)
	if err != nil {
		return err
	}
	in.progress.finish() // the bar shows reading; the analysis is quick next to it
	rep := score.Score(truth, collector.Results(policy, cfg.Workers))
	for _, fail := range stats.Failed {
		rep.FailedSources = append(rep.FailedSources, fail.Error())
	}
	checks := rep.Check(cfg.Min)
	if rep.Runs == 0 {
		fmt.Fprintln(stderr, "runaway eval: warning: no run in the logs has a label")
	}
	if err := WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
		if cfg.Format == "json" {
			return score.WriteJSON(w, rep, checks)
		}
		return score.WriteTable(w, rep, checks)
	}); err != nil {
		return outputf("writing the report: %v", err)
	}
	if err := in.strictErr(stats); err != nil {
		return err
	}
	missed := 0
	for _, c := range checks {
		if !c.OK {
			fmt.Fprintf(stderr, "runaway eval: %s %.4f is below --min %.4f\n", c.Name, c.Value, c.Min)
			missed++
		}
	}
	if missed > 0 {
		return &FindingsError{Reason: fmt.Sprintf("%d --min-* threshold(s) missed", missed)}
	}
	return nil
}
