package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"html/template"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/spill"
)

// MaxHTMLTimelines caps ScanConfig.HTMLTimelines so that the page stays a
// few MB (25 timelines added 1.1 MB to the page on the bench corpus).
const MaxHTMLTimelines = 32

// maxTimelineBytes bounds the timelines an html overview embeds, so that
// the page stays a few MB: a long run's is up to about 500 KB (explain
// folds it), 25 of a few dozen steps each about 1.1 MB in all.
const maxTimelineBytes = 4 << 20

// maxTimelineReads bounds the reads of the input again for the html
// timelines: a run as long as one may be takes one of its own.
const maxTimelineReads = 3

// MinMemory is the smallest ScanConfig.MaxMemory.
const MinMemory = 64 << 20

// ScanConfig is a scan: the input, the reports it writes and its gate.
type ScanConfig struct {
	Config

	// The reports, all written from one analysis pass.
	Format  string   // --format: one of report.Formats
	Out     string   // --out: the file of Format's report; "" or "-" is stdout
	Outputs []string // --output: more reports, as FORMAT=PATH (OutputFormats)
	MaxRows int      // --max-rows: table and html, the flagged runs shown (0: all)
	// HTMLTimelines is how many flagged runs the html overview embeds the
	// timelines of, read again from the input (0 to MaxHTMLTimelines).
	HTMLTimelines int
	Redact        bool // --redact: placeholders for args values, and for secrets anywhere, in every output
	Color         bool // colour a table written to stdout (the CLI's --color)
	// Width is the terminal width the table written to stdout fits,
	// cutting its free text; 0 (a file, a pipe) cuts nothing.
	Width int

	// FailOn is the verdict at or above which Scan returns a
	// *FindingsError: "runaway", "suspicious" or "never" (--fail-on).
	FailOn string
	// JUnitFailOn is the verdict at or above which a run is a failure in
	// the junit output, as FailOn; "" is "runaway" (the CLI: --fail-on
	// when given, so that the report and the exit code agree).
	JUnitFailOn string

	// MaxMemory is the memory the scan aims to stay under, in bytes (at
	// least MinMemory; --max-memory). SpillDir holds the temporary files
	// ("" is the system's).
	MaxMemory int64
	SpillDir  string
}

// FailOnLevels are the values of ScanConfig.FailOn (--fail-on).
var FailOnLevels = []string{"runaway", "suspicious", "never"}

// DefaultScanConfig is the CLI's defaults for scan.
func DefaultScanConfig() ScanConfig {
	return ScanConfig{Config: DefaultConfig(), Format: "table", FailOn: "never", MaxMemory: 1 << 30, HTMLTimelines: 25}
}

// Summary is what a scan found: the report's summary and the worst
// verdict of any run.
type Summary struct {
	report.Summary
	Worst detect.Verdict
}

// Validate checks the reports and the gate of cfg, as Scan does first; the
// CLI calls it before it sets the process's memory up for the scan.
func (cfg *ScanConfig) Validate() error {
	_, _, err := cfg.check()
	return err
}

