package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/internal/bufpool"
	"github.com/runawayhq/runaway/pricing"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/runstore"
)

// maxRejectMessages bounds the reject lines printed on stderr; the summary
// and --rejects have them all.
const maxRejectMessages = 20

// maxListed is how many skipped or unread files a message names.
const maxListed = 20

// input is one read of a job's input: its Config and what the job adds to
// it (budgets, a selection of runs or sources), and what the read found.
type input struct {
	Config
	job string // names the command in messages: "runaway scan: ..."

	// maxSpanBytes bounds the spans held (scan: --max-memory); 0 is
	// ingest's default.
	maxSpanBytes int64
	// inFlightBytes bounds the input being decoded at once (scan's
	// --max-memory); 0 is ingest's default.
	inFlightBytes int
	// reuseBuffers, when positive, has batches built in buffers recycled
	// from released ones, keeping up to that many idle bytes: for a sink
	// that keeps nothing of a batch after it returns (scan's collector
	// copies what it needs).
	reuseBuffers int
	// runIDs, set by explain and fixture, reads only these runs (see
	// ingest.Options.RunIDs); nil reads every run.
	runIDs []string
	// onlySources, if non-nil, reads only the sources of these names.
	onlySources map[string]bool
	// onStepLine, if set, receives every step line read, verbatim.
	onStepLine func(ingest.StepLine)
	// spool, if set, keeps a copy of the inputs that cannot be read twice,
	// for a second read of the same input (scan's html timelines).
	spool *ingest.Spool
	// closeRuns, if set with runIDs, collects the run ids of the input
	// close to those asked for, for a run that is not found.
	closeRuns *closeRuns
	// maxMemory is the job's --max-memory (0: it has none), which sets the
	// most steps one run may have analysed (runStepLimit).
	maxMemory int64
	// sharedBy, when above 1, is how many runs explain holds at once:
	// they share the steps the budget allows one run (runStepLimit).
	sharedBy int
	// redactor, set with --redact, takes the secrets out of the run ids
	// messages name.
	redactor report.Redactor

	// over holds, after a read, the runs with steps past the step limit,
	// and what was dropped of each.
	over map[string]*overRun

	// skipped lists the files walks and listings passed over, as
	// "name: why", in the order found.
	skipped []string
	// found holds the names of the sources a walk or a listing found
	// (ingest.Source.Found), filled as the reader pulls them.
	found map[string]bool
	// rejects is the rejects file of the read and its index (RejectsFile),
	// pending until the job calls finishRejects.
	rejects *rejectsOut
	// progress is the bar of the read, nil when there is none.
	progress *progress
}

// batchSink takes the batches a job reads: a collector, or for scan a
// spill.Store that bounds memory.
type batchSink interface {
	Add(arrow.RecordBatch) error
	Rows() int
}

// read reads every source into a collector, ready to analyze with the
// policy it returns.
func (in *input) read(ctx context.Context, stdin io.Reader, stderr io.Writer) (*runstore.Collector, detect.Policy, ingest.Stats, error) {
	var policy detect.Policy
	sink, stats, err := in.readInto(ctx, stdin, stderr, func(p detect.Policy) (batchSink, error) {
		policy = p
		return runstore.NewCollector(nil), nil
	})
	if err != nil {
		return nil, policy, stats, err
	}
	return sink.(*runstore.Collector), policy, stats, nil
}

// policy is the policy the configuration names.
func (in *input) policy() (detect.Policy, error) { return in.Config.Policy() }

