package explain

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/runawayhq/runaway/report"
)

// WriteMarkdown writes each run as a post-mortem section for an incident
// document: summary, timeline, evidence, recommended guard. Log text is
// escaped (report.MarkdownText) or in code spans (report.MarkdownCode):
// nothing from a log becomes a link, an image, HTML or a table cell.
func WriteMarkdown(w io.Writer, runs []*Run) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for k, run := range runs {
		if k > 0 {
			bw.WriteString("\n")
		}
		writeRunMarkdown(bw, run)
	}
	return bw.Flush()
}

// The escapers: text, text in a table cell, a code span, a code span in
// a table cell.
var (
	mdText     = report.MarkdownText
	mdCellText = report.MarkdownCell
	mdCode     = func(s string) string { return report.MarkdownCode(s, false) }
	mdCellCode = func(s string) string { return report.MarkdownCode(s, true) }
)

func writeRunMarkdown(w *bufio.Writer, run *Run) {
	res := &run.Result
	fmt.Fprintf(w, "## Post-mortem: run %s\n\n", mdCode(run.RunID))

	w.WriteString("### Summary\n\n| | |\n|---|---|\n")
	row := func(label, value string) { fmt.Fprintf(w, "| %s | %s |\n", label, value) }
	row("Verdict", "**"+mdCellText(res.Verdict.String())+"**")
	row("Root cause", mdCellText(causeName(res.RootCause)))
	if run.Goal != "" {
		row("Goal", mdCellText(run.Goal))
	}
	f := run.primary()
	if f != nil {
		row("Onset", fmt.Sprintf("step %d (%s %s); loop segment steps %s", res.OnsetStep, mdCellText(f.Detector), mdCellText(f.Slug), mdCellText(stepSpan(run.Loop.From, run.Loop.To))))
		row("Evidence", mdCellText(res.Headline))
		row("Wasted", mdCellText(wasteText(res)))
		if m := run.Memory; m != nil {
			row("Contaminating memory", mdCellCode(m.ID)+" "+mdCellText(memoryText(m)))
		}
		if g := run.Guard; g != nil {
			row("Guard that would have stopped it", mdCellText(guardText(g, res)))
		} else {
			row("Guard that would have stopped it", mdCellText(noGuardText(run)))
		}
	} else {
		row("Evidence", mdCellText(fmt.Sprintf("no loop found in %d steps", res.Steps)))
	}
	if run.NotAnalyzed != "" {
		row("Note", mdText(run.NotAnalyzed))
	}
	if len(run.Gaps) > 0 {
		row("Note", mdText(shownText(run)))
	}

	w.WriteString("\n### Timeline\n\n")
	w.WriteString("▶ marks the loop segment; alike steps in a row are folded into one line (docs/explain.md).\n\n")
	w.WriteString("| | step | ts | state | call | result | memory | note |\n|---|--:|--:|---|---|---|---|---|\n")
	for _, l := range run.lines() {
		mark := ""
		if l.loop {
			mark = "▶"
		}
		if l.gap != "" {
			fmt.Fprintf(w, "| %s | %s | | | | | | %s |\n", mark, mdCellText(l.steps), mdCellText(l.gap))
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", mark, mdCellText(l.steps), mdCellText(l.ts), mdCellText(l.state),
			callCellMarkdown(&l), mdCellText(l.result), mdCellText(l.memory), mdCellText(strings.Join(l.notes, "; ")))
	}

	if groups, more := run.whys(); len(groups) > 0 {
		w.WriteString("\n" + whyTitle + ":\n\n| | steps | result | why |\n|---|---|---|---|\n")
		for _, g := range groups {
			mark := ""
			if g.InLoop {
				mark = "▶"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mark, mdCellText(whySteps(g.Steps)), mdCellText(g.Result), mdCellText(g.Why))
		}
		if more > 0 {
			fmt.Fprintf(w, "\n... and %d more reason(s).\n", more)
		}
	}

	w.WriteString("\n### Evidence\n\n")
	if len(res.Findings) == 0 {
		w.WriteString("No detector fired.\n")
	}
	for k := range res.Findings {
		f := &res.Findings[k]
		fmt.Fprintf(w, "- **%s** %s (%s, %s): %s", mdText(f.Detector), mdText(f.Slug), mdText(f.Severity.String()), mdText(causeName(f.RootCause)), mdText(f.Message))
		if e := evidenceText(f); e != "" {
			fmt.Fprintf(w, "  \n  evidence: %s", mdText(e))
		}
		if len(f.Evidence.Keys) > 0 {
			keys := make([]string, len(f.Evidence.Keys))
			for i, key := range f.Evidence.Keys {
				keys[i] = mdCode(key)
			}
			fmt.Fprintf(w, "  \n  keys: %s", strings.Join(keys, ", "))
		}
		fmt.Fprintf(w, "  \n  fix: %s\n", mdText(f.Guard))
	}
	if m := run.Memory; m != nil {
		fmt.Fprintf(w, "- **Contaminating memory** %s: %s\n", mdCode(m.ID), mdText(memoryText(m)))
	}
	if len(run.Guards) > 0 {
		w.WriteString("\nGuards replayed (stop: the first step the guard prevents; vs onset: steps after the onset):\n\n")
		w.WriteString("| guard | stop | vs onset | saved | reason |\n|---|--:|--:|--:|---|\n")
		for k := range run.Guards {
			o := &run.Guards[k]
			stop, delay, saved := stopText(o, res)
			name := mdCellText(o.Name)
			if run.Guard != nil && run.Guard.Name == o.Name {
				name = "**" + name + "** (recommended)"
			}
			reason := mdCellText("does not stop the run")
			if o.Stopped {
				reason = mdCellText(o.Reason)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", name, mdCellText(stop), mdCellText(delay), mdCellText(saved), reason)
		}
	}

	w.WriteString("\n### Recommended guard\n\n")
	switch g := run.Guard; {
	case f == nil:
		w.WriteString("None: the run is healthy.\n")
	case g != nil:
		fmt.Fprintf(w, "**%s**: %s.\n\n", mdText(g.Name), mdText(guardText(g, res)))
		fmt.Fprintf(w, "- its reason: %s\n- chosen: %s\n- the fix the report recommends: %s\n", mdText(g.Reason), mdText(g.Why), mdText(f.Guard))
	default:
		fmt.Fprintf(w, "%s.\n\n- the fix the report recommends: %s\n", mdText(noGuardText(run)), mdText(f.Guard))
	}
}

// callCellMarkdown puts the call in a code span and the decision reason in
// quotes, escaped.
func callCellMarkdown(l *line) string {
	var s string
	switch {
	case l.tool != "":
		s = mdCellCode(l.tool + " " + l.args)
	case l.next != "" || l.reason != "":
		s = decisionText(mdCellText(l.next), mdCellText(truncateRunes(l.reason, maxReason)))
	default:
		return "-"
	}
	if l.reps > 1 {
		s += fmt.Sprintf(" x%d", l.reps)
	}
	return s
}

// truncateRunes cuts raw log text before it is escaped, so an escape is
// never cut in half.
func truncateRunes(s string, n int) string {
	return report.Truncate(s, n)
}