func (cfg *ScanConfig) check() (*detect.Verdict, []output, error) {
	failOn, ok := parseFailOn(cfg.FailOn)
	if !ok {
		return nil, nil, usagef("--fail-on %q: want one of %s", cfg.FailOn, strings.Join(FailOnLevels, ", "))
	}
	if _, ok := parseFailOn(cmp.Or(cfg.JUnitFailOn, "runaway")); !ok {
		return nil, nil, usagef("junit: fail-on %q: want one of %s", cfg.JUnitFailOn, strings.Join(FailOnLevels, ", "))
	}
	if !slices.Contains(report.Formats, cfg.Format) {
		return nil, nil, usagef("--format %q: want one of %s", cfg.Format, strings.Join(report.Formats, ", "))
	}
	if cfg.HTMLTimelines < 0 || cfg.HTMLTimelines > MaxHTMLTimelines {
		return nil, nil, usagef("--html-timelines %d: want 0 to %d", cfg.HTMLTimelines, MaxHTMLTimelines)
	}
	if cfg.MaxRows < 0 {
		return nil, nil, usagef("--max-rows %d: want 0 (all) or more", cfg.MaxRows)
	}
	if cfg.SpillDir != "" {
		// Checked now, not at the first spill: a scan that spills late
		// would otherwise fail after most of its work, as a runtime failure.
		if st, err := os.Stat(cfg.SpillDir); err != nil || !st.IsDir() {
			return nil, nil, usagef("--spill-dir %s: not a directory", cfg.SpillDir)
		}
	}
	outputs, err := parseOutputs(cfg.Outputs)
	if err != nil {
		return nil, nil, &UsageError{Err: err}
	}
	outputs = append([]output{{format: cfg.Format, path: cfg.Out, flag: "--out " + cfg.Out}}, outputs...)
	if n := countStdout(outputs); n > 1 {
		return nil, nil, usagef("%d reports to stdout; give all but one a file", n)
	}
	var paths []namedPath
	for _, o := range outputs {
		paths = append(paths, namedPath{o.flag, o.path})
	}
	if err := checkPaths(cfg.jobInputs(), append(paths, cfg.rejectsPaths()...)); err != nil {
		return nil, nil, err
	}
	return failOn, outputs, nil
}

func parseFailOn(s string) (*detect.Verdict, bool) {
	switch s {
	case "never":
		return nil, true
	case "runaway", "suspicious":
		v, _ := detect.ParseVerdict(s)
		return &v, true
	}
	return nil, false
}

// memoryBudgets splits --max-memory: the input being decoded at once (at
// most 16 MiB, in chunks of 1 MiB: more cost CPU and RSS), a reserve for the
// runtime, buffers and the analysis of one partition, then, of the rest, a
// sixth (a quarter from 512 MiB on) for the steps collected in memory
// before they spill: the heap holds about twice that with the collector's
// chunks, maps and the garbage collector's headroom; larger shares only spill
// less often, which is cheap (docs/performance.md, "Measurements behind
// specific choices").
func memoryBudgets(limit int64) (inFlight, collected int64) {
	const reserve = 40 << 20
	inFlight = min(limit/8, 16<<20)
	rest := max(limit-inFlight-reserve, 8<<20)
	if limit >= 512<<20 {
		// Large budgets have room for the collector's slack: a quarter.
		return inFlight, rest / 4
	}
	return inFlight, rest / 6
}

// scan is one scan under way.
type scan struct {
	cfg ScanConfig
	in  input
	// collected is the budget of the collector (spill.Options.MaxBytes).
	collected int64
}

