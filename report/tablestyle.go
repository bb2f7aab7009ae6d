package report

import (
	"io"
	"regexp"
	"slices"
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
	// width, when positive, is the terminal's: Render cuts the cells of
	// the free columns so that no line is wider (see Fit).
	width int
	free  []int
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

// minFreeWidth is the narrowest Fit cuts a free-text column to: below it
// the cell says nothing, and the line may as well wrap.
const minFreeWidth = 16

// Fit makes the table fit a terminal width columns wide: the cells of the
// free columns, free text such as a headline or a reason, the widest
// first, are cut with "..." (ASCII, as the rest of the table) so that
// every line fits, each down to minFreeWidth. Width 0 cuts nothing: a
// file or a pipe gets every character, since it is data. The other
// columns are never cut: people copy run ids into the next command.
func (t *Table) Fit(width int, free ...int) { t.width, t.free = width, free }

// Render writes the table to w.
func (t *Table) Render(w io.Writer) error {
	var rows [][]string // a new slice: fit may replace a row in it
	if len(t.header) > 0 {
		rows = append(rows, t.header)
	}
	rows = append(rows, t.rows...)
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
	lineWidth := t.fit(rows, cellWidths, widths)
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
			if t.width > 0 {
				total = min(total, max(lineWidth, t.width))
			}
			if _, err := io.WriteString(w, strings.Repeat("-", total)+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// fit cuts cells of the free columns, the widest first, while a line would
// be wider than t.width, and returns the width of the widest line.
func (t *Table) fit(rows [][]string, cellWidths [][]int, widths []int) int {
	line := func() int {
		n := 0
		for _, w := range widths {
			n += w
		}
		return n + 2*max(len(widths)-1, 0)
	}
	for t.width > 0 && line() > t.width {
		col := -1
		for _, c := range t.free {
			if c < len(widths) && widths[c] > minFreeWidth && (col < 0 || widths[c] > widths[col]) {
				col = c
			}
		}
		if col < 0 {
			break // nothing left to cut: the line wraps
		}
		t.cut(rows, cellWidths, widths, col, max(widths[col]-(line()-t.width), minFreeWidth))
	}
	return line()
}

// cut cuts the cells of column col to width n and sets the column's width.
func (t *Table) cut(rows [][]string, cellWidths [][]int, widths []int, col, n int) {
	widths[col] = 0
	for r, row := range rows {
		if col >= len(row) {
			continue
		}
		if cellWidths[r][col] > n {
			row = slices.Clone(row) // the table's rows stay as appended
			rows[r] = row
			row[col] = displaywidth.TruncateString(row[col], n, "...")
			cellWidths[r][col] = cellWidth(row[col])
		}
		widths[col] = max(widths[col], cellWidths[r][col])
	}
}
