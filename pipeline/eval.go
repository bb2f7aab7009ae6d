package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/score"
)

// EvalConfig is a scoring of the verdicts against labels.
type EvalConfig struct {
	Config
	Memory
	Labels string // --labels: the labels file, one JSON per run (required)
	Split  string // --split: score only the labels of this split ("" all)
	Blind  bool   // --blind: name no run in the report, only how many disagree
	Format string // --format: one of EvalFormats
	Out    string // --out; "" or "-" is stdout
	Width  int    // the terminal width the table written to stdout fits (0: no limit)
	// Min are the --min-* thresholds, fractions within 0..1: one missed is
	// a *FindingsError.
	Min score.Thresholds
}

// Eval reads the input, analyses every run, scores the verdicts against
// cfg.Labels and writes the report.
func Eval(ctx context.Context, cfg EvalConfig, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	if cfg.Labels == "" {
		return usagef("--labels FILE is required")
	}
	if !slices.Contains(EvalFormats, cfg.Format) {
		return usagef("--format %q: want one of %s", cfg.Format, strings.Join(EvalFormats, ", "))
	}
	for name, v := range map[string]float64{"precision": cfg.Min.Precision, "recall": cfg.Min.Recall,
		"cause-accuracy": cfg.Min.CauseAccuracy, "onset-accuracy": cfg.Min.OnsetAccuracy} {
		if !(v >= 0 && v <= 1) { // NaN too
			return usagef("--min-%s %v: want a fraction within 0..1", name, v)
		}
	}
	if err := checkPaths(cfg.jobInputs(flagPath("--labels", cfg.Labels)), append([]namedPath{flagPath("--out", cfg.Out)}, cfg.rejectsPaths()...)); err != nil {
		return err
	}
	if err := cfg.Memory.check(); err != nil {
		return err
	}
	truth, err := readLabels(cfg.Labels)
	if err != nil {
		return err
	}
	if cfg.Split != "" {
		if truth = score.SelectSplit(truth, cfg.Split); len(truth) == 0 {
			return usagef("--split %q: no label has this split", cfg.Split)
		}
	}
	in := input{Config: cfg.Config, job: "eval"}
	defer func() { err = in.finishRejects(err) }()
	scorer := score.NewScorer(truth)
	stats, err := in.analyzeBounded(ctx, cfg.Memory, stdin, stderr, nil, func(r *detect.RunResult) error {
		scorer.Add(r)
		return nil
	})
	if err != nil {
		return err
	}
	rep := scorer.Report()
	rep.FailedSources = failedSources(stats)
	if cfg.Blind {
		rep.Blind()
	}
	checks := rep.Check(cfg.Min)
	if rep.Runs == 0 {
		fmt.Fprintln(stderr, "runaway eval: warning: no run in the logs has a label")
	}
	if err := WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
		if cfg.Format == "json" {
			return score.WriteJSON(w, rep, checks)
		}
		return score.WriteTable(w, rep, checks, widthOn(cfg.Out, cfg.Width))
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

// readLabels reads a labels file (--labels). A file that cannot be opened
// or read is an *InputError, as an input is; one that holds something other
// than labels is a *UsageError: the flag names the wrong file, and running
// again will not help.
func readLabels(path string) (map[string]score.Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputf("--labels: %v", err)
	}
	defer f.Close()
	labels, err := score.ReadLabels(f)
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return nil, inputf("--labels: %v", err)
	case err != nil:
		return nil, usagef("--labels %s: not a labels file: %v", path, err)
	}
	return labels, nil
}
