package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"iter"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/explain"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/internal/atomicfile"
	"github.com/runawayhq/runaway/internal/bufpool"
	"github.com/runawayhq/runaway/pricing"
	"github.com/runawayhq/runaway/redact"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
	"github.com/runawayhq/runaway/spill"
)

// maxRejectMessages bounds the reject lines printed on stderr; the summary
// and --rejects have them all.
const maxRejectMessages = 20

type scanFlags struct {
	inputFlags
	format    string
	out       string
	failOn    string
	maxRows   int
	outputs   []string
	maxMemory string
	spillDir  string
	redact    bool
	// timelines is --html-timelines: the flagged runs, first in the html
	// overview's order, whose step-by-step timelines it embeds.
	timelines int
}

// maxHTMLTimelines caps --html-timelines so that the page stays a few MB
// (25 timelines added 1.1 MB to the page on the bench corpus).
const maxHTMLTimelines = 32

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

// setMemoryLimit makes the garbage collector work harder as the heap nears
// limit (a soft limit: GOMEMLIMIT, which wins when set).
func setMemoryLimit(limit int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(limit)
	}
}

// inputFlags are the flags of every command that analyzes step logs (scan,
// replay, eval): how to read the input and the detectors' policy.
type inputFlags struct {
	// skipped lists the files walks and listings passed over, as
	// "name: why", in the order found.
	skipped      []string
	pricesFile   string // --prices
	maxSpanBytes int64  // scan: --max-memory, the bound of the spans held (0: ingest's default)
	rejects      string
	strict       bool
	keepGoing    bool
	maxLineBytes int
	inputFormat  string // --input-format: auto, jsonl or an adapter name
	maxDocBytes  int
	stripOutput  bool // --strip-output
	policyFile   string
	workers      int
	quiet        bool
	// inFlightBytes bounds the input being decoded at once (scan's
	// --max-memory); 0 is ingest's default.
	inFlightBytes int
	// gcPaced: the command set the garbage collector's pace itself
	// (scan, by --max-memory).
	gcPaced bool
	// reuseBuffers, when positive, has batches built in buffers recycled
	// from released ones, keeping up to that many idle bytes: for a sink
	// that keeps nothing of a batch after it returns (scan's collector
	// copies what it needs).
	reuseBuffers int
	// collected is the budget of scan's collector (spill.Options.MaxBytes).
	collected int64
	include   []string
	exclude   []string
	policy    *policyFlags

	// runIDs, set by explain and fixture, reads only these runs (see
	// ingest.Options.RunIDs); nil reads every run.
	runIDs []string
	// onlySources, if non-nil, reads only the sources of these names.
	onlySources map[string]bool
	// onStepLine, if set, receives every step line read, verbatim.
	onStepLine func(ingest.StepLine)

	// progress is the bar of the command's run, nil when there is none.
	progress *progress
}

func bindInputFlags(fs *pflag.FlagSet, f *inputFlags) {
	fs.StringVar(&f.rejects, "rejects", "", "write every rejected input line, verbatim, to FILE")
	fs.BoolVar(&f.strict, "strict", false, "exit 3 when any input line is rejected")
	fs.BoolVar(&f.keepGoing, "keep-going", false, "skip inputs that cannot be read or give no step, and mark the report partial, instead of exit 3")
	fs.IntVar(&f.maxLineBytes, "max-line-bytes", 16<<20, "reject lines longer than this")
	fs.StringVar(&f.inputFormat, "input-format", ingest.FormatAuto, "how to read each input: "+strings.Join(ingest.InputFormats(), ", ")+" (auto: runaway's step lines or, recognised by their content, agent trajectories and traces; docs/adapters/)")
	fs.BoolVar(&f.stripOutput, "strip-output", false, "read trajectories without what their tools printed, as logs that keep no tool output are (docs/adapters/)")
	fs.StringVar(&f.pricesFile, "prices", "", "price table (JSON, the shape of the built-in pricing/prices.json) for estimating the cost of steps that log tokens and a model but no cost; default: the built-in table")
	fs.IntVar(&f.maxDocBytes, "max-doc-bytes", 256<<20, "reject a document read whole (a trajectory file, one line of a file of them) longer than this")
	fs.StringVar(&f.policyFile, "policy", "", "YAML file of detector thresholds (see 'runaway detectors')")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "decode and analysis goroutines")
	fs.StringSliceVar(&f.include, "include", nil, "read only files and objects whose name matches one of these globs (a pattern with / matches the path below the directory or prefix given)")
	fs.StringSliceVar(&f.exclude, "exclude", nil, "skip files and objects whose name matches one of these globs")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar (it is only drawn when stderr is a terminal)")
	f.policy = bindPolicyFlags(fs)
}

