package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
)

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in   inputFlags
		cfg  pipeline.ReplayConfig
		list bool
	)
	// StringArray, not StringSlice: a guard's params are comma-separated.
	fs.StringArrayVar(&cfg.Guards, "guard", nil, "replay this guard, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	fs.StringVar(&cfg.Labels, "labels", "", "take runaway and healthy from this labels file (as 'runaway gen --labels' writes) instead of runaway's verdicts")
	fs.StringVar(&cfg.Format, "format", "table", "output format: table, json")
	fs.StringVarP(&cfg.Out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.IntVar(&cfg.Examples, "examples", 3, "table: healthy and suspicious runs stopped to list per guard")
	fs.BoolVar(&list, "list", false, "list the built-in guards, their params and sources, and exit")
	bindInputFlags(fs, &in)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway replay [--guard NAME[:param=value,...]]... [flags] PATH...\n\n"+
			"Replays runtime guards over the runs, step by step, and reports per guard the runaway runs it\n"+
			"would have stopped (at which step, how soon after the onset, what it saves), the runaway runs\n"+
			"it misses, and the healthy runs it would have stopped, with its reason.\n"+
			"Guards: %s ('runaway replay --list' shows params and sources).\n\nFlags:\n%s",
			strings.Join(replay.Names(), ", "), fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "replay", stderr); !ok {
		return code
	}
	if list {
		return listGuards(stdout, stderr)
	}
	cfg.Config = in.config(fs, fs.Args(), stderr)
	ctx, stop := interruptible(stderr)
	defer stop()
	lowerGCTarget()
	return exit("replay", fs, stderr, pipeline.Replay(ctx, cfg, stdin, stdout, stderr))
}

func listGuards(stdout, stderr io.Writer) int {
	t := report.NewTable()
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
	return exitClean
}
