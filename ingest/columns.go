package ingest

import (
	"encoding/binary"
	"encoding/json"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/runawayhq/runaway/schema"
)

// appendRow appends one validated step. Nothing here can fail, so a row is
// either written to every column or, before this point, to none.
func (d *LineDecoder) appendRow(w *batchWriter, s *schema.Step, args *derivedArgs, empty bool, lineHash uint64, srcFile int32, srcLine int64) {
	i := w.addRow()

	w.runID.put(i, s.RunID)
	w.step.put(i, *s.Step)
	if s.TS != nil {
		w.tsMillis.put(i, s.TS.UnixMilli)
	} else {
		w.tsMillis.putNull(i)
	}
	w.state.put(i, schema.StateCode(s.State))
	var nextState, reason string
	if s.Decision != nil {
		nextState, reason = s.Decision.NextState, s.Decision.Reason
	}
	w.intent.putNonEmpty(i, s.Intent)

	var flags uint16
	if tc := s.ToolCall; tc != nil {
		flags |= schema.FlagCall
		w.toolName.put(i, tc.Name) // a call without a name is still a call
		w.argsKey.put(i, args.key)
		if args.other != "" {
			w.argsHash.put(i, args.other)
		} else {
			w.argsHash.putNull(i)
		}
	} else {
		w.toolName.putNull(i)
		w.argsKey.put(i, 0)
		w.argsHash.putNull(i)
	}
	if args.text != nil {
		w.args.putBytes(i, args.text)
	} else {
		w.args.putNull(i)
	}
	w.argsNorm.put(i, args.digest.Norm)
	w.argsWords.put(i, args.digest.Words)
	if args.query {
		flags |= schema.FlagQuery
	}
	var argsSim uint64
	if tc := s.ToolCall; tc != nil && s.ToolResult.IsError() {
		if tc.SimHash != "" {
			argsSim, _ = schema.ParseKey(tc.SimHash) // computed before the args were redacted; checked by Validate
		} else {
			argsSim = d.argsSim(tc.Args) // only failed retries are compared by their args
		}
	}
	w.argsSim.put(i, argsSim)
	var shape uint64
	if tc := s.ToolCall; tc != nil {
		shape = args.shape
		if tc.Shape != "" {
			shape, _ = schema.ParseKey(tc.Shape) // computed before the args were redacted; checked by Validate
		}
	}
	w.argsShape.put(i, shape)
	var editFile, fileCopy uint64
	if tc := s.ToolCall; tc != nil && s.Intent == schema.IntentEdit {
		if tc.EditFile != "" {
			editFile, _ = schema.ParseKey(tc.EditFile) // computed before the args were redacted; checked by Validate
			fileCopy, _ = schema.ParseKey(tc.EditCopy) // likewise; none when not written
		} else {
			editFile, fileCopy = schema.EditKeys(tc.Args)
		}
	}
	w.editFile.put(i, editFile)
	if tc := s.ToolCall; tc != nil && s.Intent == schema.IntentEdit && (tc.Creates || schema.CreatesFile(tc.Name, tc.Args)) {
		flags |= schema.FlagCreate
	}
	if tc := s.ToolCall; tc != nil && s.Intent == schema.IntentEdit && (tc.AddsPrint || schema.AddsPrint(tc.Args)) {
		flags |= schema.FlagAddsPrint
	}
	if args.short != nil {
		w.argsShort.putBytes(i, args.short)
	} else {
		w.argsShort.putNull(i)
	}

	if r := s.ToolResult; r != nil {
		flags |= schema.FlagResult
		if r.IsError() {
			flags |= schema.FlagError
		}
		if empty {
			flags |= schema.FlagEmpty
		}
		if r.Retryable != nil && !*r.Retryable {
			flags |= schema.FlagRetryableFalse
		}
		if r.HasPayload() {
			flags |= schema.FlagPayload
		}
		if r.Seen != nil && *r.Seen {
			flags |= schema.FlagSeen
		}
		if r.ReportsFailure != nil && *r.ReportsFailure {
			flags |= schema.FlagReportsFailure
		}
		if r.SaysMore() {
			flags |= schema.FlagMore
		}
		w.errorType.putNonEmpty(i, r.NormalizedErrorType())
		// Keys computed before the result was redacted (fixtures; checked
		// by Validate) stand for its text.
		fp, sim := uint64(0), uint64(0)
		if r.Fingerprint != "" {
			fp, _ = schema.ParseKey(r.Fingerprint)
		}
		answer := r
		if s.ToolCall != nil && (r.Fingerprint == "" || r.SimHash == "") {
			if data, ok := schema.TrimEchoedMarker(r.Data, s.ToolCall.Args); ok {
				c := *r
				c.Data = data
				answer = &c
			}
		}
		if fp == 0 { // 0 means no result
			fp = d.resultFingerprint(answer)
		}
		if r.SimHash != "" {
			sim, _ = schema.ParseKey(r.SimHash)
		} else {
			sim = d.resultSim(answer)
		}
		w.resultHash.put(i, fp)
		w.resultSim.put(i, sim)
		var failFile uint64
		if r.IsError() {
			if r.FailFile != "" {
				failFile, _ = schema.ParseKey(r.FailFile) // likewise
				if editFile == 0 && failFile != 0 && r.FailCopy != "" {
					fileCopy, _ = schema.ParseKey(r.FailCopy)
				}
			} else {
				var args []byte
				if s.ToolCall != nil {
					args = s.ToolCall.Args
				}
				failFile = schema.FailedCallFileKey(r.Data, args)
				if editFile == 0 && failFile != 0 {
					fileCopy = schema.FailureCopyKey(r.Data)
				}
			}
		}
		w.failFile.put(i, failFile)
		var mistake uint64
		if r.IsError() {
			if r.FailMistake != "" {
				mistake, _ = schema.ParseKey(r.FailMistake) // likewise
			} else if r.FailFile == "" {
				mistake = schema.FailureMistakeKey(r.Data)
			}
		}
		w.failMistake.put(i, mistake)
	} else {
		w.errorType.putNull(i)
		w.resultHash.put(i, 0)
		w.resultSim.put(i, 0)
		w.failFile.put(i, 0)
		w.failMistake.put(i, 0)
	}
	w.fileCopy.put(i, fileCopy)

	if m := s.Memory; m != nil {
		if schema.MemoryProgress(m) {
			flags |= schema.FlagMemProgress
		}
		w.memRetrieved.put(i, m.Retrieved)
		d.suspects = schema.AppendSuspectWrites(d.suspects[:0], m)
		w.memSuspect.put(i, d.suspects)
		w.planKey.put(i, schema.PlanMemoryKey(m))
	} else {
		w.memRetrieved.put(i, nil)
		w.memSuspect.put(i, nil)
		w.planKey.put(i, 0)
	}
	if len(s.Artifacts) > 0 {
		flags |= schema.FlagArtifacts
	}
	w.artifacts.put(i, s.Artifacts)
	w.talkWords.put(i, talkWords(s.ToolCall, s.State == schema.StatePlan.String()))

	var tokens int64
	if s.Usage != nil || s.Tokens != nil {
		tokens = max(s.PromptTokens(), 0) + max(s.CompletionTokens(), 0)
	}
	w.tokens.put(i, uint32(min(tokens, 1<<32-1)))
	var cost float64
	if s.Usage != nil {
		cost = s.Usage.CostUSD
		if cost == 0 && tokens > 0 && s.Usage.Model != "" && d.prices != nil {
			// Tokens of a known model and no cost: the list price, marked.
			if c, ok := d.prices.CostCached(s.Usage.Model, s.PromptTokens(), s.CompletionTokens(), s.Usage.CacheReadTokens, s.Usage.CacheWriteTokens, s.Usage.CacheWrite1hTokens); ok && c > 0 {
				cost = c
				flags |= schema.FlagCostEstimated
			}
		}
	}
	w.costUSD.putNonZero(i, cost)
	w.flags.put(i, flags)

	var budget schema.Budget
	if s.Budget != nil {
		budget = *s.Budget
	}
	w.budgetMaxSteps.putNonZero(i, budget.MaxSteps)
	w.budgetMaxToolCalls.putNonZero(i, budget.MaxToolCalls)
	w.budgetMaxTokens.putNonZero(i, budget.MaxTokens)
	w.budgetMaxCostUSD.putNonZero(i, budget.MaxCostUSD)
	w.budgetMaxSeconds.putNonZero(i, budget.MaxSeconds)

	rh := d.reasonHash(reason)
	w.reasonHash.put(i, rh)
	w.decisionKey.put(i, schema.DecisionKey(rh, nextState))
	if d.keepText {
		w.goal.putNonEmpty(i, s.Goal)
		w.reason.putNonEmpty(i, reason)
	} else {
		w.goal.putNull(i)
		w.reason.putNull(i)
	}

	w.srcFile.put(i, srcFile)
	w.srcLine.put(i, srcLine)
	if lineHash == 0 {
		// A row of a table has no line: the hash of what the row says
		// recognises a row shipped twice as a line's hash does.
		lineHash = d.rowHash(s, args.key, w.resultHash.v[i], flags)
	}
	w.lineHash.put(i, lineHash)
}

