package explain

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/runawayhq/runaway/report"
)

// TextOptions tune the terminal rendering.
type TextOptions struct {
	// Color paints verdict words; the caller decides (--color).
	Color bool
	// Width is the terminal's, which the tables fit by cutting their free
	// text (report.Table.Fit); 0, for a file or a pipe, cuts nothing.
	Width int
}

// maxReasonText bounds a guard's reason in the guards table (runes).
const maxReasonText = 100

// WriteText writes the runs for a terminal, one after the other. Every
// string from the log goes through report.Sanitize: no escape sequence in
// a log reaches the terminal.
func WriteText(w io.Writer, runs []*Run, opts TextOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for k, run := range runs {
		if k > 0 {
			bw.WriteString("\n" + strings.Repeat("=", 72) + "\n\n")
		}
		if err := writeRunText(bw, run, opts); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func writeRunText(w *bufio.Writer, run *Run, opts TextOptions) error {
	res := &run.Result
	s := report.Sanitize
	fmt.Fprintf(w, "Run %s\n", s(run.RunID))
	head := func(label, value string) {
		if label != "" {
			label += ":"
		}
		fmt.Fprintf(w, "  %-10s %s\n", label, value)
	}
	head("Verdict", report.PaintVerdict(res.Verdict, opts.Color)+", root cause "+s(causeName(res.RootCause)))
	if run.Goal != "" {
		head("Goal", s(run.Goal))
	}
	if f := run.primary(); f != nil {
		head("Onset", fmt.Sprintf("step %d (%s %s); loop segment steps %s", res.OnsetStep, s(f.Detector), s(f.Slug), stepSpan(run.Loop.From, run.Loop.To)))
		head("Evidence", s(res.Headline))
		head("Wasted", wasteText(res))
		if m := run.Memory; m != nil {
			head("Memory", s(m.ID)+" contaminated the loop: "+s(memoryText(m)))
		}
		if g := run.Guard; g != nil {
			head("Guard", guardText(g, res))
			head("", "reason: "+s(g.Reason))
			head("", "chosen: "+g.Why)
		} else {
			head("Guard", noGuardText(run))
		}
		head("Fix", s(f.Guard))
	} else {
		head("Evidence", fmt.Sprintf("no loop found in %s steps", report.FormatCount(res.Steps)))
	}
	if run.Undecoded > 0 {
		head("Note", fmt.Sprintf("%d step lines could not be decoded for details; their steps show what the analysis kept", run.Undecoded))
	}
	if run.NotAnalyzed != "" {
		head("Note", s(run.NotAnalyzed))
	}
	if len(run.Gaps) > 0 {
		head("Note", shownText(run))
	}

	w.WriteString("\nTimeline (> marks the loop segment; alike steps in a row are folded):\n")
	if err := timelineText(w, run, opts.Width); err != nil {
		return err
	}
	if err := whysText(w, run, opts.Width); err != nil {
		return err
	}
	if len(res.Findings) > 0 {
		w.WriteString("\nFindings:\n")
		for k := range res.Findings {
			f := &res.Findings[k]
			fmt.Fprintf(w, "  %s %s (%s, %s): %s\n", s(f.Detector), s(f.Slug), f.Severity, s(causeName(f.RootCause)), s(f.Message))
			if e := evidenceText(f); e != "" {
				fmt.Fprintf(w, "      evidence: %s\n", s(e))
			}
			for _, key := range f.Evidence.Keys {
				fmt.Fprintf(w, "      key: %s\n", s(key))
			}
			fmt.Fprintf(w, "      fix: %s\n", s(f.Guard))
		}
	}
	if len(run.Guards) > 0 {
		w.WriteString("\nGuards replayed (STOP: the first step the guard prevents; +N: steps after the onset):\n")
		if err := guardsText(w, run, opts.Width); err != nil {
			return err
		}
	}
	return nil
}

// whysText lists the reasons the steps' results carry, when any does.
func whysText(w *bufio.Writer, run *Run, width int) error {
	groups, more := run.whys()
	if len(groups) == 0 {
		return nil
	}
	w.WriteString("\n" + whyTitle + ":\n")
	t := report.NewTable(report.AlignLeft, report.AlignLeft, report.AlignLeft)
	t.Header("  STEPS", "RESULT", "WHY")
	t.Fit(width, 2) // WHY
	for _, g := range groups {
		mark := "  "
		if g.InLoop {
			mark = "> "
		}
		t.Append(mark+whySteps(g.Steps), report.Sanitize(g.Result), report.Sanitize(g.Why))
	}
	if err := t.Render(w); err != nil {
		return err
	}
	if more > 0 {
		fmt.Fprintf(w, "  ... and %d more reason(s)\n", more)
	}
	return nil
}

func timelineText(w io.Writer, run *Run, width int) error {
	t := report.NewTable(report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignLeft)
	t.Header("  STEP", "TS", "STATE", "CALL", "RESULT", "MEMORY", "NOTE")
	t.Fit(width, 3, 4, 5, 6) // CALL, RESULT, MEMORY, NOTE
	for _, l := range run.lines() {
		mark := "  "
		if l.loop {
			mark = "> "
		}
		if l.gap != "" {
			t.Append(mark+l.steps, "", "", "", "", "", l.gap)
			continue
		}
		t.Append(mark+l.steps, l.ts, orDash(report.Sanitize(l.state)), callCellText(&l),
			report.Sanitize(l.result), report.Sanitize(l.memory), report.Sanitize(strings.Join(l.notes, "; ")))
	}
	return t.Render(w)
}

// callCellText is the call (tool, args, repetitions) or the decision.
func callCellText(l *line) string {
	var s string
	switch {
	case l.tool != "":
		s = report.Sanitize(l.tool) + " " + report.Sanitize(l.args)
	case l.next != "" || l.reason != "":
		s = decisionText(report.Sanitize(l.next), report.Truncate(report.Sanitize(l.reason), maxReason))
	default:
		s = "-"
	}
	if l.reps > 1 && s != "-" {
		s += fmt.Sprintf(" x%d", l.reps)
	}
	return s
}

// decisionText writes a decision from already escaped parts.
func decisionText(next, reason string) string {
	switch {
	case next != "" && reason != "":
		return "next " + next + `: "` + reason + `"`
	case next != "":
		return "next " + next
	}
	return `"` + reason + `"`
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func guardsText(w io.Writer, run *Run, width int) error {
	t := report.NewTable(report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignLeft)
	t.Header("GUARD", "STOP", "VS ONSET", "SAVED", "REASON")
	t.Fit(width, 4) // REASON
	for k := range run.Guards {
		o := &run.Guards[k]
		stop, delay, saved := stopText(o, &run.Result)
		name := o.Name
		if run.Guard != nil && run.Guard.Name == o.Name {
			name += " *"
		}
		reason := "does not stop the run"
		if o.Stopped {
			reason = report.Truncate(report.Sanitize(o.Reason), maxReasonText)
		}
		t.Append(name, stop, delay, saved, reason)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	if run.Guard != nil {
		_, err := io.WriteString(w, "* recommended\n")
		return err
	}
	return nil
}