// Scan reads the input, analyses every run once within cfg.MaxMemory, and
// writes every report from that pass; warnings and progress go to stderr,
// a report without a file to stdout. The error is nil, a *FindingsError
// when a run is at or above cfg.FailOn, or why the scan could not run
// (ExitCode maps it). Scan does not tune the Go runtime: the CLI does,
// for the process, before calling it.
func Scan(ctx context.Context, cfg ScanConfig, stdin io.Reader, stdout, stderr io.Writer) (_ Summary, err error) {
	start := time.Now()
	failOn, outputs, err := cfg.check()
	if err != nil {
		return Summary{}, err
	}
	if cfg.MaxMemory < MinMemory {
		return Summary{}, usagef("--max-memory %d: want at least 64MiB", cfg.MaxMemory)
	}
	s := &scan{cfg: cfg, in: input{Config: cfg.Config, job: "scan", maxMemory: cfg.MaxMemory}}
	if cfg.Redact {
		s.in.redactor = redact.New(nil)
	}
	defer func() { err = s.in.finishRejects(err) }()
	removeStaleTemporaries(cfg.SpillDir, "scan", stderr)
	inFlight, collected := memoryBudgets(cfg.MaxMemory)
	s.in.inFlightBytes = int(inFlight)
	s.in.reuseBuffers = int(inFlight)
	s.in.maxSpanBytes = cfg.MaxMemory
	s.collected = collected
	var store *spill.Store
	defer func() {
		if store != nil {
			if err := store.Close(); err != nil {
				fmt.Fprintf(stderr, "runaway scan: removing temporary files: %s\n", report.Sanitize(err.Error()))
			}
		}
	}()
	// The html timelines read the input again: a pipe or stdin is copied
	// as it is first read, and read again from the copy.
	if cfg.HTMLTimelines > 0 && !canReadTwice(cfg.Paths) && slices.ContainsFunc(outputs, func(o output) bool { return o.format == "html" }) {
		s.in.spool = ingest.NewSpool(cfg.SpillDir)
		defer func() {
			if err := s.in.spool.Close(); err != nil {
				fmt.Fprintf(stderr, "runaway scan: removing temporary files: %v\n", err)
			}
		}()
	}
	_, stats, err := s.in.readInto(ctx, stdin, stderr, func(policy detect.Policy) (batchSink, error) {
		opts := spill.Options{Policy: policy, Dir: cfg.SpillDir, MaxBytes: collected,
			CloseIdle: canReadTwice(cfg.Paths), Workers: cfg.Workers}
		newStore := spill.New
		if newJobStore != nil {
			newStore = newJobStore
		}
		st, err := newStore(opts)
		store = st
		return st, err
	})
	if err != nil {
		return Summary{}, err
	}
	if stats.Steps == 0 && stats.Rejected > 0 {
		// Nothing could be read: not a clean scan of nothing.
		s.in.progress.finish()
		return Summary{}, inputf("nothing analysed: all %d input lines and documents were rejected (%s); no report written",
			stats.Rejected, rejectKinds(stats.RejectsByKind))
	}
	if stats.Steps == 0 && stats.Lines > 0 {
		// Lines were read and not one was a step or part of one: a file of
		// a format's look-alike, or logs without an agent's turn. Not a
		// clean scan of nothing either.
		s.in.progress.finish()
		return Summary{}, inputf("nothing analysed: %d line(s) read in %d file(s), none of them a step of an agent or part of one (docs/adapters/ says what each format needs); no report written",
			stats.Lines, stats.Files)
	}
	return s.analyze(ctx, store, stats, start, outputs, failOn, stdin, stdout, stderr)
}

// removeStaleTemporaries removes the spill directories and json spools
// that scans killed before they could clean up (SIGKILL, the OOM killer)
// left in dir, and says so: they can be gigabytes.
func removeStaleTemporaries(dir, job string, stderr io.Writer) {
	removed := append(spill.RemoveStale(dir), report.RemoveStaleSpools(dir)...)
	if len(removed) > 0 {
		fmt.Fprintf(stderr, "runaway %s: note: removed %d temporary file(s) left by jobs that were killed: %s\n",
			job, len(removed), strings.Join(removed, ", "))
	}
}

