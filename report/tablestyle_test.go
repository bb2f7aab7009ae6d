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
