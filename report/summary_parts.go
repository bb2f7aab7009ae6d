package report

import (
	"bufio"
	"io"

	"github.com/runawayhq/runaway/detect"
)

// SummaryPart is what a Summarizer has counted, in a form that crosses a
// process boundary (it marshals to JSON and back unchanged): parts counted
// apart, in any grouping, merge into the summary of all their runs. A
// pipeline that analyses runs on many workers (runaway-beam) counts each
// worker's runs into a part and merges the parts in one place.
type SummaryPart struct {
	Counts Summary `json:"counts"` // everything but the input and the cost total
	// Costs are the non-zero wasted costs, which Summary adds in ascending
	// order: a float sum in any other order would depend on the grouping.
	Costs []float64 `json:"costs"`
}

// Part returns what a has counted so far; a stays usable.
func (a *Summarizer) Part() SummaryPart {
	c := a.s
	c.ByRootCause = cloneCounts(c.ByRootCause)
	c.RunawayByRootCause = cloneCounts(c.RunawayByRootCause)
	return SummaryPart{Counts: c, Costs: append([]float64(nil), a.costs...)}
}

// Merge adds the runs p counted to a's.
func (a *Summarizer) Merge(p SummaryPart) {
	s, o := &a.s, &p.Counts
	if s.ByRootCause == nil {
		s.ByRootCause = map[detect.RootCause]int{}
		s.RunawayByRootCause = map[detect.RootCause]int{}
	}
	s.Runs += o.Runs
	s.Runaway += o.Runaway
	s.Suspicious += o.Suspicious
	s.Healthy += o.Healthy
	for k, v := range o.ByRootCause {
		s.ByRootCause[k] += v
	}
	for k, v := range o.RunawayByRootCause {
		s.RunawayByRootCause[k] += v
	}
	s.WastedSteps += o.WastedSteps
	s.WastedTokens += o.WastedTokens
	s.CostLogged = s.CostLogged || o.CostLogged
	s.CostEstimated = s.CostEstimated || o.CostEstimated
	a.costs = append(a.costs, p.Costs...)
}

// Merge adds what o read to in: the counts are summed, the lists of
// failed and skipped sources appended in that order.
func (in *InputStats) Merge(o *InputStats) {
	in.Files += o.Files
	in.EmptyFiles += o.EmptyFiles
	in.LinesRead += o.LinesRead
	in.BlankLines += o.BlankLines
	in.LinesRejected += o.LinesRejected
	for k, v := range o.RejectsByKind {
		if in.RejectsByKind == nil {
			in.RejectsByKind = map[string]int64{}
		}
		in.RejectsByKind[k] += v
	}
	in.Steps += o.Steps
	in.DuplicateSteps += o.DuplicateSteps
	in.ConflictingSteps += o.ConflictingSteps
	in.RunsReadAgain += o.RunsReadAgain
	in.FailedSources = append(in.FailedSources, o.FailedSources...)
	in.SkippedFiles = append(in.SkippedFiles, o.SkippedFiles...)
	for k, v := range o.Formats {
		if in.Formats == nil {
			in.Formats = map[string]FormatRead{}
		}
		f := in.Formats[k]
		f.Files += v.Files
		f.Steps += v.Steps
		in.Formats[k] = f
	}
}

// WriteSummaryJSON writes the json document without its runs:
// {"schema_version", "tool", "summary"}, indented as the json format is.
func WriteSummaryJSON(w io.Writer, s Summary) error {
	head, err := encodeJSON(newJSONHead(s))
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(head)
	bw.WriteByte('\n')
	return bw.Flush()
}
