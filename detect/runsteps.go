package detect

import "github.com/runawayhq/runaway/schema"

// RunSteps is a read-only view of one run's steps in order (after sorting
// and dropping duplicate lines), for code that replays the run step by step,
// such as runtime-guard replay. It is valid only during the Visit callback
// that received it (Analyzer.Steps).
type RunSteps struct {
	v *Run
	a *analysis
}

// ID is the run id.
func (r RunSteps) ID() string { return r.v.ID }

// Len is the number of steps.
func (r RunSteps) Len() int { return r.v.Len() }

// Step is the logged step number of the i-th step.
func (r RunSteps) Step(i int) int64 { return r.v.Step[i] }

// TS is the epoch milliseconds of the i-th step, if logged.
func (r RunSteps) TS(i int) (int64, bool) { return r.v.TS[i], r.v.TS[i] != NoTS }

// State is the i-th step's state.
func (r RunSteps) State(i int) schema.State { return r.v.State[i] }

// HasCall reports whether the i-th step made a tool call.
func (r RunSteps) HasCall(i int) bool { return r.v.Flags[i]&flagCall != 0 }

// CallKey identifies the call (tool and canonical args); 0 without a call.
func (r RunSteps) CallKey(i int) uint64 { return r.v.call[i] }

// NormKey identifies the call up to near-duplicates: tool and args equal
// once normalised (case, white space, key order, volatile keys; RA103); 0
// without args.
func (r RunSteps) NormKey(i int) uint32 { return r.v.Norm[i] }

// ShapeKey identifies the call up to its numbers: tool and args with every
// run of digits masked (schema.ArgsShape; RA104); 0 without args.
func (r RunSteps) ShapeKey(i int) uint32 { return r.v.Shape[i] }

// Tool is the called tool's name.
func (r RunSteps) Tool(i int) string { return r.v.Names.ToolName(r.v.Tool[i]) }

// ArgsKey renders the args for evidence: a short rendering of args the run
// repeats, else the args hash ("sha256:<16 hex>").
func (r RunSteps) ArgsKey(i int) string { return r.v.Names.ArgsText(r.v.Args[i], r.v.Norm[i]) }

// Intent is the step's intent, "" if none.
func (r RunSteps) Intent(i int) string { return r.v.Names.IntentName(r.v.Intent[i]) }

// HasResult, IsError, IsEmpty and NonRetryable describe the tool result.
func (r RunSteps) HasResult(i int) bool { return r.v.Flags[i]&flagResult != 0 }

// IsError reports a failed call.
func (r RunSteps) IsError(i int) bool { return r.v.Flags[i]&flagError != 0 }

// IsEmpty reports an empty result.
func (r RunSteps) IsEmpty(i int) bool { return r.v.Flags[i]&flagEmpty != 0 }

// QueryWords is the word signature of the question step i asks a search
// tool (schema.QueryArgs.Words), ok false when its call is no query.
func (r RunSteps) QueryWords(i int) (uint64, bool) {
	return r.v.Words[i], r.v.Flags[i]&flagQuery != 0 && r.v.Words[i] != 0
}

// NonRetryable reports an error that says retrying cannot help.
func (r RunSteps) NonRetryable(i int) bool { return nonRetryable(r.v, i) }

// ErrorType is the normalized error type of a failed call.
func (r RunSteps) ErrorType(i int) string { return r.v.Names.ErrTypeName(r.v.ErrType[i]) }

// ResultHash fingerprints the result's outcome (equal hashes: same answer).
func (r RunSteps) ResultHash(i int) uint32 { return r.v.Result[i] }

// Tokens and CostUSD are the step's usage.
func (r RunSteps) Tokens(i int) int64 { return r.v.Tokens[i] }

// CostUSD is the step's cost.
func (r RunSteps) CostUSD(i int) float64 { return r.v.Cost[i] }

// Progress reports a progress event at the i-th step (docs/indicators.md).
func (r RunSteps) Progress(i int) bool { return r.a.progress[i] }
