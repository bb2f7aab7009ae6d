package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Help is what was asked for: on stdout, exit 0, the same whichever way it
// is asked for, and it names every flag the command takes.
func TestHelpIsOnStdoutWithExit0(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
				code, out, stderr := runCLI(t, "", args...)
				if code != exitClean || stderr != "" {
					t.Fatalf("%v: exit %d, stderr %q; want 0 and nothing on stderr", args, code, stderr)
				}
				if !strings.HasPrefix(out, "Usage: runaway "+c.name) {
					t.Fatalf("%v: stdout does not start with the usage:\n%s", args, out)
				}
				if first == "" {
					first = out
				} else if out != first {
					t.Errorf("%v gives another help than %s --help", args, c.name)
				}
			}
			c.flags().VisitAll(func(f *pflag.Flag) {
				if !f.Hidden && !strings.Contains(first, "--"+f.Name+" ") && !strings.Contains(first, "--"+f.Name+"[") {
					t.Errorf("help of %s does not list --%s", c.name, f.Name)
				}
			})
		})
	}
}

func TestCommandListIsOnStdoutWithExit0(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitClean || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "\n  runaway "+c.name+" ") {
				t.Errorf("%v: the list lacks %s:\n%s", args, c.name, out)
			}
		}
	}
	// Asked for nothing, or for what does not exist: a usage error, on stderr.
	for _, args := range [][]string{{}, {"help", "frobnicate"}, {"help", "scan", "eval"}} {
		code, out, stderr := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "runaway") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 with the message on stderr", args, code, out, stderr)
		}
	}
}

// A bad flag says what is wrong and how to get help, on stderr, without
// burying the message under every flag.
func TestBadFlagGivesShortUsageOnStderr(t *testing.T) {
	code, out, stderr := runCLI(t, "", "scan", "--no-such-flag", fixturesDir)
	if code != exitUsage || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(stderr, "unknown flag: --no-such-flag") || !strings.Contains(stderr, "runaway scan --help") ||
		strings.Contains(stderr, "--repeat-runaway") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// Every flag of every command is in a group of the table: a flag added
// without one fails here, as does an entry no command has.
func TestEveryFlagHasAGroup(t *testing.T) {
	used := map[string]bool{}
	for _, c := range commands() {
		c.flags().VisitAll(func(f *pflag.Flag) {
			if _, ok := groupOf(c.name, f.Name); !ok {
				t.Errorf("runaway %s --%s has no group: add it to flagGroups (flaggroups.go)", c.name, f.Name)
			}
			used[f.Name] = true
			used[c.name+"."+f.Name] = true
		})
	}
	for key := range flagGroups {
		if !used[key] {
			t.Errorf("flagGroups has %q, which no command has", key)
		}
	}
}

// scan's help lists its flags under headings, in the table's order, each
// flag under its own.
func TestHelpGroupsTheFlags(t *testing.T) {
	_, out, _ := runCLI(t, "", "scan", "--help")
	var at []int
	for _, title := range []string{"Input flags:", "Output flags:", "Policy and threshold flags:", "Performance and other flags:"} {
		i := strings.Index(out, "\n"+title+"\n")
		if i < 0 {
			t.Fatalf("no %q heading:\n%s", title, out)
		}
		at = append(at, i)
	}
	for k := 1; k < len(at); k++ {
		if at[k] < at[k-1] {
			t.Fatalf("headings out of order:\n%s", out)
		}
	}
	section := func(flag string) int {
		i := strings.Index(out, "--"+flag+" ")
		n := 0
		for _, h := range at {
			if i > h {
				n++
			}
		}
		return n
	}
	for flag, want := range map[string]int{"input-format": 1, "format": 2, "color": 2, "repeat-runaway": 3, "policy": 3, "workers": 4} {
		if got := section(flag); got != want {
			t.Errorf("--%s is under heading %d, want %d", flag, got, want)
		}
	}
}

// internalRefs are references to documents a user of runaway does not
// have: the text a user sees names the pattern or the guard instead.
var internalRefs = []string{"seed 0", "seeds/", "../shared"}

// Nothing the binary prints refers to documents users do not have: help,
// the command list, the detectors' pages and tables, the guards' list.
func TestNoInternalReferencesInWhatUsersSee(t *testing.T) {
	texts := map[string]string{}
	add := func(args ...string) {
		_, out, _ := runCLI(t, "", args...)
		texts[strings.Join(args, " ")] = out
	}
	add("help")
	for _, c := range commands() {
		add(c.name, "--help")
	}
	add("detectors")
	add("replay", "--list")
	add("man")
	for _, sh := range completionShells {
		add("completion", sh)
	}
	pages, _ := filepath.Glob("../../docs/detectors/RA*.md")
	for _, p := range pages {
		id := strings.TrimSuffix(filepath.Base(p), ".md")
		add("detectors", id)
	}
	if doc, err := os.ReadFile("../../docs/cli.md"); err == nil {
		texts["docs/cli.md"] = string(doc)
	}
	for name, text := range texts {
		if text == "" {
			t.Errorf("%s printed nothing", name)
		}
		for _, ref := range internalRefs {
			if strings.Contains(strings.ToLower(text), ref) {
				t.Errorf("%s refers to %q", name, ref)
			}
		}
	}
}

// README's table of scan flags is written by hand: each flag it names is
// one scan has, and where it lists the values, they are the code's.
func TestREADMEFlagTableMatchesTheCode(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	fs := lookupCommand("scan").flags()
	rows := 0
	for _, line := range strings.Split(string(readme), "\n") {
		cell, ok := strings.CutPrefix(line, "| `--")
		if !ok {
			continue
		}
		rows++
		cell, _, _ = strings.Cut(cell, "`")
		name, values, _ := strings.Cut(cell, " ")
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("README names scan --%s, which scan does not have", name)
			continue
		}
		if want := flagValues(f); want != nil && strings.Contains(values, `\|`) && values != strings.Join(want, `\|`) {
			t.Errorf("README lists --%s %s; the code: %s", name, values, strings.Join(want, "|"))
		}
	}
	if rows == 0 {
		t.Fatal("README has no table of scan flags")
	}
}
