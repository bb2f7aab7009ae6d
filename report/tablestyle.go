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
// newlines; wrapping would only split long ids; Wrap alone breaks free
// text, at its spaces), and no blanks at the end of a line (they make
// copy-paste and diffs noisy).
type Table struct {
	align  []Align
	header []string
	rows   [][]string
	// width, when positive, is the terminal's: Render cuts the cells of
	// the free columns so that no line is wider (see Fit), breaks them
	// (see Wrap), or stacks the columns (see Stack).
	width int
	free  []int
	wrap  bool // break the free cells at spaces rather than cut them
	keys  int  // Stack: the leading columns each stacked part repeats
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

// minFreeWidth is the narrowest Fit cuts (and Wrap breaks) a free-text
// column to: below it the cell says nothing, and the line may as well
// wrap.
const minFreeWidth = 16

// Fit makes the table fit a terminal width columns wide: the cells of the
// free columns, free text such as a headline or a reason, the widest
// first, are cut with "..." (ASCII, as the rest of the table) so that
// every line fits, each down to minFreeWidth. Width 0 cuts nothing: a
// file or a pipe gets every character, since it is data. The other
// columns are never cut: people copy run ids into the next command.
func (t *Table) Fit(width int, free ...int) { t.width, t.free, t.wrap = width, free, false }

// Wrap is Fit for free text whose end matters as much as its start, such
// as verify's "want X, got Y": a cell is broken at its spaces onto lines
// of its own, the other cells blank and the next lines indented two
// spaces, instead of cut. A word is never broken, so a path or an id
// wider than the column leaves its line wider.
func (t *Table) Wrap(width int, free ...int) { t.width, t.free, t.wrap = width, free, true }

// Stack makes a table of figures fit a terminal width columns wide, as
// Fit does (with Fit too, once its free columns are cut): when a line
// would be wider, the columns after the first keys are split, in their
// order, into as few tables as fit, printed one under the other with a
// blank line between, each led by the key columns (the row's name) and
// with its own header. Nothing is cut, since a figure cut short is a wrong
// figure, and every row keeps its name; only a column too wide on its own
// next to the keys leaves a line wider. Width 0 stacks nothing.
func (t *Table) Stack(width, keys int) { t.width, t.keys = width, keys }

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
	t.fit(rows, cellWidths, widths)
	if t.wrap {
		rows, cellWidths = t.breakLines(rows, cellWidths)
	}
	for k, cols := range t.stack(widths) {
		if k > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := t.write(w, rows, cellWidths, widths, cols); err != nil {
			return err
		}
	}
	return nil
}

