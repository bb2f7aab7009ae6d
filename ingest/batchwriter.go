package ingest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/runawayhq/runaway/schema"
)

// batchWriter holds the columns of a batch of schema.StepArrowSchema being
// written, a row at a time, by LineDecoder.appendRow. One goroutine uses
// it; each batch it makes owns its memory, so the writer goes on with the
// next one while the last is read.
type batchWriter struct {
	alloc         memory.Allocator
	rows, rowsCap int

	runID                                                  strs
	intent, toolName, argsHash, args, argsShort, errorType optStrs
	goal, reason                                           optStrs

	step, srcLine                                       values[int64]
	tsMillis                                            opt[int64]
	budgetMaxSteps, budgetMaxToolCalls, budgetMaxTokens opt[int64]
	costUSD, budgetMaxCostUSD, budgetMaxSeconds         opt[float64]
	state                                               values[schema.State]
	flags                                               values[uint16]
	tokens                                              values[uint32]
	argsKey, resultHash, lineHash, argsNorm, argsWords  values[uint64]
	resultSim, argsSim, argsShape                       values[uint64]
	reasonHash, decisionKey, planKey                    values[uint64]
	editFile, failFile, fileCopy, failMistake           values[uint64]
	srcFile                                             values[int32]
	memRetrieved, artifacts, talkWords                  hashList
	memSuspect                                          suspectList

	cols  [schema.NumCols]column // the above in schema order
	hints []sizeHint
	sized bool // hints have learned sizes: see sizeRest
}

// column is one column's buffers, a slot per row.
type column interface {
	grow(alloc memory.Allocator, rows int)
	finish(alloc memory.Allocator, dtype arrow.DataType, rows int) *array.Data
	free(alloc memory.Allocator)
}

// newBatchWriter returns a writer whose batches' memory comes from alloc;
// release it when done.
func newBatchWriter(alloc memory.Allocator) *batchWriter {
	w := &batchWriter{alloc: alloc}
	w.cols = [schema.NumCols]column{
		schema.ColRunID: &w.runID, schema.ColStep: &w.step, schema.ColTSMillis: &w.tsMillis,
		schema.ColState: &w.state, schema.ColIntent: &w.intent, schema.ColToolName: &w.toolName,
		schema.ColArgsKey: &w.argsKey, schema.ColArgsHash: &w.argsHash, schema.ColArgs: &w.args,
		schema.ColArgsNorm: &w.argsNorm, schema.ColArgsWords: &w.argsWords, schema.ColArgsSim: &w.argsSim, schema.ColArgsShort: &w.argsShort,
		schema.ColArgsShape: &w.argsShape, schema.ColFlags: &w.flags, schema.ColErrorType: &w.errorType, schema.ColResultHash: &w.resultHash, schema.ColResultSim: &w.resultSim,
		schema.ColMemRetrieved: &w.memRetrieved, schema.ColMemSuspect: &w.memSuspect,
		schema.ColPlanKey: &w.planKey, schema.ColArtifacts: &w.artifacts, schema.ColTalkWords: &w.talkWords, schema.ColTokens: &w.tokens,
		schema.ColCostUSD: &w.costUSD, schema.ColBudgetMaxSteps: &w.budgetMaxSteps,
		schema.ColBudgetMaxToolCalls: &w.budgetMaxToolCalls, schema.ColBudgetMaxTokens: &w.budgetMaxTokens,
		schema.ColBudgetMaxCostUSD: &w.budgetMaxCostUSD, schema.ColBudgetMaxSeconds: &w.budgetMaxSeconds,
		schema.ColGoal: &w.goal, schema.ColReason: &w.reason, schema.ColReasonHash: &w.reasonHash,
		schema.ColDecisionKey: &w.decisionKey,
		schema.ColSrcFile:     &w.srcFile, schema.ColSrcLine: &w.srcLine, schema.ColLineHash: &w.lineHash,
		schema.ColEditFile: &w.editFile, schema.ColFailFile: &w.failFile, schema.ColFileCopy: &w.fileCopy, schema.ColFailMistake: &w.failMistake,
	}
	// The buffers that grow by what the rows hold rather than by rows.
	for _, s := range []*strs{
		&w.runID, &w.intent.strs, &w.toolName.strs, &w.argsHash.strs,
		&w.args.strs, &w.argsShort.strs, &w.errorType.strs, &w.goal.strs, &w.reason.strs,
		&w.memSuspect.id, &w.memSuspect.why,
	} {
		s.alloc = alloc
		w.hints = append(w.hints, sizeHint{buf: s})
	}
	for _, l := range []*hashList{&w.memRetrieved, &w.artifacts, &w.talkWords} {
		l.alloc = alloc
		w.hints = append(w.hints, sizeHint{buf: l})
	}
	w.memSuspect.alloc = alloc
	w.hints = append(w.hints, sizeHint{buf: &w.memSuspect})
	return w
}

// addRow returns the index of a new row, which the caller fills in every
// column: nothing checks room in the columns' slots after this.
func (w *batchWriter) addRow() int {
	if w.rows == w.rowsCap {
		w.growRows(max(64, 2*w.rowsCap)) // doubling, unless beginChunk sized the chunk
	}
	w.rows++
	return w.rows - 1
}

func (w *batchWriter) growRows(capacity int) {
	for _, c := range w.cols {
		c.grow(w.alloc, capacity)
	}
	w.rowsCap = capacity
}

// newBatch returns the rows written since the last batch and starts an
// empty one.
func (w *batchWriter) newBatch() arrow.RecordBatch {
	if w.rowsCap == 0 { // a batch of no rows has its buffers too
		w.growRows(1)
	}
	arrs := make([]arrow.Array, schema.NumCols)
	for i, c := range w.cols {
		d := c.finish(w.alloc, schema.StepArrowSchema.Field(i).Type, w.rows)
		arrs[i] = array.MakeFromData(d)
		d.Release()
	}
	rec := array.NewRecordBatch(schema.StepArrowSchema, arrs, int64(w.rows))
	for _, a := range arrs {
		a.Release()
	}
	w.rows, w.rowsCap = 0, 0
	return rec
}

// release frees the rows not made into a batch.
func (w *batchWriter) release() {
	for _, c := range w.cols {
		c.free(w.alloc)
	}
	w.rows, w.rowsCap = 0, 0
}