// readInto checks the configuration and reads every source into the sink
// newSink makes once the policy is known.
func (in *input) readInto(ctx context.Context, stdin io.Reader, stderr io.Writer,
	newSink func(detect.Policy) (batchSink, error)) (batchSink, ingest.Stats, error) {
	if len(in.Paths) == 0 {
		return nil, ingest.Stats{}, &UsageError{Err: errors.New("no input; name files, directories, globs or - for stdin"), ShowUsage: true}
	}
	if in.MaxLineBytes < 1024 {
		return nil, ingest.Stats{}, usagef("--max-line-bytes must be at least 1024")
	}
	if !slices.Contains(ingest.InputFormats(), in.InputFormat) {
		return nil, ingest.Stats{}, usagef("--input-format %q: want one of %s", in.InputFormat, strings.Join(ingest.InputFormats(), ", "))
	}
	if in.MaxDocBytes < 1024 {
		return nil, ingest.Stats{}, usagef("--max-doc-bytes must be at least 1024")
	}
	if in.Workers < 0 {
		return nil, ingest.Stats{}, usagef("--workers %d: want at least 1 (0 is one per processor)", in.Workers)
	}
	if err := checkPatterns(in.Include, in.Exclude); err != nil {
		return nil, ingest.Stats{}, err
	}
	policy, err := in.policy()
	if err != nil {
		return nil, ingest.Stats{}, err
	}

	in.skipped, in.found = nil, map[string]bool{}
	listed, err := ingest.ExpandArgs(ctx, in.Paths, stdin, ingest.Filter{Include: in.Include, Exclude: in.Exclude,
		Skipped: func(name, why string) { in.skipped = append(in.skipped, name+": "+why) }, Spool: in.spool})
	if err != nil {
		var usage *ingest.UsageError
		if errors.As(err, &usage) {
			return nil, ingest.Stats{}, &UsageError{Err: err}
		}
		return nil, ingest.Stats{}, &InputError{Err: err}
	}
	if in.Progress {
		in.progress = newProgress(stderr)
	}
	sources := func(yield func(ingest.Source, error) bool) {
		for s, err := range listed {
			if err == nil {
				if in.onlySources != nil && !in.onlySources[s.Name] {
					continue
				}
				s = in.progress.source(s)
				if s.Found {
					in.found[s.Name] = true
				}
			}
			if !yield(s, err) {
				return
			}
		}
	}
	sink, err := newSink(policy)
	if err != nil {
		return nil, ingest.Stats{}, &UsageError{Err: err}
	}
	stats, err := in.collect(ctx, sources, policy, sink, stderr)
	if err != nil {
		in.progress.finish()
		in.progress = nil
	}
	return sink, stats, err
}

// collect reads every source into sink.
func (in *input) collect(ctx context.Context, sources iter.Seq2[ingest.Source, error], policy detect.Policy, sink batchSink, stderr io.Writer) (ingest.Stats, error) {
	var err error
	if in.RejectsFile != "" && in.rejects == nil {
		if in.rejects, err = createRejects(in.RejectsFile); err != nil {
			return ingest.Stats{}, outputf("--rejects: %v", err)
		}
	}
	rejects := in.rejects
	if in.RejectsFile == "" {
		rejects = nil // a second read: the first read's file holds the rejects
	}
	var prices *pricing.Table
	if in.PricesFile != "" {
		if prices, err = pricing.Load(in.PricesFile); err != nil {
			return ingest.Stats{}, usagef("--prices: %v", err)
		}
	}
	printed := 0
	var alloc memory.Allocator = memory.NewGoAllocator()
	if in.reuseBuffers > 0 {
		alloc = bufpool.New(in.reuseBuffers)
	}
	opts := ingest.Options{
		Alloc:         alloc,
		MaxLineBytes:  in.MaxLineBytes,
		MaxDocBytes:   in.MaxDocBytes,
		InputFormat:   in.InputFormat,
		StripOutput:   in.StripOutput,
		Prices:        prices,
		MaxSpanBytes:  in.maxSpanBytes,
		Workers:       in.Workers,
		KeepGoing:     in.KeepGoing,
		VolatileKeys:  policy.Volatile(),
		InFlightBytes: in.inFlightBytes,
		RunIDs:        in.runIDs,
		OnStepLine:    in.onStepLine,
		OnOtherRun:    in.onOtherRun(),
		OnSource: func(i int, name string) {
			if named, ok := sink.(interface{ SetSourceName(int, string) }); ok {
				named.SetSourceName(i, name)
			}
		},
		OnReject: func(r ingest.Reject) {
			if printed < maxRejectMessages {
				fmt.Fprintf(stderr, "%s:%d: rejected: %s\n", report.Sanitize(r.File), r.Line, report.Sanitize(r.Reason))
			}
			printed++
			if rejects != nil {
				rejects.add(r)
			}
		},
	}
	if rejects != nil {
		opts.Rejects = rejects.lines
	}
	// Every job holds one run's steps at once: those past the limit are
	// dropped, rows and lines alike, by their step number.
	limit := newStepLimit(sink, in.runStepLimit(), alloc)
	if keep := in.onStepLine; keep != nil {
		opts.OnStepLine = func(l ingest.StepLine) {
			if l.Step < limit.limit {
				keep(l)
			}
		}
	}
	stats, err := ingest.ReadSeq(ctx, sources, opts, func(rec arrow.RecordBatch) error {
		err := limit.Add(rec)
		runs := -1 // a scan's store does not count them: runs are counted as analyzed
		if c, ok := sink.(interface{ Runs() int }); ok {
			runs = c.Runs()
		}
		in.progress.setSteps(sink.Rows(), runs)
		return err
	})
	in.over = limit.over
	if err == nil && ctx.Err() != nil {
		// Cancelled while listing, the read may have ended early without an
		// error: what it read is not the input, and must not pass for it.
		err = ctx.Err()
	}
	if err != nil {
		if ctx.Err() != nil {
			return stats, &InterruptedError{Msg: fmt.Sprintf("interrupted after %d lines; no report written", stats.Lines)}
		}
		return stats, &InputError{Err: err}
	}
	if printed > maxRejectMessages {
		fmt.Fprintln(stderr, in.rejectsNote(printed-maxRejectMessages))
	}
	for _, fail := range stats.Failed {
		fmt.Fprintf(stderr, "runaway %s: skipped (--keep-going): %s\n", in.job, report.Sanitize(fail.Error()))
	}
	if rejects != nil {
		// Committed when the job ends, unless it is interrupted first.
		rejects.complete = true
	}
	if stats.EmptyFiles > 0 {
		fmt.Fprintf(stderr, "runaway %s: warning: %d empty input file(s)\n", in.job, stats.EmptyFiles)
	}
	in.warnLimit(stderr)
	return stats, in.nothingPassesSilently(&stats, stderr)
}

