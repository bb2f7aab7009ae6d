package schema

import "github.com/apache/arrow-go/v18/arrow"

// Column indices of StepArrowSchema. ingest builds batches in this order and
// detect reads them by index; TestArrowSchemaIndices keeps the two in step.
const (
	ColRunID = iota
	ColStep
	ColTSMillis
	ColState
	ColIntent
	ColToolName
	ColArgsKey
	ColArgsHash
	ColArgs
	ColArgsNorm
	ColArgsWords
	ColArgsSim
	ColArgsShort
	ColArgsShape
	ColFlags
	ColErrorType
	ColResultHash
	ColResultSim
	ColMemRetrieved
	ColMemSuspect
	ColPlanKey
	ColArtifacts
	ColTokens
	ColCostUSD
	ColBudgetMaxSteps
	ColBudgetMaxToolCalls
	ColBudgetMaxTokens
	ColBudgetMaxCostUSD
	ColBudgetMaxSeconds
	ColGoal
	ColReason
	ColReasonHash
	ColDecisionKey
	ColSrcFile
	ColSrcLine
	ColLineHash
	ColTalkWords
	ColEditFile
	ColFailFile
	ColFileCopy
	ColFailMistake
	NumCols
)

// Row flags: the flags column, what a step did and got back. Spilled
// segments keep them as they are, so a bit keeps its meaning.
const (
	FlagCall           uint16 = 1 << iota // has a tool call
	FlagResult                            // has a tool result
	FlagError                             // the result is an error (IsError)
	FlagEmpty                             // the result is empty (IsEmpty)
	FlagRetryableFalse                    // retryable is logged and false
	FlagMemProgress                       // MemoryProgress: wrote memory typed observation or decision
	FlagArtifacts                         // logged at least one artifact
	FlagPayload                           // the result carries items, data or result_count (HasPayload)
	FlagCostEstimated                     // cost_usd was estimated from tokens and the model's list price
	FlagSeen                              // the result only repeats what the run was shown before (tool_result.seen)
	FlagMore                              // the result says there is more to fetch (SaysMore: a page of a listing)
	FlagCreate                            // an edit that writes a file whole (CreatesFile): a script written anew
	FlagReportsFailure                    // an output that is no error reports a failure in its own words (tool_result.reports_failure)
	FlagQuery                             // the call asks a search tool a question in words (IsQuery)
	FlagAddsPrint                         // an edit whose new text prints more than the text it replaces (AddsPrint): a probe
)

var hashList = arrow.ListOf(arrow.PrimitiveTypes.Uint64)

// SuspectWriteType is the Arrow type of one mem_suspect element.
var SuspectWriteType = arrow.StructOf(
	arrow.Field{Name: "id", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "why", Type: arrow.BinaryTypes.String},
)

