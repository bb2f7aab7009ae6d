package schema

import "github.com/apache/arrow-go/v18/arrow"

// Column indices of StepArrowSchema. ingest builds batches in this order and
// detect reads them by index; TestArrowSchemaIndices keeps the two in step.
const (
	ColRunID = iota
	ColStep
	ColTSMillis
	ColState
	ColNextState
	ColIntent
	ColToolName
	ColArgsHash
	ColArgs
	ColArgsNorm
	ColArgsWords
	ColArgsShort
	ColResultOK
	ColErrorType
	ColStatus
	ColEmpty
	ColRetryable
	ColResultCount
	ColResultHash
	ColResultPayload
	ColMemRetrieved
	ColMemWritten
	ColMemWriteTags
	ColMemEntries
	ColArtifacts
	ColPromptTokens
	ColCompletionTokens
	ColCostUSD
	ColBudgetMaxSteps
	ColBudgetMaxToolCalls
	ColBudgetMaxTokens
	ColBudgetMaxCostUSD
	ColBudgetMaxSeconds
	ColGoal
	ColReason
	ColReasonHash
	ColSrcFile
	ColSrcLine
	ColLineHash
	NumCols
)

var stringList = arrow.ListOf(arrow.BinaryTypes.String)

// MemoryEntryType is the Arrow type of one memory.entries[] element.
var MemoryEntryType = arrow.StructOf(
	arrow.Field{Name: "id", Type: arrow.BinaryTypes.String, Nullable: true},
	arrow.Field{Name: "type", Type: arrow.BinaryTypes.String, Nullable: true},
	arrow.Field{Name: "source", Type: arrow.BinaryTypes.String, Nullable: true},
	arrow.Field{Name: "confidence", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
)

// StepArrowSchema is the columnar form of a batch of steps. Interpretation
// that the input contract fixes (what counts as empty, the error type of an
// error, the canonical args hash) is done once at ingest, so every reader of
// the columns agrees on it:
//
//   - ts_ms: epoch milliseconds, null when ts is absent.
//   - state, next_state: as logged (schema.StateCode maps them).
//   - args_hash: as logged, else the canonical hash of args; null without a tool call.
//   - args: canonical JSON of args; filled only when the reader asks for text.
//   - args_norm, args_words: ArgsDigest of args (near-duplicates; words only
//     for calls whose result is empty); 0 when
//     no args are logged or they cannot be read.
//   - args_short: AppendShortArgs of args, for evidence; null without args.
//   - result_ok: null when there is no tool_result; false for every error (IsError).
//   - error_type: NormalizedErrorType; null when the result is not an error.
//   - empty: IsEmpty; false when there is no result.
//   - result_hash: ResultFingerprint of the result; 0 when there is no result.
//   - result_payload: HasPayload; false when there is no result.
//   - goal, reason: free text, filled only when the reader asks for text.
//   - reason_hash: xxhash64 of the normalised decision.reason; 0 without one.
//   - src_file: index into the list of input sources; src_line: 1-based line.
//   - line_hash: xxhash64 of the raw line, so re-shipped duplicate lines are recognised.
var StepArrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "run_id", Type: arrow.BinaryTypes.String},
	{Name: "step", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ts_ms", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "state", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "next_state", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "intent", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tool_name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args_hash", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args_norm", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_words", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_short", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "result_ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "error_type", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "empty", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "retryable", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "result_count", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "result_hash", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "result_payload", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "mem_retrieved", Type: stringList, Nullable: true},
	{Name: "mem_written", Type: stringList, Nullable: true},
	{Name: "mem_write_tags", Type: stringList, Nullable: true},
	{Name: "mem_entries", Type: arrow.ListOf(MemoryEntryType), Nullable: true},
	{Name: "artifacts", Type: stringList, Nullable: true},
	{Name: "prompt_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "completion_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "budget_max_steps", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_tool_calls", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "budget_max_seconds", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "goal", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "reason_hash", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "src_file", Type: arrow.PrimitiveTypes.Int32},
	{Name: "src_line", Type: arrow.PrimitiveTypes.Int64},
	{Name: "line_hash", Type: arrow.PrimitiveTypes.Uint64},
}, nil)