// analyze analyzes every run once and writes every output from that pass:
// ndjson and parquet as the results arrive (in run-id order), table, json
// and prom at the end from the summary. Nothing holds every run: the table
// keeps the flagged ones, and json spools its runs to a temporary file
// until the summary, which comes first, is known. A scan interrupted here
// writes no report.
func (s *scan) analyze(ctx context.Context, store *spill.Store, stats ingest.Stats, start time.Time,
	outputs []output, failOn *detect.Verdict, stdin io.Reader, stdout, stderr io.Writer) (Summary, error) {
	var streamed []*streamSink
	defer func() {
		for _, s := range streamed {
			s.abort() // no-op after commit
		}
	}()
	keepFlagged := false
	var overview *report.HTMLOverview
	redactor := s.in.redactor
	var spool *report.JSONSpool
	var junit *report.JUnitSpool
	defer func() {
		if spool != nil {
			spool.Close()
		}
		if junit != nil {
			junit.Close()
		}
	}()
	progress := s.in.progress
	for _, o := range outputs {
		if !slices.Contains(streamedFormats, o.format) {
			keepFlagged = keepFlagged || o.format == "table"
			if o.format == "html" && overview == nil {
				overview = report.NewHTMLOverview(s.cfg.MaxRows)
			}
			if o.format == "json" && spool == nil {
				var err error
				if spool, err = report.NewJSONSpool(s.cfg.SpillDir); err != nil {
					progress.finish()
					return Summary{}, outputf("json output: %v", err)
				}
			}
			if o.format == "junit" && junit == nil {
				failAt, _ := parseFailOn(cmp.Or(s.cfg.JUnitFailOn, "runaway")) // checked by check
				var err error
				if junit, err = report.NewJUnitSpool(s.cfg.SpillDir, failAt); err != nil {
					progress.finish()
					return Summary{}, outputf("junit output: %v", err)
				}
			}
			continue
		}
		ss, err := openStreamSink(o, stdout)
		if err != nil {
			progress.finish()
			return Summary{}, outputf("%s output: %v", o.format, err)
		}
		streamed = append(streamed, ss)
	}
	progress.analyzing()
	var (
		sum      report.Summarizer
		runs     []detect.RunResult
		worst    = detect.Healthy
		analyzed int
		dupes    [2]int64
	)
	readAgain, err := s.analyzeStore(ctx, store, stdin, stderr, func(r *detect.RunResult) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.in.noteLimit(r)
		loggedID := r.RunID
		if redactor != nil {
			// At the report boundary: every output sees the redacted run.
			red := report.RedactRun(*r, redactor)
			r = &red
		}
		progress.result(r)
		analyzed++
		worst = max(worst, r.Verdict)
		sum.Add(r)
		dupes[0] += r.DuplicateSteps
		dupes[1] += r.ConflictingSteps
		if keepFlagged && r.Verdict > detect.Healthy {
			// Only what the table prints: a few hundred bytes a flagged run.
			runs = append(runs, detect.RunResult{RunID: r.RunID, Verdict: r.Verdict, RootCause: r.RootCause,
				OnsetStep: r.OnsetStep, Steps: r.Steps, WastedSteps: r.WastedSteps, WastedTokens: r.WastedTokens,
				WastedCostUSD: r.WastedCostUSD, CostLogged: r.CostLogged, CostEstimated: r.CostEstimated, Headline: r.Headline})
		}
		if overview != nil {
			overview.AddRedacted(r, loggedID)
		}
		if spool != nil {
			if err := spool.Add(r); err != nil {
				return fmt.Errorf("json output: %w", err)
			}
		}
		if junit != nil {
			if err := junit.Add(r); err != nil {
				return fmt.Errorf("junit output: %w", err)
			}
		}
		for _, ss := range streamed {
			if err := ss.add(r); err != nil {
				return fmt.Errorf("%s output: %w", ss.out.format, err)
			}
		}
		return nil
	})
	progress.finish()
	if err != nil {
		if ctx.Err() != nil {
			return Summary{}, &InterruptedError{Msg: fmt.Sprintf("interrupted after analyzing %d runs (%d lines read); no report written", analyzed, stats.Lines)}
		}
		return Summary{}, outputf("writing the report: %v", err)
	}
	in := InputStats(stats, s.in.skipped)
	if redactor != nil {
		report.RedactInput(&in, redactor)
	}
	in.DuplicateSteps, in.ConflictingSteps = dupes[0], dupes[1]
	in.RunsReadAgain = int64(readAgain)
	result := &report.Scan{Summary: sum.Summary(in), Runs: runs}
	summary := Summary{Summary: result.Summary, Worst: worst}
	timing := scanTiming(start)
	// Every run is analyzed: what the store holds is not needed anymore,
	// and the html timelines read runs again.
	if err := store.Close(); err != nil {
		fmt.Fprintf(stderr, "runaway scan: removing temporary files: %s\n", report.Sanitize(err.Error()))
	}
	// Before any report is committed: interrupted here, the scan writes none.
	if overview != nil && !s.embedTimelines(ctx, overview, redactor, stdin, stderr) {
		return summary, &InterruptedError{Msg: "interrupted while reading the html timelines; no report written"}
	}
	for _, ss := range streamed {
		if err := ss.commit(); err != nil {
			return summary, outputf("writing the %s report: %v", ss.out.format, err)
		}
	}
	for _, o := range outputs {
		if slices.Contains(streamedFormats, o.format) {
			continue
		}
		opts := report.Options{MaxRows: s.cfg.MaxRows}
		if toStdout(o.path) {
			opts.Color, opts.Width = s.cfg.Color, s.cfg.Width
		}
		if err := writeFinal(o, stdout, result, spool, junit, overview, opts, timing); err != nil {
			return summary, outputf("writing the %s report: %v", o.format, err)
		}
	}
	if err := s.in.strictErr(stats); err != nil {
		return summary, err
	}
	if failOn != nil && worst >= *failOn {
		return summary, &FindingsError{Reason: fmt.Sprintf("runs at or above --fail-on %s", *failOn)}
	}
	return summary, nil
}

