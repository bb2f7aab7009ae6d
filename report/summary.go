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
	// FailedSources lists, with --keep-going, the sources that could not be
	// read, as "path: error".
	FailedSources []string `json:"failed_sources"`
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
	// primary root cause.
	ByRootCause   map[detect.RootCause]int `json:"by_root_cause"`
	WastedSteps   int64                    `json:"wasted_steps"`
	WastedTokens  int64                    `json:"wasted_tokens"`
	WastedCostUSD float64                  `json:"wasted_cost_usd"`
}

// Summarize counts verdicts, root causes and waste over runs. The result does
// not depend on the order of runs, so results merged from any grouping of the
// input summarize to the same bytes.
func Summarize(in InputStats, runs []detect.RunResult) Summary {
	s := Summary{
		Input:       in,
		Partial:     len(in.FailedSources) > 0,
		Runs:        len(runs),
		ByRootCause: map[detect.RootCause]int{},
	}
	costs := make([]float64, 0, len(runs))
	for i := range runs {
		r := &runs[i]
		switch r.Verdict {
		case detect.Runaway:
			s.Runaway++
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
		costs = append(costs, r.WastedCostUSD)
	}
	// Floating-point addition is not associative: summing in a fixed order
	// (ascending) makes the total independent of the order of runs.
	sort.Float64s(costs)
	for _, c := range costs {
		s.WastedCostUSD += c
	}
	return s
}
