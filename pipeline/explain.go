package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
)

// ExplainFormats are the formats Explain writes.
var ExplainFormats = []string{"text", "md", "html"}

// ExplainConfig is a post-mortem of some runs.
type ExplainConfig struct {
	Config
	RunIDs []string // the runs, in the report's order; repeats are dropped
	Format string   // --format: one of ExplainFormats
	Out    string   // --out; "" or "-" is stdout
	// Guards are the guards considered when choosing the one that would
	// have stopped a run, as NAME or NAME:param=value,... (--guard); none
	// is every built-in guard.
	Guards []string
	Redact bool // --redact: placeholders for args values, goals and reasons, and for secrets anywhere
	Color  bool // colour text written to stdout (the CLI's --color)
	Width  int  // the terminal width text written to stdout fits (0: no limit)
	// MaxMemory is the memory explain aims to stay under, in bytes, as
	// scan's (--max-memory; at least MinMemory, 0 is scan's default): it
	// sets the most steps of a run analysed and drawn.
	MaxMemory int64
}

// Explain reads the lines of cfg.RunIDs only and writes their
// post-mortems. A run not in the input is an *InputError, after the others
// are written.
func Explain(ctx context.Context, cfg ExplainConfig, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	if !slices.Contains(ExplainFormats, cfg.Format) {
		return usagef("--format %q: want one of %s", cfg.Format, strings.Join(ExplainFormats, ", "))
	}
	guards, err := parseGuards(cfg.Guards)
	if err != nil {
		return &UsageError{Err: err}
	}
	ids := uniqueIDs(cfg.RunIDs)
	if len(ids) == 0 {
		return &UsageError{Err: errors.New("want a run id and at least one input: runaway explain RUN_ID PATH..."), ShowUsage: true}
	}
	for _, id := range ids {
		if id == "" {
			return usagef("a run id is empty (RUN_ID or --run)")
		}
	}
	if cfg.MaxMemory == 0 {
		cfg.MaxMemory = DefaultScanConfig().MaxMemory
	}
	if cfg.MaxMemory < MinMemory {
		return usagef("--max-memory %d: want at least 64MiB", cfg.MaxMemory)
	}
	if err := checkPaths(cfg.jobInputs(), append([]namedPath{flagPath("--out", cfg.Out)}, cfg.rejectsPaths()...)); err != nil {
		return err
	}
	in := input{Config: cfg.Config, job: "explain", maxMemory: cfg.MaxMemory, closeRuns: newCloseRuns(ids), sharedBy: len(ids)}
	defer func() { err = in.finishRejects(err) }()
	// The input in flight as a scan's under the same budget; explain's
	// reads keep lines, not batches: their buffers are recycled.
	inFlight, _ := memoryBudgets(cfg.MaxMemory)
	in.inFlightBytes, in.reuseBuffers, in.maxSpanBytes = int(inFlight), int(inFlight), cfg.MaxMemory
	if cfg.Redact {
		in.redactor = redact.New(nil)
	}
	built, stats, err := in.explainRuns(ctx, stdin, stderr, ids, guards, in.redactor)
	if err != nil {
		return err
	}
	var runs []*explain.Run
	var missing []string
	for _, id := range ids {
		if r := built[id]; r != nil {
			runs = append(runs, r)
		} else {
			missing = append(missing, id)
		}
	}
	if len(runs) > 0 {
		var text explain.TextOptions
		if toStdout(cfg.Out) {
			text = explain.TextOptions{Color: cfg.Color, Width: cfg.Width}
		}
		if err := WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
			return writeExplain(w, cfg.Format, runs, text)
		}); err != nil {
			return outputf("writing the report: %v", err)
		}
	}
	if len(missing) > 0 {
		quoted := make([]string, len(missing))
		var near []string
		for k, id := range missing {
			quoted[k] = fmt.Sprintf("%q", id)
			switch s := in.closeRuns.of(id); {
			case s == "":
			case len(missing) == 1:
				near = append(near, s)
			default:
				near = append(near, fmt.Sprintf("%s (for %q)", s, id))
			}
		}
		msg := fmt.Sprintf("run %s not found in the input (%d lines read, %d of other runs skipped)",
			strings.Join(quoted, ", "), stats.Lines, stats.Skipped)
		if len(near) > 0 {
			msg += "; " + strings.Join(near, "; ")
		}
		return inputf("%s", msg)
	}
	return in.strictErr(stats)
}

// explainRuns reads the lines of the runs ids from the inputs and builds
// their models, by run id; a run not in the input has none. Only the lines
// that can hold the ids are decoded. It is explain's pipeline, and the
// scan's for the timelines its html overview embeds.
func (in *input) explainRuns(ctx context.Context, stdin io.Reader, stderr io.Writer,
	ids []string, guards []replay.Guard, redactor report.Redactor) (map[string]*explain.Run, ingest.Stats, error) {
	// Of each line only what the timeline shows: a long run's lines are
	// not held whole.
	lines := make(map[string]*explain.RunLines, len(ids))
	in.runIDs = ids
	in.onStepLine = func(l ingest.StepLine) {
		if lines[l.RunID] == nil {
			lines[l.RunID] = explain.NewRunLines(redactor)
		}
		lines[l.RunID].Add(l.Raw)
	}
	collector, policy, stats, err := in.read(ctx, stdin, stderr)
	if err != nil {
		return nil, stats, err
	}
	in.progress.finish()
	built := make(map[string]*explain.Run, len(ids))
	collector.Visit(policy, in.Workers, func(r detect.RunSteps, res *detect.RunResult) {
		var notAnalyzed string
		if o := in.over[r.ID()]; o != nil {
			notAnalyzed = in.limitProblem(o)
		}
		in.noteLimit(res)
		// Visit calls one at a time: the guards are reset for each run.
		built[r.ID()] = explain.Build(explain.Input{Steps: r, Result: res, Lines: lines[r.ID()], Guards: guards,
			Redact: redactor, NotAnalyzed: notAnalyzed})
		delete(lines, r.ID())
	})
	return built, stats, nil
}

func writeExplain(w io.Writer, format string, runs []*explain.Run, text explain.TextOptions) error {
	switch format {
	case "md":
		return explain.WriteMarkdown(w, runs)
	case "html":
		return explain.WriteHTML(w, runs)
	}
	return explain.WriteText(w, runs, text)
}

// uniqueIDs drops repeated ids, keeping the first place of each: the
// report follows the order the runs were asked for.
func uniqueIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// parseGuards reads guard specs, NAME or NAME:param=value,... (--guard);
// none means every built-in guard. A guard named twice (same name and
// params) is replayed once; the order is the registry's, whatever the
// order of the specs.
func parseGuards(specs []string) ([]replay.Guard, error) {
	if len(specs) == 0 {
		return replay.Defaults(), nil
	}
	var out []replay.Guard
	seen := map[string]bool{}
	for _, s := range specs {
		gs, err := replay.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("--guard %s: %w", s, err)
		}
		for _, g := range gs {
			if !seen[g.Name()] {
				seen[g.Name()] = true
				out = append(out, g)
			}
		}
	}
	replay.Sort(out)
	return out, nil
}
