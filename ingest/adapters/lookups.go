package adapters

import (
	"regexp"
	"slices"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// A file view is often a lookup: the agent says it is looking for a
// function ("Let's continue looking for the `_nthroot_mod1` function") and
// shows a window of a file. When the window does not hold the name it
// looks for, the lookup found nothing, however much new text it shows: an
// agent paging through a file for a function that is not there reads
// page after page of text that does not answer it, and every page looks
// like news to a reader of bytes. Such a view is read as an empty result,
// as a search that matched nothing is.

// noteView records that the call s shows a window of a file (a view, an
// open, a scroll, a sed -n).
func (r *run) noteView(s *schema.Step, view bool) {
	if !view {
		return
	}
	if r.views == nil {
		r.views = map[*schema.Step]bool{}
	}
	r.views[s] = true
}

// markMissedLookups marks as empty the views that looked for a name they
// do not show (soughtNames, missedLookup). Without the output (stripped)
// there is nothing to look in.
func (r *run) markMissedLookups() {
	if r.strip {
		return
	}
	for s := range r.views {
		tr := s.ToolResult
		if tr == nil || (tr.OK != nil && !*tr.OK) || (tr.Empty != nil && *tr.Empty) || s.Decision == nil {
			continue
		}
		out := resultText(tr)
		if strings.TrimSpace(out) == "" {
			continue
		}
		if missedLookup(s.Decision.Reason, out) {
			empty := true
			tr.Empty = &empty
		}
	}
}

// missedLookup reports whether a thought looks for names (soughtNames)
// and the output shows none of them.
func missedLookup(thought, out string) bool {
	names := soughtNames(thought)
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if strings.Contains(out, n) {
			return false
		}
	}
	return true
}

// reSeeks finds a thought that says it is looking for something; the
// phrases are English.
var reSeeks = regexp.MustCompile(`(?i)\b(?:look(?:ing)? for|search(?:ing)? for|find(?:ing)?|locat(?:e|ing)|where (?:is|are)|hunt(?:ing)? for)\b`)

// reCodeName finds the names of code a thought mentions: a word in
// backticks, or a word written as code is (snake_case, CamelCase inside,
// a call's parentheses).
var reCodeName = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)(?:\\(\\))?`|\\b([A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\\b")

// soughtNames are the names of code a thought looks for: none when it
// does not say it looks for something.
func soughtNames(thought string) []string {
	if thought == "" || !reSeeks.MatchString(thought) {
		return nil
	}
	var names []string
	for _, m := range reCodeName.FindAllStringSubmatch(thought, 8) {
		n := m[1]
		if n == "" {
			n = m[2]
		}
		if len(n) >= 3 && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
