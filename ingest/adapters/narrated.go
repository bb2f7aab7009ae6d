package adapters

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/runawayhq/runaway/schema"
)

// When a log keeps no tool output (the source never had it, or
// --strip-output dropped it), or keeps only its beginning (a logger that
// cuts outputs short, where a build's failure is in the part cut off),
// the agent's next words are the only witness of what a call returned:
// "No results yet from current searches", "I apologize for the
// persistent errors", "the edit was not applied". The
// rules below read those words for the call just before them. They read
// only the opening of the words (the agent's reaction comes first; what
// follows is the plan), and each sentence only up to a word that turns it
// into a plan or a condition ("to make sure", "if", "whether"), so "run
// the tests to make sure nothing fails" says nothing about the last call.
// A sentence that says the call worked before any says it failed leaves
// the result as it was.

// A SaidRule reads the opening of the agent's words after a call whose
// output was not logged. Empty rules say the call found nothing; the
// others that it failed. Every rule is listed, with its Doc, in the
// adapters' index page (TestAdapterDocs).
type SaidRule struct {
	Name      string
	Empty     bool
	ErrorType string // schema.ErrSaidFailed or ErrSaidAgain; "" when Empty
	Doc       string
	re        *regexp.Regexp
}

// SaidRules are tried on each sentence of the opening in order, the
// sentences in the order written; the first sentence that any rule (or
// saidWorked) matches decides.
var SaidRules = []SaidRule{
	{Name: "said-nothing-found", Empty: true,
		Doc: `the words say nothing came back: "no results", "no matches", "no search results", "didn't find", "returned nothing", "came back empty", "isn't returning any results", "hasn't produced any output"`,
		re:  regexp.MustCompile(`(?i)(?:\bnot|n't)(?: yet| been)? (?:returning|returned|producing|produced|showing|yielding|yielded|giving) (?:any |the )?(?:expected |useful |search |matching )?(?:results?|matches|output|hits)\b|\bno (?:search |matching |useful |relevant )?(?:results?|matches|match|hits|output|occurrences|usages?|references|entries|records)\b|\b(?:did ?n[o']t|could ?n[o']t|can ?n[o']t|cannot|failed to|unable to|wasn't able to|was not able to)\s+(?:find|locate|reveal|turn up|return)\b|\b(?:returned|found|finds|yield(?:s|ed)?|produced?|produces|gave|gives|shows?|showed)\s+(?:nothing|no\b|zero\b|an? empty\b)|\breturns?\s+(?:nothing|no\b|zero\b)|\b(?:came back|is|was|were|are) empty\b|\bnothing (?:was |is )?(?:found|returned|matched)\b`)},
	{Name: "said-still-failing", ErrorType: schema.ErrSaidAgain,
		Doc: `the words say a failure goes on: "still fails", "the same error", "the error persists", "persistent errors", "failed again", "still getting a discrepancy", "the mismatch persists", that the attempts so far all failed: "all previous attempts have failed", "the previous commands did not work", "I have been unable to", "I've been unable to", "errors consistently"`,
		re:  regexp.MustCompile(`(?i)\b(?:still|again|keeps?|continues? to)\b[^.;:]{0,40}?\b(?:fail\w*|errors?|erroring|exceptions?|issues?|problems?|discrepanc(?:y|ies)|mismatch(?:es)?|broken|not work\w*|doesn't work|does not work|isn't working|the same (?:error|issue|problem|failure|result|output|traceback))\b|\b(?:persist\w*|continued|continuing|repeated|recurring|same)\s+(?:\w+\s+)?(?:errors?|issues?|failures?|problems?|timeouts?|discrepanc(?:y|ies)|mismatch(?:es)?)\b|\b(?:errors?|issues?|failures?|problems?|discrepanc(?:y|ies)|mismatch(?:es)?) (?:persists?|remains?|recurs?)\b|\b(?:fail(?:s|ed)?|errored|broke) (?:again|once more)\b|\b(?:all|every one of|repeated|multiple|several|many|various|numerous|previous|prior|recent)\s+(?:[\w-]+\s+){0,2}?(?:attempts|tries|commands|calls|efforts|approaches|requests)\b[^.;:]{0,60}?\b(?:failed|fail|been unsuccessful|were unsuccessful|(?:did|have|has) ?n[o']t (?:worked|work|succeeded))\b|\b(?:have|has|'ve|'s) been (?:unable|unsuccessful|failing)\b|\b(?:errors?|failures?|issues?|problems?) (?:consistently|repeatedly)\b|\b(?:consistently|repeatedly) (?:fail\w*|erroring|getting errors?)\b`)},
	{Name: "said-failed", ErrorType: schema.ErrSaidFailed,
		Doc: `the words say the call failed: "failed", "didn't work", "was not applied", "timed out", "an error occurred", "we're having issues with", a sentence that opens on "the error", "the remaining failure" or "this discrepancy", "there is a mismatch", "I am unable to", "the build is failing", "fails to compile", "there was an indentation error", an apology for what the call did: "I apologize for the error", "I apologize for the confusion", "sorry for the mistake"`,
		re:  regexp.MustCompile(`(?i)^\s*(?:the|this|that|an?)(?: \w+)? (?:error|exception|failure|traceback|failing|discrepancy|mismatch)\b|\b(?:is|are|was|were) (?:also )?failing\b|\b(?:also )?fails to (?:compile|build|run|install|start|load|import|apply)\b|\b(?:failed|did not work|didn't work|doesn't work|does not work|isn't working|is not working|was not applied|wasn't applied|were not applied|timed out|errored|crashed)\b|\b(?:an? |the )?(?:error|exception) (?:occurred|was raised|was thrown)\b|\b(?:having|had|have|encounter\w*|ran into|running into|hit|facing|got|getting)\b[^.;:]{0,25}?\b(?:issues?|problems?|errors?|trouble|exceptions?)\b|\bthere(?:'s| is| was| are| were| seems to be| appears to be)(?: still)?(?:(?: an?| some)? |(?: an?| some)(?: [\w-]+){1,2} )(?:issue|error|problem|discrepancy|mismatch)s?\b|\b(?:i apologi[sz]e|i'm sorry|i am sorry|sorry|my apologies)(?: again)? for (?:the|my|this|that)(?: [\w-]+)? (?:error|mistake|oversight|confusion|difficult(?:y|ies)|issue|problem|trouble|failure)s?\b|\b(?:i am|i'm|we are|we're)(?: still)? unable to\b|\bsyntax ?error\b|\bcommand not found\b|\bno such file\b|\bpermission denied\b`)},
}

