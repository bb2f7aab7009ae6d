package schema

import "testing"

func norm(t *testing.T, n *ArgsNormalizer, in string) string {
	t.Helper()
	out, err := n.Normalize(nil, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return string(out)
}

func TestNormalizeMakesNearDuplicatesEqual(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	a := norm(t, n, `{"q":"Vector  DB benchmark ","request_id":"r-1","opts":{"Trace_ID":"x1","k":5}}`)
	b := norm(t, n, `{"opts":{"k":5,"trace_id":"y2"},"q":"vector db benchmark","request_id":"r-2"}`)
	if a != b || a != `{"opts":{"k":5},"q":"vector db benchmark"}` {
		t.Fatalf("near-duplicates differ:\n%s\n%s", a, b)
	}
}

func TestNormalizeKeepsWhatChangesTheQuestion(t *testing.T) {
	n := NewArgsNormalizer(DefaultVolatileKeys)
	for _, pair := range [][2]string{
		{`{"q":"x","page":1}`, `{"q":"x","page":2}`},
		{`{"q":"x","cursor":"abc"}`, `{"q":"x","cursor":"abd"}`},
		{`{"q":"x"}`, `{"q":"y"}`},
		{`{"path":"/a/b"}`, `{"path":"/a/c"}`},
	} {
		if norm(t, n, pair[0]) == norm(t, n, pair[1]) {
			t.Errorf("%s and %s must stay different", pair[0], pair[1])
		}
	}
}

func TestNormalizeTextIsIdempotent(t *testing.T) {
	for _, s := range []string{"", "a", " A  b\t\nC ", "ÉCOLE  Ü", "already clean"} {
		once := normalizeText(s)
		if normalizeText(once) != once {
			t.Errorf("%q: %q is not stable", s, once)
		}
	}
	if got := normalizeText(" A  b\t\nC "); got != "a b c" {
		t.Fatalf("got %q", got)
	}
}
