package adapters

import (
	"regexp"

	"github.com/runawayhq/runaway/schema"
)

// An edit that lands and leaves its file broken did not land either
// (docs/detectors/RA301.md): with the output logged, the compile error
// raised in that file says so. With the output not logged, the agent says
// it, in the words it writes before it edits that file again: "Fix the
// stray indentation before the @classmethod decorator", "Replace the
// broken CheckboxInput class block with a clean, correctly-indented
// version to fix the IndentationError". A person reading such a log sees
// the change made, then made again to repair what it broke.

// reSaidBroken is words, before an edit, naming the code it edits as
// broken: its indentation or syntax to fix, a block broken, corrupted,
// malformed, mangled, garbled or mis-indented, a stray line, an
// IndentationError or SyntaxError.
var reSaidBroken = regexp.MustCompile(`(?i)\b(?:broken|corrupt(?:ed|ion)?|malformed|mangled|garbled|mis-?indent(?:ed|ation)|stray|(?:Indentation|Syntax|Tab)Error|(?:indentation|syntax) (?:error|issue|problem)s?|unexpected indent|(?:fix|fixes|fixing|repair|repairs|repairing|correct|corrects|correcting)\s+(?:the\s+|its\s+|their\s+)?indentation)\b`)

// readRepairsAnnounced types EDIT_FAILED an edit whose output was not
// logged, and that has no outcome of its own, when the agent's next edit
// changes the same file and the words before that edit (the first
// sentences, each up to a turn into a plan) call the code broken: the
// first edit left its file broken, and the second is that change made
// again. A file the run wrote whole is the agent's own script, which it
// rewrites as its checks go (docs/detectors/RA301.md), and is left alone.
// No edit of another file may come between the two, nor a command
// that can put the file's old text back (a git checkout, a copy): the
// words would then speak of other work.
func (r *run) readRepairsAnnounced() {
	var last *schema.Step // the last edit, while no restore came after it
	var lastFile uint64
	written := map[uint64]bool{} // files the run wrote whole: its own scripts
	for _, s := range r.steps {
		if s.ToolCall == nil {
			continue
		}
		if s.Intent != schema.IntentEdit {
			if reRestore.Match(s.ToolCall.Args) {
				last = nil
			}
			continue
		}
		file := schema.EditFileKey(s.ToolCall.Args)
		if schema.CreatesFile(s.ToolCall.Name, s.ToolCall.Args) {
			written[file] = true
		}
		if last != nil && file != 0 && file == lastFile && !written[file] && !reRestore.Match(s.ToolCall.Args) &&
			s.Decision != nil && last.Decision != nil && r.outputAbsent(last) {
			_, repair := openingMatch(last.Decision.Reason, reSaidBroken)
			if sentence, ok := openingMatch(s.Decision.Reason, reSaidBroken); ok && repair {
				res := last.ToolResult
				if res == nil {
					setResult(last, "", "", false)
					res = last.ToolResult
				}
				f := false
				res.OK, res.ErrorType, res.Empty = &f, schema.ErrEditFailed, nil
				res.Reason = "the agent's words before its next edit of the file call it broken: " + clip(sentence, maxSaidReason)
			}
		}
		last, lastFile = s, file
	}
}