// saidAnchors holds, for every way a SaidRule can match, a word the match
// holds: a sentence with none of them matches no rule, and the rules'
// expressions, the costliest part of reading words, are not run on it
// (TestSaidAnchors checks each rule's examples against them).
var saidAnchors = []string{
	"no ", "nothing", "find", "locate", "reveal", "turn up", "return", "empty", "zero", "found",
	"yield", "produc", "gave", "giv", "show", "still", "again", "keep", "continu", "persist", "mistake", "oversight", "confusion", "difficult",
	"repeated", "recurring", "same", "attempts", "tries", "commands", "calls", "efforts", "approaches", "requests", "unable", "unsuccessful", "consistently", "repeatedly", "remain", "recur", "once more", "error", "exception",
	"failure", "traceback", "failing", "fails to", "failed", "work", "applied", "timed out",
	"crashed", "issue", "problem", "discrepanc", "mismatch", "trouble", "no such", "denied",
}

// mayReport reports whether the sentence holds one of saidAnchors.
func mayReport(report string) bool {
	lower := strings.ToLower(report)
	for _, a := range saidAnchors {
		if strings.Contains(lower, a) {
			return true
		}
	}
	return false
}

// reSaidWorked is a sentence saying the call worked: it settles the
// opening, unless the sentence names a failure after it. "Our fix is
// working exactly as expected" and "the parsers now work correctly" say
// so as much as "works" does; denied ("isn't working", "didn't work as
// expected") they say nothing (saidAt).
var reSaidWorked = regexp.MustCompile(`(?i)\b(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|successful(?:ly)?|works|worked|working now|fixed|resolved)\b|\b(?:is|are) (?:now )?working\b|\bwork (?:correctly|properly|as expected)\b|\bno (?:errors?|issues?|problems?|failures?|discrepanc(?:y|ies)|mismatch(?:es)?)\b|\bwithout (?:errors?|issues?|problems?|discrepanc(?:y|ies)|mismatch(?:es)?)\b`)

