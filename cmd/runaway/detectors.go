package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/docs"
)

func runDetectors(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		return listDetectors(stdout, stderr)
	case 1:
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: runaway detectors [ID|slug]")
			return exitClean
		}
		d := detect.Lookup(args[0])
		if d == nil {
			fmt.Fprintf(stderr, "runaway detectors: no detector %q; 'runaway detectors' lists them\n", args[0])
			return exitUsage
		}
		doc, err := docs.Detectors.ReadFile("detectors/" + d.ID + ".md")
		if err != nil {
			fmt.Fprintf(stderr, "runaway detectors: %v\n", err)
			return exitFailure
		}
		if _, err := stdout.Write(doc); err != nil {
			return exitFailure
		}
		return exitClean
	}
	fmt.Fprintln(stderr, "Usage: runaway detectors [ID|slug]")
	return exitUsage
}

func listDetectors(stdout, stderr io.Writer) int {
	params := map[string]detect.Param{}
	for _, p := range detect.Params() {
		params[p.Key] = p
	}
	t := tablewriter.NewTable(stdout)
	t.Header("ID", "SLUG", "ROOT CAUSE", "THRESHOLDS (default, source)")
	for _, d := range detect.Registry {
		var th []string
		for _, k := range d.Params {
			p := params[k]
			s := k + "=" + p.Default
			if p.Source != "" {
				s += " (" + p.Source + ")"
			}
			th = append(th, s)
		}
		cause := string(d.RootCause)
		if d.Symptom {
			cause += " (symptom)"
		}
		if err := t.Append(d.ID, d.Slug, cause, strings.Join(th, "\n")); err != nil {
			fmt.Fprintf(stderr, "runaway detectors: %v\n", err)
			return exitFailure
		}
	}
	if err := t.Render(); err != nil {
		fmt.Fprintf(stderr, "runaway detectors: %v\n", err)
		return exitFailure
	}
	return exitClean
}
