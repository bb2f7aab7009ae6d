package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
)

// FixtureConfig is the making of regression fixtures from runs of the
// input (docs/fixtures.md).
type FixtureConfig struct {
	Config
	// Memory bounds the first read of --all-flagged, which analyzes every
	// run to find the runaway ones. The fixtures' runs themselves are held
	// whole: each up to the step limit of the default budget.
	Memory
	// RunIDs are the runs to make fixtures of; with AllFlagged, none may be
	// given: every runaway run is taken (--all-flagged).
	RunIDs     []string
	AllFlagged bool
	Out        string // --out: the directory written to (required)
	Force      bool   // --force: replace existing fixtures of the same runs

	// Minimize shrinks each run within MinimizeBudget detection calls
	// (--minimize, --minimize-budget).
	Minimize       bool
	MinimizeBudget int
	// BeforeMinimize, if set, is called once the input is read, before
	// minimizing: the CLI relaxes the garbage collector there.
	BeforeMinimize func()

	// NoRedact keeps the logged text (--no-redact); otherwise placeholders
	// are derived from the key in RedactKeyFile, or a fixed public key.
	NoRedact      bool
	RedactKeyFile string
}

// Fixture writes each run of cfg.RunIDs (or every runaway run) as a
// fixture under cfg.Out, and says on stderr what each holds. Every run
// that can be is written; runs not found, that cannot become a faithful
// fixture, or whose fixture exists without Force, are reported on stderr
// and make a *PartialError.
func Fixture(ctx context.Context, cfg FixtureConfig, stdin io.Reader, stderr io.Writer) (err error) {
	ids, err := cfg.targets()
	if err != nil {
		return err
	}
	if err := cfg.Memory.check(); err != nil {
		return err
	}
	var red *redact.Redactor
	if !cfg.NoRedact {
		var key []byte
		if cfg.RedactKeyFile != "" {
			k, err := os.ReadFile(cfg.RedactKeyFile)
			if err != nil {
				return usagef("--redact-key-file: %v", err)
			}
			key = []byte(strings.TrimSpace(string(k)))
			if len(key) == 0 {
				// Falling back to the public key would look private and not be.
				return usagef("--redact-key-file %s is empty", cfg.RedactKeyFile)
			}
		}
		red = redact.New(key)
	} else if cfg.RedactKeyFile != "" {
		return usagef("--redact-key-file and --no-redact contradict each other")
	}
	in := input{Config: cfg.Config, job: "fixture", maxMemory: cfg.MaxMemory}
	defer func() { err = in.finishRejects(err) }()
	if cfg.AllFlagged {
		if slices.Contains(cfg.Paths, "-") {
			return usagef("--all-flagged reads the input twice; give files, not stdin")
		}
		if ids, err = in.runawayRuns(ctx, cfg.Memory, stdin, stderr); err != nil {
			return err
		}
		if len(ids) == 0 {
			fmt.Fprintln(stderr, "runaway fixture: no runaway runs in the input; nothing written")
			return nil
		}
	}
	lines := map[string][][]byte{}
	in.runIDs = ids
	if !cfg.AllFlagged {
		in.closeRuns = newCloseRuns(ids)
	}
	in.onStepLine = func(l ingest.StepLine) { lines[l.RunID] = append(lines[l.RunID], l.Raw) }
	var policy detect.Policy
	sink, _, err := in.readInto(ctx, stdin, stderr, func(p detect.Policy) (batchSink, error) {
		policy = p
		return runstore.NewCollector(nil), nil
	})
	if err != nil {
		return err
	}
	results := sink.(*runstore.Collector).Results(policy, cfg.Workers)
	in.progress.finish()
	if cfg.Minimize && cfg.BeforeMinimize != nil {
		cfg.BeforeMinimize()
	}
	// A fixture holds a run whole, and is checked against the run's
	// analysis: a run past the step limit cannot become one.
	tooLong := func(id string) string {
		if o := in.over[id]; o != nil {
			return in.limitProblem(o)
		}
		return ""
	}
	return cfg.build(ctx, ids, lines, results, policy, red, in.closeRuns, tooLong, stderr)
}

