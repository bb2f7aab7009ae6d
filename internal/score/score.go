// Package score compares a scan's verdicts with labels (from `runaway gen`
// or hand-labelled runs): precision and recall of the runaway verdict, the
// rate at which healthy runs are flagged, root-cause accuracy and onset
// accuracy.
//
// It must not import pipeline or cmd: they call it.
package score

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// Label is the truth about one run.
type Label struct {
	RunID      string `json:"run_id"`
	Label      string `json:"label"` // "runaway", "borderline" or "healthy"
	RootCause  string `json:"root_cause"`
	OnsetStep  int64  `json:"onset_step"`
	Confounder string `json:"confounder,omitempty"`
	// Source names where a real run came from (a system, a producer):
	// the report gives each source's figures too.
	Source string `json:"source,omitempty"`
	// Split is the label's part of a corpus ("dev" for tuning, "test" for
	// the figures quoted), which --split selects.
	Split string `json:"split,omitempty"`
	// EndStep and Note: the last step of the stuck stretch and the
	// labeller's sentence, kept for people reading the labels.
	EndStep int64  `json:"end_step,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Report is the score of one scan.
type Report struct {
	Runs int `json:"runs"`
	// Runaway verdict vs runaway label.
	TruePositives  int     `json:"true_positives"`
	FalsePositives int     `json:"false_positives"`
	FalseNegatives int     `json:"false_negatives"`
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	F1             float64 `json:"f1"`
	// HealthyFlagged: labelled healthy runs with any finding (suspicious or runaway).
	Healthy            int     `json:"healthy"`
	HealthyFlagged     int     `json:"healthy_flagged"`
	HealthyFlaggedRate float64 `json:"healthy_flagged_rate"`
	// Over labelled runaway runs that were detected as runaway.
	RootCauseCorrect  int     `json:"root_cause_correct"`
	RootCauseAccuracy float64 `json:"root_cause_accuracy"`
	OnsetWithin2      int     `json:"onset_within_2"`
	OnsetAccuracy     float64 `json:"onset_accuracy"`
	// Confusion[label cause][predicted cause] over labelled runaway runs
	// ("" predicted = not flagged runaway).
	Confusion map[string]map[string]int `json:"confusion"`
	// FlaggedByConfounder counts flagged healthy runs by their confounder
	// label as written ("pagination,polling" for a run with two).
	FlaggedByConfounder map[string]int `json:"flagged_by_confounder"`
	// FalsePositiveRate is the share of labelled healthy runs given the
	// runaway verdict.
	FalsePositiveRate float64 `json:"false_positive_rate"`
	// Confounders scores the healthy runs per confounder, one entry per
	// confounder a run carries ("none" for runs without one).
	Confounders map[string]ConfounderScore `json:"confounders"`
	// Missing counts labelled runs the scan did not see, Unlabelled the reverse.
	Missing    int `json:"missing"`
	Unlabelled int `json:"unlabelled"`
	// FailedSources are the inputs skipped with --keep-going: the score
	// covers the rest. Score leaves it empty; the caller fills it.
	FailedSources []string `json:"failed_sources,omitempty"`
	// Borderline runs are left out of every figure above; how many the scan
	// called runaway and suspicious is reported.
	Borderline        int `json:"borderline"`
	BorderlineRunaway int `json:"borderline_runaway"`
	BorderlineFlagged int `json:"borderline_flagged"`
	// Sources holds the same figures per label source, when labels name
	// their sources.
	Sources map[string]*Report `json:"sources,omitempty"`
	// Disagreements lists the labelled runs (not borderline) where the
	// verdict, its root cause or its onset is not the label's, sorted by
	// run id: the runs to read when a figure is low. Absent when none, and
	// in the per-source reports.
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	// Unnamed counts the disagreements left out by Blind: the figures of a
	// held-out set, without the runs that make them.
	Unnamed int `json:"disagreements_not_named,omitempty"`
}

// Blind leaves out which runs disagree with their labels, keeping how
// many: a held-out set is scored without learning which of its runs the
// verdicts miss, so no rule is later shaped on them.
func (r *Report) Blind() {
	r.Unnamed += len(r.Disagreements)
	r.Disagreements = nil
}

// Disagreement is one labelled run the verdict does not match.
type Disagreement struct {
	RunID  string `json:"run_id"`
	Source string `json:"source,omitempty"`
	// What disagrees: "missed" (labelled runaway, not given the runaway
	// verdict), "false positive" (labelled healthy, given it), or
	// "root cause", "onset" or both, for a runaway run found.
	What    string `json:"what"`
	Label   string `json:"label"`
	Verdict string `json:"verdict"`
	// The label's root cause and onset, and the verdict's (empty and -1
	// for a healthy one).
	LabelCause string `json:"label_root_cause,omitempty"`
	FoundCause string `json:"found_root_cause,omitempty"`
	LabelOnset int64  `json:"label_onset_step"`
	FoundOnset int64  `json:"found_onset_step"`
}

// ConfounderScore is how the healthy runs carrying one confounder fared.
type ConfounderScore struct {
	Healthy int `json:"healthy"`
	// Flagged: suspicious or runaway; Runaway: false positives of the
	// runaway verdict.
	Flagged     int     `json:"flagged"`
	Runaway     int     `json:"runaway"`
	FlaggedRate float64 `json:"flagged_rate"`
	RunawayRate float64 `json:"runaway_rate"`
}

// Score compares results with labels; when labels name their sources, the
// report holds each source's score too.
func Score(labels map[string]Label, results []detect.RunResult) Report {
	s := NewScorer(labels)
	for i := range results {
		s.Add(&results[i])
	}
	return s.Report()
}

// Scorer scores results one at a time, as they are analyzed: it holds the
// labels and counts, never the results, so that scoring a large input
// holds no more than its labels.
type Scorer struct {
	all     *tally
	sources map[string]*tally // by label source; nil when labels name none
}

// tally is the score of one set of labels so far.
type tally struct {
	labels map[string]Label
	seen   map[string]struct{} // the labelled runs scored
	r      Report
	// disagree, set for the whole report's tally, lists the runs whose
	// verdict is not the label's.
	disagree bool
}

func newTally(labels map[string]Label) *tally {
	return &tally{labels: labels, seen: map[string]struct{}{},
		r: Report{Confusion: map[string]map[string]int{}, FlaggedByConfounder: map[string]int{}, Confounders: map[string]ConfounderScore{}}}
}

// NewScorer returns a Scorer of labels.
func NewScorer(labels map[string]Label) *Scorer {
	s := &Scorer{all: newTally(labels)}
	s.all.disagree = true
	bySource := map[string]map[string]Label{}
	for id, l := range labels {
		if l.Source == "" {
			continue
		}
		if bySource[l.Source] == nil {
			bySource[l.Source] = map[string]Label{}
		}
		bySource[l.Source][id] = l
	}
	if len(bySource) > 0 {
		s.sources = map[string]*tally{}
		for src, ls := range bySource {
			s.sources[src] = newTally(ls)
		}
	}
	return s
}

// Add scores one run's result. It keeps nothing of res.
func (s *Scorer) Add(res *detect.RunResult) {
	s.all.add(res)
	if l, ok := s.all.labels[res.RunID]; ok && l.Source != "" {
		s.sources[l.Source].add(res)
	}
}

// Report is the score of the results added.
func (s *Scorer) Report() Report {
	r := s.all.report()
	if s.sources != nil {
		r.Sources = map[string]*Report{}
		for src, t := range s.sources {
			sr := t.report()
			r.Sources[src] = &sr
		}
	}
	return r
}

// SelectSplit keeps the labels of one split ("" keeps all).
func SelectSplit(labels map[string]Label, split string) map[string]Label {
	if split == "" {
		return labels
	}
	out := map[string]Label{}
	for id, l := range labels {
		if l.Split == split {
			out[id] = l
		}
	}
	return out
}

// add scores res against the tally's labels: a run without one is only
// counted.
func (t *tally) add(res *detect.RunResult) {
	l, ok := t.labels[res.RunID]
	if !ok {
		t.r.Unlabelled++
		return
	}
	t.seen[res.RunID] = struct{}{}
	if l.Label == LabelBorderline {
		t.r.Borderline++
		if res.Verdict == detect.Runaway {
			t.r.BorderlineRunaway++
		}
		if res.Verdict != detect.Healthy {
			t.r.BorderlineFlagged++
		}
		return
	}
	t.r.Runs++
	predRunaway := res.Verdict == detect.Runaway
	var what []string
	switch {
	case l.Label == "runaway" && predRunaway:
		t.r.TruePositives++
		if string(res.RootCause) == l.RootCause {
			t.r.RootCauseCorrect++
		} else {
			what = append(what, "root cause")
		}
		if d := res.OnsetStep - l.OnsetStep; d >= -2 && d <= 2 {
			t.r.OnsetWithin2++
		} else {
			what = append(what, "onset")
		}
	case l.Label == "runaway":
		t.r.FalseNegatives++
		what = append(what, "missed")
	case predRunaway:
		t.r.FalsePositives++
		what = append(what, "false positive")
	}
	if t.disagree && len(what) > 0 {
		t.r.Disagreements = append(t.r.Disagreements, Disagreement{RunID: res.RunID, Source: l.Source, What: strings.Join(what, ", "),
			Label: l.Label, Verdict: res.Verdict.String(), LabelCause: l.RootCause, FoundCause: string(res.RootCause),
			LabelOnset: l.OnsetStep, FoundOnset: res.OnsetStep})
	}
	if l.Label == "runaway" {
		pred := ""
		if predRunaway {
			pred = string(res.RootCause)
		}
		if t.r.Confusion[l.RootCause] == nil {
			t.r.Confusion[l.RootCause] = map[string]int{}
		}
		t.r.Confusion[l.RootCause][pred]++
	} else {
		t.r.Healthy++
		t.r.scoreConfounders(l.Confounder, res.Verdict)
		if res.Verdict != detect.Healthy {
			t.r.HealthyFlagged++
			c := l.Confounder
			if c == "" {
				c = "none"
			}
			t.r.FlaggedByConfounder[c]++
		}
	}
}

// report finishes the figures of the tally.
func (t *tally) report() Report {
	r := t.r
	r.Confusion = maps.Clone(r.Confusion)
	r.FlaggedByConfounder = maps.Clone(r.FlaggedByConfounder)
	r.Confounders = maps.Clone(r.Confounders)
	r.Disagreements = slices.Clone(r.Disagreements)
	slices.SortFunc(r.Disagreements, func(a, b Disagreement) int { return strings.Compare(a.RunID, b.RunID) })
	for id := range t.labels {
		if _, ok := t.seen[id]; !ok {
			r.Missing++
		}
	}
	r.Precision = ratio(r.TruePositives, r.TruePositives+r.FalsePositives)
	r.Recall = ratio(r.TruePositives, r.TruePositives+r.FalseNegatives)
	if r.Precision+r.Recall > 0 {
		r.F1 = 2 * r.Precision * r.Recall / (r.Precision + r.Recall)
	}
	r.HealthyFlaggedRate = ratioOr0(r.HealthyFlagged, r.Healthy)
	r.FalsePositiveRate = ratioOr0(r.FalsePositives, r.Healthy)
	for name, c := range r.Confounders {
		c.FlaggedRate, c.RunawayRate = ratioOr0(c.Flagged, c.Healthy), ratioOr0(c.Runaway, c.Healthy)
		r.Confounders[name] = c
	}
	r.RootCauseAccuracy = ratio(r.RootCauseCorrect, r.TruePositives)
	r.OnsetAccuracy = ratio(r.OnsetWithin2, r.TruePositives)
	return r
}

// scoreConfounders counts a healthy run once under each of its confounders.
func (r *Report) scoreConfounders(list string, v detect.Verdict) {
	names := strings.Split(list, ",")
	if list == "" {
		names = []string{"none"}
	}
	for _, name := range names {
		c := r.Confounders[strings.TrimSpace(name)]
		c.Healthy++
		if v != detect.Healthy {
			c.Flagged++
		}
		if v == detect.Runaway {
			c.Runaway++
		}
		r.Confounders[strings.TrimSpace(name)] = c
	}
}

// ratioOr0 is a rate of something bad: 0 of 0 is 0.
func ratioOr0(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// String renders the report for people (and test failures).
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runs %d: precision %.4f recall %.4f F1 %.4f (tp %d fp %d fn %d)\n", r.Runs, r.Precision, r.Recall, r.F1, r.TruePositives, r.FalsePositives, r.FalseNegatives)
	fmt.Fprintf(&b, "healthy flagged %d/%d = %.4f; root cause accuracy %.4f; onset within +-2 steps %.4f\n", r.HealthyFlagged, r.Healthy, r.HealthyFlaggedRate, r.RootCauseAccuracy, r.OnsetAccuracy)
	causes := make([]string, 0, len(r.Confusion))
	for c := range r.Confusion {
		causes = append(causes, c)
	}
	slices.Sort(causes)
	for _, c := range causes {
		preds := make([]string, 0, len(r.Confusion[c]))
		for p := range r.Confusion[c] {
			preds = append(preds, p)
		}
		slices.Sort(preds)
		fmt.Fprintf(&b, "  %-22s ->", c)
		for _, p := range preds {
			name := p
			if name == "" {
				name = "(missed)"
			}
			fmt.Fprintf(&b, " %s:%d", name, r.Confusion[c][p])
		}
		b.WriteByte('\n')
	}
	if len(r.FlaggedByConfounder) > 0 {
		fmt.Fprintf(&b, "  flagged healthy by confounder: %v\n", r.FlaggedByConfounder)
	}
	return b.String()
}
