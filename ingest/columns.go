package ingest

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cespare/xxhash/v2"

	"github.com/runawayhq/runaway/schema"
)

// columns are the typed builders of a RecordBuilder over
// schema.StepArrowSchema, looked up once rather than per row.
type columns struct {
	runID, state, nextState, intent, toolName, argsHash, args, argsShort, errorType, goal, reason *array.StringBuilder

	step, tsMillis, status, resultCount, promptTokens, completionTokens *array.Int64Builder
	budgetMaxSteps, budgetMaxToolCalls, budgetMaxTokens, srcLine        *array.Int64Builder
	costUSD, budgetMaxCostUSD, budgetMaxSeconds                         *array.Float64Builder
	resultOK, empty, retryable, resultPayload                           *array.BooleanBuilder
	resultHash, lineHash, argsNorm, argsWords, reasonHash               *array.Uint64Builder
	srcFile                                                             *array.Int32Builder

	memRetrieved, memWritten, memWriteTags, artifacts stringList

	memEntries                      *array.ListBuilder
	memEntry                        *array.StructBuilder
	entryID, entryType, entrySource *array.StringBuilder
	entryConfidence                 *array.Float64Builder
}

type stringList struct {
	list   *array.ListBuilder
	values *array.StringBuilder
}

// bindColumns panics if b is not over schema.StepArrowSchema: that is a
// programming error, not bad input.
func bindColumns(b *array.RecordBuilder) columns {
	str := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
	i64 := func(i int) *array.Int64Builder { return b.Field(i).(*array.Int64Builder) }
	f64 := func(i int) *array.Float64Builder { return b.Field(i).(*array.Float64Builder) }
	boolean := func(i int) *array.BooleanBuilder { return b.Field(i).(*array.BooleanBuilder) }
	list := func(i int) stringList {
		lb := b.Field(i).(*array.ListBuilder)
		return stringList{list: lb, values: lb.ValueBuilder().(*array.StringBuilder)}
	}
	c := columns{
		runID: str(schema.ColRunID), state: str(schema.ColState), nextState: str(schema.ColNextState),
		intent: str(schema.ColIntent), toolName: str(schema.ColToolName), argsHash: str(schema.ColArgsHash),
		args: str(schema.ColArgs), argsShort: str(schema.ColArgsShort), errorType: str(schema.ColErrorType), goal: str(schema.ColGoal), reason: str(schema.ColReason),

		step: i64(schema.ColStep), tsMillis: i64(schema.ColTSMillis), status: i64(schema.ColStatus),
		resultCount: i64(schema.ColResultCount), promptTokens: i64(schema.ColPromptTokens),
		completionTokens: i64(schema.ColCompletionTokens), budgetMaxSteps: i64(schema.ColBudgetMaxSteps),
		budgetMaxToolCalls: i64(schema.ColBudgetMaxToolCalls), budgetMaxTokens: i64(schema.ColBudgetMaxTokens),
		srcLine: i64(schema.ColSrcLine),

		costUSD: f64(schema.ColCostUSD), budgetMaxCostUSD: f64(schema.ColBudgetMaxCostUSD),
		budgetMaxSeconds: f64(schema.ColBudgetMaxSeconds),

		resultOK: boolean(schema.ColResultOK), empty: boolean(schema.ColEmpty), retryable: boolean(schema.ColRetryable),
		resultPayload: boolean(schema.ColResultPayload),

		resultHash: b.Field(schema.ColResultHash).(*array.Uint64Builder),
		lineHash:   b.Field(schema.ColLineHash).(*array.Uint64Builder),
		argsNorm:   b.Field(schema.ColArgsNorm).(*array.Uint64Builder),
		argsWords:  b.Field(schema.ColArgsWords).(*array.Uint64Builder),
		reasonHash: b.Field(schema.ColReasonHash).(*array.Uint64Builder),
		srcFile:    b.Field(schema.ColSrcFile).(*array.Int32Builder),

		memRetrieved: list(schema.ColMemRetrieved), memWritten: list(schema.ColMemWritten),
		memWriteTags: list(schema.ColMemWriteTags), artifacts: list(schema.ColArtifacts),
	}
	c.memEntries = b.Field(schema.ColMemEntries).(*array.ListBuilder)
	c.memEntry = c.memEntries.ValueBuilder().(*array.StructBuilder)
	c.entryID = c.memEntry.FieldBuilder(0).(*array.StringBuilder)
	c.entryType = c.memEntry.FieldBuilder(1).(*array.StringBuilder)
	c.entrySource = c.memEntry.FieldBuilder(2).(*array.StringBuilder)
	c.entryConfidence = c.memEntry.FieldBuilder(3).(*array.Float64Builder)
	return c
}