// reSaidHanded follows "pass" handing something on ("passed as keyword
// arguments", "passed to the constructor"), not a test passing.
var reSaidHanded = regexp.MustCompile(`(?i)^\s+(?:as|to|into|through|along|by|down|over|on to)\b`)

// reSaidTurn ends the part of a sentence that reports: after it the
// sentence plans or supposes.
var reSaidTurn = regexp.MustCompile(`(?i)\b(?:if|whether|unless|in case|so that|to (?:ensure|make sure|check|verify|see|confirm|avoid|prevent|test|handle)|ensure|avoid|prevent)\b`)

// reSaidWhen is a clause of circumstance, up to the comma that ends it:
// "when more_content is empty", "when there's a parse error" describe
// the code, not what the call returned.
var reSaidWhen = regexp.MustCompile(`(?i)\b(?:when|whenever)\b[^,;:]*(?:,|$)`)

// reSaidLead is what opens the words without being them: a label, a
// thinking tag, a heading's markup.
var reSaidLead = regexp.MustCompile(`(?i)^\s*(?:</?thinking>|#+\s*|thoughts?\s*:|discussion\s*:|\*\*|__)+\s*`)

// saidSentences is how many sentences of the opening are read.
const saidSentences = 3

// saidOutcome reads the agent's words after a call: a failure, an empty
// result, or nothing said (ok false). matched is the sentence that decided.
func saidOutcome(words string) (errType string, empty bool, matched string, ok bool) {
	r, _, sentence := readSaid(words)
	if r == nil {
		return "", false, "", false
	}
	return r.ErrorType, r.Empty, sentence, true
}

// readSaid walks the opening of the words to the first sentence that says
// something of the call: the rule it matched, or worked when it says the
// call worked; neither when no sentence does. Within a sentence what it
// says last decides: "The error is fixed" and "The previously failing
// tests now pass" say the call worked, "Most tests pass, but two still
// fail" that it failed. A phrase the sentence does not assert of the call
// says nothing (saidAt).
func readSaid(words string) (rule *SaidRule, worked bool, matched string) {
	openingReports(words, func(report, sentence string) bool {
		report = failuresFixed(report)
		failAt, workedAt := -1, saidAt(reSaidWorked, report, reSaidHanded)
		if mayReport(report) {
			for i := range SaidRules {
				if at := saidAt(SaidRules[i].re, report, nil); at >= 0 {
					rule, failAt = &SaidRules[i], at
					break
				}
			}
		}
		switch {
		case workedAt > failAt:
			rule, worked, matched = nil, true, sentence
			return true
		case failAt >= 0:
			matched = sentence
			return true
		}
		return false
	})
	return rule, worked, matched
}

// reSaidFixedFailure is a failure named as over: the object of a fixing
// verb ("fixed the syntax error", "corrected the error", with the clause
// that describes it: "fixed the issue where X didn't work") or its subject
// with a fixing verb in the passive or "gone" ("the syntax error has been
// corrected", "the error is gone now").
var reSaidFixedFailure = regexp.MustCompile(`(?i)\b(?:fixed|corrected|resolved|addressed|eliminated|got rid of)\s+(?:the|that|this|these|those|all|both|an?|my|our)\s+(?:[\w-]+\s+){0,2}?` + saidFailureNoun + `(?:\s+(?:where|in which|that|which|whereby)\b[^,;:]*)?|\b(?:the|that|this|these|those|all|both|my|our)\s+(?:[\w-]+\s+){0,2}?` + saidFailureNoun + `\s+(?:has|have|is|are|was|were)\s+(?:now\s+)?(?:been\s+)?(?:fixed|corrected|resolved|addressed|eliminated|gone)\b`)

// saidFailureNoun is a noun naming a failure.
const saidFailureNoun = `(?:errors?|exceptions?|failures?|issues?|problems?|bugs?|tracebacks?)\b`

