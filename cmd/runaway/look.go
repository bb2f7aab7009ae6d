package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/runawayhq/runaway/pipeline"
)

// colorModes are the values of --color.
var colorModes = []string{"auto", "always", "never"}

// outputFlags are the flags of the commands that colour what they print
// (scan's table, explain's text).
type outputFlags struct {
	color string
}

func bindOutputFlags(fs *pflag.FlagSet, f *outputFlags) {
	fs.StringVar(&f.color, "color", "auto", "colour verdict words in what is printed on stdout: auto (only when stdout is a terminal, TERM is not dumb and NO_COLOR is unset or empty), always, never; files written by --out or --output are never coloured")
	setValues(fs, "color", colorModes...)
}

// look is how a report is drawn on stdout: coloured or not, and the width
// of the terminal tables fit (0: not a terminal, no limit).
type look struct {
	color bool
	width int
}

// look decides colour and width for stdout. --color always or never wins
// over everything; auto colours only a terminal, and only when TERM is not
// "dumb" and NO_COLOR is unset or empty (https://no-color.org). Only a
// terminal has a width: a file or a pipe gets every character (data is
// data).
func (f *outputFlags) look(stdout io.Writer) (look, error) {
	var l look
	switch f.color {
	case "always":
		l.color = true
	case "never":
	case "auto":
		l.color = os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(stdout)
	default:
		return l, &pipeline.UsageError{Err: fmt.Errorf("--color %q: want one of %s", f.color, strings.Join(colorModes, ", "))}
	}
	l.width = tableWidth(stdout)
	return l, nil
}

// tableWidth is the width the tables printed on stdout fit: the
// terminal's, or 0 (no limit) when stdout is a file or a pipe. replay,
// eval and verify, which colour nothing, take only this of look.
func tableWidth(stdout io.Writer) int {
	if isTerminal(stdout) {
		return terminalWidth(stdout)
	}
	return 0
}

// isTerminal reports whether w is a terminal. It is a variable so that
// tests can make a buffer one.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the width of the terminal w: $COLUMNS when it is a
// number (the user's word, and what a test sets), else the terminal's own
// (TIOCGWINSZ), else 0 (unknown: no limit).
func terminalWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	return 0
}

// progressWanted: a progress bar only on a terminal that can draw one
// (not TERM=dumb), and not with --quiet, so logs and pipes get no control
// characters.
func progressWanted(stderr io.Writer, quiet bool) bool {
	return !quiet && os.Getenv("TERM") != "dumb" && isTerminal(stderr)
}