func runScan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("scan", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var f scanFlags
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVarP(&f.out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&f.failOn, "fail-on", "never", "exit 1 when a run is at or above this verdict: runaway, suspicious, never")
	fs.IntVar(&f.maxRows, "max-rows", 0, "table and html: show at most this many flagged runs (0 = all; html: at most 500)")
	fs.StringVar(&f.maxMemory, "max-memory", "1GiB", "memory the scan aims to stay under (at least 64MiB); runs that look finished are analyzed while reading, and input that does not fit spills to --spill-dir, partitioned by run id")
	fs.StringVar(&f.spillDir, "spill-dir", "", "directory for temporary files: spilled input, results of runs analyzed early (default: $TMPDIR or /tmp); they are removed on exit")
	fs.StringArrayVar(&f.outputs, "output", nil, "also write FORMAT=PATH from the same pass (repeatable); FORMAT: "+strings.Join(outputFormats, ", "))
	fs.BoolVar(&f.redact, "redact", false, "replace args values in evidence, messages and headlines with stable placeholders, in every output (docs/output.md)")
	fs.IntVar(&f.timelines, "html-timelines", 25, fmt.Sprintf("html: embed the step-by-step timelines of this many flagged runs, the first in the page's order, read again from the input (0 = none, at most %d)", maxHTMLTimelines))
	bindInputFlags(fs, &f.inputFlags)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway scan [flags] PATH...\n\nPATH is a file, a directory (read recursively), a glob, an s3:// or gs:// URL, or - for stdin.\n.gz and .zst input is read transparently; Parquet tables are recognised by their content.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, "scan", stderr); !ok {
		return code
	}
	failOn, ok := parseFailOn(f.failOn)
	if !ok {
		fmt.Fprintf(stderr, "runaway scan: --fail-on %q: want runaway, suspicious or never\n", f.failOn)
		return exitUsage
	}
	if !validFormat(f.format) {
		fmt.Fprintf(stderr, "runaway scan: --format %q: want one of %s\n", f.format, strings.Join(report.Formats, ", "))
		return exitUsage
	}
	if f.timelines < 0 || f.timelines > maxHTMLTimelines {
		fmt.Fprintf(stderr, "runaway scan: --html-timelines %d: want 0 to %d\n", f.timelines, maxHTMLTimelines)
		return exitUsage
	}
	outputs, err := parseOutputs(f.outputs)
	if err != nil {
		fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		return exitUsage
	}
	outputs = append([]output{{format: f.format, path: f.out}}, outputs...)
	if n := countStdout(outputs); n > 1 {
		fmt.Fprintf(stderr, "runaway scan: %d reports to stdout; give all but one a file\n", n)
		return exitUsage
	}
	start := time.Now()
	// Until the command ends, SIGINT and SIGTERM cancel ctx instead of
	// killing the process: reading stops and no report is written.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	maxMemory, err := humanize.ParseBytes(f.maxMemory)
	if err != nil || maxMemory < 64<<20 {
		fmt.Fprintf(stderr, "runaway scan: --max-memory %q: want a size of at least 64MiB, such as 512MiB or 2GiB\n", f.maxMemory)
		return exitUsage
	}
	releaseExecutablePages()
	adviseHeapHugePages(int64(maxMemory))
	defer paceGCByBudget(int64(maxMemory))()
	f.gcPaced = true
	inFlight, collected := memoryBudgets(int64(maxMemory))
	f.inFlightBytes = int(inFlight)
	f.reuseBuffers = int(inFlight)
	f.collected = collected
	f.maxSpanBytes = int64(maxMemory)
	var store *spill.Store
	defer func() {
		if store != nil {
			if err := store.Close(); err != nil {
				fmt.Fprintf(stderr, "runaway scan: removing temporary files: %v\n", err)
			}
		}
	}()
	_, stats, code := f.readInto(ctx, "scan", fs, stdin, stderr, func(policy detect.Policy) (batchSink, error) {
		s, err := spill.New(spill.Options{Policy: policy, Dir: f.spillDir, MaxBytes: collected,
			CloseIdle: canReadTwice(fs.Args()), Workers: f.workers})
		store = s
		return s, err
	})
	if code != exitClean {
		return code
	}
	if stats.Steps == 0 && stats.Rejected > 0 {
		// Nothing could be read: not a clean scan of nothing.
		f.progress.finish()
		fmt.Fprintf(stderr, "runaway scan: nothing analysed: all %d input lines and documents were rejected (%s); no report written\n",
			stats.Rejected, rejectKinds(stats.RejectsByKind))
		return exitFailure
	}
	return f.analyze(ctx, store, stats, start, outputs, failOn, fs, stdin, stdout, stderr)
}

