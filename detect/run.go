package detect

import (
	"math"

	"github.com/runawayhq/runaway/schema"
)

// Run is one run's steps in order (sorted, duplicate lines dropped), as
// parallel columns of equal length: what the detectors read. A run store
// fills it and hands it to Analyzer.Analyze; it may rebuild the same Run in
// place for the next run, so that the columns' memory is reused.
type Run struct {
	ID   string
	Step []int64
	TS   []int64  // epoch milliseconds; NoTS when the step logged none
	Args []uint64 // args key (schema.ArgsKey)
	Norm []uint32 // normalised args key (near-duplicates); 0 without args
	// Shape is the args shape (schema.ArgsShape: digits masked) folded to
	// 32 bits, for paging loops (RA104); 0 without a call or args.
	Shape []uint32
	// EditFile is the file a call with the edit intent changed, FailFile
	// the file a failed call's failure was raised in (schema.EditFileKey,
	// FailureFileKey, folded to 32 bits); 0 where there is none.
	EditFile, FailFile []uint32
	// FileCopy is, beside them, which copy of that file the step names
	// when its path is absolute (schema.FoldCopyKey: the high 16 bits name
	// the file with its directory, the low 16 the whole path); 0 where
	// there is none.
	FileCopy []uint32
	// FailMistake is a failed call's mistake: its exception line without
	// the file and line that raised it, when it is code that did not run
	// rather than a verdict (schema.FailureMistakeKey, folded to 32 bits);
	// 0 where there is none.
	FailMistake []uint32
	// Words is the word signature of calls that returned empty and of
	// queries (schema.IsQuery); Plan the
	// plan of PLAN steps; Decision the decision of every step that logged
	// a reason saying something (the thought before a call, or a decision
	// without one); 0 where there is none.
	Words []uint64
	// Sim is the SimHash of each step's result, 0 when it has none.
	Sim []uint64
	// ArgSim is the SimHash of each call's args, 0 when they have none.
	ArgSim   []uint64
	Plan     []uint32
	Decision []uint32
	Tool     []int32 // Names.ToolName; -1 when the step made no call
	State    []schema.State
	Flags    []uint16 // schema.Flag*
	ErrType  []uint16 // Names.ErrTypeName; 0 when the call did not fail
	Result   []uint32 // the result's fingerprint folded to 32 bits
	Tokens   []int64
	Cost     []float64
	Intent   []int32 // Names.IntentName; 0 is no intent
	// NewArtifact marks steps that logged an artifact id not seen before in
	// the run.
	NewArtifact []bool
	// StaleTalk marks the agent's turns of conversation that say nothing
	// new: fewer than a third of their words (schema.TalkWords) are words
	// the agent had not said in its turns since its last tool call, or
	// they ask again for what it asked for since then.
	StaleTalk []bool
	// Restated is, for a turn one of the run's agents addressed to another
	// that makes again the point of an earlier turn of the same agent to
	// the same agent (schema.AgentTurnWords: half their words or more in
	// common), the index of the turn that first made it; -1 for every
	// other step. Empty when the run has no turns between its agents.
	Restated []int32
	// Echoed is, for a turn one of the run's agents addressed to another
	// that makes again the point of the turn of another agent just before
	// it (the same similarity as Restated), the index of that turn; -1 for
	// every other step. Empty when the run has no turns between its agents.
	Echoed []int32
	// Answered is, for such a turn, the turn of another agent just before
	// it when the two share a quarter of their words or more (the answer
	// takes up the point, not yet said again); -1 otherwise. It only moves
	// where an echo chain began, never what it counts.
	Answered []int32
	// ShortTurn marks the turns one of the run's agents addressed to
	// another that say too few words to be compared by their share
	// (schema.TalkShortMark): such a turn restates an earlier one only
	// with the same words. Empty when the run has no turns between its
	// agents.
	ShortTurn []bool
	// AskedFirst is, for a turn of conversation that asks again for what
	// the agent asked for since its last tool call (schema.TalkAsks), the
	// index of the turn that first asked for it; -1 for every other step.
	AskedFirst []int32
	// MemReads lists the memories read, in step order; Suspect the memories
	// written from inference, a tool error or low confidence, likewise.
	MemReads []MemRead
	Suspect  []SuspectWrite
	Budget   Budget // the tightest budget the run logged

	DataProblems []string
	Duplicates   int64 // exact duplicate lines dropped
	Conflicts    int64 // steps logged twice with different content, both kept

	// Names resolves the interned ids of the columns for evidence.
	Names Names

	// call is the call identity of each step (tool and args; 0 without a
	// call), which Analyze derives.
	call []uint64
}

