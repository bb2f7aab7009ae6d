package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/replay"
)

// explainCmd holds what explain's flags set.
type explainCmd struct {
	cfg  pipeline.ExplainConfig
	in   inputFlags
	out  outputFlags
	more []string
	// maxMemory is --max-memory as given (a size such as 512MiB).
	maxMemory string
}

func (c *explainCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("explain")
	fs.StringArrayVar(&c.more, "run", nil, "explain this run too (repeatable)")
	fs.StringVar(&c.cfg.Format, "format", pipeline.ExplainFormats[0], "output format: "+strings.Join(pipeline.ExplainFormats, ", "))
	setValues(fs, "format", pipeline.ExplainFormats...)
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the post-mortem to FILE (atomically) instead of stdout")
	fs.StringArrayVar(&c.cfg.Guards, "guard", nil, "consider only this guard when choosing the one that would have stopped the run, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	setValues(fs, "guard", replay.Names()...)
	fs.StringVar(&c.maxMemory, "max-memory", "1GiB", "memory explain aims to stay under (at least 64MiB), as scan's: a run with more steps than this lets one run hold is explained up to that step, and says so")
	fs.BoolVar(&c.cfg.Redact, "redact", false, "replace args values, goals and reasons, and secrets anywhere (run ids, tools, error types, memory ids), with stable placeholders (the same text, the same placeholder), so the report can be shared")
	bindOutputFlags(fs, &c.out)
	bindInputFlags(fs, &c.in)
	return fs
}

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := new(explainCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "explain", stdout, stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "runaway explain: want a run id and at least one input: runaway explain RUN_ID PATH...")
		writeShortUsage(stderr, "explain")
		return exitUsage
	}
	cfg := c.cfg
	// The first argument is a run id, the others are the inputs.
	cfg.RunIDs = append([]string{fs.Arg(0)}, c.more...)
	cfg.Config = c.in.config(fs, fs.Args()[1:], stderr)
	look, err := c.out.look(stdout)
	if err != nil {
		return exit("explain", stderr, err)
	}
	cfg.Color, cfg.Width = look.color, look.width
	if cfg.MaxMemory, err = parseMaxMemory(c.maxMemory); err != nil {
		return exit("explain", stderr, err)
	}
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	limitMemory(cfg.MaxMemory)
	return exit("explain", stderr, pipeline.Explain(ctx, cfg, stdin, stdout, stderr))
}
