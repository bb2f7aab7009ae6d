package adapters

import (
	"regexp"

	"github.com/runawayhq/runaway/schema"
)

// An edit made by a script (sed, awk, perl, a Python program) often
// answers "ok" whatever it did: a pattern that matched nothing changes
// nothing and says nothing. What shows it is the agent itself, in the
// words it writes next: "my previous insertion didn't place the
// block", "the file is unchanged", "the replacement didn't happen".
// Those words are the agent's reading of the file it just looked at; a
// person judging the run reads them the same way.

// reSaidEditMissed is the agent's next words saying its last edit did not
// land: it did not apply, change, insert or replace; the change was not
// made; the file is unchanged.
var reSaidEditMissed = regexp.MustCompile(`(?i)\b(?:did ?n[o']t|failed to|was ?n[o']t able to|could ?n[o']t|never)\s+(?:actually\s+|properly\s+|correctly\s+|successfully\s+)?(?:apply|take effect|place|insert|add|replace|modify|update|land|persist|get applied|make (?:the|any) changes?|change (?:the|anything|the file))\b|\b(?:was|were|has|have) ?(?:n[o']t|not)\s+(?:been\s+)?(?:actually\s+|properly\s+|correctly\s+|successfully\s+)?(?:applied|inserted|placed|replaced|modified|updated|written)\b|\bno changes? (?:was|were) (?:made|applied)\b|\b(?:file|code|line|lines|content|block|function|method|source)s? (?:is|are|was|were|remains?|remained|stayed|stays|looks?|appears?) (?:still |completely |entirely )?unchanged\b|\bnothing (?:was |got )?(?:changed|replaced|inserted|modified)\b|\b(?:had|has|made) no effect\b|\b(?:edit|change|insertion|replacement|substitution|patch|modification|sed|awk|perl)(?: command)?s? (?:didn't|did not|never|doesn't|does not) (?:happen|go through|stick|work|match)\b`)

// reEditorConfirmed is an editor's own word that the change was made
// (Claude Code's "The file ... has been updated successfully.", "File
// created successfully at: ..."): the editor checked what a script's
// silence does not, and the agent's next words, often about another file,
// do not overrule it.
var reEditorConfirmed = regexp.MustCompile(`(?i)\bhas been (?:updated|edited|modified|written|created) successfully\b|^File created successfully\b`)

// readSaidEditMisses gives an edit whose logged output says nothing failed
// the error EDIT_REJECTED when the agent's next words (the first
// sentences, up to a turn into a plan) say it did not land, unless the
// editor confirmed the change (reEditorConfirmed).
func (r *run) readSaidEditMisses() {
	if r.strip {
		return // stripped outputs go through readSaidOutcomes
	}
	r.eachWordsAfter(func(s *schema.Step) bool {
		res := s.ToolResult
		return s.Intent == schema.IntentEdit && res != nil && res.ErrorType == "" && (res.OK == nil || *res.OK) &&
			!reEditorConfirmed.MatchString(text(res.Data))
	}, func(call *schema.Step, words string) {
		if sentence, ok := openingMatch(words, reSaidEditMissed); ok {
			rejectEdit(call.ToolResult, "the agent's next words: "+clip(sentence, maxSaidReason))
		}
	})
}

// openingMatch reads the opening sentences of the words, each up to a turn
// into a plan (openingReports), for re, and returns the first sentence
// that matches.
func openingMatch(words string, re *regexp.Regexp) (matched string, ok bool) {
	openingReports(words, func(report, sentence string) bool {
		if re.MatchString(report) {
			matched, ok = sentence, true
		}
		return ok
	})
	return matched, ok
}

// reAskedExactText is the agent's next words, after an edit, asking for the
// exact text it must replace: "show the exact lines to craft a precise
// replacement", "view the file again to get the exact content". An agent
// whose edit landed does not need its target's exact characters again.
var reAskedExactText = regexp.MustCompile(`(?i)\bexact(?:ly)?\s+(?:[\w-]+\s+){0,3}?(?:content|text|lines?|whitespace|indentation|string|formatting|characters|snippet)\b`)

// reAskedPreciseText is the same ask in other words: "show the block to
// craft an accurate replacement", "capture precise whitespace". An agent
// whose replacement landed has no new one to make precise.
var reAskedPreciseText = regexp.MustCompile(`(?i)\b(?:precise|accurate)\s+(?:[\w-]+\s+){0,2}?(?:content|text|lines?|whitespace|indentation|string|formatting|characters|snippet|replacements?|match|payload)\b`)

// reSameAs is "exactly the same", which says a thing matches, not that the
// agent needs the text.
var reSameAs = regexp.MustCompile(`(?i)^exact(?:ly)?\s+(?:the\s+)?same\b`)

// askedExactText is the words' first ask for exact text, "" when none.
func askedExactText(words string) string {
	for _, m := range reAskedExactText.FindAllString(words, -1) {
		if !reSameAs.MatchString(m) {
			return m
		}
	}
	return reAskedPreciseText.FindString(words)
}

// readAskedExactText types a replacement whose output was not logged, and
// that has no outcome of its own, EDIT_REJECTED when the agent's next
// words ask for its target's exact text. A logged answer says itself
// whether the text was replaced.
func (r *run) readAskedExactText() {
	r.readAskedExactFor(func(s *schema.Step) bool {
		_, ok := editTarget(s.ToolCall.Name, s.ToolCall.Args)
		return ok
	})
}

// readAskedExactScripts does for the other edits what readAskedExactText
// does for replacements: an edit made by a script (a Python program that
// replaces one text with another, sed, awk) whose output was not logged,
// followed by words asking for the exact text, missed its target as a
// replacement does. It runs after the rules that compare replacements
// (markRewrites and the like), which read only the replacements, so that
// what they conclude stays as it was.
func (r *run) readAskedExactScripts() {
	r.readAskedExactFor(func(s *schema.Step) bool {
		if s.Intent != schema.IntentEdit {
			return false
		}
		_, replacement := editTarget(s.ToolCall.Name, s.ToolCall.Args)
		return !replacement
	})
}

// readAskedExactFor types EDIT_REJECTED the calls that edit picks, whose
// output was not logged and that have no outcome of their own, when the
// agent's next words ask for the exact text.
func (r *run) readAskedExactFor(edit func(s *schema.Step) bool) {
	r.eachWordsAfter(func(s *schema.Step) bool {
		return r.outputAbsent(s) && edit(s)
	}, func(call *schema.Step, words string) {
		if m := askedExactText(words[:min(len(words), maxAskedChars)]); m != "" {
			if call.ToolResult == nil {
				setResult(call, "", "", false) // a call that never returned: its reply was not logged either
			}
			rejectEdit(call.ToolResult, "the agent's next words ask for the exact text to replace: "+clip(m, maxSaidReason))
		}
	})
}

// maxAskedChars is how much of the words is read for an ask: the agent's
// reaction to the edit comes first, what it plans to do after it later.
const maxAskedChars = 300