// NoTS marks a step without ts; it sorts first.
const NoTS = int64(math.MinInt64)

// Len is the number of steps.
func (v *Run) Len() int { return len(v.Step) }

// MemRead is a memory (its id hashed to 32 bits) read at step index At.
type MemRead struct {
	At int
	ID uint32
}

// SuspectWrite is a memory written at step index At from inference, a tool
// error or low confidence (schema.SuspectWrite), its id hashed to 32 bits.
type SuspectWrite struct {
	At   int
	ID   uint32
	Name string
	Why  string
}

// Budget is the tightest budget a run logged, per dimension (0 = none).
type Budget struct {
	Steps, ToolCalls, Tokens int64
	CostUSD, Seconds         float64
}

// Names turns a run's interned ids back into text, for evidence. The store
// that fills a Run binds it to that run.
type Names interface {
	ToolName(id int32) string
	IntentName(id int32) string
	ErrTypeName(id uint16) string
	// ArgsText shows a call's args: the short rendering of args the run
	// repeated (these args, else args equal to them once normalised), else
	// the args hash.
	ArgsText(args uint64, norm uint32) string
	// HasShortArgs reports whether ArgsText has a short rendering for norm.
	HasShortArgs(norm uint32) bool
}

// callText names the call of step i in evidence: tool and args.
func (v *Run) callText(i int) string {
	return v.Names.ToolName(v.Tool[i]) + " " + v.Names.ArgsText(v.Args[i], v.Norm[i])
}

// callIdentity combines tool and args key; distinct tools with equal args
// are distinct calls. tool is an index into the run's names, which depends
// on the order the input came in: keys made with it are for equality
// within a run only.
func callIdentity(tool int32, args uint64) uint64 {
	return keyOf(uint64(tool)+1, args)
}

// keyOf combines a tool's key and an args key.
func keyOf(tool, args uint64) uint64 {
	id := args ^ tool*0x9E3779B97F4A7C15
	if id == 0 {
		id = 1
	}
	return id
}

// Analyzer analyzes runs one at a time, keeping its scratch from run to
// run so that a run allocates little beyond its result. The zero value is
// ready; use one per goroutine.
type Analyzer struct {
	a    *analysis
	last *Run
	// tools caches the hash of the run's tool names by index.
	tools map[int32]uint64
}

// Analyze computes r's indicators, runs every detector of Registry with
// p's thresholds, and classifies the run. p must be valid (Policy.Validate).
// The result depends on r alone.
func (z *Analyzer) Analyze(r *Run, p *Policy) RunResult {
	if z.a == nil {
		z.a = newAnalysis()
	}
	r.call = resize(r.call, r.Len())
	// A call's identity (RunSteps.CallKey) is made from its tool's name,
	// not the tool's index among the names: the index depends on the order
	// the input came in, and the key is shown (explain's colours).
	if z.tools == nil {
		z.tools = map[int32]uint64{}
	}
	clear(z.tools)
	for i, f := range r.Flags {
		if f&flagCall != 0 {
			t, ok := z.tools[r.Tool[i]]
			if !ok {
				t = schema.IDHash(r.Names.ToolName(r.Tool[i])) | 1
				z.tools[r.Tool[i]] = t
			}
			r.call[i] = keyOf(t, r.Args[i])
		} else {
			r.call[i] = 0
		}
	}
	z.last = r
	return analyze(r, z.a, p)
}

// Steps is the run Analyze last analyzed, with what the analysis derived,
// for code that replays it step by step. It is valid until the next call
// of Analyze.
func (z *Analyzer) Steps() RunSteps { return RunSteps{z.last, z.a} }

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Row flags: what a step did and got back (schema.Flag*, which ingest
// computes; Run.Flags holds them as they come).
const (
	flagCall        = schema.FlagCall
	flagResult      = schema.FlagResult
	flagError       = schema.FlagError
	flagEmpty       = schema.FlagEmpty
	flagRetryableF  = schema.FlagRetryableFalse
	flagMemProgress = schema.FlagMemProgress
	flagArtifacts   = schema.FlagArtifacts
	flagPayload     = schema.FlagPayload
	flagCostEst     = schema.FlagCostEstimated
	flagSeen        = schema.FlagSeen
	flagMore        = schema.FlagMore
	flagCreate      = schema.FlagCreate
	flagReports     = schema.FlagReportsFailure
	flagQuery       = schema.FlagQuery
	flagAddsPrint   = schema.FlagAddsPrint
)
