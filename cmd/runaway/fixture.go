package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/pipeline"
)

// fixtureCmd holds what fixture's flags set.
type fixtureCmd struct {
	cfg  pipeline.FixtureConfig
	in   inputFlags
	mem  memoryFlags
	runs []string
}

func (c *fixtureCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("fixture")
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "directory to write the fixtures to (created if missing; required)")
	fs.StringArrayVar(&c.runs, "run", nil, "also make a fixture of this run (repeatable)")
	fs.BoolVar(&c.cfg.AllFlagged, "all-flagged", false, "make a fixture of every run with verdict runaway (then every argument is an input)")
	fs.BoolVar(&c.cfg.Minimize, "minimize", false, "shrink each run to a few steps and fields with the same verdict, root cause, detectors and onset step")
	fs.IntVar(&c.cfg.MinimizeBudget, "minimize-budget", fixture.DefaultBudget, "most detection calls --minimize makes per run")
	fs.BoolVar(&c.cfg.NoRedact, "no-redact", false, "keep the logged text and values (default: placeholders that keep equality; secrets removed)")
	fs.StringVar(&c.cfg.RedactKeyFile, "redact-key-file", "", "key placeholders are derived from (default: a fixed public key, so output is reproducible)")
	fs.BoolVar(&c.cfg.Force, "force", false, "replace existing fixtures of the same runs")
	bindMemoryFlags(fs, &c.mem, "memory --all-flagged's read of every run")
	bindInputFlags(fs, &c.in)
	return fs
}

func runFixture(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := new(fixtureCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "fixture", stdout, stderr); !ok {
		return code
	}
	cfg := c.cfg
	// Without --all-flagged, the first argument is a run id and the others
	// are the inputs; with no argument at all there is no run id (--run
	// alone does not name the inputs).
	paths := fs.Args()
	switch {
	case cfg.AllFlagged:
		cfg.RunIDs = c.runs
	case len(paths) > 0:
		cfg.RunIDs, paths = append([]string{paths[0]}, c.runs...), paths[1:]
	}
	cfg.Config = c.in.config(fs, paths, stderr)
	cfg.BeforeMinimize = relaxGCForMinimize
	mem, err := c.mem.memory()
	if err != nil {
		return exit("fixture", stderr, err)
	}
	cfg.Memory = mem
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	limitMemory(mem.MaxMemory)
	return exit("fixture", stderr, pipeline.Fixture(ctx, cfg, stdin, stderr))
}
