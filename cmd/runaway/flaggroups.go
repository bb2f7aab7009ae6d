package main

import (
	"cmp"
	"slices"

	"github.com/spf13/pflag"

	"github.com/runawayhq/runaway/pipeline"
)

// flagGroup is a heading of a command's help, the man page and docs/cli.md:
// a command's flags are listed by what they are about, not in one
// alphabetical list of fifty.
type flagGroup int

const (
	groupInput flagGroup = iota
	groupOutput
	groupPolicy
	groupCorpus
	groupOther
)

// groupTitles are the headings, in the order help lists the groups.
var groupTitles = [...]string{
	groupInput:  "Input",
	groupOutput: "Output",
	groupPolicy: "Policy and threshold",
	groupCorpus: "Corpus",
	groupOther:  "Performance and other",
}

// policyNote is said under the policy heading: where a threshold's value
// comes from, and what the sources in brackets are.
const policyNote = "A threshold flag overrides --policy, which overrides the defaults. In brackets: where a default\n" +
	"comes from; the guides named there are summarised in docs/design.md, \"Where the patterns and\n" +
	"the numbers come from\"; 'runaway detectors' lists the thresholds per detector."

// flagGroups assigns every flag to its group: by name, or by
// "command.name" where a command's flag of that name is another thing (gen
// writes the --labels that eval and replay read). The detectors'
// thresholds are not listed: every flag pipeline.BindThresholds binds is in
// groupPolicy, so a new threshold needs no entry. TestEveryFlagHasAGroup
// fails on a flag with no group and on an entry no command has.
var flagGroups = map[string]flagGroup{
	// What is read, and how.
	"input-format":   groupInput,
	"include":        groupInput,
	"exclude":        groupInput,
	"max-line-bytes": groupInput,
	"max-doc-bytes":  groupInput,
	"strip-output":   groupInput,
	"prices":         groupInput,
	"rejects":        groupInput,
	"strict":         groupInput,
	"keep-going":     groupInput,
	"run":            groupInput,
	"all-flagged":    groupInput,
	"labels":         groupInput,
	"split":          groupInput,

	// What is written, where, and what the exit code says.
	"format":             groupOutput,
	"out":                groupOutput,
	"blind":              groupOutput,
	"output":             groupOutput,
	"color":              groupOutput,
	"max-rows":           groupOutput,
	"html-timelines":     groupOutput,
	"redact":             groupOutput,
	"no-redact":          groupOutput,
	"redact-key-file":    groupOutput,
	"fail-on":            groupOutput,
	"min-precision":      groupOutput,
	"min-recall":         groupOutput,
	"min-cause-accuracy": groupOutput,
	"min-onset-accuracy": groupOutput,
	"examples":           groupOutput,
	"list":               groupOutput,
	"update":             groupOutput,
	"force":              groupOutput,
	"minimize":           groupOutput,
	"gen.out":            groupOutput,
	"gen.labels":         groupOutput,

	// How runs are judged.
	"policy": groupPolicy,
	"guard":  groupPolicy,

	// What gen generates.
	"gen.runs":         groupCorpus,
	"gen.runaway-rate": groupCorpus,
	"gen.seed":         groupCorpus,
	"gen.interleave":   groupCorpus,
	"gen.causes":       groupCorpus,
	"gen.size":         groupCorpus,

	// How fast, in how much memory, how loud.
	"workers":         groupOther,
	"max-memory":      groupOther,
	"spill-dir":       groupOther,
	"quiet":           groupOther,
	"minimize-budget": groupOther,
}

// groupOf is the group of cmd's flag name; ok is false when the table
// has none for it.
func groupOf(cmd, name string) (g flagGroup, ok bool) {
	if g, ok := flagGroups[cmd+"."+name]; ok {
		return g, true
	}
	if g, ok := flagGroups[name]; ok {
		return g, true
	}
	if isThreshold(name) {
		return groupPolicy, true
	}
	return 0, false
}

func isThreshold(name string) bool { return pipeline.ThresholdKey(name) != "" }

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// groupedFlags is one group's visible flags, sorted by name.
type groupedFlags struct {
	group flagGroup
	flags []*pflag.Flag
}

// groupFlags sorts the visible flags of fs into their groups, in heading
// order, leaving out the empty ones; within a group by name, thresholds
// last. A flag with no group (a test fails
// on it) is listed under the last group rather than hidden.
func groupFlags(cmd string, fs *pflag.FlagSet) []groupedFlags {
	byGroup := make([][]*pflag.Flag, len(groupTitles))
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g, ok := groupOf(cmd, f.Name)
		if !ok {
			g = groupOther
		}
		byGroup[g] = append(byGroup[g], f)
	})
	var out []groupedFlags
	for g, flags := range byGroup {
		if len(flags) == 0 {
			continue
		}
		// By name, the thresholds after the flags they are tuned with.
		slices.SortFunc(flags, func(a, b *pflag.Flag) int {
			return cmp.Or(compareBool(isThreshold(a.Name), isThreshold(b.Name)), cmp.Compare(a.Name, b.Name))
		})
		out = append(out, groupedFlags{group: flagGroup(g), flags: flags})
	}
	return out
}

// valuesKey is the pflag annotation holding the values a flag takes, when
// the code has the list: help says them, completion offers them.
const valuesKey = "runaway_values"

// setValues records the values the flag name of fs takes.
func setValues(fs *pflag.FlagSet, name string, values ...string) {
	if err := fs.SetAnnotation(name, valuesKey, values); err != nil {
		panic(err) // a flag name misspelt in the code: every test that builds the flags sees it
	}
}

// flagValues are the values recorded for f, nil when any value goes.
func flagValues(f *pflag.Flag) []string { return f.Annotations[valuesKey] }
