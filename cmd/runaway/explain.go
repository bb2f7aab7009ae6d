package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
)

// explainFormats are the formats explain writes.
var explainFormats = []string{"text", "md", "html"}

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("explain", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in         inputFlags
		more       []string
		format     string
		out        string
		guards     []string
		redactArgs bool
	)
	fs.StringArrayVar(&more, "run", nil, "explain this run too (repeatable)")
	fs.StringVar(&format, "format", "text", "output format: "+strings.Join(explainFormats, ", "))
	fs.StringVarP(&out, "out", "o", "", "write the post-mortem to FILE (atomically) instead of stdout")
	fs.StringArrayVar(&guards, "guard", nil, "consider only this guard when choosing the one that would have stopped the run, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	fs.BoolVar(&redactArgs, "redact", false, "replace args values, goals and reasons with stable placeholders (the same text, the same placeholder), so the report can be shared")
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway explain RUN_ID [--run ID]... [flags] PATH...\n\n"+
			"Explains runs step by step: a timeline with the loop segment marked and repeated steps\n"+
			"folded, the onset, the memory that contaminated the loop, the verdict, root cause, waste,\n"+
			"and the guard that would have stopped the run (docs/explain.md). Only the lines that can\n"+
			"hold the run ids are decoded.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "explain", stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "runaway explain: want a run id and at least one input: runaway explain RUN_ID PATH...")
		fs.Usage()
		return exitUsage
	}
	if !slices.Contains(explainFormats, format) {
		fmt.Fprintf(stderr, "runaway explain: --format %q: want one of %s\n", format, strings.Join(explainFormats, ", "))
		return exitUsage
	}
	selected, err := parseGuards(guards)
	if err != nil {
		fmt.Fprintf(stderr, "runaway explain: %v\n", err)
		return exitUsage
	}
	ids := uniqueIDs(append([]string{fs.Arg(0)}, more...))
	for _, id := range ids {
		if id == "" {
			fmt.Fprintln(stderr, "runaway explain: a run id is empty")
			return exitUsage
		}
	}
	// The inputs are the arguments after the run id. Parsing them again
	// after "--" keeps every flag set and leaves fs.Args() the inputs, as
	// read expects.
	if err := fs.Parse(append([]string{"--"}, fs.Args()[1:]...)); err != nil {
		fmt.Fprintf(stderr, "runaway explain: %v\n", err)
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var redactor report.Redactor
	if redactArgs {
		redactor = redact.New(nil)
	}
	built, stats, code := in.explainRuns(ctx, "explain", fs, stdin, stderr, ids, selected, redactor)
	if code != exitClean {
		return code
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
		color := format == "text" && (out == "" || out == "-") && colorWanted(stdout)
		if err := writeOutput(out, stdout, func(w io.Writer) error {
			return writeExplain(w, format, runs, color)
		}); err != nil {
			fmt.Fprintf(stderr, "runaway explain: writing the report: %v\n", err)
			return exitFailure
		}
	}
	if len(missing) > 0 {
		quoted := make([]string, len(missing))
		for k, id := range missing {
			quoted[k] = fmt.Sprintf("%q", id)
		}
		fmt.Fprintf(stderr, "runaway explain: run %s not found in the input (%d lines read, %d of other runs skipped)\n",
			strings.Join(quoted, ", "), stats.Lines, stats.Skipped)
		return exitFailure
	}
	if in.strict && stats.Rejected > 0 {
		fmt.Fprintf(stderr, "runaway explain: %d input lines rejected (--strict)\n", stats.Rejected)
		return exitFailure
	}
	return exitClean
}

// explainRuns reads the lines of the runs ids from the inputs (fs.Args())
// and builds their models, by run id; a run not in the input has none.
// Only the lines that can hold the ids are decoded. It is explain's
// pipeline, and the scan's for the timelines its html overview embeds. A
// code other than exitClean means stop with it (stderr says why).
func (in *inputFlags) explainRuns(ctx context.Context, cmd string, fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer,
	ids []string, guards []replay.Guard, redactor report.Redactor) (map[string]*explain.Run, ingest.Stats, int) {
	lines := make(map[string][][]byte, len(ids))
	in.runIDs = ids
	in.onStepLine = func(l ingest.StepLine) { lines[l.RunID] = append(lines[l.RunID], l.Raw) }
	collector, policy, stats, code := in.read(ctx, cmd, fs, stdin, stderr)
	if code != exitClean {
		return nil, stats, code
	}
	in.progress.finish()
	built := make(map[string]*explain.Run, len(ids))
	collector.Visit(policy, in.workers, func(r detect.RunSteps, res *detect.RunResult) {
		// Visit calls one at a time: the guards are reset for each run.
		built[r.ID()] = explain.Build(explain.Input{Steps: r, Result: res, Lines: lines[r.ID()], Guards: guards, Redact: redactor})
		delete(lines, r.ID())
	})
	return built, stats, exitClean
}

func writeExplain(w io.Writer, format string, runs []*explain.Run, color bool) error {
	switch format {
	case "md":
		return explain.WriteMarkdown(w, runs)
	case "html":
		return explain.WriteHTML(w, runs)
	}
	return explain.WriteText(w, runs, explain.TextOptions{Color: color})
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
