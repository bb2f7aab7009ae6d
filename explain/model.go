package explain

import (
	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/replay"
	"github.com/runawayhq/runaway/schema"
)

// Run is the post-mortem of one run.
type Run struct {
	RunID string
	// Goal is the first goal the run logged ("" if none).
	Goal string
	// Result is the run's analysis, as `runaway scan` reports it.
	Result detect.RunResult
	// Steps are the run's steps shown: all of them, or for a run of more
	// than MaxShownSteps steps its start, end and the neighbourhoods of its
	// onset, of the recommended guard's stop and of the contaminating
	// write (window.go); Gaps are the stretches left out.
	Steps []Step
	Gaps  []Gap
	// Rows is the timeline: Steps folded where they repeat (fold.go), and
	// a row for each gap.
	Rows []Row
	// Loop is the primary finding's segment; nil for a healthy run.
	Loop *Segment
	// Memory is the memory that contaminated the loop (RA501), or nil.
	Memory *Contamination
	// Guards is every replayed guard's outcome on this run, in replay
	// order; Guard is the one recommended (guard.go), nil if none stops
	// the run at or after its onset.
	Guards []GuardOutcome
	Guard  *GuardChoice
	// FirstTS is the epoch milliseconds of the first step with a ts, which
	// the timeline's offsets count from; HasTS is false without any ts.
	FirstTS int64
	HasTS   bool
	// Undecoded counts step lines the explain decoder could not read (the
	// scan's decoder did): those steps show what the analysis kept only.
	Undecoded int
	// NotAnalyzed says which steps of the run were not analysed, past the
	// most one run may hold (the data problem scan reports); "" when none.
	NotAnalyzed string
}

// Gap is a stretch of a long run's steps that the timeline folds away.
type Gap struct {
	At       int   // index in Run.Steps of the first step shown after it
	Steps    int   // how many steps it holds
	From, To int64 // their first and last step numbers
	InLoop   bool  // all of them are in the loop segment
}

// Step is one step of the run, in the analysis's order.
type Step struct {
	Step  int64
	TS    int64 // epoch ms; valid if HasTS
	HasTS bool
	State string // as logged; "" when none
	// Tool and Args describe the call; Tool is "" without one. Args is a
	// short rendering of the args as logged (schema.AppendShortArgs), or
	// the args hash when the line had no args.
	Tool    string
	Args    string
	CallKey uint64 // tool and canonical args; 0 without a call
	NormKey uint32 // tool and args once normalised (near-duplicates); 0 without args
	// ShapeKey is the args with every run of digits masked (RA104's paging
	// sweeps); 0 without args.
	ShapeKey uint32
	Result   Result
	// Retrieved and Written are the memory ids read and written;
	// WriteTags the tags of the writes (write_tags, else entry types).
	Retrieved []string
	Written   []string
	WriteTags []string
	// Entries are the typed memory records the step logged.
	Entries   []schema.MemoryEntry
	NextState string
	Reason    string // decision.reason; its first 256 bytes
	// Why is tool_result.reason, its first 256 bytes: why the result is
	// what it is, in the tool's words or as an adapter read it from the
	// run's context (a blank answer, the agent's next words).
	Why       string
	reasonKey uint64 // the whole reason, hashed (0: none)
	Progress  bool   // a progress event (docs/indicators.md)
	InLoop    bool
	Tokens    int64
	CostUSD   float64
}

// ResultClass is what a call returned, as the analysis classified it.
type ResultClass uint8

const (
	NoCall   ResultClass = iota // no tool call at this step
	NoResult                    // a call without a logged result
	OK
	Empty
	Error
)

// Result is a step's tool result.
type Result struct {
	Class     ResultClass
	ErrorType string // normalized; Error only
	Status    int64
	HasStatus bool
}

// Row is one line of the timeline: a single step, or a fold of Reps
// repetitions of a block of Period steps (Steps[First..Last]), or a gap
// (Gap set; First and Last are -1: none of its steps is in Steps).
type Row struct {
	Gap         *Gap
	First, Last int
	Period      int
	Reps        int
	InLoop      bool
	// Progress counts the row's steps with a progress event.
	Progress int
	// NearDuplicates: the row folds calls whose args differ as logged but
	// are equal once normalised (a request id, a timestamp, the case).
	NearDuplicates bool
	// NumbersDiffer: the row, in the loop, folds calls whose args differ
	// in their numbers (a view of other lines of one file, another page).
	NumbersDiffer bool
	// Positions describes each step of the repeated block, over its
	// repetitions (one position for an unfolded row).
	Positions []Position
}

// Folded reports whether the row stands for more than one step.
func (r Row) Folded() bool { return r.Reps > 1 }

// Position is one step of a row's block, tallied over the repetitions.
type Position struct {
	Sample  int // index in Run.Steps of its first occurrence
	Results []Tally
	Reads   []Tally // memory ids retrieved, by how many of the repetitions
	Writes  []Tally
}

// Tally is a label and how many steps had it.
type Tally struct {
	Label string
	N     int
}

// Segment is an inclusive range of step numbers.
type Segment struct {
	From, To int64
	// Detector is the finding that drew it.
	Detector string
}

// Contamination is the memory RA501 found driving the loop.
type Contamination struct {
	ID        string
	WrittenAt int64 // step number
	// Why is how it was written: tags, entry type, source, confidence.
	Why string
	// Reads is how many loop steps retrieved it, of LoopSteps.
	Reads     int
	LoopSteps int
}

// GuardOutcome is one guard replayed over the run.
type GuardOutcome struct {
	Name    string
	Stopped bool
	// StopStep is the first step the guard prevents.
	StopStep int64
	Reason   string
	// Saved is what the run spent from StopStep to its end.
	Saved replay.Amount
	// Matches: the guard is of the kind the root cause's fix calls for.
	Matches bool
}

// GuardChoice is the recommended guard and why it was chosen.
type GuardChoice struct {
	GuardOutcome
	// Delay is StopStep minus the onset step.
	Delay int64
	// Why says how it was chosen, in a sentence.
	Why string
}
