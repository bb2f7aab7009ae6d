package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// runaway man prints the page in roff: its title, name, synopsis, a
// section per command, an entry per visible flag; man reads it without a
// warning where man is installed.
func TestManPage(t *testing.T) {
	code, out, stderr := runCLI(t, "", "man")
	if code != exitClean || stderr != "" {
		t.Fatalf("exit %d %q", code, stderr)
	}
	if out != manPage() {
		t.Fatal("runaway man differs from manPage()")
	}
	for _, want := range []string{"\n.TH RUNAWAY 1 ", "\n.SH NAME\nrunaway \\- ", "\n.SH SYNOPSIS\n", "\n.SH COMMANDS\n", "\n.SH EXIT STATUS\n", "\n.SH ENVIRONMENT\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, c := range commands() {
		if !strings.Contains(out, "\n.SS runaway "+roffEscape(c.name)) {
			t.Errorf("no section for %s", c.name)
		}
		c.flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(out, `\fB\-\-`+roffEscape(f.Name)+`\fR`) {
				t.Errorf("%s --%s is not in the page", c.name, f.Name)
			}
		})
	}
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "'") || (strings.HasPrefix(line, ".") && !roffRequest(line)) {
			t.Errorf("line %d is read as an unknown request: %q", i+1, line)
		}
	}
	man, err := exec.LookPath("man")
	if err != nil {
		t.Log("man is not installed: the page is not rendered")
		return
	}
	cmd := exec.Command(man, "--warnings", "-E", "UTF-8", "-l", "-")
	cmd.Stdin = strings.NewReader(out)
	cmd.Env = append(cmd.Environ(), "MANWIDTH=100", "MANPAGER=cat", "PAGER=cat")
	var warnings strings.Builder
	cmd.Stderr = &warnings
	rendered, err := cmd.Output()
	if err != nil || warnings.Len() != 0 {
		t.Fatalf("man -l: %v %s", err, warnings.String())
	}
	for _, want := range []string{"RUNAWAY(1)", "runaway scan [flags] PATH...", "--input-format", "EXIT STATUS"} {
		if !strings.Contains(string(rendered), want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
}

// roffRequest: the man(7) requests the page uses, and comments.
func roffRequest(line string) bool {
	for _, r := range []string{`.\"`, ".TH ", ".SH ", ".SS ", ".TP", ".PP", ".B ", ".I ", ".RI ", ".br"} {
		if strings.HasPrefix(line, r) {
			return true
		}
	}
	return false
}
