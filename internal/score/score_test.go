package score

import (
	"slices"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

func TestScoreCountsEachCase(t *testing.T) {
	labels := map[string]Label{
		"tp":   {RunID: "tp", Label: "runaway", RootCause: "tool-retry-loop", OnsetStep: 10},
		"tp2":  {RunID: "tp2", Label: "runaway", RootCause: "error-storm", OnsetStep: 4},
		"fn":   {RunID: "fn", Label: "runaway", RootCause: "replan-loop", OnsetStep: 3},
		"fp":   {RunID: "fp", Label: "healthy", OnsetStep: -1, Confounder: "polling"},
		"sus":  {RunID: "sus", Label: "healthy", OnsetStep: -1},
		"ok":   {RunID: "ok", Label: "healthy", OnsetStep: -1},
		"gone": {RunID: "gone", Label: "healthy", OnsetStep: -1},
	}
	results := []detect.RunResult{
		{RunID: "tp", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop, OnsetStep: 12},
		{RunID: "tp2", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop, OnsetStep: 9},
		{RunID: "fn", Verdict: detect.Suspicious, RootCause: detect.CauseReplanLoop, OnsetStep: 3},
		{RunID: "fp", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop, OnsetStep: 2},
		{RunID: "sus", Verdict: detect.Suspicious},
		{RunID: "ok", Verdict: detect.Healthy, OnsetStep: -1},
		{RunID: "extra", Verdict: detect.Healthy},
	}
	r := Score(labels, results)
	if r.TruePositives != 2 || r.FalsePositives != 1 || r.FalseNegatives != 1 {
		t.Fatalf("tp %d fp %d fn %d", r.TruePositives, r.FalsePositives, r.FalseNegatives)
	}
	if r.Precision != 2.0/3 || r.Recall != 2.0/3 {
		t.Fatalf("precision %v recall %v", r.Precision, r.Recall)
	}
	if r.Healthy != 3 || r.HealthyFlagged != 2 || r.FlaggedByConfounder["polling"] != 1 || r.FlaggedByConfounder["none"] != 1 {
		t.Fatalf("healthy %d flagged %d by confounder %v", r.Healthy, r.HealthyFlagged, r.FlaggedByConfounder)
	}
	if r.RootCauseCorrect != 1 || r.OnsetWithin2 != 1 {
		t.Fatalf("cause correct %d onset within 2: %d", r.RootCauseCorrect, r.OnsetWithin2)
	}
	if r.Confusion["replan-loop"][""] != 1 || r.Confusion["error-storm"]["tool-retry-loop"] != 1 {
		t.Fatalf("confusion %v", r.Confusion)
	}
	if r.Missing != 1 || r.Unlabelled != 1 {
		t.Fatalf("missing %d unlabelled %d", r.Missing, r.Unlabelled)
	}
	// The runs to read: every labelled run the verdict does not match,
	// and what of it, by run id; the suspicious healthy run is not one
	// (suspicious is not the runaway verdict).
	want := []Disagreement{
		{RunID: "fn", What: "missed", Label: "runaway", Verdict: "suspicious", LabelCause: "replan-loop", FoundCause: "replan-loop", LabelOnset: 3, FoundOnset: 3},
		{RunID: "fp", What: "false positive", Label: "healthy", Verdict: "runaway", FoundCause: "tool-retry-loop", LabelOnset: -1, FoundOnset: 2},
		{RunID: "tp2", What: "root cause, onset", Label: "runaway", Verdict: "runaway", LabelCause: "error-storm", FoundCause: "tool-retry-loop", LabelOnset: 4, FoundOnset: 9},
	}
	if !slices.Equal(r.Disagreements, want) {
		t.Fatalf("disagreements\n%+v\nwant\n%+v", r.Disagreements, want)
	}
}