// reasonHash is the hash of the normalised reason, so "Retry the search."
// and "retry the  search." are one decision; 0 when there is none, or when
// it says nothing (an empty "<think></think>" block).
func (d *LineDecoder) reasonHash(reason string) uint64 {
	if reason == "" || !schema.SaysSomething(reason) {
		return 0
	}
	if schema.IsNormalText(reason) { // most reasons: hash them as they are
		return xxh3.HashString(reason) | 1
	}
	d.reasonText = schema.AppendNormalizedText(d.reasonText[:0], unsafe.Slice(unsafe.StringData(reason), len(reason)))
	return xxh3.Hash(d.reasonText) | 1
}

// argsSim is schema.ArgsSimHash with the decoder's scratch buffer.
func (d *LineDecoder) argsSim(args []byte) uint64 {
	var h uint64
	h, d.simText = schema.ArgsSimHash(args, d.simText)
	return h
}

// resultSim is r.ResultSimHash with the decoder's scratch buffer.
func (d *LineDecoder) resultSim(r *schema.ToolResult) uint64 {
	var h uint64
	h, d.simText = r.ResultSimHash(d.simText)
	return h
}

// resultFingerprint is r.ResultFingerprint(xxh3.Hash) without its
// allocation.
func (d *LineDecoder) resultFingerprint(r *schema.ToolResult) uint64 {
	d.fingerprint = r.AppendFingerprintInput(d.fingerprint[:0])
	if h := xxh3.Hash(d.fingerprint); h != 0 {
		return h
	}
	return 1
}

