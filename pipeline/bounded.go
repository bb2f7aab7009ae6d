package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/ingest"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/spill"
)

// Memory is the memory budget of a job that analyzes every run of its
// input (replay, eval): as a scan's, the input that does not fit spills to
// disk, partitioned by run id, and each run is analyzed once.
type Memory struct {
	// MaxMemory is the memory the job aims to stay under, in bytes (at
	// least MinMemory; 0 is scan's default; --max-memory).
	MaxMemory int64
	// SpillDir holds the temporary files ("" is $TMPDIR; --spill-dir).
	SpillDir string
}

// check checks the budget and fills in its default.
func (m *Memory) check() error {
	if m.MaxMemory == 0 {
		m.MaxMemory = DefaultScanConfig().MaxMemory
	}
	if m.MaxMemory < MinMemory {
		return usagef("--max-memory %d: want at least 64MiB", m.MaxMemory)
	}
	if m.SpillDir != "" {
		if st, err := os.Stat(m.SpillDir); err != nil || !st.IsDir() {
			return usagef("--spill-dir %s: not a directory", m.SpillDir)
		}
	}
	return nil
}

// analyzeBounded reads every source into a spill store within mem, as scan
// does, then analyzes every run once: visit, if set, sees each run's steps
// and result (one call at a time, in no particular order), and emit each
// result in run-id order. What is held at once is the store's budget and
// one partition's runs, whatever the number of runs; one run's steps are
// bounded by the step limit of mem.MaxMemory.
func (in *input) analyzeBounded(ctx context.Context, mem Memory, stdin io.Reader, stderr io.Writer,
	visit func(detect.RunSteps, *detect.RunResult), emit func(*detect.RunResult) error) (ingest.Stats, error) {
	removeStaleTemporaries(mem.SpillDir, in.job, stderr)
	inFlight, collected := memoryBudgets(mem.MaxMemory)
	in.maxMemory = mem.MaxMemory
	in.inFlightBytes, in.reuseBuffers, in.maxSpanBytes = int(inFlight), int(inFlight), mem.MaxMemory
	var store *spill.Store
	defer func() {
		if store != nil {
			if err := store.Close(); err != nil {
				fmt.Fprintf(stderr, "runaway %s: removing temporary files: %s\n", in.job, report.Sanitize(err.Error()))
			}
		}
	}()
	_, stats, err := in.readInto(ctx, stdin, stderr, func(policy detect.Policy) (batchSink, error) {
		newStore := spill.New
		if newJobStore != nil {
			newStore = newJobStore
		}
		st, err := newStore(spill.Options{Policy: policy, Dir: mem.SpillDir, MaxBytes: collected, Workers: in.Workers, Visit: visit})
		store = st
		return st, err
	})
	if err != nil {
		return stats, err
	}
	in.progress.finish() // the bar shows reading; the analysis is quick next to it
	if err := store.Analyze(in.Workers, func(r *detect.RunResult) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return emit(r)
	}); err != nil {
		if ctx.Err() != nil {
			return stats, &InterruptedError{Msg: fmt.Sprintf("interrupted while analyzing (%d lines read); no report written", stats.Lines)}
		}
		return stats, outputf("analyzing: %v", err)
	}
	return stats, nil
}
