package schema

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShortArgsCompactsAndCuts(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{ "q" : "vector  db",  "k": 5 }`, `{"q":"vector  db","k":5}`},
		{"{\"s\":\"a\\\"b \\\\\"}", "{\"s\":\"a\\\"b \\\\\"}"},
		{`{"q":"` + strings.Repeat("x", 100) + `"}`, `{"q":"` + strings.Repeat("x", 74) + `…`},
	} {
		if got := string(AppendShortArgs(nil, []byte(c.in), ShortArgsBytes)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestShortArgsNeverSplitsACharacter(t *testing.T) {
	in := []byte(`{"q":"` + strings.Repeat("한", 40) + `"}`)
	for max := 1; max < 60; max++ {
		got := AppendShortArgs(nil, in, max)
		if !utf8.Valid(got) {
			t.Fatalf("max %d: invalid UTF-8 %q", max, got)
		}
		if len(got) > max+len("…") {
			t.Fatalf("max %d: %d bytes", max, len(got))
		}
	}
}
