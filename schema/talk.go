package schema

import (
	"iter"
	"slices"
	"strings"
	"unicode"
)

// TalkWords returns the distinct words and numbers of a turn of
// conversation the agent sent (a call of ToolMessage), each in the order
// first said: runs of letters and digits, lower-cased, at least two long
// (a number any length), the stop words of word signatures left out; a run
// of digits alone is a number. A turn whose words the agent had mostly
// said since its last tool call, and that says no number it had not said,
// says nothing new, whatever words surround them: that is how a question
// asked again in other words is recognised (detect's RA205). A number is
// information of its own (a price, a count, an id), so a new one is news.
func TalkWords(text string) (words, numbers []string) {
	seen := map[string]bool{}
	for w := range wordRuns(text) {
		w = strings.ToLower(w)
		switch {
		case seen[w]:
		case isDigits(w):
			seen[w] = true
			numbers = append(numbers, w)
		case len(w) >= 2 && !stopWords[w]:
			seen[w] = true
			words = append(words, w)
		}
	}
	return words, numbers
}

// TalkNumbersMark separates, in a step's talk_words, the words of a turn
// from its numbers, which follow it.
const TalkNumbersMark = "\x00numbers"

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// TalkAgentMark opens, in a step's talk_words, a turn of conversation one
// of the run's agents addressed to another (a call of ToolMessage whose
// args name a recipient, "to"): the mark, then the pair of agents (from,
// NUL, to) as one entry, then AgentTurnWords of the turn. Such a turn has
// no words of TalkWords: agents working together quote each other at
// length, so few of their words are new, and that says nothing of a turn
// to the user said again.
const TalkAgentMark = "\x00agent"

// TalkShortMark follows the pair of agents, in a turn's talk_words, when
// the turn says too few words for AgentTurnWords (AgentTurn's short):
// such a turn is compared only word for word, and only within the
// discussion it belongs to (detect's RA208): "**Python**" said back six
// times to the same agent is one point made again; two different short
// turns are no point at all.
const TalkShortMark = "\x00short"

// minTurnWords is the fewest words (and numbers) of its prose a turn
// between agents must say for AgentTurnWords to compare it: fewer say too
// little to tell one point from another ("Please continue.").
const minTurnWords = 8

// handOverShare is how many times its prose a turn's fenced code must be
// for the turn to be a hand-over of work rather than a point: a reviewer
// who quotes the fix it asks for writes the fix at about the length of its
// explanation, a programmer handing back files writes a line or two about
// pages of code.
const handOverShare = 2

// ConclusionMark opens the turn that concludes a ChatDev discussion
// (`<INFO> Python`): the framework's syntax for "this is our conclusion",
// which ends the talk. It is no word of the point the turn makes: an agent
// that answered "Python." three times and then "<INFO> Python." made the
// one point four times. Redaction keeps it as it is (redact.Text).
const ConclusionMark = "<INFO>"

// AgentTurnWords returns the distinct words and numbers (TalkWords, in
// one list) of what one agent of a run said to another in its own words:
// its text outside fenced code blocks (from a line of three backticks to
// the next, or to the end), without ChatDev's conclusion mark
// (ConclusionMark). The code an agent hands back or quotes is the
// state of the work, not the point it makes about it: a turn whose fenced
// code is more than twice its prose (handOverShare) is a hand-over of
// work, nil; so is one of fewer than minTurnWords words. Two turns of one
// agent to another that share most of these words make the same point,
// however worded (detect's RA208).
func AgentTurnWords(text string) []string {
	if words, short := AgentTurn(text); !short {
		return words
	}
	return nil
}

// AgentTurn returns the words AgentTurnWords reads of a turn between
// agents, and short when they are at least one but fewer than
// minTurnWords: too few to be compared by their share, a turn said again
// only word for word (TalkShortMark). nil for a hand-over of work or a
// turn that says no word.
func AgentTurn(text string) (words []string, short bool) {
	prose, code := withoutFences(text)
	if code > handOverShare*len(prose) {
		return nil, false
	}
	words, numbers := TalkWords(strings.ReplaceAll(prose, ConclusionMark, " "))
	n := len(words) + len(numbers)
	if n == 0 {
		return nil, false
	}
	return append(words, numbers...), n < minTurnWords
}

// withoutFences returns text without its fenced code blocks, and how many
// bytes the blocks held.
func withoutFences(text string) (prose string, code int) {
	const fence = "```"
	if !strings.Contains(text, fence) {
		return text, 0
	}
	var b strings.Builder
	for {
		open := strings.Index(text, fence)
		if open < 0 {
			b.WriteString(text)
			return b.String(), code
		}
		b.WriteString(text[:open])
		b.WriteByte('\n')
		rest := text[open+len(fence):]
		end := strings.Index(rest, fence)
		if end < 0 {
			return b.String(), code + len(text) - open
		}
		code += len(fence) + end + len(fence)
		text = rest[end+len(fence):]
	}
}

// TalkAskMark opens, in a step's talk_words, the words of one thing the
// turn asks for (TalkAsks); each ask follows the turn's words and numbers.
const TalkAskMark = "\x00ask"

