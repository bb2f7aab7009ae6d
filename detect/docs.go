package detect

import (
	"fmt"
	"strings"
)

// The parts of the detector pages that are generated from the code:
// docs/detectors/<ID>.md's table of thresholds, and the index page
// docs/detectors/README.md. TestGenerated fails when a page on disk is not
// what these functions write; `go test ./detect -run TestGenerated -update`
// rewrites them.

// GeneratedBegin and GeneratedEnd enclose the generated table of a page.
const (
	GeneratedBegin = "<!-- Generated from detect's threshold table by `go test ./detect -run TestGenerated -update`: do not edit. -->"
	GeneratedEnd   = "<!-- End of generated table. -->"
)

// ThresholdsMarkdown is the table of the thresholds d reads, with their
// defaults, the values they may take, what they mean and where the
// numbers come from.
func ThresholdsMarkdown(d *Detector) string {
	params := map[string]Param{}
	for _, p := range Params() {
		params[p.Key] = p
	}
	var b strings.Builder
	b.WriteString("| policy key | default | allowed | meaning | source |\n|---|---|---|---|---|\n")
	for _, key := range d.Params {
		p := params[key]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", key, p.Default, allowed(key), p.Help, p.Source)
	}
	return b.String()
}

// allowed says which values a policy key takes.
func allowed(key string) string {
	if key == "volatile_keys" {
		return "a list of keys"
	}
	for _, t := range thresholds {
		if t.key != key {
			continue
		}
		switch {
		case t.max > t.min:
			return fmt.Sprintf("%v to %v", t.min, t.max)
		case t.above:
			return fmt.Sprintf("above %v", t.min)
		case t.atLeast != "":
			return fmt.Sprintf(">= %v and >= `%s`", t.min, t.atLeast)
		case t.none:
			return ">= 0 (0: no limit)"
		}
		return fmt.Sprintf(">= %v", t.min)
	}
	return ""
}

// IndexMarkdown is docs/detectors/README.md: every detector, what it finds
// and the root cause it names.
func IndexMarkdown() string {
	var b strings.Builder
	b.WriteString(`# Detectors

` + GeneratedBegin + `

Each detector finds one loop pattern in a run's steps and names the root cause it points to;
its page says what it looks for, what it does not report, its thresholds, the evidence it
gives and the guard that would have stopped the pattern. IDs are permanent: RA1xx tool calls,
RA2xx control flow, RA3xx errors, RA4xx budgets, RA5xx memory, RA6xx results. A detector is a
` + "`Detector`" + ` value in ` + "`detect/`" + ` (data, plus the function that finds the pattern) listed in
` + "`detect.Registry`" + `; docs/root-causes.md says how the findings of a run become one verdict.

| ID | name | finds | root cause | thresholds |
|---|---|---|---|---|
`)
	for _, d := range Registry {
		cause := string(d.RootCause)
		if d.Symptom {
			cause += " (symptom)"
		}
		keys := make([]string, len(d.Params))
		for i, k := range d.Params {
			keys[i] = "`" + k + "`"
		}
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s | %s |\n", d.ID, d.ID, d.Slug, d.Title, cause, strings.Join(keys, ", "))
	}
	b.WriteString("\n" + GeneratedEnd + "\n")
	return b.String()
}
