package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/report"
)

// line is one line of the timeline table, in plain text that every format
// escapes its own way: log text (state, call, reason, error types, memory
// ids) is never pre-escaped here.
type line struct {
	row   *Row
	loop  bool
	first bool   // the row's first line (a fold of a block has one line per step of it)
	steps string // "3", "5-14"; "" on a block's next lines
	ts    string
	state string
	// call: tool and args ("" without a call); or the decision.
	tool, args     string
	next, reason   string
	reps           int // > 1: the call or decision is repeated this often
	result, memory string
	notes          []string
	// gap, on the line of a gap, says how many steps it folds; the other
	// cells are empty.
	gap string
}

// maxIDs bounds the memory ids one cell lists.
const maxIDs = 4

// maxReason bounds a decision's reason in the timeline (runes).
const maxReason = 60

// lines lays the run's rows out as table lines.
func (run *Run) lines() []line {
	var out []line
	for k := range run.Rows {
		row := &run.Rows[k]
		if g := row.Gap; g != nil {
			out = append(out, line{row: row, loop: row.InLoop, first: true, steps: stepSpan(g.From, g.To),
				gap: "... " + report.FormatCount(int64(g.Steps)) + " steps folded ..."})
			continue
		}
		for p, pos := range row.Positions {
			s := &run.Steps[pos.Sample]
			l := line{row: row, loop: row.InLoop, first: p == 0, state: s.State, reps: row.Reps}
			if p == 0 {
				l.steps = stepSpan(run.Steps[row.First].Step, run.Steps[row.Last].Step)
				l.ts = run.offset(s)
				l.notes = run.notes(row)
			}
			if s.Tool != "" {
				l.tool, l.args = s.Tool, s.Args
			} else {
				l.next, l.reason = s.NextState, s.Reason
			}
			l.result = resultCell(s, pos, row.Reps)
			l.memory = memoryCell(s, pos, row.Reps)
			out = append(out, l)
		}
	}
	return out
}

func stepSpan(from, to int64) string {
	if from == to {
		return strconv.FormatInt(from, 10)
	}
	return strconv.FormatInt(from, 10) + "-" + strconv.FormatInt(to, 10)
}

// offset is the step's time since the run's first timestamp.
func (run *Run) offset(s *Step) string {
	if !s.HasTS || !run.HasTS {
		return "-"
	}
	return FormatOffset(s.TS - run.FirstTS)
}

// FormatOffset writes a duration in milliseconds the way a timeline reads
// it: +850ms, +2.5s, +1m05s, +2h03m.
func FormatOffset(ms int64) string {
	sign := "+"
	if ms < 0 {
		sign, ms = "-", -ms
	}
	switch {
	case ms == 0:
		return "+0s"
	case ms < 1000:
		return fmt.Sprintf("%s%dms", sign, ms)
	case ms < 60_000:
		s := strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64)
		return sign + strings.TrimSuffix(s, ".0") + "s"
	case ms < 3_600_000:
		return fmt.Sprintf("%s%dm%02ds", sign, ms/60_000, ms/1000%60)
	}
	return fmt.Sprintf("%s%dh%02dm", sign, ms/3_600_000, ms/60_000%60)
}

// resultCell is one step's result, or a fold's results counted.
func resultCell(s *Step, pos Position, reps int) string {
	if reps == 1 {
		l := resultLabel(s.Result)
		if l == "" {
			return "-"
		}
		if s.Result.HasStatus && s.Result.Class != OK {
			l += " (" + strconv.FormatInt(s.Result.Status, 10) + ")"
		}
		return l
	}
	if len(pos.Results) == 0 {
		return "-"
	}
	parts := make([]string, len(pos.Results))
	for k, t := range pos.Results {
		parts[k] = strconv.Itoa(t.N) + " " + t.Label
	}
	return strings.Join(parts, ", ")
}

