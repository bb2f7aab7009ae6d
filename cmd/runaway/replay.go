package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
)

// replayCmd holds what replay's flags set.
type replayCmd struct {
	cfg  pipeline.ReplayConfig
	in   inputFlags
	mem  memoryFlags
	list bool
}

func (c *replayCmd) flagSet() *pflag.FlagSet {
	fs := newFlagSet("replay")
	// StringArray, not StringSlice: a guard's params are comma-separated.
	fs.StringArrayVar(&c.cfg.Guards, "guard", nil, "replay this guard, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	setValues(fs, "guard", replay.Names()...)
	fs.StringVar(&c.cfg.Labels, "labels", "", "take runaway and healthy from this labels file (as 'runaway gen --labels' writes) instead of runaway's verdicts")
	fs.StringVar(&c.cfg.Format, "format", pipeline.ReplayFormats[0], "output format: "+strings.Join(pipeline.ReplayFormats, ", "))
	setValues(fs, "format", pipeline.ReplayFormats...)
	fs.StringVarP(&c.cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.IntVar(&c.cfg.Examples, "examples", 3, "table: healthy and suspicious runs stopped to list per guard")
	fs.BoolVar(&c.list, "list", false, "list the built-in guards, their params and sources, and exit")
	bindMemoryFlags(fs, &c.mem, "memory replay")
	bindInputFlags(fs, &c.in)
	return fs
}

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := new(replayCmd)
	fs := c.flagSet()
	if code, ok := parseFlags(fs, args, "replay", stdout, stderr); !ok {
		return code
	}
	if c.list {
		return listGuards(stdout, stderr)
	}
	cfg := c.cfg
	cfg.Config = c.in.config(fs, fs.Args(), stderr)
	mem, err := c.mem.memory()
	if err != nil {
		return exit("replay", stderr, err)
	}
	cfg.Memory = mem
	cfg.Width = tableWidth(stdout)
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	limitMemory(mem.MaxMemory)
	return exit("replay", stderr, pipeline.Replay(ctx, cfg, stdin, stdout, stderr))
}

func listGuards(stdout, stderr io.Writer) int {
	t := report.NewTable()
	t.Fit(tableWidth(stdout), 2, 3) // RULE, SOURCE
	t.Header("GUARD", "DEFAULTS", "RULE", "SOURCE")
	for _, s := range replay.Registry {
		var ps []string
		for _, p := range s.Params {
			ps = append(ps, fmt.Sprintf("%s=%d", p.Name, p.Default))
		}
		if s.Variants != nil {
			// Replayed once per variant: list those instead.
			ps = ps[:0]
			for _, v := range s.Variants {
				var vs []string
				for k, p := range s.Params {
					vs = append(vs, fmt.Sprintf("%s=%d", p.Name, v[k]))
				}
				ps = append(ps, strings.Join(vs, ","))
			}
		}
		if len(ps) == 0 {
			ps = []string{"-"}
		}
		// One line per setting, as runaway detectors lists thresholds.
		t.Append(s.Name, ps[0], s.Rule, s.Source)
		for _, p := range ps[1:] {
			t.Append("", p, "", "")
		}
	}
	if err := t.Render(stdout); err != nil {
		fmt.Fprintf(stderr, "runaway replay: %s\n", errText(err))
		return exitFailure
	}
	if err := detect.WriteGuideLegend(stdout); err != nil {
		fmt.Fprintf(stderr, "runaway replay: %s\n", errText(err))
		return exitFailure
	}
	return exitClean
}
