package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// helpWidth is the column help text is wrapped at: the same on every
// terminal, so that help, the man page and docs/cli.md say the same.
const helpWidth = 100

// writeCommandList writes what 'runaway help' says: the commands, one line
// each, the exit codes and where to read more.
func writeCommandList(w io.Writer) {
	fmt.Fprint(w, "runaway finds AI-agent runs that ran away in agent step logs, trajectories and traces.\n\nUsage:\n")
	cmds := commands()
	lines := make([]string, len(cmds))
	width := 0
	for i, c := range cmds {
		args := c.synopsis[0]
		if c.listed != "" {
			args = c.listed
		}
		lines[i] = strings.TrimSpace("runaway " + c.name + " " + args)
		width = max(width, len(lines[i]))
	}
	for i, c := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, lines[i], c.summary)
	}
	fmt.Fprint(w, "\nRun 'runaway help COMMAND' or 'runaway COMMAND --help' for a command's flags.\n"+
		"Exit codes: 0 clean, 1 runs at or above --fail-on, 2 usage error, 3 runtime failure.\n")
}

// writeHelp writes a command's help: its usage, what it does, and its
// flags by group.
func writeHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	writeSynopsis(w, c)
	fmt.Fprintf(w, "\n%s\n", c.about)
	for _, g := range groupFlags(c.name, fs) {
		fmt.Fprintf(w, "\n%s flags:\n", groupTitles[g.group])
		if g.group == groupPolicy && hasThresholds(g.flags) {
			fmt.Fprintf(w, "%s\n", indent(policyNote, "  "))
		}
		sub := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
		for _, f := range g.flags {
			sub.AddFlag(f)
		}
		fmt.Fprint(w, sub.FlagUsagesWrapped(helpWidth))
	}
	fmt.Fprint(w, "\nGlobal flags:\n  -h, --help   print this help\n")
}

// writeSynopsis writes the usage lines of c.
func writeSynopsis(w io.Writer, c *command) {
	for i, s := range c.synopsis {
		prefix := "Usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintf(w, "%s%s\n", prefix, strings.TrimSpace("runaway "+c.name+" "+s))
	}
}

// writeShortUsage is what follows a usage error on stderr: the usage
// lines and where the flags are, not fifty flags the error buries.
func writeShortUsage(w io.Writer, cmd string) {
	c := lookupCommand(cmd)
	if c == nil {
		return
	}
	writeSynopsis(w, c)
	fmt.Fprintf(w, "Run 'runaway %s --help' for its flags.\n", cmd)
}

func hasThresholds(flags []*pflag.Flag) bool {
	for _, f := range flags {
		if f.Name != "policy" && f.Name != "guard" {
			return true
		}
	}
	return false
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// runHelp is 'runaway help [COMMAND]': on stdout, exit 0, as asked.
func runHelp(args []string, stdout, stderr io.Writer) int {
	fs := lookupCommand("help").flags()
	if code, ok := parseFlags(fs, args, "help", stdout, stderr); !ok {
		return code
	}
	switch fs.NArg() {
	case 0:
		writeCommandList(stdout)
		return exitClean
	case 1:
		c := lookupCommand(fs.Arg(0))
		if c == nil {
			fmt.Fprintf(stderr, "runaway help: unknown command %q\n\n", fs.Arg(0))
			writeCommandList(stderr)
			return exitUsage
		}
		writeHelp(stdout, c, c.flags())
		return exitClean
	}
	fmt.Fprintln(stderr, "runaway help: takes at most one command")
	writeShortUsage(stderr, "help")
	return exitUsage
}
