package adapters

import (
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

// noteViewCut records that the logger kept only the beginning of the view
// s: what the agent saw past it is not in the log.
func (r *run) noteViewCut(s *schema.Step) {
	if r.viewCut == nil {
		r.viewCut = map[*schema.Step]bool{}
	}
	r.viewCut[s] = true
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
		if tr == nil || (tr.OK != nil && !*tr.OK) || (tr.Empty != nil && *tr.Empty) || s.Decision == nil || r.viewCut[s] {
			continue
		}
		out := resultText(tr)
		if strings.TrimSpace(out) == "" || listsDirectory(out) {
			continue
		}
		if missedLookup(s.Decision.Reason, out) {
			empty := true
			tr.Empty = &empty
			if tr.Reason == "" {
				tr.Reason = missedLookupReason(soughtNames(s.Decision.Reason))
			}
		}
	}
}

// missedLookupReason says why a view was read as empty: the names its
// thought looked for, none of them in the window shown.
func missedLookupReason(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return "a view looking for " + strings.Join(quoted, " or ") + " that does not show it"
}

// A view of a directory lists the names of its files, not what they hold:
// the agent that looks there for a function ("let's look at the template
// directory to find the `floatformat` filter") learns which file to open,
// and the listing is its answer, not a window that missed.

// editorDirHeader opens the file editor's listing of a directory
// (SWE-agent's and OpenHands' str_replace_editor, Anthropic's text editor).
const editorDirHeader = "Here's the files and directories"

// listsDirectory reports whether a view's output lists a directory: the
// editor's listing, or lines that are each one bare path (a folder tool's
// `src/models/:` then `bert.py`, a tree's `├── bert.py`), one at least
// with a dot or a slash.
func listsDirectory(out string) bool {
	out = strings.TrimSpace(out)
	if strings.HasPrefix(out, editorDirHeader) {
		return true
	}
	n, named := 0, false
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, " \r\n")
		line = strings.TrimLeft(line, " │├└─")
		if line == "" {
			continue
		}
		if !barePath(line) {
			return false
		}
		n++
		named = named || strings.ContainsAny(line, "./")
	}
	return n >= 2 && named
}

// barePath reports whether a line is one path and nothing else: no blank
// or tab inside, none of code's punctuation, a colon only closing a
// directory's name (`src/models/:`).
func barePath(line string) bool {
	if strings.HasSuffix(line, ":") {
		if !strings.HasSuffix(line, "/:") {
			return false
		}
		line = strings.TrimSuffix(line, ":")
	}
	if strings.ContainsAny(line, " \t()[]{}=;,:'\"<>#*+|&!?$%@`") {
		return false
	}
	return strings.Trim(line, ".") != ""
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

// seekPhrases are how a thought says it is looking for something
// (lower case, English).
var seekPhrases = []string{"look for", "looking for", "search for", "searching for", "find", "locate", "where is", "where are", "hunt for", "hunting for"}

// seeks reports whether a thought says it is looking for something.
func seeks(thought string) bool {
	lower := strings.ToLower(thought)
	for _, p := range seekPhrases {
		for at := 0; ; {
			k := strings.Index(lower[at:], p)
			if k < 0 {
				break
			}
			k += at
			end := k + len(p)
			if (k == 0 || !isWordByte(lower[k-1])) && (wordEnds(lower, end) || p == "find" && findsOn(lower, end)) {
				return true
			}
			at = k + 1
		}
	}
	return false
}

// wordEnds reports whether no word byte follows at.
func wordEnds(s string, at int) bool { return at == len(s) || !isWordByte(s[at]) }

// findsOn reports whether "find" at end goes on as its own forms do
// ("finds", "finding"), not as a name that begins so (findpaths.py).
func findsOn(s string, end int) bool {
	for _, suf := range []string{"s", "ing"} {
		if strings.HasPrefix(s[end:], suf) && wordEnds(s, end+len(suf)) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// codeName reports whether a word is written as code is: snake_case, or
// with a capital inside (camelCase, CamelCase).
func codeName(w string) bool {
	if strings.Contains(w, "_") {
		return strings.Trim(w, "_") != "" && !(w[0] >= '0' && w[0] <= '9')
	}
	for i := 1; i < len(w); i++ {
		if 'A' <= w[i] && w[i] <= 'Z' && 'a' <= w[i-1] && w[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// maxSoughtNames bounds the names read from one thought.
const maxSoughtNames = 8

// soughtNames are the names of code a thought looks for (a word in
// backticks, or written as code is: codeName), at least three letters
// long: none when it does not say it looks for something (seeks).
func soughtNames(thought string) []string {
	if thought == "" || !seeks(thought) {
		return nil
	}
	var names []string
	add := func(n string) {
		if len(n) >= 3 && len(names) < maxSoughtNames && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for i := 0; i < len(thought); {
		c := thought[i]
		if !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(thought) && isWordByte(thought[j]) {
			j++
		}
		w := thought[i:j]
		ticked := i > 0 && thought[i-1] == '`' && (j < len(thought) && (thought[j] == '`' || strings.HasPrefix(thought[j:], "()`")))
		if ((ticked && !(w[0] >= '0' && w[0] <= '9')) || codeName(w)) && !inPath(thought, i, j) && !errorName(w) {
			add(w)
		}
		i = j
	}
	return names
}

// A name written in a file's path (`django/forms/__init__.py`,
// `BRING_ONLINE.sh`) says where the agent looks, not what for: the view
// shows the file's lines, not its name, so the name is never in it.

// sourceExts are file name endings that a path names (lower case).
var sourceExts = []string{"py", "pyi", "js", "jsx", "ts", "tsx", "mjs", "java", "kt", "go", "rs", "rb", "php", "c", "h", "cc", "cpp", "hpp", "cs", "swift", "scala", "sh", "bash", "json", "yml", "yaml", "toml", "cfg", "ini", "md", "rst", "txt", "html", "css", "scss", "xml", "proto", "sql", "log"}

// inPath reports whether the word thought[i:j] is part of a path: the
// word is followed by a file name's ending (`.py`) that ends its token
// (the text between blanks), or the token is a path of folders
// (`src/_pytest/mark/`, `django/contrib/admin/views`: a slash at its end,
// or two inside). One slash alone joins alternatives (`Select/RadioSelect`).
func inPath(thought string, i, j int) bool {
	start, end := i, j
	for start > 0 && !isSpaceByte(thought[start-1]) {
		start--
	}
	for end < len(thought) && !isSpaceByte(thought[end]) {
		end++
	}
	token := strings.Trim(thought[start:end], "`'\"()[]{},;:")
	token = strings.TrimRight(token, ".")
	if strings.HasSuffix(token, "/") || strings.Count(token, "/") >= 2 {
		return true
	}
	for at := j; at < len(thought) && thought[at] == '.'; {
		k := at + 1
		for k < len(thought) && isWordByte(thought[k]) {
			k++
		}
		if k < len(thought) && thought[k] == '.' && k+1 < len(thought) && isWordByte(thought[k+1]) {
			at = k // a name with dots (`setup.cfg.in`, `mod.sub.py`) reads on
			continue
		}
		return wordEnds(thought, k) && slices.Contains(sourceExts, strings.ToLower(thought[at+1:k]))
	}
	return false
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// errorName reports whether a name is an error's or a warning's
// (`SyntaxError`, `KeyError`, `BytesWarning`): the agent names what went wrong and looks
// for where, and the code that fails need not name it (Python raises
// SyntaxError and KeyError itself).
func errorName(w string) bool {
	for _, suf := range []string{"Error", "Exception", "Warning"} {
		if len(w) > len(suf) && strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}