// rejectKinds renders reject counts by kind, most first: "unknown_format 3, malformed_json 1".
func rejectKinds(byKind map[string]int64) string {
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		return cmp.Or(cmp.Compare(byKind[b], byKind[a]), strings.Compare(a, b))
	})
	for i, k := range kinds {
		kinds[i] = fmt.Sprintf("%s %d", k, byKind[k])
	}
	return strings.Join(kinds, ", ")
}

// analyze analyzes every run once and writes every output from that pass:
// ndjson and parquet as the results arrive (in run-id order), table, json
// and prom at the end from the summary. Nothing holds every run: the table
// keeps the flagged ones, and json spools its runs to a temporary file
// until the summary, which comes first, is known. A scan interrupted here
// writes no report.
func (f *scanFlags) analyze(ctx context.Context, store *spill.Store, stats ingest.Stats, start time.Time,
	outputs []output, failOn *detect.Verdict, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) int {
	var streamed []*streamSink
	defer func() {
		for _, s := range streamed {
			s.abort() // no-op after commit
		}
	}()
	keepFlagged := false
	var overview *report.HTMLOverview
	var redactor report.Redactor
	if f.redact {
		redactor = redact.New(nil)
	}
	var spool *report.JSONSpool
	defer func() {
		if spool != nil {
			spool.Close()
		}
	}()
	for _, o := range outputs {
		if !slices.Contains(streamedFormats, o.format) {
			keepFlagged = keepFlagged || o.format == "table"
			if o.format == "html" && overview == nil {
				overview = report.NewHTMLOverview(f.maxRows)
			}
			if o.format == "json" && spool == nil {
				var err error
				if spool, err = report.NewJSONSpool(f.spillDir); err != nil {
					f.progress.finish()
					fmt.Fprintf(stderr, "runaway scan: json output: %v\n", err)
					return exitFailure
				}
			}
			continue
		}
		s, err := openStreamSink(o, stdout)
		if err != nil {
			f.progress.finish()
			fmt.Fprintf(stderr, "runaway scan: %s output: %v\n", o.format, err)
			return exitFailure
		}
		streamed = append(streamed, s)
	}
	f.progress.analyzing(-1)
	var (
		sum      report.Summarizer
		runs     []detect.RunResult
		worst    = detect.Healthy
		analyzed int
		dupes    [2]int64
	)
	readAgain, err := f.analyzeStore(ctx, store, fs, stdin, stderr, func(r *detect.RunResult) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if redactor != nil {
			// At the report boundary: every output sees the redacted run.
			red := report.RedactRun(*r, redactor)
			r = &red
		}
		f.progress.result(r)
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
			overview.Add(r)
		}
		if spool != nil {
			if err := spool.Add(r); err != nil {
				return fmt.Errorf("json output: %w", err)
			}
		}
		for _, s := range streamed {
			if err := s.add(r); err != nil {
				return fmt.Errorf("%s output: %w", s.out.format, err)
			}
		}
		return nil
	})
	f.progress.finish()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "runaway scan: interrupted after analyzing %d runs (%d lines read); no report written\n", analyzed, stats.Lines)
		} else {
			fmt.Fprintf(stderr, "runaway scan: writing the report: %v\n", err)
		}
		return exitFailure
	}
	in := inputStats(stats, f.skipped)
	in.DuplicateSteps, in.ConflictingSteps = dupes[0], dupes[1]
	in.RunsReadAgain = int64(readAgain)
	scan := &report.Scan{Summary: sum.Summary(in), Runs: runs}
	timing := scanTiming(start)
	// Before any report is committed: interrupted here, the scan writes none.
	if overview != nil && !f.embedTimelines(ctx, overview, redactor, fs, stdin, stderr) {
		fmt.Fprintf(stderr, "runaway scan: interrupted while reading the html timelines; no report written\n")
		return exitFailure
	}
	for _, s := range streamed {
		if err := s.commit(); err != nil {
			fmt.Fprintf(stderr, "runaway scan: writing the %s report: %v\n", s.out.format, err)
			return exitFailure
		}
	}
	for _, o := range outputs {
		if slices.Contains(streamedFormats, o.format) {
			continue
		}
		opts := report.Options{Color: (o.path == "" || o.path == "-") && colorWanted(stdout), MaxRows: f.maxRows}
		if err := writeFinal(o, stdout, scan, spool, overview, opts, timing); err != nil {
			fmt.Fprintf(stderr, "runaway scan: writing the %s report: %v\n", o.format, err)
			return exitFailure
		}
	}
	if f.strict && stats.Rejected > 0 {
		fmt.Fprintf(stderr, "runaway scan: %d input lines rejected (--strict)\n", stats.Rejected)
		return exitFailure
	}
	if failOn != nil && worst >= *failOn {
		return exitFindings
	}
	return exitClean
}

