package schema

import (
	"slices"
	"strings"
	"testing"
)

// A turn's words are said once each, lower-cased, without stop words or
// one-letter words; a run of digits is a number, kept apart, whatever its
// length.
func TestTalkWords(t *testing.T) {
	words, numbers := TalkWords("Could you share the Reservation ID? The ID is on your e-ticket: 7 digits, like 4421.")
	if want := []string{"could", "you", "share", "reservation", "id", "your", "ticket", "digits", "like"}; !slices.Equal(words, want) {
		t.Errorf("words %q, want %q", words, want)
	}
	if want := []string{"7", "4421"}; !slices.Equal(numbers, want) {
		t.Errorf("numbers %q, want %q", numbers, want)
	}
	if w, n := TalkWords("…!"); w != nil || n != nil {
		t.Errorf("a turn without words: %q %q", w, n)
	}
}

// A turn's asks are its questions and requests, each as the words that
// say what is asked: the words that only make a sentence a request, and
// asks that say too little (a sign-off question), are left out.
func TestTalkAsks(t *testing.T) {
	asks := TalkAsks("Only one certificate can be used per booking. Could you share the reservation ID?\n" +
		"I'll need the passenger's date of birth too. Is there anything else I can help you with today?")
	want := [][]string{{"reservation", "id"}, {"passenger", "date", "birth", "too"}}
	if len(asks) != len(want) {
		t.Fatalf("asks %q, want %q", asks, want)
	}
	for i := range want {
		if !slices.Equal(asks[i], want[i]) {
			t.Errorf("ask %d: %q, want %q", i, asks[i], want[i])
		}
	}
	if a := TalkAsks("Your flight HAT220 leaves at 17:30. The fare is 128 dollars."); a != nil {
		t.Errorf("a turn that asks nothing: %q", a)
	}
	// A question is an ask in any language; the request phrases are English.
	if a := TalkAsks("¿Puede darme el número de reserva?"); len(a) != 1 {
		t.Errorf("a question in Spanish: %q", a)
	}
	// A request asks for what its clause names, whatever it is wanted
	// for; a clause that only points back ("share it") leaves the sentence
	// to say what it asks for.
	for text, want := range map[string][]string{
		"To proceed with upgrading your seat to business class, I'll need your user ID.": {"user", "id"},
		"To assist with changing your return flight, I'll need your user ID.":            {"user", "id"},
		"Once you have the reservation ID, please share it with me.":                     {"once", "reservation", "id"},
	} {
		if a := TalkAsks(text); len(a) != 1 || !slices.Equal(a[0], want) {
			t.Errorf("TalkAsks(%q) = %q, want [%q]", text, a, want)
		}
	}
}

// An empty reasoning block or a line of punctuation says nothing; any
// word outside the tags does.
func TestSaysSomething(t *testing.T) {
	for text, want := range map[string]bool{
		"<think></think>":             false,
		"<think>\n</think>\n---":      false,
		"":                            false,
		"<think></think> Let's look.": true,
		"<think>why</think>":          true,
		"step 2":                      true,
	} {
		if got := SaysSomething(text); got != want {
			t.Errorf("SaysSomething(%q) = %v, want %v", text, got, want)
		}
	}
}

// What one agent says to another is the prose of its turn: fenced code is
// left out, a turn that is mostly code is a hand-over of work (nil) while a
// comment quoting the fix it asks for is not, and a
// turn too short to make a point says nothing to compare (nil).
func TestAgentTurnWords(t *testing.T) {
	comment := "The code is missing the import of tkinter in main.py; add it at line 1:\n```python\nimport tkinter as tk\n```\nOtherwise the window never opens."
	want := []string{"code", "missing", "import", "tkinter", "main", "py", "add", "it", "line", "otherwise", "window", "never", "opens", "1"}
	if got := AgentTurnWords(comment); !slices.Equal(got, want) {
		t.Errorf("comment: %q, want %q", got, want)
	}
	quoted := "The check_guess method is missing from HitAndBlowGame; without it every guess counts as a miss. Add it so that it returns the hits and the blows:\n```python\ndef check_guess(self, guess):\n    hits = sum(a == b for a, b in zip(guess, self.secret))\n    blows = len(set(guess) & set(self.secret)) - hits\n    return hits, blows\n```"
	if got := AgentTurnWords(quoted); !slices.Contains(got, "missing") || slices.Contains(got, "zip") {
		t.Errorf("a comment quoting its fix, longer than its prose: %q, want the prose's words", got)
	}
	handOver := "main.py\n```python\nimport tkinter as tk\nimport random\n\nclass DiceApp:\n    def __init__(self, root):\n        self.root = root\n```\nDone."
	if got := AgentTurnWords(handOver); got != nil {
		t.Errorf("a hand-over of code: %q, want nil", got)
	}
	if got := AgentTurnWords("<INFO> Finished."); got != nil {
		t.Errorf("a short turn: %q, want nil", got)
	}
	if got, short := AgentTurn("<INFO> Python."); !slices.Equal(got, []string{"python"}) || !short {
		t.Errorf("a conclusion: %q (short %v), want the words of \"Python.\": ChatDev's <INFO> mark is no word of the point", got, short)
	}
	unclosed := "Please change the roll method so it reads the number of sides from the entry:\n```python\ndef roll(self):\n"
	if got := AgentTurnWords(unclosed); !slices.Contains(got, "sides") || slices.Contains(got, "def") {
		t.Errorf("a block left open runs to the end: %q", got)
	}
}

// Whatever the text, its prose holds no fence, the code counted is no
// more than the text, a text without fences is all prose, and the words
// of a turn are said once each.
func FuzzAgentTurnWords(f *testing.F) {
	f.Add("The code is missing the import of tkinter:\n```python\nimport tkinter\n```\nAdd it at the top, please.")
	f.Add("```\nunclosed block")
	f.Add("no fences at all, only words words words and more words here")
	f.Add("``````")
	f.Fuzz(func(t *testing.T, text string) {
		prose, code := withoutFences(text)
		if strings.Contains(prose, "```") || code < 0 || code > len(text) {
			t.Fatalf("%q: prose %q, code %d", text, prose, code)
		}
		if !strings.Contains(text, "```") && (prose != text || code != 0) {
			t.Fatalf("%q without fences: prose %q, code %d", text, prose, code)
		}
		words := AgentTurnWords(text)
		if len(slices.Compact(slices.Sorted(slices.Values(words)))) != len(words) {
			t.Fatalf("%q: a word said twice in %q", text, words)
		}
	})
}

// Lower-casing can make text that is not ASCII longer (Ⱥ is two bytes,
// ⱥ three): reading what a request asks for must not cut the sentence at
// an offset found in its lower-cased form.
func TestTalkAsksNonASCIIRequest(t *testing.T) {
	for text, want := range map[string][]string{
		"ȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺȺ I need ids": {"ⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥⱥ", "ids"},
		"Ⱥ, I need your user ID.": {"user", "id"},
	} {
		if a := TalkAsks(text); len(a) != 1 || !slices.Equal(a[0], want) {
			t.Errorf("TalkAsks(%q) = %q, want [%q]", text, a, want)
		}
	}
}