// failuresFixed is the report with each failure it names as over
// (reSaidFixedFailure) read as the word "fixed": the failure is what the
// call ended, not what it met. A fix denied or only planned ("haven't
// fixed the error", "should have fixed the error") stays as written.
func failuresFixed(report string) string {
	lower := strings.ToLower(report)
	if !strings.Contains(lower, "fix") && !strings.Contains(lower, "correct") && !strings.Contains(lower, "resolv") && !strings.Contains(lower, "address") && !strings.Contains(lower, "eliminat") && !strings.Contains(lower, "rid of") && !strings.Contains(lower, "gone") {
		return report
	}
	ms := reSaidFixedFailure.FindAllStringIndex(report, -1)
	if ms == nil {
		return report
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		before := report[:m[0]]
		if reSaidDenied.MatchString(before) || reSaidSupposed.MatchString(before) {
			continue
		}
		b.WriteString(report[last:m[0]])
		b.WriteString("fixed")
		last = m[1]
	}
	b.WriteString(report[last:])
	return b.String()
}

// saidAt is where the report first asserts of the call a phrase re
// matches, -1 when nowhere. A phrase is not asserted when a negation just
// before it denies it ("doesn't have the same issue", "did not pass"),
// when a modal just before it makes it a plan or an expectation ("should
// still raise errors", "this will fix the syntax error"), when a time word
// around it places it before the call ("the tests that previously
// failed", "timed out earlier"), or when next, what next matches at its
// end.
func saidAt(re *regexp.Regexp, report string, next *regexp.Regexp) int {
	for _, m := range re.FindAllStringIndex(report, -1) {
		before := report[:m[0]]
		switch {
		case next != nil && next.MatchString(report[m[1]:]),
			reSaidDenied.MatchString(before),
			reSaidSupposed.MatchString(before),
			reSaidBefore.MatchString(saidAround(report, m)):
			continue
		}
		return m[0]
	}
	return -1
}

// saidAround is the match m of the report with up to three words either
// side of it.
func saidAround(report string, m []int) string {
	from, to := m[0], m[1]
	for n := 0; n < 4 && from > 0; {
		from--
		if report[from] == ' ' {
			n++
		}
	}
	for n := 0; n < 4 && to < len(report); to++ {
		if report[to] == ' ' {
			n++
		}
	}
	return report[from:to]
}

// reSaidDenied is a negation ending the text before a phrase, at most
// three words before it.
var reSaidDenied = regexp.MustCompile(`(?i)(?:\bnot|n't|\bnever|\bno longer|\bwithout)\W+(?:[\w` + "`" + `'-]+\W+){0,3}$`)

// reSaidSupposed is a modal ending the text before a phrase, at most two
// words before it: the phrase is planned or expected, not reported.
var reSaidSupposed = regexp.MustCompile(`(?i)\b(?:will|would|should|must)\W+(?:[\w'-]+\W+){0,2}$`)

// reSaidBefore is a time word placing a failure or a success before the
// call the words follow.
var reSaidBefore = regexp.MustCompile(`(?i)\b(?:previously|earlier|originally|initially|already)\b`)

// openingReports hands read the first saidSentences sentences of the
// words (past a label, a thinking tag or a heading's markup), each as its
// report, the part before a word that turns it into a plan or a condition
// (reSaidTurn) without its clauses of circumstance (reSaidWhen), and as
// the whole sentence trimmed, until read says it decided.
func openingReports(words string, read func(report, sentence string) bool) {
	rest := words
	for n := 0; n < saidSentences; {
		rest = reSaidLead.ReplaceAllString(rest, "")
		if strings.TrimSpace(rest) == "" {
			return
		}
		var sentence string
		sentence, rest = nextSentence(rest)
		if strings.TrimSpace(sentence) == "" {
			continue // a blank line between a heading and its text
		}
		n++
		report := sentence
		if loc := reSaidTurn.FindStringIndex(report); loc != nil {
			report = report[:loc[0]]
		}
		report = reSaidWhen.ReplaceAllString(report, " ")
		if read(report, strings.TrimSpace(sentence)) {
			return
		}
	}
}

// nextSentence splits s after its first sentence: up to a full stop,
// question or exclamation mark followed by a space, a semicolon, or a line
// break.
func nextSentence(s string) (sentence, rest string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', ';':
			return s[:i], s[i+1:]
		case '.', '!', '?':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				return s[:i+1], s[i+1:]
			}
		case '*':
			// The end of a bold heading ("**Handling timeouts**") ends a
			// sentence.
			if i+1 < len(s) && s[i+1] == '*' && i > 0 {
				return s[:i], s[i+2:]
			}
		}
	}
	return s, ""
}

