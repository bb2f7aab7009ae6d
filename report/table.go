package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
)

// evidenceWidth caps the EVIDENCE column (in runes) so that one verbose
// headline does not push every row past the terminal's edge; the full text is
// in the json formats and in `runaway explain`. Run ids are never cut: people
// copy them into the next command.
const evidenceWidth = 96

// writeTable writes the human report: the summary block, then the flagged
// runs, worst first.
func writeTable(w *bufio.Writer, scan *Scan, opts Options) error {
	writeSummary(w, &scan.Summary, opts)
	w.WriteByte('\n')

	flagged := flaggedRuns(scan.Runs)
	if len(flagged) == 0 {
		_, err := w.WriteString("No runaway or suspicious runs.\n")
		return err
	}
	shown := flagged
	if opts.MaxRows > 0 && len(shown) > opts.MaxRows {
		shown = shown[:opts.MaxRows]
	}
	if err := renderRunTable(w, shown, opts); err != nil {
		return err
	}
	if hidden := len(flagged) - len(shown); hidden > 0 {
		fmt.Fprintf(w, "... and %s more flagged %s not shown (the json and ndjson formats list every run).\n",
			formatCount(int64(hidden)), plural(int64(hidden), "run", "runs"))
	}
	return nil
}

// flaggedRuns returns the runaway and suspicious runs in table order:
// runaway first, then the most wasted steps, then run id for a stable order.
func flaggedRuns(runs []detect.RunResult) []*detect.RunResult {
	var flagged []*detect.RunResult
	for i := range runs {
		if runs[i].Verdict != detect.Healthy {
			flagged = append(flagged, &runs[i])
		}
	}
	slices.SortFunc(flagged, func(a, b *detect.RunResult) int {
		return cmp.Or(
			cmp.Compare(b.Verdict, a.Verdict),
			cmp.Compare(b.WastedSteps, a.WastedSteps),
			strings.Compare(a.RunID, b.RunID),
		)
	})
	return flagged
}

var (
	runTableHeader = []string{"RUN", "VERDICT", "ROOT CAUSE", "ONSET", "STEPS", "WASTED", "EVIDENCE"}
	alignments     = []Align{AlignLeft, AlignLeft, AlignLeft, AlignRight, AlignRight, AlignRight, AlignLeft}
)

func renderRunTable(w io.Writer, runs []*detect.RunResult, opts Options) error {
	table := NewTable(alignments...)
	table.Header(runTableHeader...)
	table.Fit(opts.Width, len(runTableHeader)-1) // EVIDENCE
	for _, r := range runs {
		onset := "-"
		if r.OnsetStep >= 0 {
			onset = fmt.Sprint(r.OnsetStep)
		}
		row := []string{
			sanitize(r.RunID),
			paintVerdict(r.Verdict, opts.Color),
			sanitize(rootCauseLabel(r.RootCause)),
			onset,
			formatCount(r.Steps),
			formatCount(r.WastedSteps) + " (" + formatCost(r.WastedCostUSD, r.CostLogged, r.CostEstimated) + ")",
			truncate(sanitize(r.Headline), evidenceWidth),
		}
		table.Append(row...)
	}
	return table.Render(w)
}

// writeSummary writes the block above the table: what was read, what was
// found, what it cost.
func writeSummary(w *bufio.Writer, s *Summary, opts Options) {
	in := &s.Input
	if s.Partial {
		fmt.Fprintf(w, "PARTIAL REPORT: %s could not be read:\n",
			plural(int64(len(in.FailedSources)), "1 source", formatCount(int64(len(in.FailedSources)))+" sources"))
		for _, src := range in.FailedSources {
			fmt.Fprintf(w, "  %s\n", sanitize(src))
		}
	}

	input := fmt.Sprintf("%s %s", formatCount(int64(in.Files)), plural(int64(in.Files), "file", "files"))
	if in.EmptyFiles > 0 {
		input += fmt.Sprintf(" (%s empty)", formatCount(int64(in.EmptyFiles)))
	}
	if n := int64(len(in.SkippedFiles)); n > 0 {
		// Why each was skipped is on stderr and in json's skipped_files: a
		// file that holds no log, or a hidden directory that does.
		input += fmt.Sprintf(" (%s skipped, each named on stderr)", formatCount(n))
	}
	input += fmt.Sprintf(", %s %s read", formatCount(in.LinesRead), plural(in.LinesRead, "line", "lines"))
	if in.BlankLines > 0 {
		input += fmt.Sprintf(" (%s blank)", formatCount(in.BlankLines))
	}
	if in.LinesRejected > 0 {
		input += fmt.Sprintf(", %s rejected", formatCount(in.LinesRejected))
		if kinds := formatRejectKinds(in.RejectsByKind); kinds != "" {
			input += " (" + kinds + ")"
		}
	} else {
		input += ", none rejected"
	}
	// Not RunsReadAgain: it counts work the scan did, which depends on the
	// order of the input, and the report must not (stderr has a note).
	summaryLine(w, "Input", input)

	steps := formatCount(in.Steps)
	var dups []string
	if in.DuplicateSteps > 0 {
		dups = append(dups, formatCount(in.DuplicateSteps)+" exact "+plural(in.DuplicateSteps, "duplicate", "duplicates")+" dropped")
	}
	if in.ConflictingSteps > 0 {
		dups = append(dups, formatCount(in.ConflictingSteps)+" conflicting "+plural(in.ConflictingSteps, "duplicate", "duplicates")+" kept")
	}
	if len(dups) > 0 {
		steps += " (" + strings.Join(dups, ", ") + ")"
	}
	summaryLine(w, "Steps", steps)
	if line := formatsLine(in.Formats); line != "" {
		summaryLine(w, "Read as", line)
	}

	summaryLine(w, "Runs", fmt.Sprintf("%s scanned: %s %s, %s %s, %s %s",
		formatCount(int64(s.Runs)),
		formatCount(int64(s.Runaway)), paintVerdict(detect.Runaway, opts.Color),
		formatCount(int64(s.Suspicious)), paintVerdict(detect.Suspicious, opts.Color),
		formatCount(int64(s.Healthy)), paintVerdict(detect.Healthy, opts.Color)))

	if causes := formatRootCauses(s.ByRootCause); causes != "" {
		summaryLine(w, "Root causes", causes)
	}

	summaryLine(w, "Wasted", fmt.Sprintf("%s %s, %s %s, %s",
		formatCount(s.WastedSteps), plural(s.WastedSteps, "step", "steps"),
		formatCount(s.WastedTokens), plural(s.WastedTokens, "token", "tokens"),
		summaryCost(s)))
}

