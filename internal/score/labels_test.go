package score

import (
	"strings"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

func TestReadLabels(t *testing.T) {
	in := `{"run_id":"a","label":"runaway","root_cause":"error-storm","onset_step":4}

{"run_id":"b","label":"healthy","root_cause":"","onset_step":-1,"confounder":"pagination,polling"}
`
	labels, err := ReadLabels(strings.NewReader(in))
	if err != nil || len(labels) != 2 || labels["a"].OnsetStep != 4 || labels["b"].Confounder != "pagination,polling" {
		t.Fatalf("%v %+v", err, labels)
	}
	for text, want := range map[string]string{
		`{"run_id":"a","label":"runaway"`:       "line 1",
		`{"label":"runaway"}`:                   "line 1: no run_id",
		"\n" + `{"run_id":"a","label":"loopy"}`: `line 2: label "loopy"`,
		`{"run_id":"a","label":"healthy"}` + "\n" + `{"run_id":"a","label":"healthy"}`: `line 2: run "a" labelled twice`,
	} {
		if _, err := ReadLabels(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

func TestConfoundersAreScoredOneByOne(t *testing.T) {
	labels := map[string]Label{
		"a": {RunID: "a", Label: "healthy", Confounder: "pagination,polling"},
		"b": {RunID: "b", Label: "healthy", Confounder: "polling"},
		"c": {RunID: "c", Label: "healthy"},
		"d": {RunID: "d", Label: "runaway", RootCause: "error-storm"},
	}
	r := Score(labels, []detect.RunResult{
		{RunID: "a", Verdict: detect.Runaway},
		{RunID: "b", Verdict: detect.Suspicious},
		{RunID: "c", Verdict: detect.Healthy},
		{RunID: "d", Verdict: detect.Runaway, RootCause: detect.CauseErrorStorm},
	})
	want := map[string]ConfounderScore{
		"pagination": {Healthy: 1, Flagged: 1, Runaway: 1, FlaggedRate: 1, RunawayRate: 1},
		"polling":    {Healthy: 2, Flagged: 2, Runaway: 1, FlaggedRate: 1, RunawayRate: 0.5},
		"none":       {Healthy: 1},
	}
	if len(r.Confounders) != len(want) {
		t.Fatalf("confounders %+v", r.Confounders)
	}
	for name, w := range want {
		if r.Confounders[name] != w {
			t.Errorf("%s: %+v, want %+v", name, r.Confounders[name], w)
		}
	}
	if r.FalsePositiveRate != 1.0/3 || r.HealthyFlaggedRate != 2.0/3 {
		t.Fatalf("fp rate %v flagged rate %v", r.FalsePositiveRate, r.HealthyFlaggedRate)
	}
	// No healthy run: nothing was flagged wrongly.
	r = Score(map[string]Label{"d": labels["d"]}, []detect.RunResult{{RunID: "d", Verdict: detect.Runaway}})
	if r.HealthyFlaggedRate != 0 || r.FalsePositiveRate != 0 {
		t.Fatalf("with no healthy run: flagged rate %v, fp rate %v", r.HealthyFlaggedRate, r.FalsePositiveRate)
	}
}

func TestCheckOnlyTheThresholdsSet(t *testing.T) {
	r := Report{Precision: 0.99, Recall: 0.96, RootCauseAccuracy: 0.95, OnsetAccuracy: 0.9}
	checks := r.Check(Thresholds{Precision: 0.97, Recall: 0.97, OnsetAccuracy: 0.9})
	if len(checks) != 3 || !checks[0].OK || checks[1].OK || checks[1].Name != "recall" || !checks[2].OK {
		t.Fatalf("%+v", checks)
	}
	if len(r.Check(Thresholds{})) != 0 {
		t.Fatal("no threshold, no check")
	}
}
