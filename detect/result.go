package detect

import "fmt"

// Verdict is a run's overall judgement. Its order matters: a higher verdict
// is worse, and --fail-on compares against it.
type Verdict uint8

const (
	Healthy Verdict = iota
	Suspicious
	Runaway
)

var verdictNames = [...]string{"healthy", "suspicious", "runaway"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "unknown"
}

// MarshalText writes the verdict's name in reports.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict's name, so reports decode back into RunResult.
func (v *Verdict) UnmarshalText(b []byte) error {
	p, ok := ParseVerdict(string(b))
	if !ok {
		return fmt.Errorf("unknown verdict %q", b)
	}
	*v = p
	return nil
}

// ParseVerdict maps a name back to a Verdict.
func ParseVerdict(s string) (Verdict, bool) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), true
		}
	}
	return 0, false
}

// RootCause is the likely reason a run ran away (docs/root-causes.md).
type RootCause string

const (
	CauseNone                RootCause = ""
	CauseToolRetryLoop       RootCause = "tool-retry-loop"
	CauseReplanLoop          RootCause = "replan-loop"
	CauseMemoryContamination RootCause = "memory-contamination"
	CauseBudgetIgnored       RootCause = "budget-ignored"
	CauseEmptyResultLoop     RootCause = "empty-result-loop"
	CauseErrorStorm          RootCause = "error-storm"
)

// RootCauses lists every root cause in report order.
var RootCauses = []RootCause{CauseToolRetryLoop, CauseReplanLoop, CauseMemoryContamination,
	CauseBudgetIgnored, CauseEmptyResultLoop, CauseErrorStorm}

// StepRange is an inclusive range of step numbers.
type StepRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Count is one named number of a finding's evidence. A slice of them, not a
// map, keeps the order the detector chose in every output.
type Count struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Evidence is what a person needs to check a finding by hand.
type Evidence struct {
	Steps  []StepRange `json:"steps"`
	Keys   []string    `json:"keys,omitempty"`
	Counts []Count     `json:"counts,omitempty"`
}

// Finding is one detector's report on one run.
type Finding struct {
	Detector  string    `json:"detector"`
	Slug      string    `json:"slug"`
	Severity  Verdict   `json:"severity"`
	RootCause RootCause `json:"root_cause"`
	Message   string    `json:"message"`
	OnsetStep int64     `json:"onset_step"`
	Evidence  Evidence  `json:"evidence"`
	// Wasted*: what the run spent from this finding's onset to its end.
	WastedSteps   int64   `json:"wasted_steps"`
	WastedTokens  int64   `json:"wasted_tokens"`
	WastedCostUSD float64 `json:"wasted_cost_usd"`
	Guard         string  `json:"guard"`
}

// RunResult is the analysis of one run. Every field is a pure function of the
// run's steps and the policy, so results from any grouping of the input are
// the same and merge by sorting on RunID.
type RunResult struct {
	RunID     string    `json:"run_id"`
	Verdict   Verdict   `json:"verdict"`
	RootCause RootCause `json:"root_cause"`
	// OnsetStep is the step where the primary loop began; -1 for healthy runs.
	OnsetStep     int64   `json:"onset_step"`
	Steps         int64   `json:"steps"`
	WastedSteps   int64   `json:"wasted_steps"`
	WastedTokens  int64   `json:"wasted_tokens"`
	WastedCostUSD float64 `json:"wasted_cost_usd"`
	// CostLogged: some step of the run has a cost, logged or estimated;
	// without one the costs above are 0 because nothing said what the run
	// cost, and reports say "not logged". CostEstimated: some of it was
	// estimated from tokens and the model's list price (pricing).
	CostLogged    bool `json:"cost_logged"`
	CostEstimated bool `json:"cost_estimated"`
	// Headline is the strongest evidence in a few words, for tables.
	Headline   string     `json:"headline"`
	Signals    []string   `json:"signals"`
	Indicators Indicators `json:"indicators"`
	// Findings: the primary finding (the one that set RootCause) first,
	// then by severity (worst first) and detector ID.
	Findings []Finding `json:"findings"`
	// DataProblems lists problems with the run's steps that are not loop
	// signals (duplicate steps, conflicting duplicates), located by file:line.
	DataProblems []string `json:"data_problems,omitempty"`
	// DuplicateSteps counts exact re-shipped copies of a step (ignored);
	// ConflictingSteps counts steps logged twice with different content (kept).
	DuplicateSteps   int64 `json:"duplicate_steps,omitempty"`
	ConflictingSteps int64 `json:"conflicting_steps,omitempty"`
}
