package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// resultHash is the ResultSimHash of a successful tool result whose
// output is text.
func resultHash(t *testing.T, text string) uint64 {
	t.Helper()
	data, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	ok := true
	h, _ := (&ToolResult{OK: &ok, Data: data}).ResultSimHash(nil)
	if h == 0 {
		t.Fatalf("no similarity hash for %.60q", text)
	}
	return h
}

// plainLines drops the "%4d  " line numbers pythonListing writes.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l[6:]
	}
	return out
}

// The same lines of a file, shown with the numbers of `nl -ba` or an
// editor's `cat -n` view and shown bare by `sed -n`, are one answer.
func TestNumberedListingIsThePlainListing(t *testing.T) {
	numbered := pythonListing(1, 30, 704)
	plain := plainLines(numbered)
	nl := make([]string, len(plain))
	for i, l := range plain {
		nl[i] = fmt.Sprintf("%6d\t%s", 704+i, l)
	}
	bare := resultHash(t, strings.Join(plain, "\n"))
	for name, text := range map[string]string{
		"spaces":          strings.Join(numbered, "\n"),
		"nl -ba":          strings.Join(nl, "\n"),
		"editor's cat -n": "Here's the result of running `cat -n` on /testbed/m.py:\r\n" + strings.Join(nl, "\r\n"),
	} {
		if d := SimHashDistance(bare, resultHash(t, text)); d > SimilarityBits(0.9) {
			t.Errorf("%s: the numbered listing is %d bits from the bare one, want <= %d", name, d, SimilarityBits(0.9))
		}
	}
}

// Two stretches of one file, both numbered, are two answers: the numbers
// that open every line are no words they share.
func TestNumberedListingsOfOtherLinesDiffer(t *testing.T) {
	file := pythonListing(7, 60, 1)
	a := resultHash(t, strings.Join(file[:30], "\n"))
	b := resultHash(t, strings.Join(file[30:], "\n"))
	if d := SimHashDistance(a, b); d <= SimilarityBits(0.9) {
		t.Errorf("lines 1-30 and 31-60 are %d bits apart, within the %d of one answer", d, SimilarityBits(0.9))
	}
}

// A text whose lines do not nearly all open with a number keeps its
// numbers: a list of two, or prose that mentions counts.
func TestDropLineGutterKeepsOtherText(t *testing.T) {
	for _, text := range []string{
		`1 failed\n2 passed`,
		`3 tests ran\nall of them passed\nin 2 seconds\n4 warnings`,
		`12:34 started\nok`,
	} {
		got := string(dropLineGutter([]byte(text), 0))
		if got != text {
			t.Errorf("dropLineGutter(%q) = %q, want it unchanged", text, got)
		}
	}
	for text, want := range map[string]string{
		`  1\tdef f():\n  2\t    return 1\n  3\t\n  4\tx = f()`: `def f():\nreturn 1\n\nx = f()`,
		`10: a\n11: b\n12: c`: `a\nb\nc`,
		// One line in ten may go unnumbered: a wrapped line, a banner.
		`1: a\n2: b\n3: c\n4: d\nwrapped\n5: e\n6: f\n7: g\n8: h\n9: i`: `a\nb\nc\nd\nwrapped\ne\nf\ng\nh\ni`,
	} {
		if got := string(dropLineGutter([]byte("kept"+text), 4)); got != "kept"+want {
			t.Errorf("dropLineGutter(%q) = %q, want %q", text, got, "kept"+want)
		}
	}
}
