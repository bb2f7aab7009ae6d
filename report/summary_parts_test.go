package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// Runs counted in parts on separate workers, each part sent as JSON, must
// summarize to exactly what one Summarizer over all of them gives, however
// the runs were split: runaway-beam's summary depends on it.
func TestSummaryPartsMergeToTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var runs []detect.RunResult
	for i := range 300 {
		runs = append(runs, detect.RunResult{
			RunID: string(rune('a' + i%26)), Verdict: detect.Verdict(i % 3),
			RootCause: detect.RootCauses[i%len(detect.RootCauses)], WastedSteps: int64(i), WastedTokens: int64(7 * i),
			WastedCostUSD: rng.Float64() * float64(i%5), CostLogged: i == 17, CostEstimated: i == 200,
		})
	}
	in := InputStats{Files: 2, FailedSources: []string{"b: gone"}}
	want := Summarize(in, runs)
	for round := range 10 {
		rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
		var whole Summarizer
		for rest := runs; len(rest) > 0; {
			n := 1 + rng.IntN(len(rest))
			var part Summarizer
			for i := range rest[:n] {
				part.Add(&rest[i])
			}
			rest = rest[n:]
			b, err := json.Marshal(part.Part())
			if err != nil {
				t.Fatal(err)
			}
			var p SummaryPart
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			whole.Merge(p)
		}
		if got := whole.Summary(in); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: merged parts =\n%+v\nwant\n%+v", round, got, want)
		}
	}
}

// InputStats merged per source add up, lists kept in the order merged.
func TestInputStatsMerge(t *testing.T) {
	var in InputStats
	in.Merge(&InputStats{Files: 1, LinesRead: 10, Steps: 9, LinesRejected: 1, RejectsByKind: map[string]int64{"malformed_json": 1},
		FailedSources: []string{"a: x"}, Formats: map[string]FormatRead{"jsonl": {Files: 1, Steps: 9}}})
	in.Merge(&InputStats{Files: 1, EmptyFiles: 1, BlankLines: 2, DuplicateSteps: 3, ConflictingSteps: 1,
		FailedSources: []string{"b: y"}, SkippedFiles: []string{"c: z"}, Formats: map[string]FormatRead{"jsonl": {Files: 1, Steps: 4}, "otel": {Files: 1, Steps: 2}}})
	want := InputStats{Files: 2, EmptyFiles: 1, LinesRead: 10, BlankLines: 2, LinesRejected: 1, RejectsByKind: map[string]int64{"malformed_json": 1},
		Steps: 9, DuplicateSteps: 3, ConflictingSteps: 1, FailedSources: []string{"a: x", "b: y"}, SkippedFiles: []string{"c: z"},
		Formats: map[string]FormatRead{"jsonl": {Files: 2, Steps: 13}, "otel": {Files: 1, Steps: 2}}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("merged =\n%+v\nwant\n%+v", in, want)
	}
}

// The summary document is the json document without its runs.
func TestSummaryJSONIsTheDocumentHead(t *testing.T) {
	scan := &Scan{Summary: Summarize(InputStats{Files: 1}, []detect.RunResult{{RunID: "a", Verdict: detect.Runaway, RootCause: detect.CauseToolRetryLoop}})}
	var doc, head bytes.Buffer
	if err := Write(&doc, "json", scan, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummaryJSON(&head, scan.Summary); err != nil {
		t.Fatal(err)
	}
	var d, h map[string]json.RawMessage
	if err := json.Unmarshal(doc.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(head.Bytes(), &h); err != nil {
		t.Fatal(err)
	}
	delete(d, "runs")
	if !reflect.DeepEqual(d, h) {
		t.Errorf("summary document %s\nis not the json document's head %s", head.Bytes(), doc.Bytes())
	}
	if !bytes.Contains(doc.Bytes(), bytes.TrimSuffix(head.Bytes(), []byte("\n}\n"))) {
		t.Errorf("the summary document's bytes are not those of the json document's head")
	}
}