// StepArrowSchema is the columnar form of a batch of steps, as the
// indicator pass reads it. Interpretation that the input contract fixes
// (what counts as empty, the error type of an error, the canonical args
// hash, which memory writes are suspect) is done once at ingest, where the
// parsed step is at hand, so every reader of the columns agrees on it and
// none does it again per row:
//
//   - ts_ms: epoch milliseconds, null when ts is absent.
//   - state: StateCode of the state; StateNone when absent.
//   - args_key: ArgsKey of args_hash; 0 without a tool call.
//   - args_hash: args_hash when ArgsKey could not take its key from a
//     "sha256:<hex>" prefix (evidence shows it), else null.
//   - args: canonical JSON of args; filled only when the reader asks for text.
//   - args_norm, args_words: ArgsDigest of args (near-duplicates; words only
//     for calls whose result is empty and for queries, IsQuery); 0 when no args are logged or they
//     cannot be read.
//   - args_sim: ArgsSimHash of the args of a call that failed (an edit
//     re-sent with another indentation is the same retry); 0 for calls that
//     did not fail and for args of fewer than MinSimilarityWords words.
//   - args_short: AppendShortArgs of args, for evidence; null without args.
//   - args_shape: ArgsShape of args, digits masked (a paging loop, RA104);
//     0 without a call or without args.
//   - flags: the Flag* bits.
//   - error_type: NormalizedErrorType; null when the result is not an error.
//   - result_hash: ResultFingerprint of the result; 0 when there is no result.
//   - result_sim: ResultSimHash of the result's payload; 0 when it has too
//     few words to compare by similarity (or no payload).
//   - mem_retrieved: IDHash of each memory.retrieved id; null when absent.
//   - mem_suspect: SuspectWrites of the step's memory; null when none.
//   - plan_key: PlanMemoryKey of the step's memory; 0 when it wrote no plan.
//   - artifacts: IDHash of each artifact id; null when absent.
//   - tokens: prompt plus completion tokens (negatives as 0), at most 2^32-1.
//   - goal, reason: free text, filled only when the reader asks for text.
//   - reason_hash: XXH3 of the normalised decision.reason; 0 without one.
//   - decision_key: DecisionKey of the reason and decision.next_state; 0
//     without a reason.
//   - src_file: index into the list of input sources; src_line: 1-based line.
//   - line_hash: XXH3 of the raw line, so re-shipped duplicate lines are recognised.
//   - talk_words: IDHash of each of TalkWords' words of a turn of
//     conversation the agent sent (a call of ToolMessage), then, when it says
//     numbers, of TalkNumbersMark and of each number, then, for each thing
//     it asks for (TalkAsks), of TalkAskMark and of each of the ask's
//     words. For a turn one agent of the run addresses to another (a
//     "to" in its args, not in the PLAN state), of TalkAgentMark, of the
//     pair of agents and of each of AgentTurnWords' words instead, or, for
//     a turn of a few words, of TalkShortMark and of each of
//     AgentTurn's words (null when it says none). Null for every
//     other step.
//   - edit_file: EditFileKey of the args of a call with the edit intent; 0
//     for every other step.
//   - fail_file: FailedCallFileKey of a failed call (the file its output
//     says failed, or the file a compile check without output compiled); 0
//     for every other step and for failures that name no file.
//   - file_copy: FileCopyKey of the file beside edit_file or fail_file,
//     when it is written as an absolute path: EditCopyKey of an edit's
//     args, else FailureCopyKey of a failed result's data (a line's
//     tool_call.edit_copy or tool_result.fail_copy when it carries
//     edit_file or fail_file: fixtures); 0 otherwise.
//   - fail_mistake: FailureMistakeKey of a failed result's data (its
//     failure's exception line without file and line, when the failure is
//     code that did not run rather than a verdict; a line's
//     tool_result.fail_mistake when it carries one: fixtures); 0 otherwise.
var StepArrowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "run_id", Type: arrow.BinaryTypes.String},
	{Name: "step", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ts_ms", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "state", Type: arrow.PrimitiveTypes.Uint8},
	{Name: "intent", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "tool_name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args_key", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_hash", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args_norm", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_words", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_sim", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "args_short", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "args_shape", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "flags", Type: arrow.PrimitiveTypes.Uint16},
	{Name: "error_type", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "result_hash", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "result_sim", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "mem_retrieved", Type: hashList, Nullable: true},
	{Name: "mem_suspect", Type: arrow.ListOf(SuspectWriteType), Nullable: true},
	{Name: "plan_key", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "artifacts", Type: hashList, Nullable: true},
	{Name: "tokens", Type: arrow.PrimitiveTypes.Uint32},
	{Name: "cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "budget_max_steps", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_tool_calls", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "budget_max_cost_usd", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "budget_max_seconds", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "goal", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "reason_hash", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "decision_key", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "src_file", Type: arrow.PrimitiveTypes.Int32},
	{Name: "src_line", Type: arrow.PrimitiveTypes.Int64},
	{Name: "line_hash", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "talk_words", Type: hashList, Nullable: true},
	{Name: "edit_file", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "fail_file", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "file_copy", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "fail_mistake", Type: arrow.PrimitiveTypes.Uint64},
}, nil)