// analyzeStore analyzes every run in store and emits the results in run-id
// order. The store analyzed the runs that looked finished while it read
// (spill.Options.CloseIdle); those that logged again later were analyzed
// in pieces, and are read again, theirs only, before anything is emitted.
// It returns how many runs were read again.
func (f *scanFlags) analyzeStore(ctx context.Context, store *spill.Store, fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer,
	emit func(*detect.RunResult) error) (int, error) {
	split, err := store.Finish(f.workers)
	if err != nil {
		return 0, err
	}
	if len(split) > 0 {
		if err := f.readSplitRuns(ctx, store, split, fs, stdin); err != nil {
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
func (f *scanFlags) readSplitRuns(ctx context.Context, store *spill.Store, split []string, fs *pflag.FlagSet, stdin io.Reader) error {
	in := f.rereadFlags()
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
	_, _, code := in.readInto(ctx, "scan", fs, stdin, &msgs, func(policy detect.Policy) (batchSink, error) {
		s, err := spill.New(spill.Options{Policy: policy, Dir: f.spillDir, MaxBytes: f.collected})
		second = s
		return s, err
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if code != exitClean {
		return fmt.Errorf("%d runs logged again after they were analyzed, and reading their steps again failed: %s", len(split), firstMessage(&msgs))
	}
	return store.Replace(second, f.workers)
}

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

// rereadFlags are the input flags of a second, selective read of the
// input: a copy, so the first read's settings stay as they were. No
// rejects file (it holds the first read's rejects), no progress bar; the
// caller holds the read's messages (rejects, skipped sources) back: stderr
// has them once, from the first read.
func (f *scanFlags) rereadFlags() inputFlags {
	in := f.inputFlags
	in.rejects, in.quiet, in.progress = "", true, nil
	return in
}

// firstMessage is why a second read failed: its first message, without
// the command's prefix.
func firstMessage(msgs *bytes.Buffer) string {
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
func (f *scanFlags) embedTimelines(ctx context.Context, overview *report.HTMLOverview, redactor report.Redactor,
	fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer) bool {
	ids := overview.TopRunIDs(f.timelines)
	switch {
	case f.timelines == 0:
		overview.SetTimelines(nil, "--html-timelines 0")
		return true
	case len(ids) == 0:
		return true
	case slices.Contains(fs.Args(), "-"):
		overview.SetTimelines(nil, "the input was read from stdin, which cannot be read again")
		return true
	}
	in := f.rereadFlags()
	if beforeTimelineRead != nil {
		beforeTimelineRead()
	}
	var msgs bytes.Buffer
	guards, _ := parseGuards(nil) // every built-in guard, as explain's default
	built, _, code := in.explainRuns(ctx, "scan", fs, stdin, &msgs, ids, guards, redactor)
	if ctx.Err() != nil {
		return false
	}
	if code != exitClean {
		// The read's first message says why, prefixed as the warning is.
		fmt.Fprintf(stderr, "runaway scan: warning: the html overview has no step-by-step timelines: reading the input again failed: %s\n", firstMessage(&msgs))
		overview.SetTimelines(nil, "reading the input again failed")
		return true
	}
	timelines := make(map[string]template.HTML, len(ids))
	for _, id := range ids {
		r := built[id]
		if r == nil {
			continue // gone from the input since the first read: its row says it has none
		}
		svg, err := explain.TimelineSVG(r)
		if err != nil {
			fmt.Fprintf(stderr, "runaway scan: warning: the timeline of a run is left out of the html overview: %v\n", err)
			continue
		}
		timelines[id] = svg
	}
	overview.SetTimelines(timelines, fmt.Sprintf("only the first %d runs have one; --html-timelines sets how many", f.timelines))
	return true
}

// read checks the input arguments and flags, and reads every source named
// on the command line into a collector, ready to analyze with the policy
// the flags name. cmd names the
// command in messages. A code other than exitClean means stop with it.
func (f *inputFlags) read(ctx context.Context, cmd string, fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer) (*runstore.Collector, detect.Policy, ingest.Stats, int) {
	var policy detect.Policy
	sink, stats, code := f.readInto(ctx, cmd, fs, stdin, stderr, func(p detect.Policy) (batchSink, error) {
		policy = p
		return runstore.NewCollector(nil), nil
	})
	if code != exitClean {
		return nil, policy, stats, code
	}
	return sink.(*runstore.Collector), policy, stats, code
}

// batchSink takes the batches a command reads: a collector, or for scan a
// spill.Store that bounds memory.
type batchSink interface {
	Add(arrow.RecordBatch) error
	Rows() int
}

// readInto is read with the sink newSink makes once the policy is known.
func (f *inputFlags) readInto(ctx context.Context, cmd string, fs *pflag.FlagSet, stdin io.Reader, stderr io.Writer,
	newSink func(detect.Policy) (batchSink, error)) (batchSink, ingest.Stats, int) {
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "runaway %s: no input; name files, directories, globs or - for stdin\n", cmd)
		fs.Usage()
		return nil, ingest.Stats{}, exitUsage
	}
	if f.maxLineBytes < 1024 {
		fmt.Fprintf(stderr, "runaway %s: --max-line-bytes must be at least 1024\n", cmd)
		return nil, ingest.Stats{}, exitUsage
	}
	if !slices.Contains(ingest.InputFormats(), f.inputFormat) {
		fmt.Fprintf(stderr, "runaway %s: --input-format %q: want one of %s\n", cmd, f.inputFormat, strings.Join(ingest.InputFormats(), ", "))
		return nil, ingest.Stats{}, exitUsage
	}
	if f.maxDocBytes < 1024 {
		fmt.Fprintf(stderr, "runaway %s: --max-doc-bytes must be at least 1024\n", cmd)
		return nil, ingest.Stats{}, exitUsage
	}
	if !f.gcPaced {
		lowerGCTarget()
	}
	policy := detect.DefaultPolicy()
	if f.policyFile != "" {
		if err := detect.LoadPolicyFile(f.policyFile, &policy); err != nil {
			fmt.Fprintf(stderr, "runaway %s: --policy: %v\n", cmd, err)
			return nil, ingest.Stats{}, exitUsage
		}
	}
	f.policy.apply(fs, &policy)
	if err := policy.Validate(); err != nil {
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		return nil, ingest.Stats{}, exitUsage
	}

	f.skipped = nil
	listed, err := ingest.ExpandArgs(ctx, fs.Args(), stdin, ingest.Filter{Include: f.include, Exclude: f.exclude,
		Skipped: func(name, why string) { f.skipped = append(f.skipped, name+": "+why) }})
	if err != nil {
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		var usage *ingest.UsageError
		if errors.As(err, &usage) {
			return nil, ingest.Stats{}, exitUsage
		}
		return nil, ingest.Stats{}, exitFailure
	}
	f.progress = startProgress(stderr, f.quiet)
	sources := func(yield func(ingest.Source, error) bool) {
		for s, err := range listed {
			if err == nil {
				if f.onlySources != nil && !f.onlySources[s.Name] {
					continue
				}
				s = f.progress.source(s)
			}
			if !yield(s, err) {
				return
			}
		}
	}
	sink, err := newSink(policy)
	if err != nil {
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		return nil, ingest.Stats{}, exitUsage
	}
	stats, code := f.collect(ctx, cmd, sources, policy, sink, stderr)
	if code != exitClean {
		f.progress.finish()
		f.progress = nil
	}
	return sink, stats, code
}

// collect reads every source into a collector.
func (f *inputFlags) collect(ctx context.Context, cmd string, sources iter.Seq2[ingest.Source, error], policy detect.Policy, sink batchSink, stderr io.Writer) (ingest.Stats, int) {
	var err error
	var rejectsFile *atomicfile.File
	if f.rejects != "" {
		rejectsFile, err = atomicfile.Create(f.rejects)
		if err != nil {
			fmt.Fprintf(stderr, "runaway %s: --rejects: %v\n", cmd, err)
			return ingest.Stats{}, exitFailure
		}
		defer rejectsFile.Abort()
	}
	var prices *pricing.Table
	if f.pricesFile != "" {
		if prices, err = pricing.Load(f.pricesFile); err != nil {
			fmt.Fprintf(stderr, "runaway %s: --prices: %v\n", cmd, err)
			return ingest.Stats{}, exitUsage
		}
	}
	printed := 0
	var alloc memory.Allocator = memory.NewGoAllocator()
	if f.reuseBuffers > 0 {
		alloc = bufpool.New(f.reuseBuffers)
	}
	opts := ingest.Options{
		Alloc:         alloc,
		MaxLineBytes:  f.maxLineBytes,
		MaxDocBytes:   f.maxDocBytes,
		InputFormat:   f.inputFormat,
		StripOutput:   f.stripOutput,
		Prices:        prices,
		MaxSpanBytes:  f.maxSpanBytes,
		Workers:       f.workers,
		KeepGoing:     f.keepGoing,
		VolatileKeys:  policy.Volatile(),
		InFlightBytes: f.inFlightBytes,
		RunIDs:        f.runIDs,
		OnStepLine:    f.onStepLine,
		OnSource: func(i int, name string) {
			if named, ok := sink.(interface{ SetSourceName(int, string) }); ok {
				named.SetSourceName(i, name)
			}
		},
		OnReject: func(r ingest.Reject) {
			if printed < maxRejectMessages {
				fmt.Fprintf(stderr, "%s:%d: rejected: %s\n", r.File, r.Line, r.Reason)
			}
			printed++
		},
	}
	if rejectsFile != nil {
		opts.Rejects = rejectsFile
	}
	stats, err := ingest.ReadSeq(ctx, sources, opts, func(rec arrow.RecordBatch) error {
		err := sink.Add(rec)
		f.progress.setSteps(sink.Rows())
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "runaway %s: interrupted after %d lines; no report written\n", cmd, stats.Lines)
		} else {
			fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		}
		return stats, exitFailure
	}
	if printed > maxRejectMessages {
		fmt.Fprintf(stderr, "... %d more rejected lines (see the summary; --rejects FILE keeps them all)\n", printed-maxRejectMessages)
	}
	for _, fail := range stats.Failed {
		fmt.Fprintf(stderr, "runaway %s: skipped (--keep-going): %v\n", cmd, fail)
	}
	if rejectsFile != nil {
		if err := rejectsFile.Commit(); err != nil {
			fmt.Fprintf(stderr, "runaway %s: --rejects: %v\n", cmd, err)
			return stats, exitFailure
		}
	}
	if stats.EmptyFiles > 0 {
		fmt.Fprintf(stderr, "runaway %s: warning: %d empty input file(s)\n", cmd, stats.EmptyFiles)
	}
	return stats, f.nothingPassesSilently(cmd, &stats, stderr)
}

// maxListed is how many skipped or unread files a message names.
const maxListed = 20

// nothingPassesSilently reports the inputs that gave nothing: files a
// directory walk skipped, and sources read to their end without one step.
// A source that gave nothing stops the command (exit 3) unless
// --keep-going, which makes it a failed source of a partial report; a scan
// that found no file it reads at all always stops.
func (f *inputFlags) nothingPassesSilently(cmd string, stats *ingest.Stats, stderr io.Writer) int {
	if n := len(f.skipped); n > 0 {
		fmt.Fprintf(stderr, "runaway %s: skipped %d file(s) that hold no log runaway reads:\n", cmd, n)
		for _, s := range f.skipped[:min(n, maxListed)] {
			fmt.Fprintf(stderr, "  %s\n", s)
		}
		if n > maxListed {
			fmt.Fprintf(stderr, "  ... and %d more\n", n-maxListed)
		}
		if stats.Files == 0 && len(stats.Failed) == 0 {
			fmt.Fprintf(stderr, "runaway %s: no file to read; no report written\n", cmd)
			return exitFailure
		}
	}
	for _, u := range stats.Unread {
		fmt.Fprintf(stderr, "runaway %s: %s: no step read (%d line(s) rejected, the first at line %d)\n", cmd, u.Source, u.Rejected, u.Line)
	}
	if len(stats.Unread) == 0 || stats.Steps == 0 {
		return exitClean // nothing read at all is the caller's to report
	}
	if !f.keepGoing {
		fmt.Fprintf(stderr, "runaway %s: %d input(s) gave no step; no report written (--keep-going reports the rest as partial)\n", cmd, len(stats.Unread))
		return exitFailure
	}
	for _, u := range stats.Unread {
		stats.Failed = append(stats.Failed, ingest.SourceError{Source: u.Source,
			Err: fmt.Errorf("no step read: %d line(s) rejected; line %d: %s", u.Rejected, u.Line, u.Reason)})
	}
	return exitClean
}

// inputStats is the summary's view of what was read.
func inputStats(stats ingest.Stats, skipped []string) report.InputStats {
	in := report.InputStats{
		Files:         stats.Files,
		EmptyFiles:    stats.EmptyFiles,
		LinesRead:     stats.Lines,
		BlankLines:    stats.BlankLines,
		LinesRejected: stats.Rejected,
		RejectsByKind: stats.RejectsByKind,
		Steps:         stats.Steps,
	}
	for _, fail := range stats.Failed {
		in.FailedSources = append(in.FailedSources, fail.Error())
	}
	in.SkippedFiles = skipped
	for name, fs := range stats.Formats {
		if in.Formats == nil {
			in.Formats = map[string]report.FormatRead{}
		}
		in.Formats[name] = report.FormatRead{Files: fs.Files, Steps: fs.Steps}
	}
	return in
}

// parseFlags parses a command's flags; ok is false when the command must
// end with code (0 after --help, 2 after a bad flag).
func parseFlags(fs *pflag.FlagSet, args []string, cmd string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean, false
		}
		fmt.Fprintf(stderr, "runaway %s: %v\n", cmd, err)
		return exitUsage, false
	}
	return exitClean, true
}

// lowerGCTarget collects at 40% heap growth instead of Go's 100% unless the
// user set GOGC: a scan's live heap is mostly the collected columns, which
// are pointer-free (cheap to collect) and only grow, so the default target
// nearly doubles peak memory for nothing. Measured on the 1 GB bench corpus
// (ndjson, streamed): GOGC 100 ~390 MiB, 50 320 MiB, 40 299 MiB for about 8%
// more CPU than 50, 25 274 MiB for 13% more (docs/performance.md,
// "Measurements behind specific choices").
func lowerGCTarget() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(40)
	}
}