// onOtherRun is the read's ingest.Options.OnOtherRun: nil unless close run
// ids are collected.
func (in *input) onOtherRun() func(string) {
	if in.closeRuns == nil {
		return nil
	}
	return in.closeRuns.add
}

// nothingPassesSilently reports the inputs that gave nothing: files a
// directory walk skipped, and sources read to their end without one step.
// A source that gave nothing stops the job (exit 3) unless --keep-going,
// which makes it a failed source of a partial report; a job that found no
// file it reads at all (an empty directory, one of documents only) always
// stops.
func (in *input) nothingPassesSilently(stats *ingest.Stats, stderr io.Writer) error {
	in.skipped = append(in.skipped, PassOverNonLogs(stats, func(name string) bool { return in.found[name] })...)
	if n := len(in.skipped); n > 0 {
		fmt.Fprintf(stderr, "runaway %s: skipped %d file(s) or directories, each with why:\n", in.job, n)
		for _, s := range in.skipped[:min(n, maxListed)] {
			fmt.Fprintf(stderr, "  %s\n", report.Sanitize(s))
		}
		if n > maxListed {
			fmt.Fprintf(stderr, "  ... and %d more\n", n-maxListed)
		}
	}
	if stats.Files == 0 && len(stats.Failed) == 0 {
		// A directory, a listing or a glob that holds no file this tool
		// reads (documents and source code are passed over without a
		// word): a scan of nothing is no clean scan.
		return inputf("no file to read (a directory walk reads .jsonl, .ndjson, .json, .traj and .parquet files, .log files holding JSON, notebooks that printed an agent's log and agents' plain-text transcripts; name a file to read it whatever its name); no report written")
	}
	for _, u := range stats.Unread {
		fmt.Fprintf(stderr, "runaway %s: %s: no step read (%d line(s) rejected, the first at line %d)\n", in.job, report.Sanitize(u.Source), u.Rejected, u.Line)
	}
	if len(stats.Unread) == 0 || stats.Steps == 0 {
		return nil // nothing read at all is the caller's to report
	}
	if !in.KeepGoing {
		return inputf("%d input(s) gave no step; no report written (--keep-going reports the rest as partial)", len(stats.Unread))
	}
	UnreadAsFailed(stats)
	return nil
}

