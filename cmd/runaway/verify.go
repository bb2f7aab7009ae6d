package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"strings"
	"sync"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/fixture"
)

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		in     inputFlags
		format string
		out    string
		update bool
	)
	fs.StringVar(&format, "format", "table", "output format: table, junit (JUnit XML for CI)")
	fs.StringVarP(&out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.BoolVar(&update, "update", false, "rewrite the want file of every failing fixture with runaway's verdict (review the differences first)")
	bindInputFlags(fs, &in)
	// Fixtures are checked strictly and each on its own: these do not apply.
	for _, name := range []string{"rejects", "strict", "keep-going"} {
		_ = fs.MarkHidden(name)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway verify [flags] DIR...\n\n"+
			"Checks every fixture under DIR (a <name>.jsonl with its <name>.want.json, recursively):\n"+
			"runaway's verdict, root cause, onset step and detectors must match the want file.\n"+
			"Exit codes: 0 all match, 1 a fixture does not match, 2 usage error,\n"+
			"3 a fixture cannot be read, holds rejected lines or has no want file.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "verify", stderr); !ok {
		return code
	}
	for _, name := range []string{"rejects", "strict", "keep-going"} {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "runaway verify: --%s does not apply: a fixture with a rejected line is an error, and every fixture is checked\n", name)
			return exitUsage
		}
	}
	if format != "table" && format != "junit" {
		fmt.Fprintf(stderr, "runaway verify: --format %q: want table or junit\n", format)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "runaway verify: name the fixture directories")
		fs.Usage()
		return exitUsage
	}
	policy, code := in.loadPolicy(fs, "verify", stderr)
	if code != exitClean {
		return code
	}
	for _, p := range append(append([]string(nil), in.include...), in.exclude...) {
		if _, err := path.Match(p, ""); err != nil || p == "" {
			fmt.Fprintf(stderr, "runaway verify: bad --include/--exclude pattern %q\n", p)
			return exitUsage
		}
	}
	cases, err := fixture.Discover(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "runaway verify: %v\n", err)
		return exitFailure
	}
	cases = filterCases(cases, in.include, in.exclude)
	if len(cases) == 0 {
		fmt.Fprintf(stderr, "runaway verify: no fixtures (*.jsonl with a .want.json) under %s\n", strings.Join(fs.Args(), ", "))
		return exitFailure
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &fixture.Analyzer{Alloc: memory.NewGoAllocator(), Policy: policy, MaxLineBytes: in.maxLineBytes}
	outcomes := checkAll(ctx, a, cases, in.workers)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "runaway verify: interrupted")
		return exitFailure
	}
	if update {
		for i := range outcomes {
			o := &outcomes[i]
			if o.Status != fixture.Fail {
				continue
			}
			if err := fixture.Update(*o); err != nil {
				fmt.Fprintf(stderr, "runaway verify: updating %s: %v\n", o.Case.Want, err)
				return exitFailure
			}
			o.Updated = true
			fmt.Fprintf(stderr, "updated %s:", o.Case.Want)
			for _, d := range o.Diffs {
				fmt.Fprintf(stderr, " %s;", d)
			}
			fmt.Fprintln(stderr)
		}
	}
	err = writeOutput(out, stdout, func(w io.Writer) error {
		if format == "junit" {
			return fixture.WriteJUnit(w, outcomes)
		}
		return fixture.WriteTable(w, outcomes)
	})
	if err != nil {
		fmt.Fprintf(stderr, "runaway verify: writing the report: %v\n", err)
		return exitFailure
	}
	s := fixture.Summarize(outcomes)
	switch {
	case s.Errors > 0:
		return exitFailure
	case s.Failed > s.Updated:
		return exitFindings
	}
	return exitClean
}

// checkAll checks the fixtures on workers goroutines; outcomes are in the
// order of cases whatever the scheduling.
func checkAll(ctx context.Context, a *fixture.Analyzer, cases []fixture.Case, workers int) []fixture.Outcome {
	outcomes := make([]fixture.Outcome, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(cases))) {
		wg.Go(func() {
			for i := range next {
				outcomes[i] = fixture.Check(ctx, a, cases[i])
			}
		})
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return outcomes
}

// filterCases keeps the fixtures --include and --exclude select, with the
// rule of the other commands: a pattern without '/' matches the base name
// of the fixture's .jsonl, one with '/' its path below the directory given.
func filterCases(cases []fixture.Case, include, exclude []string) []fixture.Case {
	if len(include) == 0 && len(exclude) == 0 {
		return cases
	}
	matches := func(patterns []string, c fixture.Case) bool {
		rel := c.Rel + fixture.StepsSuffix
		for _, p := range patterns {
			target := path.Base(rel)
			if strings.Contains(p, "/") {
				target = rel
			}
			if ok, _ := path.Match(p, target); ok {
				return true
			}
		}
		return false
	}
	var out []fixture.Case
	for _, c := range cases {
		if (len(include) == 0 || matches(include, c)) && !matches(exclude, c) {
			out = append(out, c)
		}
	}
	return out
}

// loadPolicy is the policy the input flags name (defaults, --policy, then
// the threshold flags), for commands that do not read logs through read.
func (f *inputFlags) loadPolicy(fs *pflag.FlagSet, cmd string, stderr io.Writer) (detect.Policy, int) {
	policy := detect.DefaultPolicy()
	if f.policyFile != "" {
		if err := detect.LoadPolicyFile(f.policyFile, &policy); err != nil {
			fmt.Fprintf(stderr, "runaway %s: --policy: %v\n", cmd, err)
			return policy, exitUsage
		}
	}
	f.policy.apply(fs, &policy)
	if err := policy.Validate(); err != nil {
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		return policy, exitUsage
	}
	if f.maxLineBytes < 1024 {
		fmt.Fprintf(stderr, "runaway %s: --max-line-bytes must be at least 1024\n", cmd)
		return policy, exitUsage
	}
	return policy, exitClean
}
