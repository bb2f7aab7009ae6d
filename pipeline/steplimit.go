package pipeline

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// A run is analysed whole: its steps cannot be spread over partitions as
// runs are, so one run of millions of steps would take the memory of all
// of them (issue 20). Every job reads through a stepLimit, which drops the
// rows of a run whose step number is at or past the most steps one run may
// have analysed under the job's memory budget (maxRunSteps). The rows are
// chosen by what they say (their step), not by when they arrive, so the
// report stays the same whatever the order of the files and lines; the
// result of such a run says which steps were not analysed (limitProblem).

// The figures of maxRunSteps, measured with /usr/bin/time -f %M (peak RSS)
// on one run read with its steps past the limit dropped: the generated run
// of issue 20 (2,000,000 steps of one call and a short result, ~200 bytes
// a line) and a "heavy" one (100,000 steps of generated runs renumbered
// as one: goals, memory, decisions, usage; ~600 bytes a line), scan
// --format ndjson and explain, docs/performance.md "One long run".
//
// Past the runtime's soft limit (budgetMemory: four fifths of the budget,
// at least 20 MiB under it) the garbage collector holds the heap, so peak
// RSS stays near the limit plus the binary's pages until the live heap
// itself reaches the limit; then it grows past the budget, with the
// collector running all the time. One step of one run holds about 0.8 KiB
// live in scan and explain (heavy steps; the collector's columns and side
// tables, detect's chains, indexes and maps, explain's RunLines), the rest
// about 30 MiB. At 1 KiB a step, heavy steps at 128MiB took explain to
// 118 MiB, with no room left for the collector; at 1.5 KiB every case of
// one run stayed at or under 115 MiB (128MiB) and 59 MiB (64MiB).
const (
	// runStepBytes is what one step of the run is given of the budget.
	runStepBytes = 1536
	// runBaseBytes is what the jobs hold besides the run: the binary's
	// pages, the runtime, the input in flight, the other runs.
	runBaseBytes = 32 << 20
	// minRunSteps is the limit whatever the budget: a run of that many
	// steps is not an unusual one.
	minRunSteps = 16 << 10
)

// maxRunSteps is the most steps one run may have analysed under a memory
// budget of budget bytes (--max-memory): what is left of it once the job's
// own share is taken, at runStepBytes a step. 21,845 at 64MiB, 65,536 at
// 128MiB, 677,205 at the default 1GiB, 2,774,357 at 4GiB.
func maxRunSteps(budget int64) int64 {
	return max(minRunSteps, (budget-runBaseBytes)/runStepBytes)
}

// testMaxRunSteps, when positive, replaces maxRunSteps: set only by tests,
// which check the limit on small runs.
var testMaxRunSteps int64

// overRun is what the step limit dropped of one run.
type overRun struct {
	Dropped int64 // rows whose step was at or past the limit
	MaxStep int64 // the largest step among them
}

// stepLimit is a batchSink that passes on to sink the rows of each run
// whose step is below limit, and counts, per run, those it drops. A batch
// with no step past the limit goes through untouched; of one with some, a
// slice or a copy (built with alloc) of the rows kept. It keeps nothing of
// a batch after Add returns; the caller still releases it.
type stepLimit struct {
	sink  batchSink
	limit int64
	alloc memory.Allocator
	over  map[string]*overRun // only the runs with a row dropped
}

func newStepLimit(sink batchSink, limit int64, alloc memory.Allocator) *stepLimit {
	return &stepLimit{sink: sink, limit: limit, alloc: alloc}
}

// Rows is the rows passed on.
func (l *stepLimit) Rows() int { return l.sink.Rows() }

// Add passes on the rows of rec below the limit.
func (l *stepLimit) Add(rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return l.sink.Add(rec)
	}
	steps := rec.Column(schema.ColStep).(*array.Int64).Int64Values()
	if slices.Max(steps) < l.limit {
		return l.sink.Add(rec)
	}
	ids := rec.Column(schema.ColRunID).(*array.String)
	var keep [][2]int64 // ranges of rows kept, [from, to)
	from := -1
	for i, step := range steps {
		if step < l.limit {
			if from < 0 {
				from = i
			}
			continue
		}
		if from >= 0 {
			keep = append(keep, [2]int64{int64(from), int64(i)})
			from = -1
		}
		l.drop(ids.Value(i), step)
	}
	if from >= 0 {
		keep = append(keep, [2]int64{int64(from), int64(len(steps))})
	}
	var kept arrow.RecordBatch
	switch len(keep) {
	case 0:
		return nil
	case 1:
		kept = rec.NewSlice(keep[0][0], keep[0][1])
	default:
		var err error
		if kept, err = takeRanges(rec, keep, l.alloc); err != nil {
			return err
		}
	}
	defer kept.Release()
	return l.sink.Add(kept)
}

// drop counts a row of run id at step.
func (l *stepLimit) drop(id string, step int64) {
	o := l.over[id]
	if o == nil {
		if l.over == nil {
			l.over = map[string]*overRun{}
		}
		o = &overRun{MaxStep: step}
		l.over[strings.Clone(id)] = o // id points into the batch
	}
	o.Dropped++
	o.MaxStep = max(o.MaxStep, step)
}

