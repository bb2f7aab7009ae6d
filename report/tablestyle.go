package report

import (
	"io"
	"regexp"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Align places a cell in its column.
type Align uint8

const (
	AlignLeft Align = iota
	AlignRight
)

// Table is runaway's table style, shared by every command that prints
// one: borderless like kubectl and docker (columns flush left, two spaces
// apart), a line of dashes under the header, ASCII only (box-drawing
// characters have an ambiguous width that some CJK terminals draw double,
// which would skew every row), one line per cell (sanitize escapes
// newlines; wrapping would only split long ids), and no blanks at the end
// of a line (they make copy-paste and diffs noisy).
type Table struct {
	align  []Align
	header []string
	rows   [][]string
}

// NewTable starts a table whose columns are aligned as align says (left
// where it says nothing).
func NewTable(align ...Align) *Table { return &Table{align: align} }

// Header sets the column titles.
func (t *Table) Header(cells ...string) { t.header = cells }

// Append adds a row.
func (t *Table) Append(cells ...string) { t.rows = append(t.rows, cells) }

// ansi matches the color sequences the table and html reports paint with:
// they take no room on the terminal.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// cellWidth is how many terminal columns a cell takes: East Asian wide
// characters two, combining marks none, color sequences none. Ambiguous
// characters count one whatever the locale, so the same report is the
// same bytes everywhere.
func cellWidth(s string) int {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.ReplaceAllString(s, "")
	}
	return displaywidth.String(s)
}

// Render writes the table to w.
func (t *Table) Render(w io.Writer) error {
	rows := t.rows
	if len(t.header) > 0 {
		rows = append([][]string{t.header}, rows...)
	}
	// Each cell is measured once: its width sets its column's and its pad.
	cellWidths := make([][]int, len(rows))
	var widths []int
	for r, row := range rows {
		cellWidths[r] = make([]int, len(row))
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			cellWidths[r][i] = cellWidth(c)
			widths[i] = max(widths[i], cellWidths[r][i])
		}
	}
	var b strings.Builder
	for r, row := range rows {
		b.Reset()
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-cellWidths[r][i])
			if i < len(t.align) && t.align[i] == AlignRight {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
			b.WriteString("  ")
		}
		if _, err := io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n"); err != nil {
			return err
		}
		if r == 0 && len(t.header) > 0 {
			total := 0
			for _, n := range widths {
				total += n + 2
			}
			if _, err := io.WriteString(w, strings.Repeat("-", total)+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}