// readSaidOutcomes gives the calls whose output was not logged the outcome
// the agent's next words say: for each step with words, the last call
// before it (since the previous words) whose result says nothing of its
// own. A call's own words come before the call, so they speak of the call
// before it. Outputs are absent when the run is read stripped, or when the
// source logged no result for the call; a logged output that is blank is
// itself an answer and is left alone. An output the logger cut short, in
// whose kept part no rule found a failure, is absent in its end.
func (r *run) readSaidOutcomes() {
	r.eachWordsAfter(func(s *schema.Step) bool {
		return s.ToolCall.Name != MessageTool && (r.outputAbsent(s) || r.cut[s] == cutTraceback)
	}, r.applySaid)
}

// eachWordsAfter calls read with each call that chosen picks and the
// words the agent wrote next, before its next call. A call's own words
// come before it, so they speak of the call before it.
func (r *run) eachWordsAfter(chosen func(call *schema.Step) bool, read func(call *schema.Step, words string)) {
	pending := -1
	for i, s := range r.steps {
		if s.Decision != nil && s.Decision.Reason != "" {
			if pending >= 0 {
				read(r.steps[pending], s.Decision.Reason)
			}
			pending = -1
		}
		if s.ToolCall != nil {
			pending = -1
			if chosen(s) {
				pending = i
			}
		}
	}
}

// outputAbsent reports whether the step's call has no logged output and no
// outcome of its own.
func (r *run) outputAbsent(s *schema.Step) bool {
	res := s.ToolResult
	if res == nil {
		return true
	}
	if r.cut[s] == cutQuiet {
		return true
	}
	if !r.strip || r.blank[s] {
		return false
	}
	return (res.OK == nil || *res.OK) && res.ErrorType == "" && (res.Empty == nil || !*res.Empty)
}

// applySaid records on the call's result what the agent's words say of it.
func (r *run) applySaid(call *schema.Step, words string) {
	if r.cut[call] == cutTraceback {
		r.settleTraceback(call, words)
		return
	}
	errType, empty, sentence, ok := saidOutcome(words)
	if !ok && call.Intent == schema.IntentEdit {
		sentence, ok = saidEditAgain(words)
		errType = schema.ErrSaidFailed
	}
	if !ok || (errType != "" && r.showsContent(call) && saidAt(reSaidCallFailed, sentence, nil) < 0) {
		return
	}
	// The sentence is kept as the reason, not as the output: the agent
	// words each report anew, so identical calls would read as answered
	// differently. Failures without an output are compared by their calls
	// (docs/detectors/RA301.md).
	text := ""
	if r.cut[call] == cutQuiet {
		if errType == "" {
			return // five hundred characters were not nothing
		}
		// What the logger kept stays the answer's text: two runs of one
		// build cut at the same place read as the same answer.
		text = resultText(call.ToolResult)
	}
	setResult(call, text, errType, empty)
	call.ToolResult.Reason = "the agent's next words: " + clip(sentence, maxSaidReason)
}

const maxSaidReason = 200

// settleTraceback gives a failure read from a cut output's beginning
// alone (a traceback's header, its exception line cut off) to what the
// agent's next words say: the agent saw the end. Words that say the call
// worked make it a success; any other words leave the failure.
func (r *run) settleTraceback(call *schema.Step, words string) {
	_, worked, sentence := readSaid(words)
	if !worked {
		return
	}
	setResult(call, resultText(call.ToolResult), "", false)
	call.ToolResult.Reason = "the agent's next words: " + clip(sentence, maxSaidReason)
}

// reSaidEditAgain is the agent saying it will send its edit again:
// "I will attempt the edit again", "Let's try the edit command again",
// "I will need to issue the `edit` command again".
var reSaidEditAgain = regexp.MustCompile("(?i)\\b(?:attempt|try|retry|re-?issue|issue|make|run|perform|redo|submit)\\b(?:\\s+[\\w`'-]+){0,3}?\\s+`?edit`?(?:\\s+command)?\\s+again\\b")

