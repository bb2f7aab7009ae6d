package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"
)

// runOnTerminal runs the command with its stdout taken for a terminal
// (the seam: isTerminal) when terminal is set, in the environment env.
func runOnTerminal(t *testing.T, terminal bool, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	for _, k := range []string{"NO_COLOR", "TERM", "COLUMNS"} {
		v, ok := env[k]
		t.Setenv(k, v)
		if !ok {
			os.Unsetenv(k)
		}
	}
	var out, errb bytes.Buffer
	old := isTerminal
	isTerminal = func(w io.Writer) bool { return terminal && w == &out }
	defer func() { isTerminal = old }()
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const bold = "\x1b[1;31m" // the runaway verdict's colour

// --color: always and never win over everything; auto colours only a
// terminal, not with TERM=dumb, not with NO_COLOR set (and not empty).
func TestColorFlagAndItsPrecedence(t *testing.T) {
	for _, c := range []struct {
		name     string
		terminal bool
		env      map[string]string
		flag     string
		want     bool
	}{
		{"auto on a terminal", true, map[string]string{"TERM": "xterm"}, "", true},
		{"auto on a pipe", false, map[string]string{"TERM": "xterm"}, "", false},
		{"auto with NO_COLOR", true, map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, "auto", false},
		{"auto with NO_COLOR empty", true, map[string]string{"TERM": "xterm", "NO_COLOR": ""}, "auto", true},
		{"auto with TERM=dumb", true, map[string]string{"TERM": "dumb"}, "auto", false},
		{"always on a pipe with NO_COLOR", false, map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, "always", true},
		{"never on a terminal", true, map[string]string{"TERM": "xterm"}, "never", false},
	} {
		for _, cmd := range [][]string{{"scan", fixturesDir}, {"explain", "fx-cause-error-storm-one-call", fixturesDir}} {
			args := cmd
			if c.flag != "" {
				args = append([]string{cmd[0], "--color", c.flag}, cmd[1:]...)
			}
			code, out, stderr := runOnTerminal(t, c.terminal, c.env, args...)
			if code != exitClean {
				t.Fatalf("%s %v: exit %d %s", c.name, args, code, stderr)
			}
			if got := strings.Contains(out, bold); got != c.want {
				t.Errorf("%s, %s: coloured %v, want %v", c.name, cmd[0], got, c.want)
			}
		}
	}
	if code, _, stderr := runOnTerminal(t, true, nil, "scan", "--color", "sometimes", fixturesDir); code != exitUsage || !strings.Contains(stderr, "auto, always, never") {
		t.Errorf("--color sometimes: exit %d %q", code, stderr)
	}
	// A file is data: never coloured, whatever --color says.
	out := filepath.Join(t.TempDir(), "report.txt")
	if code, _, _ := runOnTerminal(t, true, nil, "scan", "--color", "always", "--out", out, fixturesDir); code != exitClean {
		t.Fatal(code)
	}
	if b, _ := os.ReadFile(out); len(b) == 0 || bytes.Contains(b, []byte("\x1b")) {
		t.Errorf("--out file coloured or empty: %q", b)
	}
}

// tableLines are the lines of the tables in out: from a header's line of
// dashes to the blank line or the end.
func tableLines(out string) []string {
	var lines []string
	in := false
	prev := ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "---"):
			in = true
			lines = append(lines, prev, l)
		case l == "":
			in = false
		case in:
			lines = append(lines, l)
		}
		prev = l
	}
	return lines
}

// On a terminal of width W, every line of the tables fits W: the free text
// is cut with "..."; on a pipe, nothing is cut whatever COLUMNS says.
func TestTablesFitTheTerminalWidth(t *testing.T) {
	for _, c := range []struct {
		args  []string
		width int
	}{
		{[]string{"scan", filepath.Join(fixturesDir, "detectors")}, 110}, // short run ids: they are never cut
		{[]string{"explain", "fx-cause-replan-repeats-call", fixturesDir}, 100},
		{[]string{"replay", "--list"}, 100}, // RULE and SOURCE
	} {
		env := map[string]string{"TERM": "xterm", "COLUMNS": strconv.Itoa(c.width)}
		_, piped, _ := runOnTerminal(t, false, env, c.args...)
		_, cut, _ := runOnTerminal(t, true, env, c.args...)
		wide := 0
		for _, l := range tableLines(piped) {
			wide = max(wide, width(l))
		}
		if wide <= c.width {
			t.Fatalf("%v: the piped table is only %d wide; the test needs a wider one", c.args, wide)
		}
		if strings.Contains(piped, "...") && !strings.Contains(cut, "...") {
			t.Fatalf("%v: nothing was cut", c.args)
		}
		lines := tableLines(cut)
		if len(lines) == 0 || !strings.Contains(cut, "...") {
			t.Fatalf("%v: no cut table:\n%s", c.args, cut)
		}
		for _, l := range lines {
			if w := width(l); w > c.width {
				t.Errorf("%v at COLUMNS=%d: a line %d wide: %q", c.args, c.width, w, l)
			}
		}
	}
}

