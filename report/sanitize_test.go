package report

import "testing"

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"run-42":                           "run-42",
		"":                                 "",
		"日本語 ünïcode":                      "日本語 ünïcode",
		`back\slash`:                       `back\slash`,
		"\x1b[31mred\x1b[0m":               `\x1b[31mred\x1b[0m`,
		"a\nb\rc\td":                       `a\nb\rc\td`,
		"nul\x00bel\x07del\x7f":            `nul\x00bel\x07del\x7f`,
		"csi\u009b2J next\u0085":           `csi\u009b2J next\u0085`,
		"raw\x9bbyte\xff":                  `raw\x9bbyte\xff`,
		"rlo\u202eexe.txt lri\u2066\u2069": `rlo\u202eexe.txt lri\u2066\u2069`,
		"line\u2028para\u2029":             `line\u2028para\u2029`,
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly-10", 10, "exactly-10"},
		{"eleven-char", 10, "eleven-..."},
		{"日本語の長い見出しです", 8, "日本語の長..."},
	} {
		if got := truncate(c.in, c.max); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