// memoryCell lists the ids read and written, with their counts in a fold.
func memoryCell(s *Step, pos Position, reps int) string {
	ids := func(ts []Tally) string {
		parts := make([]string, 0, min(len(ts), maxIDs)+1)
		for k, t := range ts {
			if k == maxIDs {
				parts = append(parts, fmt.Sprintf("+%d more", len(ts)-maxIDs))
				break
			}
			if t.N > 1 {
				parts = append(parts, fmt.Sprintf("%s x%d", t.Label, t.N))
			} else {
				parts = append(parts, t.Label)
			}
		}
		return strings.Join(parts, ", ")
	}
	var parts []string
	if len(pos.Reads) > 0 {
		parts = append(parts, "read "+ids(pos.Reads))
	}
	if len(pos.Writes) > 0 {
		w := "wrote " + ids(pos.Writes)
		if len(s.WriteTags) > 0 && reps == 1 {
			w += " [" + strings.Join(s.WriteTags, ", ") + "]"
		}
		parts = append(parts, w)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// notes are what a row means for the loop: onset, the fold, the
// contaminating write, progress, the recommended guard's stop.
func (run *Run) notes(row *Row) []string {
	var notes []string
	first, last := run.Steps[row.First].Step, run.Steps[row.Last].Step
	if run.Loop != nil && run.Result.OnsetStep >= first && run.Result.OnsetStep <= last {
		notes = append(notes, "onset")
	}
	if row.Folded() {
		what := fmt.Sprintf("%d alike steps folded", row.Reps)
		if row.Period > 1 {
			what = fmt.Sprintf("%d-step block x%d folded", row.Period, row.Reps)
		}
		if row.InLoop {
			what = "in the loop: " + what
		}
		if row.Progress > 0 {
			what += fmt.Sprintf(" (%d with a progress event)", row.Progress)
		}
		switch {
		case row.NumbersDiffer:
			what += "; args differ only in their numbers (shown as first logged)"
		case row.NearDuplicates:
			what += "; args differ only once normalised (near-duplicates, shown as first logged)"
		}
		notes = append(notes, what)
	}
	if m := run.Memory; m != nil && m.WrittenAt >= first && m.WrittenAt <= last {
		notes = append(notes, "writes "+m.ID+", the memory that contaminates the loop")
	}
	if !row.Folded() && run.Steps[row.First].Progress {
		notes = append(notes, "progress")
	}
	if g := run.Guard; g != nil && g.StopStep >= first && g.StopStep <= last {
		if row.Folded() {
			notes = append(notes, fmt.Sprintf("%s stops the run at step %d", g.Name, g.StopStep))
		} else {
			notes = append(notes, g.Name+" stops the run here")
		}
	}
	return notes
}

func causeName(c detect.RootCause) string {
	if c == detect.CauseNone {
		return "none"
	}
	return string(c)
}

// wasteText is what the loop cost.
func wasteText(res *detect.RunResult) string {
	return fmt.Sprintf("%s of %s steps, %s tokens, %s (from the onset to the end of the run)",
		report.FormatCount(res.WastedSteps), report.FormatCount(res.Steps),
		report.FormatCount(res.WastedTokens), costText(res, res.WastedCostUSD))
}

// costText is a cost of the run as reports say it: "cost not logged" when
// no step says what it cost, "~$1.23" when estimated from list prices.
func costText(res *detect.RunResult, usd float64) string {
	return report.FormatCost(usd, res.CostLogged, res.CostEstimated)
}

// guardText says what the recommended guard would have done.
func guardText(g *GuardChoice, res *detect.RunResult) string {
	when := "at the onset"
	switch {
	case g.Delay == 1:
		when = "1 step after the onset"
	case g.Delay > 1:
		when = fmt.Sprintf("%d steps after the onset", g.Delay)
	}
	return fmt.Sprintf("%s would have stopped the run at step %d, %s, saving %s steps, %s tokens, %s",
		g.Name, g.StopStep, when, report.FormatCount(g.Saved.Steps), report.FormatCount(g.Saved.Tokens), costText(res, g.Saved.CostUSD))
}

// noGuardText explains a flagged run that no guard stops after its onset.
func noGuardText(run *Run) string {
	return fmt.Sprintf("none of the %d replayed guards stops this run at or after its onset", len(run.Guards))
}

// memoryText describes the contaminating memory.
func memoryText(m *Contamination) string {
	s := fmt.Sprintf("written at step %d", m.WrittenAt)
	if m.Why != "" {
		s += " (" + m.Why + ")"
	}
	return s + fmt.Sprintf(", retrieved at %d of %d steps of the loop", m.Reads, m.LoopSteps)
}

// shownText says, of a run whose timeline has gaps, which steps it shows.
func shownText(run *Run) string {
	return fmt.Sprintf("%s steps: the timeline shows %s of them (the start, the end, the onset and the guard's stop) and folds the others into gaps",
		report.FormatCount(run.Result.Steps), report.FormatCount(int64(len(run.Steps))))
}

// primary is the run's primary finding, or nil.
func (run *Run) primary() *detect.Finding {
	if run.Result.Verdict == detect.Healthy || len(run.Result.Findings) == 0 {
		return nil
	}
	return &run.Result.Findings[0]
}

// evidenceText writes a finding's evidence: step ranges and counts (keys
// are log text, written apart by each format).
func evidenceText(f *detect.Finding) string {
	var parts []string
	if len(f.Evidence.Steps) > 0 {
		rs := make([]string, len(f.Evidence.Steps))
		for k, r := range f.Evidence.Steps {
			rs[k] = stepSpan(r.From, r.To)
		}
		parts = append(parts, "steps "+strings.Join(rs, ", "))
	}
	if len(f.Evidence.Counts) > 0 {
		cs := make([]string, len(f.Evidence.Counts))
		for k, c := range f.Evidence.Counts {
			cs[k] = c.Name + "=" + strconv.FormatInt(c.Value, 10)
		}
		parts = append(parts, strings.Join(cs, " "))
	}
	return strings.Join(parts, "; ")
}

// stopText is a guard's outcome in a few words.
func stopText(o *GuardOutcome, res *detect.RunResult) (stop, delay, saved string) {
	onset := res.OnsetStep
	if !o.Stopped {
		return "-", "-", "-"
	}
	stop = strconv.FormatInt(o.StopStep, 10)
	delay = "-"
	if onset >= 0 {
		delay = fmt.Sprintf("%+d", o.StopStep-onset)
	}
	saved = report.FormatCount(o.Saved.Steps) + " (" + costText(res, o.Saved.CostUSD) + ")"
	return stop, delay, saved
}
