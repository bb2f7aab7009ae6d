package schema

import (
	"testing"
	"unicode/utf8"
)

func digest(t *testing.T, n *ArgsNormalizer, in string) ArgsDigest {
	t.Helper()
	d, err := n.Digest([]byte(in), true)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return d
}

func TestDigestEqualsForNearDuplicatesOnly(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	same := [][2]string{
		{`{"q":"Vector  DB benchmark ","request_id":"r-1","opts":{"Trace_ID":"x1","k":5}}`, `{"opts":{"k":5.0,"trace_id":"y2"},"q":"vector db benchmark","request_id":"r-2"}`},
		{`{"a":[1,2,{"b":"X"}]}`, "{ \"a\" : [ 1 , 2e0 , { \"b\" : \"x\" } ] }"},
		{`{"q":"caf\u00c9"}`, `{"q":"CAFÉ"}`},
		{`{"a":1,"a":2}`, `{"a":2}`}, // the last member wins, as in the canonical form
		{`-0`, `0`},
	}
	for _, p := range same {
		if a, b := digest(t, n, p[0]), digest(t, n, p[1]); a.Norm != b.Norm {
			t.Errorf("%s and %s should digest equal", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"q":"x","page":1}`, `{"q":"x","page":2}`},
		{`{"q":"x","cursor":"abc"}`, `{"q":"x","cursor":"abd"}`},
		{`{"a":"1"}`, `{"a":1}`},
		{`[1,2]`, `[2,1]`},
		{`{"a":[]}`, `{"a":{}}`},
		{`{"a":{"b":1},"c":2}`, `{"a":{"c":2},"b":1}`}, // same members at another depth
		{`{"a":1}`, `{"a":1,"b":null}`},
		{`["a b"]`, `["a","b"]`},
	}
	for _, p := range differ {
		if a, b := digest(t, n, p[0]), digest(t, n, p[1]); a.Norm == b.Norm {
			t.Errorf("%s and %s must digest differently", p[0], p[1])
		}
	}
}

func TestDigestRejectsWhatNormalizeRejects(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	for _, in := range []string{``, ` `, `{`, `{"a"}`, `[1,]`, `01`, `1e999`, `"\x"`, `{"a":1} x`, `tru`} {
		if _, err := n.Digest([]byte(in), true); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func TestWordOverlapTellsRephrasingsFromOtherQueries(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	w := func(s string) uint64 { return digest(t, n, s).Words }
	base := w(`{"q":"2019 pricing sheet"}`)
	if !WordOverlap(base, w(`{"q":"Pricing sheet for 2019","request_id":"zzz-unrelated-words"}`)) {
		t.Error("a rephrasing should overlap")
	}
	if !WordOverlap(base, w(`{"query":"pricing 2019 pdf"}`)) {
		t.Error("two of three words shared should overlap")
	}
	if WordOverlap(base, w(`{"q":"kubernetes deployment health"}`)) {
		t.Error("another topic must not overlap")
	}
	if WordOverlap(w(`{"k":5}`), w(`{"k":6}`)) {
		t.Error("args without words overlap with nothing")
	}
	if w(`{"q":"the of and"}`) != 0 {
		t.Error("stop words carry no bits")
	}
}

// FuzzDigestMatchesNormalize: two args digest equal exactly when their
// normalised texts are equal, so the one-pass digest is the Normalize
// contract without its allocations.
func FuzzDigestMatchesNormalize(f *testing.F) {
	for _, s := range [][2]string{
		{`{"q":"A  b","ts":1}`, `{"q":"a b"}`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`[1,"x",{"y":null}]`, `[1,"X",{"y":null}]`},
		{`"\u01C5"`, `"\u01C6"`},
		{`{"Nonce":"x","k":[true,false]}`, `{"k":[true,false]}`},
	} {
		f.Add(s[0], s[1])
	}
	n := NewArgsNormalizer(DefaultVolatileKeys)
	f.Fuzz(func(t *testing.T, a, b string) {
		na, errA := n.Normalize(nil, []byte(a))
		nb, errB := n.Normalize(nil, []byte(b))
		da, dErrA := n.Digest([]byte(a), false)
		db, dErrB := n.Digest([]byte(b), false)
		if (errA == nil) != (dErrA == nil) && len(a) > 0 {
			t.Fatalf("%q: Normalize err %v, Digest err %v", a, errA, dErrA)
		}
		if errA != nil || errB != nil || dErrA != nil || dErrB != nil {
			return
		}
		if (string(na) == string(nb)) != (da.Norm == db.Norm) {
			t.Fatalf("%q (%s) vs %q (%s): digests equal = %v", a, na, b, nb, da.Norm == db.Norm)
		}
	})
}

func TestIsNormalTextAgreesWithNormalization(t *testing.T) {
	for _, s := range []string{"", "a", "A", "a b", "a  b", " a", "a ", "a\tb", "é", "caf\u00e9", "x-y_z 12", "a\nb"} {
		normal := string(AppendNormalizedText(nil, []byte(s))) == s
		if IsNormalText(s) && !normal {
			t.Errorf("%q: said normal, but normalising changes it", s)
		}
		if IsNormalText([]byte(s)) != IsNormalText(s) {
			t.Errorf("%q: string and bytes disagree", s)
		}
	}
}

// isNormalTextBytewise is IsNormalText one byte at a time: the reference
// its eight-byte path must agree with.
func isNormalTextBytewise(s string) bool {
	if len(s) == 0 {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\r', c == '\v', c == '\f':
			return false
		case c == ' ' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

func FuzzIsNormalTextMatchesBytewise(f *testing.F) {
	for _, s := range []string{"", "a", " a", "a ", "plan: check the logs", "plan: check  the logs",
		// Each refused byte at each of a word's eight positions, spaces
		// doubled inside a word and across two, and the bytes around the
		// refused ranges ('@' '[' \b \x0e \x7f \x80).
		"abcdefg hijklmn", "abcdefg  hijklmn", "abcdefgh ijklmno", "abcdefg\thijklmn", "abcdefgh\vijklmn",
		"abcdefghZjklmnop", "Abcdefghijklmnop", "abcdefghijklmnoP", "abc@efg[ijk`mno{", "a\bc\x0ed\x7fefghij",
		"abcdefghijkl\x80no", "abc\x80efghijklmnop", "abc€defghijk", "caf\u00e9 au lait x", "1234567 \r2345678 ",
		"abcdefg\rhijklmno", "abcdefgh\x0cijklmno", "x y z w v u t s r q p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := isNormalTextBytewise(s)
		if got := IsNormalText(s); got != want {
			t.Fatalf("IsNormalText(%q) = %v, byte by byte %v", s, got, want)
		}
		if got := IsNormalText([]byte(s)); got != want {
			t.Fatalf("IsNormalText([]byte(%q)) = %v, byte by byte %v", s, got, want)
		}
	})
}

// AppendNormalizedText has an ASCII fast path; normalizeText is the
// reference it must agree with, whatever precedes it in dst.
func FuzzAppendNormalizedTextMatchesNormalizeText(f *testing.F) {
	for _, s := range []string{"", " ", "Plan: 1) Check  the\tLOGS ", "café  Über", "a\u00a0b", "\u0085x", "x \xff y", "ÀB  c\n",
		// Eight bytes at a time: spaces at a word's edges, doubled across
		// words, leading, trailing, and white space that is not a space.
		"Plan: 1) check payment provider events 2) check refund policy",
		"        Leading SPACES and trailing        ", "abcdefg  hijklmn opqrstu\vvwxyzAB ZZ@[`{",
		"1234567 \t2345678 \n  ABCDEFGH IJKLMNO\x01 déjà vu    tail      "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// Bytes that are not UTF-8 become U+FFFD here; normalizeText keeps
			// them. Both callers hand it decoded or validated text.
			return
		}
		got := AppendNormalizedText([]byte("prefix"), []byte(s))
		if want := "prefix" + normalizeText(s); string(got) != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}