// summaryCost is the summary's wasted cost, said as what it is.
func summaryCost(s *Summary) string {
	c := formatCost(s.WastedCostUSD, s.CostLogged, s.CostEstimated)
	if s.CostLogged && s.CostEstimated {
		c += " (partly estimated from token counts and list prices)"
	}
	return c
}

func summaryLine(w *bufio.Writer, label, value string) {
	fmt.Fprintf(w, "%-12s %s\n", label+":", value)
}

// formatRejectKinds lists reject kinds by count, most frequent first, then
// by name, so the order is stable and the biggest problem comes first.
func formatRejectKinds(kinds map[string]int64) string {
	names := make([]string, 0, len(kinds))
	for k, n := range kinds {
		if n > 0 {
			names = append(names, k)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(kinds[b], kinds[a]), strings.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = sanitize(k) + " " + formatCount(kinds[k])
	}
	return strings.Join(parts, ", ")
}

// formatRootCauses lists flagged runs per root cause in detect.RootCauses
// order (the documented report order), then any cause detect does not list,
// by name.
func formatRootCauses(byCause map[detect.RootCause]int) string {
	var causes []detect.RootCause
	for _, c := range detect.RootCauses {
		if byCause[c] > 0 {
			causes = append(causes, c)
		}
	}
	var others []detect.RootCause
	for c, n := range byCause {
		if n > 0 && !slices.Contains(detect.RootCauses, c) {
			others = append(others, c)
		}
	}
	slices.Sort(others)
	causes = append(causes, others...)
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = sanitize(rootCauseLabel(c)) + " " + formatCount(int64(byCause[c]))
	}
	return strings.Join(parts, ", ")
}

// rootCauseLabel names a root cause in the table; a flagged run without one
// should not happen, but must not print as an empty cell.
func rootCauseLabel(c detect.RootCause) string {
	if c == detect.CauseNone {
		return "unknown"
	}
	return string(c)
}

// ANSI SGR codes for the verdict words. Only our own words are painted; text
// from logs is sanitized and never carries escapes.
const (
	ansiReset   = "\x1b[0m"
	ansiBoldRed = "\x1b[1;31m"
	ansiYellow  = "\x1b[33m"
	ansiGreen   = "\x1b[32m"
)

func paintVerdict(v detect.Verdict, color bool) string {
	var word, paint string
	switch v {
	case detect.Runaway:
		word, paint = "runaway", ansiBoldRed
	case detect.Suspicious:
		word, paint = "suspicious", ansiYellow
	case detect.Healthy:
		word, paint = "healthy", ansiGreen
	default:
		return "unknown"
	}
	if !color {
		return word
	}
	return paint + word + ansiReset
}

// formatsLine says which adapter read how many files and steps, "" when
// every step was runaway's own (the common case needs no line).
func formatsLine(formats map[string]FormatRead) string {
	if len(formats) == 0 {
		return ""
	}
	if _, own := formats["jsonl"]; own && len(formats) == 1 {
		return ""
	}
	names := make([]string, 0, len(formats))
	for name := range formats {
		names = append(names, name)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, name := range names {
		fc := formats[name]
		parts[i] = fmt.Sprintf("%s %s %s (%s %s)", name, formatCount(int64(fc.Files)), plural(int64(fc.Files), "file", "files"),
			formatCount(fc.Steps), plural(fc.Steps, "step", "steps"))
	}
	return strings.Join(parts, ", ")
}
