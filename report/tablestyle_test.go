package report

import (
	"strings"
	"testing"
)

// Columns line up on the terminal whatever the cells hold: wide CJK
// characters take two columns, color sequences none, and a right-aligned
// column pads on the left; no line ends in blanks.
func TestTableAlignsWideAndColoredCells(t *testing.T) {
	tab := NewTable(AlignLeft, AlignRight, AlignLeft)
	tab.Header("RUN", "STEPS", "NOTE")
	tab.Append("運用-1", "7", "\x1b[31mred\x1b[0m")
	tab.Append("run-22", "1234", "")
	var b strings.Builder
	if err := tab.Render(&b); err != nil {
		t.Fatal(err)
	}
	want := "RUN     STEPS  NOTE\n" +
		"---------------------\n" +
		"運用-1      7  \x1b[31mred\x1b[0m\n" +
		"run-22   1234\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func renderTable(t *testing.T, tab *Table) string {
	t.Helper()
	var b strings.Builder
	if err := tab.Render(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A table of figures too wide is stacked: its columns, in order, split
// into as few tables as fit, each led by the key column; no cell is cut.
// At width 0, or a width it fits, it is the table as it always was.
func TestStackSplitsTheColumnsNotTheFigures(t *testing.T) {
	table := func(width int) *Table {
		tab := NewTable(AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight)
		tab.Stack(width, 1)
		tab.Header("GUARD", "STOPPED", "SAVED STEPS", "SAVED TOKENS", "HEALTHY")
		tab.Append("breaker", "16/35 (45.7%)", "75 (22.5%)", "206,105 (16.7%)", "0/29 (0.0%)")
		tab.Append("maxturns:n=10", "14/35 (40.0%)", "88 (26.3%)", "494,190 (40.1%)", "6/29 (20.7%)")
		return tab
	}
	plain := NewTable(AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight)
	plain.Header("GUARD", "STOPPED", "SAVED STEPS", "SAVED TOKENS", "HEALTHY")
	plain.Append("breaker", "16/35 (45.7%)", "75 (22.5%)", "206,105 (16.7%)", "0/29 (0.0%)")
	plain.Append("maxturns:n=10", "14/35 (40.0%)", "88 (26.3%)", "494,190 (40.1%)", "6/29 (20.7%)")
	want := renderTable(t, plain)
	for _, width := range []int{0, 76, 200} {
		if got := renderTable(t, table(width)); got != want {
			t.Errorf("width %d:\n%s\nwant\n%s", width, got, want)
		}
	}
	want = "GUARD                STOPPED  SAVED STEPS\n" +
		"-------------------------------------------\n" +
		"breaker        16/35 (45.7%)   75 (22.5%)\n" +
		"maxturns:n=10  14/35 (40.0%)   88 (26.3%)\n" +
		"\n" +
		"GUARD             SAVED TOKENS       HEALTHY\n" +
		"---------------------------------------------\n" +
		"breaker        206,105 (16.7%)   0/29 (0.0%)\n" +
		"maxturns:n=10  494,190 (40.1%)  6/29 (20.7%)\n"
	if got := renderTable(t, table(45)); got != want {
		t.Errorf("width 45:\n%s\nwant\n%s", got, want)
	}
	// A column too wide on its own next to the key is a part of its own,
	// whole: its line is wider than the terminal.
	if got := renderTable(t, table(20)); strings.Count(got, "GUARD") != 4 || !strings.Contains(got, "maxturns:n=10  494,190 (40.1%)\n") {
		t.Errorf("width 20:\n%s", got)
	}
}

// Wrap breaks free text at its spaces, the lines after the first indented
// and the other cells blank, and never breaks a word; at width 0 it is
// the table as it always was.
func TestWrapBreaksFreeTextAtItsSpaces(t *testing.T) {
	table := func(width int) *Table {
		tab := NewTable()
		tab.Wrap(width, 2)
		tab.Header("FIXTURE", "RESULT", "DIFFERENCE")
		tab.Append("causes/storm", "FAIL", `root_cause: want "tool-retry-loop", got "error-storm"`)
		tab.Append("", "", "onset_step: want 10, got 0")
		tab.Append("causes/ok", "pass", "")
		tab.Append("causes/gone", "ERROR", "causes/gone.jsonl: no want file (causes/gone.want.json)")
		return tab
	}
	plain := NewTable()
	plain.Header("FIXTURE", "RESULT", "DIFFERENCE")
	plain.Append("causes/storm", "FAIL", `root_cause: want "tool-retry-loop", got "error-storm"`)
	plain.Append("", "", "onset_step: want 10, got 0")
	plain.Append("causes/ok", "pass", "")
	plain.Append("causes/gone", "ERROR", "causes/gone.jsonl: no want file (causes/gone.want.json)")
	if got, want := renderTable(t, table(0)), renderTable(t, plain); got != want {
		t.Errorf("width 0:\n%s\nwant\n%s", got, want)
	}
	want := "FIXTURE       RESULT  DIFFERENCE\n" +
		"--------------------------------------------------\n" +
		`causes/storm  FAIL    root_cause: want` + "\n" +
		`                        "tool-retry-loop", got` + "\n" +
		`                        "error-storm"` + "\n" +
		"                      onset_step: want 10, got 0\n" +
		"causes/ok     pass\n" +
		"causes/gone   ERROR   causes/gone.jsonl: no want\n" +
		"                        file\n" +
		"                        (causes/gone.want.json)\n"
	if got := renderTable(t, table(50)); got != want {
		t.Errorf("width 50:\n%s\nwant\n%s", got, want)
	}
}