// writeOutput writes to path atomically, or to stdout when path is empty.
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	dest, err := openDestination(path, stdout)
	if err != nil {
		return err
	}
	if err := write(dest.w); err != nil {
		dest.abort()
		return err
	}
	return dest.commit()
}

// destination is where a report goes: stdout ("" or "-"), a file replaced
// atomically on commit, or a path that is not a regular file (/dev/null, a
// FIFO), written directly: there is nothing to replace atomically.
type destination struct {
	w    io.Writer
	file *atomicfile.File
	dev  *os.File
}

func openDestination(path string, stdout io.Writer) (*destination, error) {
	if path == "" || path == "-" {
		return &destination{w: stdout}, nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		dev, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &destination{w: dev, dev: dev}, nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &destination{w: f, file: f}, nil
}

func (d *destination) commit() error {
	switch {
	case d.file != nil:
		return d.file.Commit()
	case d.dev != nil:
		return d.dev.Close()
	}
	return nil
}

func (d *destination) abort() {
	if d.file != nil {
		d.file.Abort()
	}
	if d.dev != nil {
		_ = d.dev.Close()
	}
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

func validFormat(f string) bool {
	for _, x := range report.Formats {
		if x == f {
			return true
		}
	}
	return false
}

// colorWanted: colour only on a terminal, and never when NO_COLOR is set
// (https://no-color.org).
func colorWanted(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
