package report

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

func TestSummarize(t *testing.T) {
	runs := []detect.RunResult{
		{RunID: "a", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop, WastedSteps: 10, WastedTokens: 100, WastedCostUSD: 1.5},
		{RunID: "b", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop, WastedSteps: 5, WastedTokens: 50, WastedCostUSD: 0.25},
		{RunID: "c", Verdict: detect.Suspicious, RootCause: detect.CauseEmptyResultLoop, WastedSteps: 2, WastedTokens: 20, WastedCostUSD: 0.125},
		{RunID: "d", Verdict: detect.Healthy},
		{RunID: "e", Verdict: detect.Healthy},
	}
	in := InputStats{Files: 3, FailedSources: []string{"x: gone"}}
	got := Summarize(in, runs)
	want := Summary{
		Input: in, Partial: true,
		Runs: 5, Runaway: 2, Suspicious: 1, Healthy: 2,
		ByRootCause:        map[detect.RootCause]int{detect.CauseToolRetryLoop: 2, detect.CauseEmptyResultLoop: 1},
		RunawayByRootCause: map[detect.RootCause]int{detect.CauseToolRetryLoop: 2},
		WastedSteps:        17,
		WastedTokens:       170, WastedCostUSD: 1.875,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize =\n%+v\nwant\n%+v", got, want)
	}
	if s := Summarize(InputStats{}, nil); s.Partial || s.Runs != 0 || s.ByRootCause == nil || s.RunawayByRootCause == nil {
		t.Errorf("empty summary = %+v", s)
	}
}

// Results merged from any grouping of the input arrive in any order; the
// summary, float total included, must not depend on it.
func TestSummarizeIgnoresRunOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []detect.RunResult
	for i := range 500 {
		runs = append(runs, detect.RunResult{
			RunID: string(rune('a' + i%26)), Verdict: detect.Verdict(i % 3),
			RootCause: detect.RootCauses[i%len(detect.RootCauses)], WastedSteps: int64(i),
			WastedCostUSD: rng.Float64() * 1e-3 * float64(i%7+1) * float64(i),
		})
	}
	want := Summarize(InputStats{}, runs)
	for range 20 {
		rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
		if got := Summarize(InputStats{}, runs); !reflect.DeepEqual(got, want) {
			t.Fatalf("summary depends on run order: cost %.17g vs %.17g", got.WastedCostUSD, want.WastedCostUSD)
		}
	}
}

// A Summarizer fed the runs one at a time, as a streaming scan does, gives
// the same summary as Summarize, and a summary it returned does not change
// when more runs arrive.
func TestSummarizerMatchesSummarize(t *testing.T) {
	runs := sampleScan().Runs
	in := InputStats{Files: 1, LinesRead: 89}
	var acc Summarizer
	acc.Add(&runs[0])
	early := acc.Summary(in)
	earlyCopy := Summarize(in, runs[:1])
	for i := 1; i < len(runs); i++ {
		acc.Add(&runs[i])
	}
	if got, want := acc.Summary(in), Summarize(in, runs); !reflect.DeepEqual(got, want) {
		t.Errorf("Summarizer =\n%+v\nSummarize =\n%+v", got, want)
	}
	if !reflect.DeepEqual(early, earlyCopy) {
		t.Errorf("a returned summary changed after more runs were added:\n%+v\nwant\n%+v", early, earlyCopy)
	}
}