// width is how many columns a line takes on a terminal: colour sequences
// take none.
func width(s string) int {
	return displaywidth.String(regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(s, ""))
}

// figure matches a cell, or a word of one, that is a figure: a count, a
// share, a fraction, a cost or a delay ("1,234", "(45.7%)", "16/35",
// "~$1.01", "+3", "0.9889", "10,").
var figure = regexp.MustCompile(`^[(~$+-]*[0-9][0-9,./%]*\)?$`)

// figures are the figures in the tables of out, each as often as it is
// printed, sorted; the examples of replay, whose REASON is free text that
// may be cut, are left out.
func figures(out string) []string {
	if i := strings.Index(out, "stopped (the first"); i >= 0 {
		out = out[:i]
	}
	var fs []string
	for _, l := range tableLines(out) {
		for _, f := range strings.Fields(l) {
			if figure.MatchString(f) {
				fs = append(fs, f)
			}
		}
	}
	slices.Sort(fs)
	return fs
}

// replay's, eval's and verify's tables fit the terminal too, and being
// mostly figures, none is cut: a table of figures too wide is stacked (the
// row's name leads every part), verify's differences are broken onto more
// lines. On a pipe, or on a terminal wide enough, not a byte changes.
func TestFigureTablesFitTheTerminalWidth(t *testing.T) {
	corpus, labels := genCorpus(t, "300", "7")
	// verify: two failures and an error, under a short relative path so
	// that the fixture names leave room for the differences.
	dir := copyFixtureDir(t, "causes")
	want := filepath.Join(dir, "error-storm-one-call.want.json")
	os.WriteFile(want, []byte(strings.Replace(string(readFile(t, want)), `"root_cause": "error-storm"`, `"root_cause": "tool-retry-loop"`, 1)), 0o644)
	want = filepath.Join(dir, "replan-same-plan.want.json")
	os.WriteFile(want, []byte(strings.Replace(string(readFile(t, want)), `"onset_step": `, `"onset_step": 1`, 1)), 0o644)
	os.Remove(filepath.Join(dir, "empty-loop-no-intent.want.json"))
	t.Chdir(filepath.Dir(dir))
	fixtures := filepath.Base(dir)

	for _, args := range [][]string{
		{"replay", corpus},
		{"replay", "--labels", labels, corpus},
		{"eval", "--labels", labels, corpus},
		{"verify", fixtures},
	} {
		for _, columns := range []int{80, 100} {
			env := map[string]string{"TERM": "xterm", "COLUMNS": strconv.Itoa(columns)}
			_, piped, _ := runOnTerminal(t, false, env, args...)
			_, plain, _ := runOnTerminal(t, false, map[string]string{"TERM": "xterm"}, args...)
			_, wide, _ := runOnTerminal(t, true, map[string]string{"TERM": "xterm", "COLUMNS": "10000"}, args...)
			_, fit, _ := runOnTerminal(t, true, env, args...)
			if piped != plain || wide != plain {
				t.Errorf("%v: a pipe (COLUMNS=%d) or a terminal wide enough changed the report:\n%s\n%s", args, columns, piped, wide)
			}
			widest := 0
			for _, l := range tableLines(piped) {
				widest = max(widest, width(l))
			}
			if widest <= columns {
				t.Fatalf("%v: the piped tables are only %d wide; the test needs wider ones", args, widest)
			}
			lines := tableLines(fit)
			if len(lines) == 0 {
				t.Fatalf("%v: no table:\n%s", args, fit)
			}
			for _, l := range lines {
				if w := width(l); w > columns {
					t.Errorf("%v at COLUMNS=%d: a line %d wide: %q", args, columns, w, l)
				}
			}
			if got, want := figures(fit), figures(piped); !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("%v at COLUMNS=%d: the figures changed:\n%v\nwant\n%v\n%s", args, columns, got, want, fit)
			}
		}
	}
}