// targets checks the runs and inputs asked for, and returns the run ids
// sorted and without repeats.
func (cfg *FixtureConfig) targets() ([]string, error) {
	switch {
	case cfg.Out == "":
		return nil, usagef("--out DIR is required")
	case cfg.MinimizeBudget < 1:
		return nil, usagef("--minimize-budget must be at least 1")
	case cfg.AllFlagged && len(cfg.RunIDs) > 0:
		return nil, usagef("--all-flagged takes every runaway run; drop --run")
	case !cfg.AllFlagged && len(cfg.RunIDs) == 0:
		return nil, &UsageError{Err: errors.New("name a run id, then the inputs"), ShowUsage: true}
	}
	if len(cfg.Paths) == 0 {
		return nil, usagef("no input; name files, directories, globs or - for stdin")
	}
	ids := slices.Clone(cfg.RunIDs)
	for _, id := range ids {
		if id == "" {
			return nil, usagef("an empty run id names no run")
		}
	}
	in := cfg.jobInputs(flagPath("--redact-key-file", cfg.RedactKeyFile))
	if err := checkPaths(in, cfg.rejectsPaths()); err != nil {
		return nil, err
	}
	// The fixtures are <name>.jsonl files: a directory whose walk reads
	// them would read them next time, as runs of the input.
	probe := locate(namedPath{"--out " + cfg.Out, filepath.Join(cfg.Out, "fixture"+fixture.StepsSuffix)})
	for _, d := range in.dirs {
		if rel, ok := probe.below(d); ok && in.reads(rel) {
			return nil, usagef("--out %s is inside %s, whose walk reads the fixtures (*%s) written there: the next run would read them as input (write them elsewhere, or --exclude them)",
				cfg.Out, d.name, fixture.StepsSuffix)
		}
	}
	// Which names the fixtures get is known only once they are made: a
	// rejects file named like one could be replaced by it.
	outDir := locate(namedPath{"--out " + cfg.Out, cfg.Out})
	for _, r := range cfg.rejectsPaths() {
		if rel, ok := locate(r).below(outDir); ok && fixture.Discovers(rel) {
			return nil, usagef("%s is inside --out %s, where fixtures (*%s, *%s) are written: one could replace it",
				r.name, cfg.Out, fixture.StepsSuffix, fixture.WantSuffix)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// runawayRuns reads the whole input once, within mem as a scan does, and
// returns the ids of its runaway runs, sorted.
func (in *input) runawayRuns(ctx context.Context, mem Memory, stdin io.Reader, stderr io.Writer) ([]string, error) {
	var ids []string
	_, err := in.analyzeBounded(ctx, mem, stdin, stderr, nil, func(r *detect.RunResult) error {
		if r.Verdict == detect.Runaway {
			ids = append(ids, r.RunID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.progress = nil
	in.RejectsFile = "" // written by this pass; the next reads only the runaway runs
	return ids, nil
}

// build makes, names and writes the fixtures. Every run that can be is
// written; a run not found, one that cannot become a faithful fixture, or
// a fixture that exists without Force makes a *PartialError, after the
// others are written. A fixture file that would replace an input or the
// rejects file is a *UsageError, before any is written.
func (cfg *FixtureConfig) build(ctx context.Context, ids []string, lines map[string][][]byte, results []detect.RunResult,
	policy detect.Policy, red *redact.Redactor, near *closeRuns, tooLong func(id string) string, stderr io.Writer) error {
	a := &fixture.Analyzer{Alloc: memory.NewGoAllocator(), Policy: policy, MaxLineBytes: cfg.MaxLineBytes}
	byID := map[string]*detect.RunResult{}
	for i := range results {
		byID[results[i].RunID] = &results[i]
	}
	// Every fixture is made and named first, so that none is written when
	// one would replace a file the job reads.
	type made struct {
		failure string // why the run has no fixture; "" when it has one
		paths   fixture.Paths
		fx      fixture.Fixture
	}
	var all []made
	names := fixture.NewNames()
	for _, id := range ids {
		if ctx.Err() != nil {
			return &InterruptedError{Msg: "interrupted; no fixture written"}
		}
		if len(lines[id]) == 0 || byID[id] == nil {
			why := fmt.Sprintf("run %q: not found in the input", id)
			if s := near.of(id); s != "" {
				why += "; " + s
			}
			all = append(all, made{failure: why})
			continue
		}
		if why := tooLong(id); why != "" {
			all = append(all, made{failure: fmt.Sprintf("run %q: not written: a fixture holds a run whole, and %s", id, why)})
			continue
		}
		fx, err := fixture.Build(ctx, a, id, lines[id], fixture.BuildOptions{Redactor: red, Minimize: cfg.Minimize, Budget: cfg.MinimizeBudget})
		if err != nil {
			all = append(all, made{failure: err.Error()})
			continue
		}
		// The fixture's run id names the run from here on: redacted, it
		// keeps all but the secrets of the id as logged.
		fxID := fx.Want.RunID
		// The run as the scan saw it, among every other run, and as the
		// fixture holds it must agree: the analysis of a run does not
		// depend on the rest of the input.
		if d := fixture.Diff(fixture.WantOf(byID[id]), fx.Original); len(d) > 0 {
			all = append(all, made{failure: fmt.Sprintf("run %q: its steps alone get another verdict than in the input (%v)", fxID, d)})
			continue
		}
		name := names.Name(fxID, func(name string) bool {
			p, err := fixture.PathsFor(cfg.Out, name)
			return err != nil || (p.Exists() && !p.OwnedBy(fxID))
		})
		paths, err := fixture.PathsFor(cfg.Out, name)
		if err != nil {
			all = append(all, made{failure: fmt.Sprintf("run %q: %v", fxID, err)})
			continue
		}
		if paths.Exists() && !cfg.Force {
			all = append(all, made{failure: fmt.Sprintf("run %q: %s exists; --force replaces it", fxID, paths.Steps)})
			continue
		}
		all = append(all, made{paths: paths, fx: fx})
	}
	outputs := cfg.rejectsPaths()
	for _, m := range all {
		if m.failure == "" {
			outputs = append(outputs, namedPath{"the fixture " + m.paths.Steps, m.paths.Steps}, namedPath{"the fixture " + m.paths.Want, m.paths.Want})
		}
	}
	if err := checkPaths(cfg.jobInputs(flagPath("--redact-key-file", cfg.RedactKeyFile)), outputs); err != nil {
		return err
	}
	failed := 0
	for _, m := range all {
		if m.failure != "" {
			fmt.Fprintf(stderr, "runaway fixture: %s\n", report.Sanitize(m.failure))
			failed++
			continue
		}
		if ctx.Err() != nil {
			return &InterruptedError{Msg: "interrupted"}
		}
		if err := fixture.Write(m.paths, m.fx); err != nil {
			return outputf("run %q: %v", m.fx.Want.RunID, err)
		}
		fmt.Fprintf(stderr, "%s: %s\n", report.Sanitize(m.paths.Steps), report.Sanitize(describeWant(m.fx.Want)))
		if mm := m.fx.Minimized; mm != nil {
			note := ""
			if mm.Exhausted {
				note = " (budget reached: smaller, not minimal)"
			}
			fmt.Fprintf(stderr, "  minimized: %d -> %d steps, %d -> %d fields, %d detection calls%s\n",
				mm.StepsBefore, mm.StepsAfter, mm.FieldsBefore, mm.FieldsAfter, mm.Calls, note)
		}
	}
	if failed > 0 {
		return &PartialError{Failed: failed, What: "fixtures"}
	}
	return nil
}

func describeWant(w fixture.Want) string {
	if w.Verdict == detect.Healthy.String() {
		return fmt.Sprintf("%s, detectors [%s]", w.Verdict, strings.Join(w.Detectors, " "))
	}
	return fmt.Sprintf("%s %s from step %d, detectors [%s]", w.Verdict, w.RootCause, w.OnsetStep, strings.Join(w.Detectors, " "))
}