// PassOverNonLogs takes out of stats.Unread the files a walk or a listing
// found (found reports it of a source's name) that hold JSON no way of reading recognises, neither runaway's
// steps nor a document of any adapter (a results folder's preds.json,
// metadata.json or report.json beside its trajectories), and those an
// adapter read as the log of a run that made no action (an instance whose
// runtime failed before the agent's first turn), and returns them as
// "name: why" for the skipped files: they neither stop the job nor make
// the report partial. runaway-beam passes over the same files. Their
// lines stay counted rejects (and are in --rejects), so nothing is lost.
// A file named on the command line is read because the user asked for it,
// and one that gives nothing still stops the job; so does a found file
// whose JSON is broken (a log cut short), or whose document an adapter
// took and could not convert (adapter_error).
func PassOverNonLogs(stats *ingest.Stats, found func(name string) bool) (skipped []string) {
	kept := stats.Unread[:0]
	for _, u := range stats.Unread {
		if why := passOverWhy(u); why != "" && found(u.Source) {
			skipped = append(skipped, u.Source+": "+why)
			continue
		}
		kept = append(kept, u)
	}
	stats.Unread = kept
	return skipped
}

// passOverWhy is why a file a walk or a listing found (ingest.Source.Found)
// that gave no step is passed over, or "" when it is not: its first
// rejection says what it holds.
func passOverWhy(u ingest.UnreadSource) string {
	switch u.Kind {
	case ingest.KindUnknownFormat:
		return fmt.Sprintf("JSON that is neither runaway's steps nor a document any adapter reads (docs/adapters/): passed over as no log, its %d line(s) counted as rejected", u.Rejected)
	case ingest.KindNoSteps:
		return fmt.Sprintf("the log of a run that made no action (%s): passed over, its %d line(s) counted as rejected", u.Reason, u.Rejected)
	}
	return ""
}

// UnreadAsFailed makes the sources that gave no step failed sources, as
// --keep-going reports them.
func UnreadAsFailed(stats *ingest.Stats) {
	for _, u := range stats.Unread {
		stats.Failed = append(stats.Failed, ingest.SourceError{Source: u.Source,
			Err: fmt.Errorf("no step read: %d line(s) rejected; line %d: %s", u.Rejected, u.Line, u.Reason)})
	}
}

// checkPatterns finds a bad --include or --exclude pattern before anything
// is read.
func checkPatterns(include, exclude []string) error {
	for _, set := range []struct {
		flag     string
		patterns []string
	}{{"--include", include}, {"--exclude", exclude}} {
		for _, p := range set.patterns {
			if err := ingest.CheckPattern(p); err != nil {
				return usagef("%s %q: %v", set.flag, p, err)
			}
		}
	}
	return nil
}

// strictErr is the error of --strict when lines were rejected.
func (in *input) strictErr(stats ingest.Stats) error {
	if in.Strict && stats.Rejected > 0 {
		return inputf("%d input lines rejected (--strict)", stats.Rejected)
	}
	return nil
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

// failedSources lists the sources that could not be read, as "source:
// error", sorted: a report must not change with the order the sources were
// named or listed in. nil when none.
func failedSources(stats ingest.Stats) []string {
	var out []string
	for _, fail := range stats.Failed {
		out = append(out, fail.Error())
	}
	slices.Sort(out)
	return out
}

// InputStats is the summary's view of what was read.
func InputStats(stats ingest.Stats, skipped []string) report.InputStats {
	in := report.InputStats{
		Files:         stats.Files,
		EmptyFiles:    stats.EmptyFiles,
		LinesRead:     stats.Lines,
		BlankLines:    stats.BlankLines,
		LinesRejected: stats.Rejected,
		RejectsByKind: stats.RejectsByKind,
		Steps:         stats.Steps,
	}
	in.FailedSources = failedSources(stats)
	if len(skipped) > 0 {
		in.SkippedFiles = slices.Sorted(slices.Values(skipped))
	}
	for name, fs := range stats.Formats {
		if in.Formats == nil {
			in.Formats = map[string]report.FormatRead{}
		}
		in.Formats[name] = report.FormatRead{Files: fs.Files, Steps: fs.Steps}
	}
	return in
}
