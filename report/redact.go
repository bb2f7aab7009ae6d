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
	// Secrets replaces only the secrets (API keys, tokens, credentials,
	// emails) of s by their placeholders: names and ids stay readable.
	Secrets(s string) string
	// SecretsIn calls fn with each secret of s and its placeholder.
	SecretsIn(s string, fn func(secret, placeholder string))
}

// Scrubber takes the secrets out of the strings of one unit of a report (a
// run's result, a post-mortem): See every string first, then Scrub each.
// A secret found in any of them is replaced wherever it appears, even where
// what surrounds it hides it from the patterns (an error type in the count
// name "error_<type>", a word character before it); Scrub then replaces the
// secrets the patterns find in the string itself. A placeholder depends
// on the secret alone, so the same secret reads the same in every run and
// output, and different secrets differently.
type Scrubber struct {
	red   Redactor
	pairs map[string]string
	rep   *strings.Replacer
}

// NewScrubber returns a Scrubber with red's placeholders.
func NewScrubber(red Redactor) *Scrubber { return &Scrubber{red: red} }

// See records the secrets of s.
func (sc *Scrubber) See(s string) {
	sc.red.SecretsIn(s, func(secret, placeholder string) {
		if _, ok := sc.pairs[secret]; !ok {
			if sc.pairs == nil {
				sc.pairs = map[string]string{}
			}
			sc.pairs[secret] = placeholder
			sc.rep = nil
		}
	})
}

// Scrub returns s without the secrets seen, nor any the patterns find in it.
func (sc *Scrubber) Scrub(s string) string {
	if s == "" {
		return s
	}
	if len(sc.pairs) > 0 {
		if sc.rep == nil {
			sc.rep = NewReplacer(sc.pairs)
		}
		s = sc.rep.Replace(s)
	}
	return sc.red.Secrets(s)
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
// intent, and RA602 always: "queries like tool args".
const queriesLike = "queries like "

// RedactRun returns r with every args value in its evidence replaced, and
// no secret in any of its strings. Args: the keys that name a call (tool
// and args, see docs/output.md "Args in evidence") and the messages and
// headline that quote them; detectors quote args only through those keys,
// so replacing each key's text wherever it appears covers the messages.
// Secrets: the run id, tool names, error types, memory ids and intents
// are kept but for the secrets they hold (Scrubber), wherever they are
// shown (the run id, messages, keys, count names, tool_errors_by_type,
// data_problems). r is not modified.
func RedactRun(r detect.RunResult, red Redactor) detect.RunResult {
	return scrubRun(redactArgs(r, red), red)
}

// redactArgs replaces the args values of r's evidence (RedactRun).
func redactArgs(r detect.RunResult, red Redactor) detect.RunResult {
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

// scrubRun takes the secrets out of every string of r (RedactRun). Its
// slices and map are copied before they change.
func scrubRun(r detect.RunResult, red Redactor) detect.RunResult {
	sc := NewScrubber(red)
	eachString(&r, sc.See)
	if len(sc.pairs) == 0 {
		return r // See looked for secrets in every string: none holds one
	}
	r.RunID = sc.Scrub(r.RunID)
	r.Headline = sc.Scrub(r.Headline)
	r.Findings = slices.Clone(r.Findings)
	for k := range r.Findings {
		f := &r.Findings[k]
		f.Message = sc.Scrub(f.Message)
		f.Evidence.Keys = slices.Clone(f.Evidence.Keys)
		for i := range f.Evidence.Keys {
			f.Evidence.Keys[i] = sc.Scrub(f.Evidence.Keys[i])
		}
		f.Evidence.Counts = slices.Clone(f.Evidence.Counts)
		for i := range f.Evidence.Counts {
			f.Evidence.Counts[i].Name = sc.Scrub(f.Evidence.Counts[i].Name)
		}
	}
	if byType := r.Indicators.ToolErrorsByType; len(byType) > 0 {
		r.Indicators.ToolErrorsByType = make(map[string]int64, len(byType))
		for t, n := range byType {
			r.Indicators.ToolErrorsByType[sc.Scrub(t)] += n
		}
	}
	r.DataProblems = slices.Clone(r.DataProblems)
	for i := range r.DataProblems {
		r.DataProblems[i] = sc.Scrub(r.DataProblems[i])
	}
	return r
}

// eachString calls fn with every string of r that comes from the input
// (what scrubRun rewrites); the others are runaway's own words (detector
// ids, slugs, root causes, signals, guards).
func eachString(r *detect.RunResult, fn func(string)) {
	fn(r.RunID)
	fn(r.Headline)
	for _, f := range r.Findings {
		fn(f.Message)
		for _, k := range f.Evidence.Keys {
			fn(k)
		}
		for _, c := range f.Evidence.Counts {
			fn(c.Name)
		}
	}
	for t := range r.Indicators.ToolErrorsByType {
		fn(t)
	}
	for _, p := range r.DataProblems {
		fn(p)
	}
}

// RedactInput takes the secrets out of what the summary says of the input:
// the sources that failed or were skipped, named by path or URL.
func RedactInput(in *InputStats, red Redactor) {
	in.FailedSources = slices.Clone(in.FailedSources)
	for i, s := range in.FailedSources {
		in.FailedSources[i] = red.Secrets(s)
	}
	in.SkippedFiles = slices.Clone(in.SkippedFiles)
	for i, s := range in.SkippedFiles {
		in.SkippedFiles[i] = red.Secrets(s)
	}
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
	case "RA101", "RA102", "RA103", "RA302", "RA303", "RA601", "RA602":
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
