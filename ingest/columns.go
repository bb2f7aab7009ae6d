package ingest

import (
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/schema"
)

// appendRow appends one validated step. Nothing here can fail, so a row is
// either written to every column or, before this point, to none.
func (d *LineDecoder) appendRow(w *batchWriter, s *schema.Step, args *derivedArgs, empty bool, line []byte, srcFile int32, srcLine int64) {
	i := w.addRow()

	w.runID.put(i, s.RunID)
	w.step.put(i, *s.Step)
	if s.TS != nil {
		w.tsMillis.put(i, s.TS.UnixMilli)
	} else {
		w.tsMillis.putNull(i)
	}
	w.state.putNonEmpty(i, s.State)
	var nextState, reason string
	if s.Decision != nil {
		nextState, reason = s.Decision.NextState, s.Decision.Reason
	}
	w.nextState.putNonEmpty(i, nextState)
	w.intent.putNonEmpty(i, s.Intent)

	if tc := s.ToolCall; tc != nil {
		w.toolName.put(i, tc.Name) // a call without a name is still a call
		w.argsHash.put(i, args.hash)
	} else {
		w.toolName.putNull(i)
		w.argsHash.putNull(i)
	}
	if args.text != nil {
		w.args.putBytes(i, args.text)
	} else {
		w.args.putNull(i)
	}
	w.argsNorm.put(i, args.digest.Norm)
	w.argsWords.put(i, args.digest.Words)
	if args.short != nil {
		w.argsShort.putBytes(i, args.short)
	} else {
		w.argsShort.putNull(i)
	}

	if r := s.ToolResult; r != nil {
		w.resultOK.put(i, !r.IsError())
		w.errorType.putNonEmpty(i, r.NormalizedErrorType())
		w.status.putPtr(i, r.Status)
		w.empty.put(i, empty)
		w.retryable.putPtr(i, r.Retryable)
		w.resultCount.putPtr(i, r.ResultCount)
		w.resultHash.put(i, d.resultFingerprint(r))
		w.resultPayload.put(i, r.HasPayload())
	} else {
		w.resultOK.putNull(i)
		w.errorType.putNull(i)
		w.status.putNull(i)
		w.empty.put(i, false)
		w.retryable.putNull(i)
		w.resultCount.putNull(i)
		w.resultHash.put(i, 0)
		w.resultPayload.put(i, false)
	}

	if m := s.Memory; m != nil {
		w.memRetrieved.put(i, m.Retrieved)
		w.memWritten.put(i, m.Written)
		w.memWriteTags.put(i, m.WriteTags)
		w.memEntries.put(i, m.Entries)
	} else {
		w.memRetrieved.put(i, nil)
		w.memWritten.put(i, nil)
		w.memWriteTags.put(i, nil)
		w.memEntries.put(i, nil)
	}
	w.artifacts.put(i, s.Artifacts)

	if s.Usage != nil || s.Tokens != nil {
		w.promptTokens.put(i, s.PromptTokens())
		w.completionTokens.put(i, s.CompletionTokens())
	} else {
		w.promptTokens.putNull(i)
		w.completionTokens.putNull(i)
	}
	var cost float64
	if s.Usage != nil {
		cost = s.Usage.CostUSD
	}
	w.costUSD.putNonZero(i, cost)

	var budget schema.Budget
	if s.Budget != nil {
		budget = *s.Budget
	}
	w.budgetMaxSteps.putNonZero(i, budget.MaxSteps)
	w.budgetMaxToolCalls.putNonZero(i, budget.MaxToolCalls)
	w.budgetMaxTokens.putNonZero(i, budget.MaxTokens)
	w.budgetMaxCostUSD.putNonZero(i, budget.MaxCostUSD)
	w.budgetMaxSeconds.putNonZero(i, budget.MaxSeconds)

	w.reasonHash.put(i, d.reasonHash(reason))
	if d.keepText {
		w.goal.putNonEmpty(i, s.Goal)
		w.reason.putNonEmpty(i, reason)
	} else {
		w.goal.putNull(i)
		w.reason.putNull(i)
	}

	w.srcFile.put(i, srcFile)
	w.srcLine.put(i, srcLine)
	w.lineHash.put(i, xxhash.Sum64(line))
}

// reasonHash is the hash of the normalised reason, so "Retry the search."
// and "retry the  search." are one decision; 0 when there is none.
func (d *LineDecoder) reasonHash(reason string) uint64 {
	if reason == "" {
		return 0
	}
	if schema.IsNormalText(reason) { // most reasons: hash them as they are
		return xxhash.Sum64String(reason) | 1
	}
	d.reasonText = schema.AppendNormalizedText(d.reasonText[:0], unsafe.Slice(unsafe.StringData(reason), len(reason)))
	return xxhash.Sum64(d.reasonText) | 1
}

// resultFingerprint is r.ResultFingerprint(xxhash.Sum64) without its
// allocation.
func (d *LineDecoder) resultFingerprint(r *schema.ToolResult) uint64 {
	d.fingerprint = r.AppendFingerprintInput(d.fingerprint[:0])
	if h := xxhash.Sum64(d.fingerprint); h != 0 {
		return h
	}
	return 1
}
