package score

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
	"github.com/runawayhq/runaway/schema"
)

// notRunaway heads the confusion matrix column of labelled runaway runs
// that did not get the runaway verdict.
const notRunaway = "not runaway"

// WriteTable writes the score for people: the headline figures, the
// root-cause confusion matrix, the healthy runs per confounder, and the
// checks. width is the terminal's, which the tables fit (0, for a file or
// a pipe: no limit): they are figures, which are never cut, so a table
// too wide is stacked, each part led by the row's name
// (report.Table.Stack).
func WriteTable(out io.Writer, r Report, checks []Check, width int) error {
	w := bufio.NewWriter(out)
	if len(r.FailedSources) > 0 {
		fmt.Fprintf(w, "PARTIAL REPORT: %d input(s) could not be read:\n", len(r.FailedSources))
		for _, f := range r.FailedSources {
			fmt.Fprintf(w, "  %s\n", report.Sanitize(f))
		}
	}
	fmt.Fprintf(w, "Scored %d labelled runs: %d runaway, %d healthy (%d runs in the logs without a label, %d labels without a run).\n\n",
		r.Runs, r.TruePositives+r.FalseNegatives, r.Healthy, r.Unlabelled, r.Missing)
	fmt.Fprintf(w, "Runaway verdict  precision %.4f  recall %.4f  F1 %.4f  (TP %d, FP %d, FN %d)\n",
		r.Precision, r.Recall, r.F1, r.TruePositives, r.FalsePositives, r.FalseNegatives)
	fmt.Fprintf(w, "Healthy runs     flagged (suspicious or runaway) %d/%d = %s; runaway (false positives) %d/%d = %s\n",
		r.HealthyFlagged, r.Healthy, pct(r.HealthyFlaggedRate), r.FalsePositives, r.Healthy, pct(r.FalsePositiveRate))
	fmt.Fprintf(w, "Root cause       accuracy %.4f (%d/%d runaway runs found)\n", r.RootCauseAccuracy, r.RootCauseCorrect, r.TruePositives)
	fmt.Fprintf(w, "Onset            within +-2 steps of the label %.4f (%d/%d)\n", r.OnsetAccuracy, r.OnsetWithin2, r.TruePositives)
	if r.Borderline > 0 {
		fmt.Fprintf(w, "Borderline runs  %d, left out of the figures above: %d given the runaway verdict, %d flagged (suspicious or runaway)\n",
			r.Borderline, r.BorderlineRunaway, r.BorderlineFlagged)
	}
	w.WriteByte('\n')
	if len(r.Sources) > 0 {
		if err := sourceTable(w, r, width); err != nil {
			return err
		}
		w.WriteByte('\n')
	}
	if err := confusionTable(w, r, width); err != nil {
		return err
	}
	w.WriteByte('\n')
	if err := confounderTable(w, r, width); err != nil {
		return err
	}
	if err := disagreementTable(w, r, width); err != nil {
		return err
	}
	if len(checks) > 0 {
		w.WriteString("\nChecks:\n")
		for _, c := range checks {
			verdict := "ok"
			if !c.OK {
				verdict = "FAILED"
			}
			fmt.Fprintf(w, "  %-20s %.4f >= %.4f  %s\n", c.Name, c.Value, c.Min, verdict)
		}
	}
	return w.Flush()
}

