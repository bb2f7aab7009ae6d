package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/fixture"
	"github.com/runawayhq/runaway/report"
)

// VerifyConfig is a check of fixtures against their want files. Of
// Config, it reads Paths (the fixture directories), Include, Exclude, the
// policy, MaxLineBytes and Workers: a fixture is read whole, strictly.
type VerifyConfig struct {
	Config
	Format string // --format: one of VerifyFormats
	Out    string // --out; "" or "-" is stdout
	Update bool   // --update: rewrite the want file of every failing fixture
	Width  int    // the terminal width the table written to stdout fits (0: no limit)
}

// Verify checks every fixture under cfg.Paths and writes the outcomes. A
// fixture that does not match is a *FindingsError; one that cannot be
// checked (unreadable, rejected lines, no want file) a *PartialError; the
// report says which.
func Verify(ctx context.Context, cfg VerifyConfig, stdout, stderr io.Writer) error {
	if !slices.Contains(VerifyFormats, cfg.Format) {
		return usagef("--format %q: want one of %s", cfg.Format, strings.Join(VerifyFormats, ", "))
	}
	if len(cfg.Paths) == 0 {
		return &UsageError{Err: errors.New("name the fixture directories"), ShowUsage: true}
	}
	in := input{Config: cfg.Config, job: "verify"}
	policy, err := in.policy()
	if err != nil {
		return err
	}
	if cfg.MaxLineBytes < 1024 {
		return usagef("--max-line-bytes must be at least 1024")
	}
	if cfg.Workers < 0 {
		return usagef("--workers %d: want at least 1 (0 is one per processor)", cfg.Workers)
	}
	if err := checkPatterns(cfg.Include, cfg.Exclude); err != nil {
		return err
	}
	// The report must not replace a fixture, nor be one the next time.
	fixtures := inputs{reads: func(rel string) bool {
		c := fixture.Case{Rel: strings.TrimSuffix(strings.TrimSuffix(rel, fixture.WantSuffix), fixture.StepsSuffix)}
		return fixture.Discovers(rel) && len(filterCases([]fixture.Case{c}, cfg.Include, cfg.Exclude)) > 0
	}}
	for _, p := range cfg.Paths {
		fixtures.add(namedPath{"the fixtures " + p, p})
	}
	if err := checkPaths(fixtures, []namedPath{flagPath("--out", cfg.Out)}); err != nil {
		return err
	}
	cases, err := fixture.Discover(cfg.Paths)
	if err != nil {
		return &InputError{Err: err}
	}
	cases = filterCases(cases, cfg.Include, cfg.Exclude)
	if len(cases) == 0 {
		return inputf("no fixtures (*.jsonl with a .want.json) under %s", strings.Join(cfg.Paths, ", "))
	}
	a := &fixture.Analyzer{Alloc: memory.NewGoAllocator(), Policy: policy, MaxLineBytes: cfg.MaxLineBytes}
	outcomes := checkAll(ctx, a, cases, cfg.Workers)
	if ctx.Err() != nil {
		return &InterruptedError{Msg: "interrupted"}
	}
	if cfg.Update {
		for i := range outcomes {
			o := &outcomes[i]
			if o.Status != fixture.Fail {
				continue
			}
			if err := fixture.Update(*o); err != nil {
				return outputf("updating %s: %v", o.Case.Want, err)
			}
			o.Updated = true
			fmt.Fprintf(stderr, "updated %s:", report.Sanitize(o.Case.Want))
			for _, d := range o.Diffs {
				fmt.Fprintf(stderr, " %s;", report.Sanitize(d.String()))
			}
			fmt.Fprintln(stderr)
		}
	}
	err = WriteOutput(cfg.Out, stdout, func(w io.Writer) error {
		if cfg.Format == "junit" {
			return fixture.WriteJUnit(w, outcomes)
		}
		return fixture.WriteTable(w, outcomes, widthOn(cfg.Out, cfg.Width))
	})
	if err != nil {
		return outputf("writing the report: %v", err)
	}
	s := fixture.Summarize(outcomes)
	switch {
	case s.Errors > 0:
		return &PartialError{Failed: s.Errors, What: "fixture checks"}
	case s.Failed > s.Updated:
		return &FindingsError{Reason: fmt.Sprintf("%d fixture(s) do not match", s.Failed-s.Updated)}
	}
	return nil
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

// filterCases keeps the fixtures Include and Exclude select, with the
// rule of the other jobs: a pattern without '/' matches the base name of
// the fixture's .jsonl, one with '/' its path below the directory given.
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