// analyzeStore analyzes every run in store and emits the results in run-id
// order. The store analyzed the runs that looked finished while it read
// (spill.Options.CloseIdle); those that logged again later were analyzed
// in pieces, and are read again, theirs only, before anything is emitted.
// It returns how many runs were read again.
func (s *scan) analyzeStore(ctx context.Context, store *spill.Store, stdin io.Reader, stderr io.Writer,
	emit func(*detect.RunResult) error) (int, error) {
	split, err := store.Finish(s.cfg.Workers)
	if err != nil {
		return 0, err
	}
	if len(split) > 0 {
		if err := s.readSplitRuns(ctx, store, split, stdin); err != nil {
			return 0, err
		}
		// Why the scan read its input twice, for whoever times it.
		fmt.Fprintf(stderr, "runaway scan: note: %d runs logged again after the scan had taken them for finished; their steps were read again\n", len(split))
	}
	return len(split), store.Emit(emit)
}

// readSplitRuns reads the steps of the runs store analyzed in pieces again,
// from the sources that held them, into a second store whose results
// replace theirs.
func (s *scan) readSplitRuns(ctx context.Context, store *spill.Store, split []string, stdin io.Reader) error {
	in := s.reread()
	in.runIDs = split
	names := store.SplitSources()
	in.onlySources = make(map[string]bool, len(names))
	for _, name := range names {
		in.onlySources[name] = true
	}
	if beforeSplitRead != nil {
		beforeSplitRead(names)
	}
	var second *spill.Store
	defer func() {
		if second != nil {
			second.Close()
		}
	}()
	var msgs bytes.Buffer
	_, _, err := in.readInto(ctx, stdin, &msgs, func(policy detect.Policy) (batchSink, error) {
		st, err := spill.New(spill.Options{Policy: policy, Dir: s.cfg.SpillDir, MaxBytes: s.collected})
		second = st
		return st, err
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("%d runs logged again after they were analyzed, and reading their steps again failed: %s", len(split), firstMessage(&msgs, err))
	}
	return store.Replace(second, s.cfg.Workers)
}

// newJobStore is nil but in a test, which makes the store of a job's
// read (scan, replay, eval): a smaller budget, and a look at whether it
// spilled.
var newJobStore func(spill.Options) (*spill.Store, error)

// beforeSplitRead is nil but in a test, which sees the sources read again.
var beforeSplitRead func(sources []string)

// canReadTwice reports whether the inputs can be read a second time: not
// stdin, nor a pipe or a device named as a file.
func canReadTwice(args []string) bool {
	for _, a := range args {
		if a == "-" {
			return false
		}
		if info, err := os.Stat(a); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
			return false
		}
	}
	return true
}

// reread is the input of a second, selective read of the input: a copy,
// so the first read's settings stay as they were. No rejects file (it
// holds the first read's rejects), no progress bar; the caller holds the
// read's messages (rejects, skipped sources) back: stderr has them once,
// from the first read.
func (s *scan) reread() input {
	in := s.in
	in.RejectsFile, in.rejects, in.Progress, in.progress = "", nil, false, nil
	return in
}