// takeRanges is a new batch of the rows of rec in the ranges, in order,
// its buffers allocated from alloc.
func takeRanges(rec arrow.RecordBatch, ranges [][2]int64, alloc memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, rec.NumCols())
	defer func() {
		for _, c := range cols {
			c.Release() // the batch holds its own reference
		}
	}()
	parts := make([]arrow.Array, len(ranges))
	var rows int64
	for _, r := range ranges {
		rows += r[1] - r[0]
	}
	for _, col := range rec.Columns() {
		for k, r := range ranges {
			parts[k] = array.NewSlice(col, r[0], r[1])
		}
		c, err := array.Concatenate(parts, alloc)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, fmt.Errorf("dropping the steps of a run past the limit: %w", err)
		}
		cols = append(cols, c)
	}
	return array.NewRecordBatch(rec.Schema(), cols, rows), nil
}

// runStepLimit is the most steps one run of this job may have analysed.
func (in *input) runStepLimit() int64 {
	k := maxRunSteps(in.memoryBudget())
	if testMaxRunSteps > 0 {
		k = testMaxRunSteps
	}
	if in.sharedBy > 1 {
		// Runs held at once share what one may hold: n runs past the
		// limit then hold no more than one alone.
		k = max(k/int64(in.sharedBy), 1)
	}
	return k
}

// memoryBudget is the job's --max-memory, or scan's default for a job
// without one.
func (in *input) memoryBudget() int64 {
	if in.maxMemory > 0 {
		return in.maxMemory
	}
	return DefaultScanConfig().MaxMemory
}

// budgetText names the job's memory budget in messages.
func (in *input) budgetText() string {
	if in.maxMemory > 0 && in.sharedBy > 1 {
		return fmt.Sprintf("--max-memory %s shared by the %d runs explained at once", formatBytes(in.maxMemory), in.sharedBy)
	}
	if in.maxMemory > 0 {
		return "--max-memory " + formatBytes(in.maxMemory)
	}
	return fmt.Sprintf("runaway %s's memory budget (%s)", in.job, formatBytes(in.memoryBudget()))
}

// formatBytes writes a size as --max-memory takes it: 64MiB, 1GiB, 1.5GiB.
func formatBytes(n int64) string {
	unit, size := "MiB", float64(n)/(1<<20)
	if n >= 1<<30 {
		unit, size = "GiB", float64(n)/(1<<30)
	}
	return strconv.FormatFloat(math.Round(size*100)/100, 'f', -1, 64) + unit
}

// limitProblem is the data problem of a run whose steps from limit on were
// not analysed.
func (in *input) limitProblem(o *overRun) string {
	limit := in.runStepLimit()
	msg := fmt.Sprintf("steps %d to %d (%d lines) were not analyzed: one run may hold %d steps under %s",
		limit, o.MaxStep, o.Dropped, limit, in.budgetText())
	switch {
	case in.maxMemory > 0 && in.sharedBy > 1:
		msg += "; explain it alone, or raise --max-memory, to analyze more"
	case in.maxMemory > 0:
		msg += "; raise --max-memory to analyze more"
	}
	return msg
}

// noteLimit adds to r, if its run went past the step limit, the data
// problem that says so. It changes r in place (its DataProblems anew).
func (in *input) noteLimit(r *detect.RunResult) {
	if o := in.over[r.RunID]; o != nil {
		r.DataProblems = append(slices.Clip(r.DataProblems), in.limitProblem(o))
	}
}

// maxNamed is how many runs the warning of the step limit names.
const maxNamed = 5

// warnLimit says on stderr which runs went past the step limit: how many,
// and the first few ids, sorted (with --redact, without their secrets).
func (in *input) warnLimit(stderr io.Writer) {
	if len(in.over) == 0 {
		return
	}
	ids := make([]string, 0, len(in.over))
	for id := range in.over {
		if in.redactor != nil {
			id = in.redactor.Secrets(id)
		}
		ids = append(ids, fmt.Sprintf("%q", id))
	}
	slices.Sort(ids)
	named := strings.Join(ids[:min(len(ids), maxNamed)], ", ")
	if len(ids) > maxNamed {
		named += fmt.Sprintf(" and %d more", len(ids)-maxNamed)
	}
	runs, which := "1 run", "the run"
	if len(ids) > 1 {
		runs, which = fmt.Sprintf("%d runs", len(ids)), "the runs"
	}
	limit := in.runStepLimit()
	hint := ""
	switch {
	case in.maxMemory > 0 && in.sharedBy > 1:
		hint = " (explain fewer runs at once, or raise it, to analyze more)"
	case in.maxMemory > 0:
		hint = " (raise it to analyze more)"
	}
	fmt.Fprintf(stderr, "runaway %s: warning: steps %d and later of %s were not analyzed: one run may hold %d steps under %s%s; %s: %s\n",
		in.job, limit, runs, limit, in.budgetText(), hint, which, report.Sanitize(named))
}
