package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/runstore"
)

type fixtureFlags struct {
	inputFlags
	out        string
	runs       []string
	allFlagged bool
	minimize   bool
	budget     int
	noRedact   bool
	keyFile    string
	force      bool
}

func runFixture(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("fixture", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var f fixtureFlags
	fs.StringVarP(&f.out, "out", "o", "", "directory to write the fixtures to (created if missing; required)")
	fs.StringArrayVar(&f.runs, "run", nil, "also make a fixture of this run (repeatable)")
	fs.BoolVar(&f.allFlagged, "all-flagged", false, "make a fixture of every run with verdict runaway (then every argument is an input)")
	fs.BoolVar(&f.minimize, "minimize", false, "shrink each run to a few steps and fields with the same verdict, root cause, detectors and onset step")
	fs.IntVar(&f.budget, "minimize-budget", fixture.DefaultBudget, "most detection calls --minimize makes per run")
	fs.BoolVar(&f.noRedact, "no-redact", false, "keep the logged text and values (default: placeholders that keep equality; secrets removed)")
	fs.StringVar(&f.keyFile, "redact-key-file", "", "key placeholders are derived from (default: a fixed public key, so output is reproducible)")
	fs.BoolVar(&f.force, "force", false, "replace existing fixtures of the same runs")
	bindInputFlags(fs, &f.inputFlags)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway fixture RUN_ID PATH... --out DIR [--run ID]... [flags]\n"+
			"       runaway fixture --all-flagged PATH... --out DIR [flags]\n\n"+
			"Writes each run as DIR/<name>.jsonl (its steps, redacted unless --no-redact) and\n"+
			"DIR/<name>.want.json (its verdict, root cause, onset step and detectors), the format\n"+
			"'runaway verify' and fixtures/ use (docs/fixtures.md). <name> is the run id made safe.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "fixture", stderr); !ok {
		return code
	}
	ids, paths, code := f.targets(fs, stderr)
	if code != exitClean {
		return code
	}
	var red *redact.Redactor
	if !f.noRedact {
		var key []byte
		if f.keyFile != "" {
			k, err := os.ReadFile(f.keyFile)
			if err != nil {
				fmt.Fprintf(stderr, "runaway fixture: --redact-key-file: %v\n", err)
				return exitUsage
			}
			key = []byte(strings.TrimSpace(string(k)))
			if len(key) == 0 {
				// Falling back to the public key would look private and not be.
				fmt.Fprintf(stderr, "runaway fixture: --redact-key-file %s is empty\n", f.keyFile)
				return exitUsage
			}
		}
		red = redact.New(key)
	} else if f.keyFile != "" {
		fmt.Fprintln(stderr, "runaway fixture: --redact-key-file and --no-redact contradict each other")
		return exitUsage
	}
	// Only the paths are inputs: read takes them from fs.Args().
	if err := fs.Parse(append([]string{"--"}, paths...)); err != nil {
		fmt.Fprintf(stderr, "runaway fixture: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if f.allFlagged {
		if slices.Contains(paths, "-") {
			fmt.Fprintln(stderr, "runaway fixture: --all-flagged reads the input twice; give files, not stdin")
			return exitUsage
		}
		if ids, code = f.runawayRuns(ctx, fs, stdin, stderr); code != exitClean {
			return code
		}
		if len(ids) == 0 {
			fmt.Fprintln(stderr, "runaway fixture: no runaway runs in the input; nothing written")
			return exitClean
		}
	}
	lines := map[string][][]byte{}
	f.runIDs = ids
	f.onStepLine = func(l ingest.StepLine) { lines[l.RunID] = append(lines[l.RunID], l.Raw) }
	var policy detect.Policy
	sink, _, code := f.readInto(ctx, "fixture", fs, stdin, stderr, func(p detect.Policy) (batchSink, error) {
		policy = p
		return runstore.NewCollector(nil), nil
	})
	if code != exitClean {
		return code
	}
	results := sink.(*runstore.Collector).Results(policy, f.workers)
	f.progress.finish()
	if f.minimize {
		relaxGCForMinimize()
	}
	return f.build(ctx, ids, lines, results, policy, red, stderr)
}

// targets splits the arguments into run ids and input paths: without
// --all-flagged, the first argument is a run id.
func (f *fixtureFlags) targets(fs *pflag.FlagSet, stderr io.Writer) (ids, paths []string, code int) {
	args := fs.Args()
	switch {
	case f.out == "":
		fmt.Fprintln(stderr, "runaway fixture: --out DIR is required")
		return nil, nil, exitUsage
	case f.budget < 1:
		fmt.Fprintln(stderr, "runaway fixture: --minimize-budget must be at least 1")
		return nil, nil, exitUsage
	case f.allFlagged && len(f.runs) > 0:
		fmt.Fprintln(stderr, "runaway fixture: --all-flagged takes every runaway run; drop --run")
		return nil, nil, exitUsage
	case f.allFlagged:
		paths = args
	case len(args) == 0:
		fmt.Fprintln(stderr, "runaway fixture: name a run id, then the inputs")
		fs.Usage()
		return nil, nil, exitUsage
	default:
		ids, paths = append([]string{args[0]}, f.runs...), args[1:]
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "runaway fixture: no input; name files, directories, globs or - for stdin")
		return nil, nil, exitUsage
	}
	for _, id := range ids {
		if id == "" {
			fmt.Fprintln(stderr, "runaway fixture: an empty run id names no run")
			return nil, nil, exitUsage
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), paths, exitClean
}

// runawayRuns reads the whole input once and returns the ids of its
// runaway runs, sorted.
func (f *fixtureFlags) runawayRuns(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer) ([]string, int) {
	c, policy, _, code := f.read(ctx, "fixture", fs, stdin, stderr)
	if code != exitClean {
		return nil, code
	}
	var ids []string
	for _, r := range c.Results(policy, f.workers) {
		if r.Verdict == detect.Runaway {
			ids = append(ids, r.RunID)
		}
	}
	f.progress.finish()
	f.progress = nil
	f.rejects = "" // written by this pass; the next reads only the runaway runs
	return ids, exitClean
}

// build makes, names and writes the fixtures. Every run that can be is
// written; a run not found, one that cannot become a faithful fixture, or
// a fixture that exists without --force makes the exit code 3, after the
// others are written.
func (f *fixtureFlags) build(ctx context.Context, ids []string, lines map[string][][]byte, results []detect.RunResult,
	policy detect.Policy, red *redact.Redactor, stderr io.Writer) int {
	a := &fixture.Analyzer{Alloc: memory.NewGoAllocator(), Policy: policy, MaxLineBytes: f.maxLineBytes}
	byID := map[string]*detect.RunResult{}
	for i := range results {
		byID[results[i].RunID] = &results[i]
	}
	code := exitClean
	names := fixture.NewNames()
	for _, id := range ids {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "runaway fixture: interrupted")
			return exitFailure
		}
		if len(lines[id]) == 0 || byID[id] == nil {
			fmt.Fprintf(stderr, "runaway fixture: run %q: not found in the input\n", id)
			code = exitFailure
			continue
		}
		fx, err := fixture.Build(ctx, a, id, lines[id], fixture.BuildOptions{Redactor: red, Minimize: f.minimize, Budget: f.budget})
		if err != nil {
			fmt.Fprintf(stderr, "runaway fixture: %v\n", err)
			code = exitFailure
			continue
		}
		// The run as the scan saw it, among every other run, and as the
		// fixture holds it must agree: the analysis of a run does not
		// depend on the rest of the input.
		if d := fixture.Diff(fixture.WantOf(byID[id]), fx.Original); len(d) > 0 {
			fmt.Fprintf(stderr, "runaway fixture: run %q: its steps alone get another verdict than in the input (%v)\n", id, d)
			code = exitFailure
			continue
		}
		name := names.Name(id, func(name string) bool {
			p, err := fixture.PathsFor(f.out, name)
			return err != nil || (p.Exists() && !p.OwnedBy(id))
		})
		paths, err := fixture.PathsFor(f.out, name)
		if err != nil {
			fmt.Fprintf(stderr, "runaway fixture: run %q: %v\n", id, err)
			code = exitFailure
			continue
		}
		if paths.Exists() && !f.force {
			fmt.Fprintf(stderr, "runaway fixture: run %q: %s exists; --force replaces it\n", id, paths.Steps)
			code = exitFailure
			continue
		}
		if err := fixture.Write(paths, fx); err != nil {
			fmt.Fprintf(stderr, "runaway fixture: run %q: %v\n", id, err)
			return exitFailure
		}
		fmt.Fprintf(stderr, "%s: %s\n", paths.Steps, describeWant(fx.Want))
		if m := fx.Minimized; m != nil {
			note := ""
			if m.Exhausted {
				note = " (budget reached: smaller, not minimal)"
			}
			fmt.Fprintf(stderr, "  minimized: %d -> %d steps, %d -> %d fields, %d detection calls%s\n",
				m.StepsBefore, m.StepsAfter, m.FieldsBefore, m.FieldsAfter, m.Calls, note)
		}
	}
	return code
}

func describeWant(w fixture.Want) string {
	if w.Verdict == detect.Healthy.String() {
		return fmt.Sprintf("%s, detectors [%s]", w.Verdict, strings.Join(w.Detectors, " "))
	}
	return fmt.Sprintf("%s %s from step %d, detectors [%s]", w.Verdict, w.RootCause, w.OnsetStep, strings.Join(w.Detectors, " "))
}

// relaxGCForMinimize collects at 400% heap growth unless the user set GOGC.
// Minimizing analyses a small run hundreds of times, and every analysis
// allocates its decoder's and collector's buffers, garbage at once, while
// the live heap is only the runs' lines: at read's 40% the garbage
// collector runs all the time (300 generated runs, --all-flagged
// --minimize: 33 s at GOGC=40, 15 s at 400).
func relaxGCForMinimize() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
}
