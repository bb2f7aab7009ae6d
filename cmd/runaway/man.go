package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// manPath is where the man page is kept, generated: TestGenerated fails
// when it is not what manPage writes.
const manPath = "docs/man/runaway.1"

func runMan(args []string, stdout, stderr io.Writer) int {
	if code, ok := noOperands(args, "man", stdout, stderr); !ok {
		return code
	}
	if _, err := io.WriteString(stdout, manPage()); err != nil {
		fmt.Fprintf(stderr, "runaway man: %v\n", err)
		return exitFailure
	}
	return exitClean
}

// manPage is runaway(1) in roff (man(7) macros), from the commands table:
// a section per command with its flags by group. No date or version in
// .TH: the page changes when the commands do, not with each release.
func manPage() string {
	var b strings.Builder
	b.WriteString(`.\" runaway(1), written by 'runaway man' from the commands table: do not edit.
.\" Regenerate with: go test ./cmd/runaway -run TestGenerated -update
.TH RUNAWAY 1 "" "runaway" "User Commands"
.SH NAME
runaway \- find AI-agent runs that ran away in agent step logs, trajectories and traces
.SH SYNOPSIS
.B runaway
.I command
.RI [ flags ]
.RI [ arguments ]
.SH DESCRIPTION
runaway reads agent step logs (JSON Lines, Parquet), agent trajectories and tracing exports,
computes loop indicators per run and reports which runs ran away, the likely root cause,
the step where the loop began, what it wasted, and the guard that would have stopped it.
Reports go to stdout (data only); progress and warnings go to stderr.
.SH COMMANDS
`)
	for _, c := range commands() {
		writeManCommand(&b, c)
	}
	b.WriteString(`.SH ENVIRONMENT
.TP
.B NO_COLOR
When set and not empty, \fB\-\-color auto\fR does not colour (https://no-color.org).
\fB\-\-color always\fR and \fB\-\-color never\fR win over it.
.TP
.B TERM
When \fBdumb\fR, \fB\-\-color auto\fR does not colour and no progress bar is drawn.
.TP
.B COLUMNS
The width of the terminal that tables on stdout fit (their free text is cut with "...");
without it, the terminal's own. Output to a file or a pipe is never cut.
.TP
.B TMPDIR
Where temporary files go when \fB\-\-spill\-dir\fR is not given.
.SH EXIT STATUS
.TP
.B 0
clean: no run at or above \fB\-\-fail\-on\fR
.TP
.B 1
runs at or above \fB\-\-fail\-on\fR (eval: a \fB\-\-min\-*\fR threshold missed; verify: a fixture does not match)
.TP
.B 2
usage error: a bad flag or argument, a bad policy file
.TP
.B 3
runtime failure: an input that cannot be read, an output that cannot be written, rejected lines with \fB\-\-strict\fR, interrupted
.SH SEE ALSO
The documents in the docs/ directory of runaway's repository: docs/cli.md (this page's flags
as tables), docs/output.md (the report formats), docs/detectors/ (one page per detector).
`)
	return b.String()
}

func writeManCommand(b *strings.Builder, c command) {
	fmt.Fprintf(b, ".SS %s\n", roffText(strings.TrimSpace("runaway "+c.name+" "+c.synopsis[0])))
	for _, s := range c.synopsis[1:] {
		fmt.Fprintf(b, ".br\n%s\n", roffText(strings.TrimSpace("runaway "+c.name+" "+s)))
	}
	b.WriteString(".PP\n")
	writeRoffParagraph(b, c.about)
	for _, g := range groupFlags(c.name, c.flags()) {
		fmt.Fprintf(b, ".PP\n.B %s flags:\n", roffText(groupTitles[g.group]))
		if g.group == groupPolicy && hasThresholds(g.flags) {
			b.WriteString(".br\n")
			writeRoffParagraph(b, policyNote)
		}
		for _, f := range g.flags {
			fmt.Fprintf(b, ".TP\n%s\n%s\n", roffFlagName(f), roffText(flagHelp(f)))
		}
	}
}

// writeRoffParagraph writes text as roff fills it; a line indented by two
// spaces (an example) is kept as it is.
func writeRoffParagraph(b *strings.Builder, text string) {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "  ") {
			fmt.Fprintf(b, ".br\n\\&%s\n", roffText(line))
			continue
		}
		b.WriteString(roffText(line) + "\n")
	}
}

// roffFlagName is a flag's name, its short form and its value's name, as
// the .TP tag of its entry.
func roffFlagName(f *pflag.Flag) string {
	s := `\fB\-\-` + roffEscape(f.Name) + `\fR`
	if f.Shorthand != "" {
		s = `\fB\-` + roffEscape(f.Shorthand) + `\fR, ` + s
	}
	if v := flagValueName(f); v != "" {
		s += ` \fI` + roffEscape(v) + `\fR`
	}
	return s
}

// roffText is text for a line of roff: escaped, and never read as a
// request (a line that starts with . or ').
func roffText(s string) string {
	s = roffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffEscape escapes what roff would read: the backslash, and - as the
// ASCII minus a reader types (a bare - may be drawn as a hyphen).
func roffEscape(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// flagValueName is the name of a flag's value as help shows it ("" for a
// switch).
func flagValueName(f *pflag.Flag) string {
	if f.Value.Type() == "bool" {
		return ""
	}
	name, _ := pflag.UnquoteUsage(f)
	return name
}

// flagHelp is a flag's help with its default, as pflag's help says it.
func flagHelp(f *pflag.Flag) string {
	if d := flagDefault(f); d != "" {
		return f.Usage + " (default " + d + ")"
	}
	return f.Usage
}

// flagDefault is a flag's default as help shows it, "" when it is the
// type's zero value.
func flagDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]", "<nil>":
		return ""
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}