// saidEditAgain reads, after an edit whose output was not logged and of
// which the rules above found nothing said, words announcing the same
// edit sent again: an agent whose edit landed has no reason to make it
// again, so the words say it did not. A plan it is, and the rules above
// leave plans alone ("this will fix the syntax error" says nothing of the
// call); this one plans a retry, which only a failure calls for. It
// reads the same opening (the first sentences, each up to a turn into a
// plan or a condition) and gives the sentence that says so.
func saidEditAgain(words string) (sentence string, ok bool) {
	openingReports(words, func(report, s string) bool {
		m := reSaidEditAgain.FindStringIndex(report)
		if m == nil || reSaidDenied.MatchString(report[:m[0]]) {
			return false
		}
		sentence, ok = s, true
		return true
	})
	return sentence, ok
}

// resultText is the text of a result's data, "" when it holds none or no
// string.
func resultText(res *schema.ToolResult) string {
	var t string
	if res == nil || json.Unmarshal(res.Data, &t) != nil {
		return ""
	}
	return t
}

// carryCutFailures gives a call whose cut-short output no rule and no
// words read a failure in the failure of an earlier call of the same tool
// whose kept output was the same (after normalising what changes by
// itself: ids, timestamps, temp paths) and which the agent's words said
// failed. The logger kept the same opening of the same answer, and the
// end the agent saw, where a build or an install prints its failure, was
// that failure again: an agent retrying an install that fails the same way
// stops saying so after the second time, and its silence is no success.
// Words saying a call worked leave it alone.
func (r *run) carryCutFailures() {
	if len(r.cut) == 0 {
		return
	}
	worked := map[*schema.Step]bool{}
	r.eachWordsAfter(func(s *schema.Step) bool { return r.cut[s] == cutQuiet }, func(call *schema.Step, words string) {
		if _, ok, _ := readSaid(words); ok {
			worked[call] = true
		}
	})
	type failedAs struct {
		step    int64
		errType string
	}
	failed := map[string]failedAs{}
	var buf []byte
	for _, s := range r.steps {
		if r.cut[s] != cutQuiet || s.ToolCall == nil || s.ToolResult == nil {
			continue
		}
		text := resultText(s.ToolResult)
		if strings.TrimSpace(text) == "" {
			continue
		}
		buf = schema.AppendVolatileNormalized(buf[:0], []byte(text))
		key := s.ToolCall.Name + "\x00" + string(buf)
		if res := s.ToolResult; res.ErrorType != "" {
			if _, seen := failed[key]; !seen && s.Step != nil {
				failed[key] = failedAs{*s.Step, res.ErrorType}
			}
			continue
		}
		was, ok := failed[key]
		if !ok || worked[s] || (s.ToolResult.Empty != nil && *s.ToolResult.Empty) {
			continue
		}
		setResult(s, text, was.errType, false)
		s.ToolResult.Reason = fmt.Sprintf("the same cut-short output as step %d, which the agent's words said failed", was.step)
	}
}

// reSaidCallFailed is words that say a call itself failed, with a verb:
// "the grep failed", "that didn't work", "timed out", "no such file".
var reSaidCallFailed = regexp.MustCompile(`(?i)\b(?:fail(?:s|ed)?|did not work|didn't work|doesn't work|does not work|not working|timed out|errored|crashed|no such file|command not found|permission denied|not found)\b`)

// showsContent reports whether a call's output is content the agent reads
// (a view of a file, a search's matches) rather than what a command did.
// The words after such a call describe what was read: "The error occurs at
// line 86", "The failing test shows a warning about ...", "there's a
// similar issue at line 1133" speak of the code and the failure under
// study, not of the view. Such a call fails only by not reading (a missing
// file, a bad option), and words say so with a verb: "the previous grep
// failed", "that didn't work", "no such file".
func (r *run) showsContent(call *schema.Step) bool {
	if r.views[call] {
		return true
	}
	if call.Intent != schema.IntentSearch || call.ToolCall == nil {
		return false
	}
	cmd, ok := shellCallCommand(call.ToolCall.Name, call.ToolCall.Args)
	if !ok {
		return true // a search tool
	}
	// A search's program, not a command whose printout a filter keeps
	// lines of (`npm test 2>&1 | grep -B1 Error`): that printout is the
	// command's own.
	cmd = unwrapShell(cmd)
	return strings.HasPrefix(strings.TrimSpace(cmd), "@") || isSearch(firstProgram(cmd))
}
