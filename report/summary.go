package report

import (
	"sort"

	"github.com/runawayhq/runaway/detect"
)

// InputStats is what the reader saw; cmd fills it from ingest's stats.
type InputStats struct {
	Files         int              `json:"files"`
	EmptyFiles    int              `json:"empty_files"`
	LinesRead     int64            `json:"lines_read"`
	BlankLines    int64            `json:"blank_lines"`
	LinesRejected int64            `json:"lines_rejected"`
	RejectsByKind map[string]int64 `json:"rejects_by_kind"`
	Steps         int64            `json:"steps"`
	// DuplicateSteps are exact re-shipped duplicates, dropped;
	// ConflictingSteps share (run_id, step) with different content, kept.
	DuplicateSteps   int64 `json:"duplicate_steps"`
	ConflictingSteps int64 `json:"conflicting_steps"`
	// RunsReadAgain logged again after the scan had analyzed them as
	// finished, so their steps were read a second time (docs/nightly.md).
	RunsReadAgain int64 `json:"runs_read_again"`
	// FailedSources lists, with --keep-going, the sources that could not be
	// read, as "path: error".
	FailedSources []string `json:"failed_sources"`
	// SkippedFiles lists the files a directory walk or listing passed over
	// because they hold no log runaway reads, or because they are hidden
	// (named, they are read), as "path: why".
	SkippedFiles []string `json:"skipped_files"`
	// Formats counts, per way the input was read ("jsonl" for runaway's own
	// steps, else the adapter's name, docs/adapters/), the files that gave
	// steps read that way and the steps.
	Formats map[string]FormatRead `json:"formats"`
}

// FormatRead is what one way of reading read.
type FormatRead struct {
	Files int   `json:"files"`
	Steps int64 `json:"steps"`
}

// Summary is the scan at a glance: the header of the table and the "summary"
// object of the json document.
type Summary struct {
	Input InputStats `json:"input"`
	// Partial: some sources could not be read (--keep-going), so the counts
	// below cover only part of the input.
	Partial    bool `json:"partial"`
	Runs       int  `json:"runs"`
	Runaway    int  `json:"runaway"`
	Suspicious int  `json:"suspicious"`
	Healthy    int  `json:"healthy"`
	// ByRootCause counts flagged runs (runaway or suspicious) by their
	// primary root cause; RunawayByRootCause only the runaway ones, which
	// is what an alert wants (suspicious runs are the noisy half).
	ByRootCause        map[detect.RootCause]int `json:"by_root_cause"`
	RunawayByRootCause map[detect.RootCause]int `json:"runaway_by_root_cause"`
	WastedSteps        int64                    `json:"wasted_steps"`
	WastedTokens       int64                    `json:"wasted_tokens"`
	WastedCostUSD      float64                  `json:"wasted_cost_usd"`
	// CostLogged: some run has a cost, logged or estimated; else the costs
	// are 0 because nothing said what the runs cost. CostEstimated: some of
	// it was estimated from tokens and list prices.
	CostLogged    bool `json:"cost_logged"`
	CostEstimated bool `json:"cost_estimated"`
}

// Summarize counts verdicts, root causes and waste over runs. The result does
// not depend on the order of runs, so results merged from any grouping of the
// input summarize to the same bytes.
func Summarize(in InputStats, runs []detect.RunResult) Summary {
	var acc Summarizer
	for i := range runs {
		acc.Add(&runs[i])
	}
	return acc.Summary(in)
}

// Summarizer builds the same Summary as Summarize from runs handed over one
// at a time, for callers that stream results (ndjson, parquet) and must not
// hold them all just to count them. The zero value is ready to use.
type Summarizer struct {
	s Summary
	// costs keeps the non-zero wasted costs so that Summary can add them
	// in ascending order (see there): 8 bytes per flagged run.
	costs []float64
}

// Add counts one run.
func (a *Summarizer) Add(r *detect.RunResult) {
	s := &a.s
	if s.ByRootCause == nil {
		s.ByRootCause = map[detect.RootCause]int{}
		s.RunawayByRootCause = map[detect.RootCause]int{}
	}
	s.Runs++
	switch r.Verdict {
	case detect.Runaway:
		s.Runaway++
		s.RunawayByRootCause[r.RootCause]++
	case detect.Suspicious:
		s.Suspicious++
	default:
		s.Healthy++
	}
	if r.Verdict != detect.Healthy {
		s.ByRootCause[r.RootCause]++
	}
	s.WastedSteps += r.WastedSteps
	s.WastedTokens += r.WastedTokens
	s.CostLogged = s.CostLogged || r.CostLogged
	s.CostEstimated = s.CostEstimated || r.CostEstimated
	// Adding +0 changes no sum, so healthy runs need no slot.
	if r.WastedCostUSD != 0 {
		a.costs = append(a.costs, r.WastedCostUSD)
	}
}

// Summary returns the summary of the runs added so far over the input in.
// The Summarizer stays usable.
func (a *Summarizer) Summary(in InputStats) Summary {
	s := a.s
	s.Input = in
	s.Partial = len(in.FailedSources) > 0
	s.ByRootCause = cloneCounts(s.ByRootCause)
	s.RunawayByRootCause = cloneCounts(s.RunawayByRootCause)
	// Floating-point addition is not associative: summing in a fixed order
	// (ascending) makes the total independent of the order of runs.
	costs := append([]float64(nil), a.costs...)
	sort.Float64s(costs)
	s.WastedCostUSD = 0
	for _, c := range costs {
		s.WastedCostUSD += c
	}
	return s
}

// cloneCounts copies m, so a returned Summary does not change when more runs
// are added; a nil m becomes an empty map.
func cloneCounts(m map[detect.RootCause]int) map[detect.RootCause]int {
	out := make(map[detect.RootCause]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
