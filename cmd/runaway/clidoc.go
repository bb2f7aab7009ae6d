package main

import (
	"fmt"
	"strings"

	"github.com/runawayhq/runaway/report"
)

// The generated part of docs/cli.md: every command's usage and flags by
// group, from the commands table. TestGenerated fails when the page's part
// between the markers is not what cliReference writes.
const (
	cliDocPath        = "docs/cli.md"
	cliGeneratedBegin = "<!-- Generated from the commands table by `go test ./cmd/runaway -run TestGenerated -update`: do not edit. -->"
	cliGeneratedEnd   = "<!-- End of generated reference. -->"
)

// cliReference is the reference of every command, in Markdown.
func cliReference() string {
	var b strings.Builder
	b.WriteString("| command | what it does |\n|---|---|\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "| [`%s`](#runaway-%s) | %s |\n", c.name, c.name, report.MarkdownCell(c.summary))
	}
	for _, c := range commands() {
		fmt.Fprintf(&b, "\n### runaway %s\n\n```\n", c.name)
		for _, s := range c.synopsis {
			fmt.Fprintf(&b, "%s\n", strings.TrimSpace("runaway "+c.name+" "+s))
		}
		b.WriteString("```\n\n")
		for _, line := range strings.Split(c.about, "\n") {
			if strings.HasPrefix(line, "  ") {
				fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(line)) // an example: a code block line
				continue
			}
			b.WriteString(report.MarkdownText(line) + "\n")
		}
		for _, g := range groupFlags(c.name, c.flags()) {
			fmt.Fprintf(&b, "\n%s flags:\n\n", groupTitles[g.group])
			if g.group == groupPolicy && hasThresholds(g.flags) {
				b.WriteString(report.MarkdownText(strings.ReplaceAll(policyNote, "\n", " ")) + "\n\n")
			}
			b.WriteString("| flag | value | default | meaning |\n|---|---|---|---|\n")
			for _, f := range g.flags {
				name := "--" + f.Name
				if f.Shorthand != "" {
					name = "-" + f.Shorthand + ", " + name
				}
				value := flagValueName(f)
				if vs := flagValues(f); vs != nil {
					value = strings.Join(vs, " \\| ")
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", report.MarkdownCode(name, true), mdCodeOrEmpty(value),
					mdCodeOrEmpty(strings.Trim(flagDefault(f), `"`)), report.MarkdownCell(f.Usage))
			}
		}
	}
	return b.String()
}

func mdCodeOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}
