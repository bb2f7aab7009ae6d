package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/internal/atomicfile"
	"github.com/runawayhq/runaway/report"
)

// maxRejectMessages bounds the reject lines printed on stderr; the summary
// and --rejects have them all.
const maxRejectMessages = 20

type scanFlags struct {
	format       string
	out          string
	failOn       string
	rejects      string
	strict       bool
	keepGoing    bool
	maxLineBytes int
	policyFile   string
	workers      int
	maxRows      int
}

func runScan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("scan", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var f scanFlags
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVarP(&f.out, "out", "o", "", "write the report to FILE (atomically) instead of stdout")
	fs.StringVar(&f.failOn, "fail-on", "never", "exit 1 when a run is at or above this verdict: runaway, suspicious, never")
	fs.StringVar(&f.rejects, "rejects", "", "write every rejected input line, verbatim, to FILE")
	fs.BoolVar(&f.strict, "strict", false, "exit 3 when any input line is rejected")
	fs.BoolVar(&f.keepGoing, "keep-going", false, "skip inputs that cannot be read and mark the report partial, instead of exit 3")
	fs.IntVar(&f.maxLineBytes, "max-line-bytes", 16<<20, "reject lines longer than this")
	fs.StringVar(&f.policyFile, "policy", "", "YAML file of detector thresholds (see 'runaway detectors')")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "decode and analysis goroutines")
	fs.IntVar(&f.maxRows, "max-rows", 0, "table: show at most this many flagged runs (0 = all)")
	pf := bindPolicyFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: runaway scan [flags] PATH...\n\nPATH is a file, a directory (read recursively), a glob, or - for stdin.\n.gz and .zst input is read transparently.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		return exitUsage
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
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "runaway scan: no input; name files, directories, globs or - for stdin")
		fs.Usage()
		return exitUsage
	}
	if f.maxLineBytes < 1024 {
		fmt.Fprintln(stderr, "runaway scan: --max-line-bytes must be at least 1024")
		return exitUsage
	}
	policy := detect.DefaultPolicy()
	if f.policyFile != "" {
		if err := detect.LoadPolicyFile(f.policyFile, &policy); err != nil {
			fmt.Fprintf(stderr, "runaway scan: --policy: %v\n", err)
			return exitUsage
		}
	}
	pf.apply(fs, &policy)
	if err := policy.Validate(); err != nil {
		fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		return exitUsage
	}

	sources, err := ingest.ExpandPaths(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		return exitFailure
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	scan, rejected, code := scanSources(ctx, sources, f, policy, stderr)
	if code != exitClean {
		return code
	}
	if err := writeOutput(f.out, stdout, func(w io.Writer) error {
		return report.Write(w, f.format, scan, report.Options{Color: f.out == "" && colorWanted(stdout), MaxRows: f.maxRows})
	}); err != nil {
		fmt.Fprintf(stderr, "runaway scan: writing the report: %v\n", err)
		return exitFailure
	}
	if f.strict && rejected > 0 {
		fmt.Fprintf(stderr, "runaway scan: %d input lines rejected (--strict)\n", rejected)
		return exitFailure
	}
	if failOn != nil {
		for _, r := range scan.Runs {
			if r.Verdict >= *failOn {
				return exitFindings
			}
		}
	}
	return exitClean
}

// scanSources reads every source into the collector and analyzes the runs.
func scanSources(ctx context.Context, sources []ingest.Source, f scanFlags, policy detect.Policy, stderr io.Writer) (*report.Scan, int64, int) {
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	collector, err := detect.NewCollector(policy, names)
	if err != nil {
		fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		return nil, 0, exitUsage
	}
	var rejectsFile *atomicfile.File
	if f.rejects != "" {
		rejectsFile, err = atomicfile.Create(f.rejects)
		if err != nil {
			fmt.Fprintf(stderr, "runaway scan: --rejects: %v\n", err)
			return nil, 0, exitFailure
		}
		defer rejectsFile.Abort()
	}
	printed := 0
	opts := ingest.Options{
		Alloc:        memory.NewGoAllocator(),
		MaxLineBytes: f.maxLineBytes,
		Workers:      f.workers,
		KeepGoing:    f.keepGoing,
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
	stats, err := ingest.Read(ctx, sources, opts, func(rec arrow.RecordBatch) error { return collector.Add(rec) })
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "runaway scan: interrupted after %d lines; no report written\n", stats.Lines)
		} else {
			fmt.Fprintf(stderr, "runaway scan: %v\n", err)
		}
		return nil, 0, exitFailure
	}
	if printed > maxRejectMessages {
		fmt.Fprintf(stderr, "... %d more rejected lines (see the summary; --rejects FILE keeps them all)\n", printed-maxRejectMessages)
	}
	for _, fail := range stats.Failed {
		fmt.Fprintf(stderr, "runaway scan: skipped (--keep-going): %v\n", fail)
	}
	if rejectsFile != nil {
		if err := rejectsFile.Commit(); err != nil {
			fmt.Fprintf(stderr, "runaway scan: --rejects: %v\n", err)
			return nil, 0, exitFailure
		}
	}
	runs := collector.Results(f.workers)
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
	for _, r := range runs {
		in.DuplicateSteps += r.DuplicateSteps
		in.ConflictingSteps += r.ConflictingSteps
	}
	if stats.EmptyFiles > 0 {
		fmt.Fprintf(stderr, "runaway scan: warning: %d empty input file(s)\n", stats.EmptyFiles)
	}
	return &report.Scan{Summary: report.Summarize(in, runs), Runs: runs}, stats.Rejected, exitClean
}

// writeOutput writes to path atomically, or to stdout when path is empty.
// A path that is not a regular file (/dev/null, a FIFO) is written directly:
// there is nothing to replace atomically.
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		dev, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		werr := write(dev)
		if cerr := dev.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
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