// causeOrder lists the causes of a confusion map: the known ones in report
// order, then any other, sorted.
func causeOrder(seen map[string]bool) []string {
	var out []string
	for _, c := range detect.RootCauses {
		if seen[string(c)] {
			out = append(out, string(c))
			delete(seen, string(c))
		}
	}
	var rest []string
	for c := range seen {
		rest = append(rest, c)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func confusionTable(w io.Writer, r Report, width int) error {
	labelled, predicted := map[string]bool{}, map[string]bool{}
	missed := false
	for l, row := range r.Confusion {
		labelled[l] = true
		for p := range row {
			if p == "" {
				missed = true
			} else {
				predicted[p] = true
			}
		}
	}
	rows := causeOrder(labelled)
	if len(rows) == 0 {
		_, err := io.WriteString(w, "No labelled runaway run.\n")
		return err
	}
	cols := causeOrder(predicted)
	header := append([]string{"LABELLED CAUSE", "RUNS"}, cols...)
	if missed {
		header = append(header, notRunaway)
	}
	header = append(header, "CORRECT")
	t := newTable(len(header), width)
	t.Header(header...)
	for _, l := range rows {
		total := 0
		for _, n := range r.Confusion[l] {
			total += n
		}
		row := []string{l, strconv.Itoa(total)}
		for _, p := range cols {
			row = append(row, strconv.Itoa(r.Confusion[l][p]))
		}
		if missed {
			row = append(row, strconv.Itoa(r.Confusion[l][""]))
		}
		row = append(row, pct(ratioOr0(r.Confusion[l][l], total)))
		t.Append(row...)
	}
	return t.Render(w)
}

func confounderTable(w io.Writer, r Report, width int) error {
	if len(r.Confounders) == 0 {
		_, err := io.WriteString(w, "No labelled healthy run.\n")
		return err
	}
	names := make([]string, 0, len(r.Confounders))
	for n := range r.Confounders {
		names = append(names, n)
	}
	slices.Sort(names)
	t := newTable(6, width)
	t.Header("CONFOUNDER (HEALTHY RUNS)", "RUNS", "FLAGGED", "FLAGGED RATE", "RUNAWAY", "RUNAWAY RATE")
	for _, n := range names {
		c := r.Confounders[n]
		t.Append(n, strconv.Itoa(c.Healthy), strconv.Itoa(c.Flagged), pct(c.FlaggedRate), strconv.Itoa(c.Runaway), pct(c.RunawayRate))
	}
	return t.Render(w)
}

// maxDisagreementsListed bounds the runs the table lists as disagreeing
// with their labels; json lists them all.
const maxDisagreementsListed = 20

// disagreementTable lists the runs where the verdict is not the label's:
// what to read first when a figure is low.
func disagreementTable(w *bufio.Writer, r Report, width int) error {
	if r.Unnamed > 0 {
		fmt.Fprintf(w, "\nRuns where the verdict is not the label's: %d (not named: --blind)\n", r.Unnamed)
		return nil
	}
	if len(r.Disagreements) == 0 {
		return nil
	}
	listed := r.Disagreements[:min(len(r.Disagreements), maxDisagreementsListed)]
	fmt.Fprintf(w, "\nRuns where the verdict is not the label's: %d", len(r.Disagreements))
	if len(listed) < len(r.Disagreements) {
		fmt.Fprintf(w, " (the first %d by run id; --format json lists them all)", len(listed))
	}
	w.WriteString(":\n")
	onset := func(s int64) string {
		if s < 0 {
			return "-"
		}
		return strconv.FormatInt(s, 10)
	}
	cause := func(c string) string { return cmp.Or(c, "-") }
	// Led by the run (never cut: people copy it into explain); on a
	// narrow terminal the other columns are stacked under it.
	t := report.NewTable(report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight)
	t.Header("RUN", "DISAGREES ON", "LABEL", "VERDICT", "CAUSE: LABEL / FOUND", "ONSET: LABEL", "FOUND")
	t.Stack(width, 1)
	for _, d := range listed {
		t.Append(report.Sanitize(d.RunID), d.What, d.Label, d.Verdict, cause(d.LabelCause)+" / "+cause(d.FoundCause), onset(d.LabelOnset), onset(d.FoundOnset))
	}
	return t.Render(w)
}

// sourceTable gives each label source's figures, so a detector that does
// well on one system cannot hide that it fails on another.
func sourceTable(w io.Writer, r Report, width int) error {
	names := make([]string, 0, len(r.Sources))
	for n := range r.Sources {
		names = append(names, n)
	}
	slices.Sort(names)
	t := newTable(10, width)
	t.Header("SOURCE", "RUNAWAY", "BORDERLINE", "HEALTHY", "PRECISION", "RECALL", "ROOT CAUSE", "ONSET +-2", "FP", "BORDERLINE AS RUNAWAY")
	for _, n := range names {
		s := r.Sources[n]
		t.Append(n, strconv.Itoa(s.TruePositives+s.FalseNegatives), strconv.Itoa(s.Borderline), strconv.Itoa(s.Healthy),
			fmt4(s.Precision), fmt4(s.Recall), fmt4(s.RootCauseAccuracy), fmt4(s.OnsetAccuracy),
			strconv.Itoa(s.FalsePositives), strconv.Itoa(s.BorderlineRunaway))
	}
	return t.Render(w)
}

func fmt4(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 2, 64) + "%" }

// newTable is the scan report's style: borderless, ASCII, the first column
// left-aligned and the numbers right-aligned, stacked to fit width with
// the first column, the row's name, in every part.
func newTable(cols, width int) *report.Table {
	align := make([]report.Align, cols)
	for k := range align {
		align[k] = report.AlignRight
	}
	align[0] = report.AlignLeft
	t := report.NewTable(align...)
	t.Stack(width, 1)
	return t
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// WriteJSON writes the score as one indented document with the output
// schema version; checks is omitted when no threshold was set.
func WriteJSON(w io.Writer, r Report, checks []Check) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		SchemaVersion string   `json:"schema_version"`
		Tool          jsonTool `json:"tool"`
		Score         Report   `json:"score"`
		Checks        []Check  `json:"checks,omitempty"`
	}{schema.OutputVersion, jsonTool{"runaway", schema.ProductVersion}, r, checks})
}