// TalkAsks returns what a turn of conversation asks the user for: per
// sentence that is a question (it ends in "?") or a request ("please
// provide", "I'll need", "could you", ...), the distinct words and numbers
// that say what is asked (of a request, those of the clause that holds
// its request phrase, askedClause), without the words that only make it a
// request ("please", "provide", "you", "need") and the stop words. An ask of fewer
// than two such words says too little to be told from another and is left
// out. An agent that asks for the reservation id again after answering
// other questions asks again for what it asked before, whatever else the
// turn says: that is how detect's RA205 sees an ask repeated between new
// answers. The request phrases are English; in other languages only
// questions count.
func TalkAsks(text string) [][]string {
	var asks [][]string
	for _, s := range sentences(text) {
		if !isAsk(s) {
			continue
		}
		ask := askWords(askedClause(s))
		if len(ask) < 2 {
			// The clause points back at what it asks for ("Once you have
			// the reservation ID, please share it"): the sentence says it.
			ask = askWords(s)
		}
		if len(ask) >= 2 {
			asks = append(asks, ask)
		}
	}
	return asks
}

// sentences splits text after ".", "!" or "?" followed by white space, and
// at line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t' || text[i+1] == '\n'))
		if !end {
			continue
		}
		if s := strings.TrimSpace(text[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = i + 1
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// isAsk reports whether a sentence asks something of the reader: it is a
// question, or it holds a request phrase.
func isAsk(s string) bool { return isQuestion(s) || requestAt(s) >= 0 }

// isQuestion reports whether a sentence ends in a question mark (before
// closing quotes, brackets or emphasis).
func isQuestion(s string) bool {
	return strings.HasSuffix(strings.TrimRight(s, `"')]*_ `), "?")
}

// requestAt is the byte offset in s of its first request phrase, or -1.
func requestAt(s string) int {
	l := strings.ToLower(s)
	at := -1
	for _, p := range requestPhrases {
		if i := strings.Index(l, p); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	return at
}

// askWords are the distinct words and numbers of s that say what it asks
// for: not the words that only make it a request, nor the stop words.
func askWords(s string) []string {
	var ask []string // a sentence's few words: a scan finds a repeat
	for w := range wordRuns(s) {
		w = strings.ToLower(w)
		if (len(w) < 2 && !isDigits(w)) || stopWords[w] || requestWords[w] || slices.Contains(ask, w) {
			continue
		}
		ask = append(ask, w)
	}
	return ask
}

// askedClause is the part of a sentence that says what it asks for: a
// question whole; in a request that is no question, the clause that holds
// the request phrase (from the comma, semicolon or colon before it): "To
// upgrade your seat to business class, I'll need your user ID" asks for
// the user id, as "I need your user ID" did, whatever it is wanted for.
func askedClause(s string) string {
	if isQuestion(s) {
		return s
	}
	at := requestAt(s)
	if at < 0 || at > len(s) {
		return s // lower-casing can move offsets in text that is not ASCII
	}
	if j := strings.LastIndexAny(s[:at], ",;:"); j >= 0 {
		return s[j+1:]
	}
	return s
}

// requestPhrases mark a sentence as a request for something.
var requestPhrases = []string{
	"please provide", "please share", "please confirm", "please send", "please give", "please tell",
	"please let me know", "please check", "i need", "i'll need", "i will need", "i would need",
	"could you", "can you", "would you", "may i have", "kindly provide", "kindly share",
}

// requestWords make a sentence a request without saying what it asks for.
var requestWords = map[string]bool{
	"please": true, "kindly": true, "could": true, "would": true, "can": true, "may": true, "will": true,
	"ll": true, "you": true, "your": true, "me": true, "my": true, "let": true, "know": true,
	"provide": true, "share": true, "confirm": true, "give": true, "send": true, "tell": true,
	"need": true, "have": true, "do": true, "does": true, "did": true, "like": true, "want": true,
	"help": true, "so": true, "that": true, "this": true, "it": true, "we": true, "us": true,
	"our": true, "if": true, "any": true, "also": true, "again": true, "still": true, "just": true,
	"able": true, "proceed": true, "check": true, "assist": true, "further": true, "there": true,
	"anything": true, "else": true, "today": true, "sure": true, "yes": true, "no": true,
}

// AskWords lists every word of the request phrases and of the words that
// only make a sentence a request, lower-cased: what must stay verbatim in
// redacted text (package redact) for TalkAsks to read the same asks in it.
func AskWords() []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, p := range requestPhrases {
		for w := range wordRuns(p) {
			add(w)
		}
	}
	for w := range requestWords {
		add(w)
	}
	slices.Sort(out)
	return out
}

// wordRuns yields the runs of letters and digits of s, in order: the words
// of TalkWords, TalkAsks and AskWords.
func wordRuns(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// SaysSomething reports whether text holds a letter or a digit outside
// markup tags: a model's empty reasoning block ("<think></think>") or a
// line of punctuation says nothing, and two of them are not one thought
// thought twice.
func SaysSomething(text string) bool {
	inTag := false
	for _, r := range text {
		switch {
		case r == '<':
			inTag = true
		case r == '>':
			inTag = false
		case !inTag && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			return true
		}
	}
	return false
}
