package replay

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
)

// reasonWidth caps the REASON column (in runes); json has the full text.
const reasonWidth = 100

// TableOptions tune the human report.
type TableOptions struct {
	// Examples is how many stopped healthy and suspicious runs to list per
	// guard (0: none); the json format lists them all.
	Examples int
	// Width is the terminal's, which the tables fit (0, for a file or a
	// pipe: no limit). The tables of figures, one row per guard, are
	// stacked (report.Table.Stack): they are numbers, which are never cut,
	// and a row without its guard's name means nothing. The examples'
	// REASON is cut as scan's EVIDENCE is; their run ids never are.
	Width int
}

// WriteTable writes the human report: what the runs spent, one row per
// guard, then examples of the runs each guard would have stopped wrongly.
func WriteTable(out io.Writer, rep *Report, opts TableOptions) error {
	w := bufio.NewWriter(out)
	writeHeader(w, rep)
	w.WriteByte('\n')
	labels := rep.Truth == "labels"
	if err := guardTable(w, rep, labels, opts.Width); err != nil {
		return err
	}
	w.WriteString("\nRUNAWAY STOPPED: runaway runs the guard stops, of all runaway runs. DELAY: median stop step minus onset\n" +
		"step over those runs (negative: before the loop began). SAVED: from the stop step to the end of the\n" +
		"stopped runs, inclusive; % of what runaway runs spent from their onsets on (over 100%: honest work cut\n" +
		"too). HEALTHY STOPPED: false positives.\n")
	if causes := rep.Runs.Runaway.ByCause; len(causes) > 0 {
		w.WriteString("\nRunaway runs stopped, by root cause:\n")
		if err := breakdownTable(w, rep, causes, func(g GuardReport) map[string]int { return g.Runaway.StoppedByCause }, opts.Width); err != nil {
			return err
		}
	}
	if confs := rep.Runs.Healthy.ByConfounder; len(confs) > 0 {
		w.WriteString("\nHealthy runs stopped, by confounder (a run may have two):\n")
		if err := breakdownTable(w, rep, confs, func(g GuardReport) map[string]int { return g.Healthy.StoppedByConfounder }, opts.Width); err != nil {
			return err
		}
	}
	if opts.Examples > 0 {
		if err := exampleTable(w, rep, opts.Examples, labels, opts.Width); err != nil {
			return err
		}
	}
	return w.Flush()
}

