package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/internal/score"
	"github.com/runawayhq/runaway/replay"
)

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in       inputFlags
		guards   []string
		labels   string
		format   string
		out      string
		examples int
		list     bool
	)
	// StringArray, not StringSlice: a guard's params are comma-separated.
	fs.StringArrayVar(&guards, "guard", nil, "replay this guard, NAME or NAME:param=value,... (repeatable; default: every built-in guard)")
	fs.StringVar(&labels, "labels", "", "take runaway and healthy from this labels file (as 'runaway gen --labels' writes) instead of runaway's verdicts")
	fs.StringVar(&format, "format", "table", "output format: table, json")
	fs.StringVarP(&out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.IntVar(&examples, "examples", 3, "table: healthy and suspicious runs stopped to list per guard")
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
	if format != "table" && format != "json" {
		fmt.Fprintf(stderr, "runaway replay: --format %q: want table or json\n", format)
		return exitUsage
	}
	if examples < 0 {
		fmt.Fprintln(stderr, "runaway replay: --examples must be >= 0")
		return exitUsage
	}
	selected, err := parseGuards(guards)
	if err != nil {
		fmt.Fprintf(stderr, "runaway replay: %v\n", err)
		return exitUsage
	}
	var truth map[string]replay.Label
	if labels != "" {
		ls, err := score.ReadLabelsFile(labels)
		if err != nil {
			fmt.Fprintf(stderr, "runaway replay: --labels: %v\n", err)
			return exitFailure
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

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	collector, policy, stats, code := in.read(ctx, "replay", fs, stdin, stderr)
	if code != exitClean {
		return code
	}
	in.progress.finish() // the bar shows reading; the analysis is quick next to it
	rp := replay.New(selected, truth)
	collector.Visit(policy, in.workers, rp.Visit)
	rep := rp.Report()
	for _, fail := range stats.Failed {
		rep.FailedSources = append(rep.FailedSources, fail.Error())
	}
	if labels != "" && rep.Runs.Total == 0 {
		fmt.Fprintln(stderr, "runaway replay: warning: no run in the logs has a label")
	}
	if err := writeOutput(out, stdout, func(w io.Writer) error {
		if format == "json" {
			return replay.WriteJSON(w, rep)
		}
		return replay.WriteTable(w, rep, replay.TableOptions{Examples: examples})
	}); err != nil {
		fmt.Fprintf(stderr, "runaway replay: writing the report: %v\n", err)
		return exitFailure
	}
	if in.strict && stats.Rejected > 0 {
		fmt.Fprintf(stderr, "runaway replay: %d input lines rejected (--strict)\n", stats.Rejected)
		return exitFailure
	}
	return exitClean
}

// parseGuards reads the --guard flags; none means every built-in guard. A
// guard named twice (same name and params) is replayed once; the order is
// the registry's, whatever the order of the flags.
func parseGuards(specs []string) ([]replay.Guard, error) {
	if len(specs) == 0 {
		return replay.Defaults(), nil
	}
	var out []replay.Guard
	seen := map[string]bool{}
	for _, s := range specs {
		gs, err := replay.Parse(s)
		if err != nil {
			return nil, err
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

func listGuards(stdout, stderr io.Writer) int {
	t := tablewriter.NewTable(stdout)
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
		if err := t.Append(s.Name, strings.Join(ps, "\n"), s.Rule, s.Source); err != nil {
			fmt.Fprintf(stderr, "runaway replay: %v\n", err)
			return exitFailure
		}
	}
	if err := t.Render(); err != nil {
		fmt.Fprintf(stderr, "runaway replay: %v\n", err)
		return exitFailure
	}
	return exitClean
}
