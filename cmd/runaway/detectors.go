package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/docs"
	"github.com/runawayhq/runaway/report"
)

func runDetectors(args []string, stdout, stderr io.Writer) int {
	fs := lookupCommand("detectors").flags()
	if code, ok := parseFlags(fs, args, "detectors", stdout, stderr); !ok {
		return code
	}
	switch fs.NArg() {
	case 0:
		return listDetectors(stdout, stderr)
	case 1:
		d := detect.Lookup(fs.Arg(0))
		if d == nil {
			fmt.Fprintf(stderr, "runaway detectors: no detector %q; 'runaway detectors' lists them\n", fs.Arg(0))
			return exitUsage
		}
		doc, err := docs.Detectors.ReadFile("detectors/" + d.ID + ".md")
		if err != nil {
			fmt.Fprintf(stderr, "runaway detectors: %s\n", errText(err))
			return exitFailure
		}
		// The page as a person reads it: without the markers of its generated table.
		doc = bytes.ReplaceAll(doc, []byte(detect.GeneratedBegin+"\n"), nil)
		doc = bytes.ReplaceAll(doc, []byte(detect.GeneratedEnd+"\n"), nil)
		if _, err := stdout.Write(doc); err != nil {
			return exitFailure
		}
		return exitClean
	}
	fmt.Fprintln(stderr, "runaway detectors: takes at most one detector id or slug")
	writeShortUsage(stderr, "detectors")
	return exitUsage
}

func listDetectors(stdout, stderr io.Writer) int {
	params := map[string]detect.Param{}
	for _, p := range detect.Params() {
		params[p.Key] = p
	}
	t := report.NewTable()
	t.Header("ID", "SLUG", "ROOT CAUSE", "THRESHOLDS: key=default (source)")
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
		if len(th) == 0 {
			th = []string{"-"}
		}
		cause := string(d.RootCause)
		if d.Symptom {
			cause += " (symptom)"
		}
		for k, line := range th {
			row := []string{d.ID, d.Slug, cause, line}
			if k > 0 {
				row = []string{"", "", "", line}
			}
			t.Append(row...)
		}
	}
	if err := t.Render(stdout); err != nil {
		fmt.Fprintf(stderr, "runaway detectors: %s\n", errText(err))
		return exitFailure
	}
	if err := detect.WriteGuideLegend(stdout); err != nil {
		fmt.Fprintf(stderr, "runaway detectors: %s\n", errText(err))
		return exitFailure
	}
	return exitClean
}
