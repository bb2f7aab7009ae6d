package replay

// Report is the outcome of a replay: one document, sorted throughout, that
// does not depend on the order the runs were visited in.
type Report struct {
	// Truth says where runaway and healthy come from: "verdicts" (runaway's
	// own) or "labels" (a labels file; then no run is suspicious).
	Truth string `json:"truth"`
	// FailedSources are the inputs skipped with --keep-going: the replay
	// covers the rest.
	FailedSources []string      `json:"failed_sources,omitempty"`
	Runs          RunCounts     `json:"runs"`
	Guards        []GuardReport `json:"guards"`
	// CostLogged: some run replayed has a cost, logged or estimated; when
	// false the costs are 0 because nothing said what the runs cost.
	// CostEstimated: some of it was estimated from tokens and list prices.
	CostLogged    bool `json:"cost_logged"`
	CostEstimated bool `json:"cost_estimated"`
}

// RunCounts are the runs replayed, by class.
type RunCounts struct {
	Total      int         `json:"total"`
	Runaway    ClassTotals `json:"runaway"`
	Suspicious ClassTotals `json:"suspicious"`
	Healthy    ClassTotals `json:"healthy"`
	// With labels: runs in the logs without a label (not replayed), and
	// labels whose run is not in the logs.
	Unlabelled int `json:"unlabelled"`
	Missing    int `json:"missing"`
}

// ClassTotals is what the runs of one class spent.
type ClassTotals struct {
	Runs   int    `json:"runs"`
	Amount Amount `json:"spent"`
	// AfterOnset (runaway runs only) is what was spent from each loop's onset
	// to the end of its run: what a guard that stopped every loop right at
	// its onset would have saved.
	AfterOnset *Amount `json:"after_onset,omitempty"`
	// ByCause counts runaway runs by root cause (the verdict's or the
	// label's); ByConfounder counts healthy runs by confounder (labels only;
	// a run with two counts under both).
	ByCause      map[string]int `json:"by_cause,omitempty"`
	ByConfounder map[string]int `json:"by_confounder,omitempty"`
}

// Amount is steps, tokens and cost.
type Amount struct {
	Steps   int64   `json:"steps"`
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
}

// GuardReport is one guard's outcome.
type GuardReport struct {
	Name   string       `json:"name"`
	Source string       `json:"source,omitempty"`
	Params []ParamValue `json:"params"`
	// Runaway runs: stopped (with the saving) or missed.
	Runaway RunawayOutcome `json:"runaway"`
	// Suspicious runs stopped (verdicts only), counted apart.
	Suspicious Outcome `json:"suspicious"`
	// Healthy runs stopped: false positives.
	Healthy Outcome `json:"healthy"`
}

// RunawayOutcome is a guard's record on runaway runs.
type RunawayOutcome struct {
	Runs    int `json:"runs"`
	Stopped int `json:"stopped"`
	Missed  int `json:"missed"`
	// Saved is everything from the stop step to the end of the stopped runs,
	// inclusive.
	Saved Amount `json:"saved"`
	// Delay is the stop step minus the onset step, over the stopped runs: how
	// long after the loop began the guard stepped in.
	Delay DelayStats `json:"delay"`
	// StoppedByCause counts the stopped runs by root cause.
	StoppedByCause map[string]int `json:"stopped_by_cause,omitempty"`
	Stops          []RunawayStop  `json:"stops"`
	MissedRuns     []string       `json:"missed_runs"`
}

// DelayStats summarizes stop-minus-onset delays.
type DelayStats struct {
	Median float64 `json:"median"`
	Min    int64   `json:"min"`
	Max    int64   `json:"max"`
	// BeforeOnset counts stops before the onset: the guard cut the run while
	// it was still working (a cap shorter than the run's honest part).
	BeforeOnset int `json:"before_onset"`
}

// Outcome is a guard's record on suspicious or healthy runs.
type Outcome struct {
	Runs    int `json:"runs"`
	Stopped int `json:"stopped"`
	// Cut is everything from the stop step to the end of the stopped runs:
	// on healthy runs, the work the guard would have cut short.
	Cut Amount `json:"cut"`
	// StoppedByConfounder counts stopped healthy runs by confounder (labels
	// only).
	StoppedByConfounder map[string]int `json:"stopped_by_confounder,omitempty"`
	Stops               []Stop         `json:"stops"`
}

// Stop is where a guard stopped one run, and why.
type Stop struct {
	RunID string `json:"run_id"`
	// StopStep is the first step the guard prevented (its call blocked, or
	// the run ended before it).
	StopStep int64  `json:"stop_step"`
	Reason   string `json:"reason"`
	// After is what the run spent from StopStep to its end, inclusive.
	After Amount `json:"after"`
}

// RunawayStop is a stop on a runaway run, with the loop's onset.
type RunawayStop struct {
	Stop
	OnsetStep int64 `json:"onset_step"`
	Delay     int64 `json:"delay"`
}
