package report

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/detect"
	"github.com/runawayhq/runaway/schema"
)

// Redactor replaces text from agent logs with short stable placeholders, so
// a report can leave the team: the same input gives the same placeholder,
// so repeated calls still show as repeated. *redact.Redactor is one.
type Redactor interface {
	// Text replaces free text (a goal, a reason).
	Text(s string) string
	// JSON replaces the values of a JSON document, keeping its shape.
	JSON(raw []byte) ([]byte, error)
}

// RedactArgs renders args text for evidence with its values replaced: args
// as logged (JSON) keep their keys and shape, each value a placeholder; args
// already cut short ("…", no longer JSON) or not JSON become one
// placeholder. Args hashes ("sha256:...") are kept: they are not the args.
func RedactArgs(args string, red Redactor) string {
	if args == "" || strings.HasPrefix(args, "sha256:") {
		return args
	}
	if json.Valid([]byte(args)) {
		if out, err := red.JSON([]byte(args)); err == nil {
			return string(schema.AppendShortArgs(nil, out, schema.ShortArgsBytes))
		}
	}
	return red.Text(args)
}

// SplitCallText splits a call as evidence renders it, "tool args", into the
// tool and the args. The args begin at the first " {", " [" or ` "`; else
// they are the last word (a scalar or an args hash); a text without a space
// is a tool alone. A tool name holding one of those sequences is split too
// early: then part of the name is redacted with the args, never part of the
// args left in clear.
func SplitCallText(call string) (tool, args string) {
	cut := -1
	for _, sep := range []string{" {", " [", ` "`} {
		if k := strings.Index(call, sep); k >= 0 && (cut < 0 || k < cut) {
			cut = k
		}
	}
	if cut < 0 {
		cut = strings.LastIndexByte(call, ' ')
	}
	if cut < 0 {
		return call, ""
	}
	return call[:cut], call[cut+1:]
}

// queriesLike prefixes the call RA601 names when its empty results have no
// intent: "queries like tool args".
const queriesLike = "queries like "

// RedactRun returns r with every args value in its evidence replaced: the
// keys that name a call (tool and args, see docs/output.md "Args in
// evidence") and the messages and headline that quote them. Detectors quote
// args only through those keys, so replacing each key's text wherever it
// appears covers the messages. r is not modified.
func RedactRun(r detect.RunResult, red Redactor) detect.RunResult {
	pairs := map[string]string{}
	for _, f := range r.Findings {
		if !namesCalls(f.Detector) {
			continue
		}
		for _, k := range f.Evidence.Keys {
			call := strings.TrimPrefix(k, queriesLike)
			if call == k && f.Detector == "RA601" {
				continue // "intent X": no call
			}
			tool, args := SplitCallText(call)
			if args != "" {
				pairs[call] = tool + " " + RedactArgs(args, red)
			}
		}
	}
	if len(pairs) == 0 {
		return r
	}
	return RewriteCallTexts(r, NewReplacer(pairs).Replace)
}

// RewriteCallTexts returns r with replace applied to the texts that quote
// calls: the headline, each finding's message and evidence keys. r's
// slices are not modified.
func RewriteCallTexts(r detect.RunResult, replace func(string) string) detect.RunResult {
	r.Headline = replace(r.Headline)
	r.Findings = slices.Clone(r.Findings)
	for k := range r.Findings {
		f := &r.Findings[k]
		f.Message = replace(f.Message)
		f.Evidence.Keys = slices.Clone(f.Evidence.Keys)
		for i, key := range f.Evidence.Keys {
			f.Evidence.Keys[i] = replace(key)
		}
	}
	return r
}

// namesCalls lists the detectors whose evidence keys are calls: RA101,
// RA102, RA103, RA302, RA303 key the repeated call, RA601 the query when
// its empty results have no intent. The others key memory ids (RA501) or
// budgets (RA401), which are not args.
func namesCalls(detector string) bool {
	switch detector {
	case "RA101", "RA102", "RA103", "RA302", "RA303", "RA601":
		return true
	}
	return false
}

// NewReplacer replaces each key of pairs by its value, longer keys first
// where two match at one place, so a call is never half replaced by a
// shorter call that prefixes it.
func NewReplacer(pairs map[string]string) *strings.Replacer {
	olds := make([]string, 0, len(pairs))
	for k := range pairs {
		if k != "" {
			olds = append(olds, k)
		}
	}
	slices.SortFunc(olds, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	args := make([]string, 0, 2*len(olds))
	for _, k := range olds {
		args = append(args, k, pairs[k])
	}
	return strings.NewReplacer(args...)
}