// appendRow appends one validated step. Nothing here can fail, so a row is
// either appended to every column or, before this point, to none.
func (d *LineDecoder) appendRow(b *array.RecordBuilder, s *schema.Step, args *derivedArgs, empty bool, line []byte, srcFile int32, srcLine int64) {
	d.bind(b)
	c := &d.cols
	d.reserveRow(b)

	appendString(c.runID, s.RunID)
	c.step.UnsafeAppend(*s.Step)
	if s.TS != nil {
		c.tsMillis.UnsafeAppend(s.TS.UnixMilli)
	} else {
		c.tsMillis.UnsafeAppendBoolToBitmap(false)
	}
	appendOptString(c.state, s.State)
	var nextState, reason string
	if s.Decision != nil {
		nextState, reason = s.Decision.NextState, s.Decision.Reason
	}
	appendOptString(c.nextState, nextState)
	appendOptString(c.intent, s.Intent)

	if tc := s.ToolCall; tc != nil {
		appendString(c.toolName, tc.Name) // a call without a name is still a call
		appendString(c.argsHash, args.hash)
	} else {
		c.toolName.AppendNull()
		c.argsHash.AppendNull()
	}
	if args.text != nil {
		c.args.BinaryBuilder.Append(args.text)
	} else {
		c.args.AppendNull()
	}
	c.argsNorm.UnsafeAppend(args.digest.Norm)
	c.argsWords.UnsafeAppend(args.digest.Words)
	if args.short != nil {
		c.argsShort.BinaryBuilder.Append(args.short)
	} else {
		c.argsShort.AppendNull()
	}

	if r := s.ToolResult; r != nil {
		c.resultOK.UnsafeAppend(!r.IsError())
		appendOptString(c.errorType, r.NormalizedErrorType())
		appendOptInt(c.status, r.Status)
		c.empty.UnsafeAppend(empty)
		appendOptBool(c.retryable, r.Retryable)
		appendOptInt(c.resultCount, r.ResultCount)
		c.resultHash.UnsafeAppend(d.resultFingerprint(r))
		c.resultPayload.UnsafeAppend(r.HasPayload())
	} else {
		c.resultOK.UnsafeAppendBoolToBitmap(false)
		c.errorType.AppendNull()
		c.status.UnsafeAppendBoolToBitmap(false)
		c.empty.UnsafeAppend(false)
		c.retryable.UnsafeAppendBoolToBitmap(false)
		c.resultCount.UnsafeAppendBoolToBitmap(false)
		c.resultHash.UnsafeAppend(0)
		c.resultPayload.UnsafeAppend(false)
	}

	if m := s.Memory; m != nil {
		c.memRetrieved.append(m.Retrieved)
		c.memWritten.append(m.Written)
		c.memWriteTags.append(m.WriteTags)
		d.appendEntries(m.Entries)
	} else {
		c.memRetrieved.list.AppendNull()
		c.memWritten.list.AppendNull()
		c.memWriteTags.list.AppendNull()
		c.memEntries.AppendNull()
	}
	c.artifacts.append(s.Artifacts)

	if s.Usage != nil || s.Tokens != nil {
		c.promptTokens.UnsafeAppend(s.PromptTokens())
		c.completionTokens.UnsafeAppend(s.CompletionTokens())
	} else {
		c.promptTokens.UnsafeAppendBoolToBitmap(false)
		c.completionTokens.UnsafeAppendBoolToBitmap(false)
	}
	var cost float64
	if s.Usage != nil {
		cost = s.Usage.CostUSD
	}
	appendNonZeroFloat(c.costUSD, cost)

	var budget schema.Budget
	if s.Budget != nil {
		budget = *s.Budget
	}
	appendNonZeroInt(c.budgetMaxSteps, budget.MaxSteps)
	appendNonZeroInt(c.budgetMaxToolCalls, budget.MaxToolCalls)
	appendNonZeroInt(c.budgetMaxTokens, budget.MaxTokens)
	appendNonZeroFloat(c.budgetMaxCostUSD, budget.MaxCostUSD)
	appendNonZeroFloat(c.budgetMaxSeconds, budget.MaxSeconds)

	c.reasonHash.UnsafeAppend(d.reasonHash(reason))
	if d.keepText {
		appendOptString(c.goal, s.Goal)
		appendOptString(c.reason, reason)
	} else {
		c.goal.AppendNull()
		c.reason.AppendNull()
	}

	c.srcFile.UnsafeAppend(srcFile)
	c.srcLine.UnsafeAppend(srcLine)
	c.lineHash.UnsafeAppend(xxhash.Sum64(line))
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

// reserveRow makes room for one more row in every column, so that the
// fixed-width ones are appended to without a capacity check each
// (UnsafeAppend). They get one value per row and grow only through
// b.Reserve, which grows builders of the same length to the same capacity,
// so all have the capacity srcLine has; a new batch (b.NewRecordBatch)
// empties them all, which srcLine's capacity shows. The variable-length
// builders check their own capacity.
func (d *LineDecoder) reserveRow(b *array.RecordBuilder) {
	rows, capacity := d.cols.srcLine.Len(), d.cols.srcLine.Cap()
	if rows < d.reservedRows && capacity >= d.reservedRows {
		return
	}
	if capacity <= rows { // else beginChunk reserved the chunk's lines
		ahead := max(64, rows) // doubling
		b.Reserve(ahead)
		capacity = rows + ahead
	}
	d.reservedRows = capacity
}

func (d *LineDecoder) appendEntries(entries []schema.MemoryEntry) {
	c := &d.cols
	if entries == nil {
		c.memEntries.AppendNull()
		return
	}
	c.memEntries.Append(true)
	for i := range entries {
		e := &entries[i]
		c.memEntry.Append(true)
		appendOptString(c.entryID, e.ID)
		appendOptString(c.entryType, e.Type)
		appendOptString(c.entrySource, e.Source)
		if e.Confidence != nil {
			c.entryConfidence.Append(*e.Confidence)
		} else {
			c.entryConfidence.AppendNull()
		}
	}
}

// append writes a list, null when the field was absent (nil), empty for [].
func (l stringList) append(values []string) {
	if values == nil {
		l.list.AppendNull()
		return
	}
	l.list.Append(true)
	for _, v := range values {
		appendString(l.values, v)
	}
}

func appendOptString(b *array.StringBuilder, s string) {
	if s == "" {
		b.AppendNull()
		return
	}
	appendString(b, s)
}

// appendString is b.Append(s) without copying s to a []byte first: the
// builder copies it once, into its buffer.
func appendString(b *array.StringBuilder, s string) {
	b.BinaryBuilder.Append(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// The fixed-width appends below are unchecked: see reserveRow.

func appendOptInt(b *array.Int64Builder, v *int64) {
	if v == nil {
		b.UnsafeAppendBoolToBitmap(false)
		return
	}
	b.UnsafeAppend(*v)
}

func appendOptBool(b *array.BooleanBuilder, v *bool) {
	if v == nil {
		b.UnsafeAppendBoolToBitmap(false)
		return
	}
	b.UnsafeAppend(*v)
}

// appendNonZeroInt: budgets and costs use 0 for "not logged".
func appendNonZeroInt(b *array.Int64Builder, v int64) {
	if v == 0 {
		b.UnsafeAppendBoolToBitmap(false)
		return
	}
	b.UnsafeAppend(v)
}

func appendNonZeroFloat(b *array.Float64Builder, v float64) {
	if v == 0 {
		b.UnsafeAppendBoolToBitmap(false)
		return
	}
	b.UnsafeAppend(v)
}

// varColumn is a variable-length builder: strings, or the values of a list.
type varColumn struct {
	b            *array.StringBuilder
	elemsPerByte float64 // learned from the last chunk, per byte of input
	bytesPerByte float64
	elemsAtStart int
	bytesAtStart int
}

func (c *columns) varColumns() []varColumn {
	var out []varColumn
	for _, b := range []*array.StringBuilder{
		c.runID, c.state, c.nextState, c.intent, c.toolName, c.argsHash, c.args, c.argsShort, c.errorType, c.goal, c.reason,
		c.memRetrieved.values, c.memWritten.values, c.memWriteTags.values, c.artifacts.values,
		c.entryID, c.entryType, c.entrySource,
	} {
		out = append(out, varColumn{b: b})
	}
	return out
}

// beginChunk sizes b for a chunk of lines holding size bytes, from what the
// previous chunk took, so that builders are allocated once per chunk rather
// than grown by doubling. It is only an optimisation: DecodeLine works
// without it.
func (d *LineDecoder) beginChunk(b *array.RecordBuilder, lines, size int) {
	d.bind(b)
	b.Reserve(lines)
	for i := range d.vars {
		v := &d.vars[i]
		if v.bytesPerByte > 0 {
			v.b.Reserve(int(v.elemsPerByte*float64(size)*1.1) + 1)
			v.b.ReserveData(int(v.bytesPerByte*float64(size)*1.1) + 1)
		}
		v.elemsAtStart, v.bytesAtStart = v.b.Len(), v.b.DataLen()
	}
}

// sizeRest sizes the variable-length builders for the rest of a chunk that
// beginChunk could not size (the decoder's first), from what its first done
// bytes took of its size bytes.
func (d *LineDecoder) sizeRest(done, size int) {
	if d.sized || done <= 0 || done >= size {
		return
	}
	d.sized = true
	rest := float64(size-done) * 1.1
	for i := range d.vars {
		v := &d.vars[i]
		v.b.Reserve(int(float64(v.b.Len()-v.elemsAtStart)/float64(done)*rest) + 1)
		v.b.ReserveData(int(float64(v.b.DataLen()-v.bytesAtStart)/float64(done)*rest) + 1)
	}
}

// endChunk learns the sizes of the chunk begun by beginChunk.
func (d *LineDecoder) endChunk(size int) {
	if size <= 0 {
		return
	}
	d.sized = true
	for i := range d.vars {
		v := &d.vars[i]
		v.elemsPerByte = float64(v.b.Len()-v.elemsAtStart) / float64(size)
		v.bytesPerByte = float64(v.b.DataLen()-v.bytesAtStart) / float64(size)
	}
}

func (d *LineDecoder) bind(b *array.RecordBuilder) {
	if d.colsB != b {
		d.cols, d.colsB = bindColumns(b), b
		d.vars = d.cols.varColumns()
		d.reservedRows = 0
	}
}
