package schema

import (
	"slices"
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
