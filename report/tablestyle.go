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
	var widths []int
	measure := func(row []string) {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	measure(t.header)
	for _, r := range t.rows {
		measure(r)
	}
	var b strings.Builder
	line := func(row []string) {
		b.Reset()
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-cellWidth(c))
			if i < len(t.align) && t.align[i] == AlignRight {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
			b.WriteString("  ")
		}
		b.WriteString("\n")
	}
	write := func(s string) error {
		_, err := io.WriteString(w, strings.TrimRight(s, " \n")+"\n")
		return err
	}
	if len(t.header) > 0 {
		line(t.header)
		if err := write(b.String()); err != nil {
			return err
		}
		total := 0
		for _, n := range widths {
			total += n + 2
		}
		if err := write(strings.Repeat("-", total)); err != nil {
			return err
		}
	}
	for _, r := range t.rows {
		line(r)
		if err := write(b.String()); err != nil {
			return err
		}
	}
	return nil
}