// write writes the columns cols of the rows: one table, or one part of a
// stacked one.
func (t *Table) write(w io.Writer, rows [][]string, cellWidths [][]int, widths, cols []int) error {
	var b strings.Builder
	for r, row := range rows {
		b.Reset()
		for _, i := range cols {
			if i >= len(row) {
				continue
			}
			c := row[i]
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
			for _, i := range cols {
				total += widths[i] + 2
			}
			if t.width > 0 {
				total = min(total, max(lineWidth(widths, cols), t.width))
			}
			if _, err := io.WriteString(w, strings.Repeat("-", total)+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// lineWidth is the width of a line of the columns cols.
func lineWidth(widths, cols []int) int {
	n := 0
	for _, i := range cols {
		n += widths[i]
	}
	return n + 2*max(len(cols)-1, 0)
}

// stack splits the columns into the parts Stack prints one under the
// other: one part, every column, unless a line is wider than t.width.
// Each part takes the next columns while its line fits, and at least one.
func (t *Table) stack(widths []int) [][]int {
	all := make([]int, len(widths))
	for i := range all {
		all[i] = i
	}
	if t.keys <= 0 || t.width <= 0 || t.keys >= len(widths) || lineWidth(widths, all) <= t.width {
		return [][]int{all}
	}
	var parts [][]int
	part := slices.Clone(all[:t.keys])
	for _, i := range all[t.keys:] {
		if len(part) > t.keys && lineWidth(widths, append(part, i)) > t.width {
			parts = append(parts, part)
			part = slices.Clone(all[:t.keys])
		}
		part = append(part, i)
	}
	return append(parts, part)
}

// fit cuts (or, with Wrap, breaks) cells of the free columns, the widest
// first, while a line would be wider than t.width.
func (t *Table) fit(rows [][]string, cellWidths [][]int, widths []int) {
	line := func() int {
		n := 0
		for _, w := range widths {
			n += w
		}
		return n + 2*max(len(widths)-1, 0)
	}
	var done []int // the columns no narrower for being broken again
	for t.width > 0 && line() > t.width {
		col := -1
		for _, c := range t.free {
			if c < len(widths) && widths[c] > minFreeWidth && !slices.Contains(done, c) && (col < 0 || widths[c] > widths[col]) {
				col = c
			}
		}
		if col < 0 {
			break // nothing left to cut: the line wraps
		}
		was, n := widths[col], max(widths[col]-(line()-t.width), minFreeWidth)
		if t.wrap {
			t.breakCells(rows, cellWidths, widths, col, n)
		} else {
			t.cut(rows, cellWidths, widths, col, n)
		}
		if widths[col] >= was {
			done = append(done, col) // a word wider than n: it stays whole
		}
	}
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

// breakCells breaks the cells of column col, the header's aside (it is one
// line), into lines at most n wide, joined with "\n" until breakLines
// makes them rows, and sets the column's width. Each cell is broken from
// its text as appended, not from an earlier break.
func (t *Table) breakCells(rows [][]string, cellWidths [][]int, widths []int, col, n int) {
	widths[col] = 0
	for r, row := range rows {
		if col >= len(row) {
			continue
		}
		if header := r == 0 && len(t.header) > 0; !header {
			text := t.rows[r-min(len(t.header), 1)][col]
			lines := []string{text}
			if cellWidth(text) > n {
				lines = wrapText(text, n)
			}
			if broken := strings.Join(lines, "\n"); broken != row[col] {
				row = slices.Clone(row) // the table's rows stay as appended
				rows[r] = row
				row[col] = broken
				cellWidths[r][col] = 0
				for _, l := range lines {
					cellWidths[r][col] = max(cellWidths[r][col], cellWidth(l))
				}
			}
		}
		widths[col] = max(widths[col], cellWidths[r][col])
	}
}

// wrapIndent starts the lines of a broken cell after its first, so that
// they do not read as the next row's.
const wrapIndent = "  "

// wrapText breaks s at its spaces into lines at most n wide, the lines
// after the first indented; a word wider than that is a line of its own,
// whole.
func wrapText(s string, n int) []string {
	var lines []string
	line, started := "", false
	for _, word := range strings.Split(s, " ") {
		switch {
		case !started:
			line, started = word, true
		case cellWidth(line+" "+word) <= n:
			line += " " + word
		default:
			lines = append(lines, line)
			line = wrapIndent + word
		}
	}
	return append(lines, line)
}

// breakLines makes each line of a broken cell a row of its own, the
// row's other cells blank on the lines after its first.
func (t *Table) breakLines(rows [][]string, cellWidths [][]int) ([][]string, [][]int) {
	var outRows [][]string
	var outWidths [][]int
	for r, row := range rows {
		split := make([][]string, len(row))
		height := 1
		for _, c := range t.free {
			if c < len(row) && strings.Contains(row[c], "\n") {
				split[c] = strings.Split(row[c], "\n")
				height = max(height, len(split[c]))
			}
		}
		if height == 1 {
			outRows, outWidths = append(outRows, row), append(outWidths, cellWidths[r])
			continue
		}
		for k := range height {
			line, lineWidths := make([]string, len(row)), make([]int, len(row))
			for i := range row {
				switch {
				case split[i] != nil && k < len(split[i]):
					line[i] = split[i][k]
					lineWidths[i] = cellWidth(line[i])
				case split[i] == nil && k == 0:
					line[i], lineWidths[i] = row[i], cellWidths[r][i]
				}
			}
			outRows, outWidths = append(outRows, line), append(outWidths, lineWidths)
		}
	}
	return outRows, outWidths
}