// firstMessage is why a second read failed: the first message it wrote to
// msgs, or err when it wrote none before it, without the command's prefix.
func firstMessage(msgs *bytes.Buffer, err error) string {
	fmt.Fprintf(msgs, "runaway scan: %v\n", err)
	why, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(msgs.String()), "runaway scan: "), "\n")
	return why
}

// beforeTimelineRead is nil but in a test, which removes the input there
// to check that a failed second read leaves the scan as it was.
var beforeTimelineRead func()

// embedTimelines gives the overview the step-by-step timelines of its
// first --html-timelines runs: a second, selective read of the input (only
// the lines that can hold their run ids are decoded) through explain's
// pipeline, drawn by explain's renderer. It is best effort: when the input
// cannot be read again, the page says so, a warning goes to stderr, and the
// scan's other outputs and exit code are those it would have without. It
// returns false only when ctx was cancelled.
func (s *scan) embedTimelines(ctx context.Context, overview *report.HTMLOverview, redactor report.Redactor,
	stdin io.Reader, stderr io.Writer) bool {
	n := s.cfg.HTMLTimelines
	ids := overview.TopRunIDs(n)
	switch {
	case n == 0:
		overview.SetTimelines(nil, "--html-timelines 0")
		return true
	case len(ids) == 0:
		return true
	}
	why := fmt.Sprintf("only the first %d runs have one; --html-timelines sets how many", n)
	// The runs are read again in groups, in page order, each of at most the
	// steps one run may hold, so that a read stays within --max-memory (no
	// run has more: each group has one). A long run takes a read of its
	// own; past maxTimelineReads reads, the runs left have none.
	limit := s.in.runStepLimit()
	var groups [][]string
	var steps int64
	for k, id := range ids {
		st := overview.Steps(id)
		if len(groups) == 0 || steps+st > limit {
			if len(groups) == maxTimelineReads {
				why = fmt.Sprintf("only the first %d runs have one: the next would take a read of the input again beyond %d, of at most the %d steps one run may hold under %s",
					k, maxTimelineReads, limit, s.in.budgetText())
				break
			}
			groups, steps = append(groups, nil), 0
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], id)
		steps += st
	}
	timelines := make(map[string]template.HTML, len(ids))
	size, k := 0, 0 // bytes of timelines, runs taken in page order
	for _, group := range groups {
		in := s.reread()
		if beforeTimelineRead != nil {
			beforeTimelineRead()
		}
		// The runs are read again by the ids they were logged with, which
		// --redact may have taken secrets out of on the page.
		logged := make([]string, len(group))
		for i, id := range group {
			logged[i] = overview.LoggedID(id)
		}
		var msgs bytes.Buffer
		built, _, err := in.explainRuns(ctx, stdin, &msgs, logged, replay.Defaults(), redactor) // every built-in guard, as explain's default
		if ctx.Err() != nil {
			return false
		}
		if err != nil {
			// The read's first message says why, prefixed as the warning is.
			fmt.Fprintf(stderr, "runaway scan: warning: the html overview has no step-by-step timelines: reading the input again failed: %s\n", report.Sanitize(firstMessage(&msgs, err)))
			overview.SetTimelines(nil, "reading the input again failed")
			return true
		}
		for i, id := range group {
			k++
			r := built[logged[i]]
			if r == nil {
				continue // gone from the input since the first read: its row says it has none
			}
			svg, err := explain.TimelineSVG(r)
			if err != nil {
				fmt.Fprintf(stderr, "runaway scan: warning: the timeline of a run is left out of the html overview: %s\n", report.Sanitize(err.Error()))
				continue
			}
			if size += len(svg); size > maxTimelineBytes && k > 1 {
				overview.SetTimelines(timelines, fmt.Sprintf("only the first %d runs have one: with the next, the timelines would pass %d MB", k-1, maxTimelineBytes>>20))
				return true
			}
			timelines[id] = svg
		}
	}
	overview.SetTimelines(timelines, why)
	return true
}