// rowHash hashes what makes a step the same step: its run, number, time,
// state, call, result and usage.
func (d *LineDecoder) rowHash(s *schema.Step, argsKey, resultHash uint64, flags uint16) uint64 {
	b := d.rowKey[:0]
	var ts int64
	if s.TS != nil {
		ts = s.TS.UnixMilli
	}
	for _, v := range [...]uint64{uint64(*s.Step), uint64(ts), argsKey, resultHash, uint64(flags),
		uint64(s.PromptTokens())<<32 ^ uint64(s.CompletionTokens())} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	b = append(append(b, s.RunID...), 0)
	b = append(append(b, s.State...), 0)
	if s.ToolCall != nil {
		b = append(b, s.ToolCall.Name...)
	}
	d.rowKey = b
	return xxh3.Hash(b)
}

// talkWords are the words of a turn of conversation the agent sent
// (schema.TalkWords), then schema.TalkNumbersMark and its numbers when it
// says any, then schema.TalkAskMark and its words for each thing it asks
// for (schema.TalkAsks). A turn addressed to another agent of the run (a
// "to" in its args) has instead schema.TalkAgentMark, the pair of agents
// and schema.AgentTurnWords, or schema.TalkShortMark and the words of a
// turn of a few words (schema.AgentTurn; nil when it says none), unless
// it is an
// instruction (plan, the PLAN state): the framework's prompt opening a
// phase or a task, which carries the work it is about (the code to
// review) and is the same instruction only word for word, work included
// (detect's sameInstruction). Nil for any other step.
func talkWords(tc *schema.ToolCall, plan bool) []string {
	if tc == nil || tc.Name != schema.ToolMessage || len(tc.Args) == 0 {
		return nil
	}
	var a struct {
		Text string `json:"text"`
		From string `json:"from"`
		To   string `json:"to"`
	}
	if json.Unmarshal(tc.Args, &a) != nil || a.Text == "" {
		return nil
	}
	if a.To != "" {
		if plan {
			return nil
		}
		words, short := schema.AgentTurn(a.Text)
		switch {
		case words == nil:
			return nil
		case short:
			return append([]string{schema.TalkAgentMark, a.From + "\x00" + a.To, schema.TalkShortMark}, words...)
		}
		return append([]string{schema.TalkAgentMark, a.From + "\x00" + a.To}, words...)
	}
	words, numbers := schema.TalkWords(a.Text)
	if len(numbers) > 0 {
		words = append(append(words, schema.TalkNumbersMark), numbers...)
	}
	for _, ask := range schema.TalkAsks(a.Text) {
		words = append(append(words, schema.TalkAskMark), ask...)
	}
	return words
}
