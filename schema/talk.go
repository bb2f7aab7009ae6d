package schema

import (
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
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(text[start:end])
		start = -1
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
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
	}
	flush(len(text))
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
