package pipeline

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/internal/score"
	"github.com/runawayhq/runaway/replay"
)

// ReplayConfig is a replay of runtime guards over the input's runs.
type ReplayConfig struct {
	Config
	Memory
	// Guards are the guards replayed, as NAME or NAME:param=value,...
	// (--guard); none is every built-in guard.
	Guards []string
	// Labels, if set, is a labels file whose runaway and healthy runs
	// replace runaway's verdicts (--labels).
	Labels   string
	Format   string // --format: one of ReplayFormats
	Out      string // --out; "" or "-" is stdout
	Examples int    // --examples: table, the healthy and suspicious runs stopped listed per guard
	Width    int    // the terminal width the table written to stdout fits (0: no limit)
}

// Replay reads the input, replays the guards over every run and writes
// what each would have stopped.
func Replay(ctx context.Context, cfg ReplayConfig, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	if !slices.Contains(ReplayFormats, cfg.Format) {
		return usagef("--format %q: want one of %s", cfg.Format, strings.Join(ReplayFormats, ", "))
	}
	if cfg.Examples < 0 {
		return usagef("--examples must be >= 0")
	}
	if err := cfg.Memory.check(); err != nil {
		return err
	}
	selected, err := parseGuards(cfg.Guards)
	if err != nil {
		return &UsageError{Err: err}
	}
	if err := checkPaths(cfg.jobInputs(flagPath("--labels", cfg.Labels)), append([]namedPath{flagPath("--out", cfg.Out)}, cfg.rejectsPaths()...)); err != nil {
		return err
	}
	var truth map[string]replay.Label
	if cfg.Labels != "" {
		ls, err := readLabels(cfg.Labels)
		if err != nil {
			return err
		}
		truth = make(map[string]replay.Label, len(ls))
		for id, l := range ls {
			confounders := []string{"none"} // as eval names them
			if l.Confounder != "" {
				confounders = strings.Split(l.Confounder, ",")
			}
			truth[id] = replay.Label{Runaway: l.Label == score.LabelRunaway, OnsetStep: l.OnsetStep, RootCause: l.RootCause, Confounders: confounders}
		}
	}
	in := input{Config: cfg.Config, job: "replay"}
	defer func() { err = in.finishRejects(err) }()
	rp := replay.New(selected, truth)
	if cfg.Format == "table" {
		// The table prints totals and a few examples: the replay holds
		// those, not a list of every run per guard as json does.
		rp.KeepExamples(cfg.Examples)
	}
	stats, err := in.analyzeBounded(ctx, cfg.Memory, stdin, stderr, rp.Visit, func(*detect.RunResult) error { return nil })
	if err != nil {
		return err
	}
	rep := rp.Report()
	rep.FailedSources = failedSources(stats)
	if cfg.Labels != "" && rep.Runs.Total == 0 {
		fmt.Fprintln(stderr, "runaway replay: warning: no run in the logs has a label")
	}
	if err := WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
		if cfg.Format == "json" {
			return replay.WriteJSON(w, rep)
		}
		return replay.WriteTable(w, rep, replay.TableOptions{Examples: cfg.Examples, Width: widthOn(cfg.Out, cfg.Width)})
	}); err != nil {
		return outputf("writing the report: %v", err)
	}
	return in.strictErr(stats)
}