// breakdownTable writes one row per guard and one column per key of all:
// root causes in report order, other keys sorted.
func breakdownTable(w io.Writer, rep *Report, all map[string]int, of func(GuardReport) map[string]int, width int) error {
	var keys []string
	for _, c := range detect.RootCauses {
		if _, ok := all[string(c)]; ok {
			keys = append(keys, string(c))
		}
	}
	var rest []string
	for k := range all {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	keys = append(keys, rest...)
	header, runs := []string{"GUARD"}, []string{"(runs)"}
	align := []report.Align{report.AlignLeft}
	for _, k := range keys {
		header = append(header, sanitize(k))
		runs = append(runs, count(int64(all[k])))
		align = append(align, report.AlignRight)
	}
	t := newTable(align)
	t.Stack(width, 1)
	t.Header(header...)
	t.Append(runs...)
	for _, g := range rep.Guards {
		row := []string{sanitize(g.Name)}
		for _, k := range keys {
			row = append(row, count(int64(of(g)[k])))
		}
		t.Append(row...)
	}
	return t.Render(w)
}

func writeHeader(w *bufio.Writer, rep *Report) {
	if len(rep.FailedSources) > 0 {
		fmt.Fprintf(w, "PARTIAL REPORT: %d input(s) could not be read:\n", len(rep.FailedSources))
		for _, f := range rep.FailedSources {
			fmt.Fprintf(w, "  %s\n", sanitize(f))
		}
	}
	r := rep.Runs
	if rep.Truth == "labels" {
		fmt.Fprintf(w, "Guard replay over %s runs. Truth: the labels (%s runaway, %s healthy)",
			count(int64(r.Total)), count(int64(r.Runaway.Runs)), count(int64(r.Healthy.Runs)))
		if r.Unlabelled > 0 || r.Missing > 0 {
			fmt.Fprintf(w, "; %s runs without a label skipped, %s labelled runs not in the logs", count(int64(r.Unlabelled)), count(int64(r.Missing)))
		}
		w.WriteString(".\n")
	} else {
		fmt.Fprintf(w, "Guard replay over %s runs. Truth: runaway's verdicts (%s runaway, %s suspicious, %s healthy).\n",
			count(int64(r.Total)), count(int64(r.Runaway.Runs)), count(int64(r.Suspicious.Runs)), count(int64(r.Healthy.Runs)))
	}
	a := r.Runaway.Amount
	fmt.Fprintf(w, "Runaway runs spent %s steps, %s tokens, %s", count(a.Steps), count(a.Tokens), costOf(rep, a.CostUSD))
	if o := r.Runaway.AfterOnset; o != nil {
		fmt.Fprintf(w, "; from their onsets on, %s steps, %s tokens, %s", count(o.Steps), count(o.Tokens), costOf(rep, o.CostUSD))
	}
	w.WriteString(".\n")
}

func guardTable(w io.Writer, rep *Report, labels bool, width int) error {
	header := []string{"GUARD", "RUNAWAY STOPPED", "MISSED", "DELAY", "SAVED STEPS", "SAVED TOKENS", "SAVED COST", "HEALTHY STOPPED"}
	align := []report.Align{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight}
	if !labels {
		header = append(header, "SUSPICIOUS STOPPED")
		align = append(align, report.AlignRight)
	}
	t := newTable(align)
	t.Stack(width, 1)
	t.Header(header...)
	onset := rep.Runs.Runaway.AfterOnset
	if onset == nil {
		onset = &Amount{}
	}
	for _, g := range rep.Guards {
		ra := g.Runaway
		delay := "-"
		if ra.Stopped > 0 {
			delay = signed(ra.Delay.Median)
		}
		row := []string{
			sanitize(g.Name),
			fraction(ra.Stopped, ra.Runs),
			count(int64(ra.Missed)),
			delay,
			count(ra.Saved.Steps) + " (" + percent(float64(ra.Saved.Steps), float64(onset.Steps)) + ")",
			count(ra.Saved.Tokens) + " (" + percent(float64(ra.Saved.Tokens), float64(onset.Tokens)) + ")",
			savedCost(rep, ra.Saved.CostUSD, onset.CostUSD),
			fraction(g.Healthy.Stopped, g.Healthy.Runs),
		}
		if !labels {
			row = append(row, fraction(g.Suspicious.Stopped, g.Suspicious.Runs))
		}
		t.Append(row...)
	}
	return t.Render(w)
}

// fraction writes "n/of (p%)".
func fraction(n, of int) string {
	return count(int64(n)) + "/" + count(int64(of)) + " (" + percent(float64(n), float64(of)) + ")"
}

func exampleTable(w *bufio.Writer, rep *Report, max int, labels bool, width int) error {
	type row struct {
		guard, class string
		s            Stop
	}
	var rows []row
	for _, g := range rep.Guards {
		for k, s := range g.Healthy.Stops {
			if k == max {
				break
			}
			rows = append(rows, row{g.Name, "healthy", s})
		}
		for k, s := range g.Suspicious.Stops {
			if k == max {
				break
			}
			rows = append(rows, row{g.Name, "suspicious", s})
		}
	}
	if len(rows) == 0 {
		w.WriteString("\nNo healthy or suspicious run stopped by any guard.\n")
		return nil
	}
	what := "Healthy and suspicious runs"
	if labels {
		what = "Healthy runs"
	}
	fmt.Fprintf(w, "\n%s stopped (the first %d per guard by run id; --format json lists them all):\n", what, max)
	t := newTable([]report.Align{report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignLeft})
	t.Fit(width, 4) // REASON
	t.Header("GUARD", "RUN", "TRUTH", "STOP STEP", "REASON")
	for _, r := range rows {
		t.Append(sanitize(r.guard), sanitize(r.s.RunID), r.class,
			strconv.FormatInt(r.s.StopStep, 10), truncate(sanitize(r.s.Reason), reasonWidth))
	}
	return t.Render(w)
}

func newTable(align []report.Align) *report.Table { return report.NewTable(align...) }
