package report

import (
	"strings"
	"testing"
)

func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"plain words 42":                   "plain words 42",
		"[x](javascript:alert(1))":         `\[x\]\(javascript\:alert\(1\)\)`,
		"![](http://evil/p.png)":           `\!\[\]\(http\://evil/p.png\)`,
		"<script>alert(1)</script>":        `\<script\>alert\(1\)\</script\>`,
		"a | b":                            `a \| b`,
		"*em* _em_ ~~s~~ `code` #h":        "\\*em\\* \\_em\\_ \\~\\~s\\~\\~ \\`code\\` \\#h",
		`back\slash`:                       `back\\slash`,
		"&amp; &#60;":                      `\&amp; \&\#60;`,
		"- item":                           `\- item`,
		"+ item":                           `\+ item`,
		"1. item":                          `1\. item`,
		"12) item":                         `12\) item`,
		"=====":                            `\=====`,
		"see www.evil.example":             `see www\.evil.example`,
		"mail me@evil.example":             `mail me\@evil.example`,
		"esc \x1b[2J bell \x07 csi \u009b": `esc \\x1b\[2J bell \\x07 csi \\u009b`,
	} {
		if got := MarkdownText(in); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownCode(t *testing.T) {
	for _, c := range []struct {
		in      string
		inTable bool
		want    string
	}{
		{`web_search {"q":"x"}`, false, "`web_search {\"q\":\"x\"}`"},
		{"a`b", false, "``a`b``"},
		{"a``b`", false, "``` a``b` ```"},
		{"`x`", false, "`` `x` ``"},
		{" padded ", false, "`  padded  `"},
		{"a|b", true, "`a\\|b`"},
		{"a|b", false, "`a|b`"},
		{"[x](javascript:y)", false, "`[x](javascript:y)`"},
		{"\x1b]0;title\x07", false, "`\\x1b]0;title\\x07`"},
		{"", false, ""},
	} {
		if got := MarkdownCode(c.in, c.inTable); got != c.want {
			t.Errorf("MarkdownCode(%q, %v) = %q, want %q", c.in, c.inTable, got, c.want)
		}
	}
}

// Escaped text never holds an unescaped character that means something in
// Markdown, whatever the input.
func TestMarkdownTextLeavesNoMeaning(t *testing.T) {
	hostile := []string{"<img src=x onerror=alert(1)>", "](http://x)", "\\\\[", "a\\|b", "`", "~~~", "**", "# h", "> q", "|-|"}
	for _, h := range hostile {
		got := MarkdownText(h)
		for i := 0; i < len(got); i++ {
			if got[i] == '\\' {
				i++ // an escape and what it escapes
				continue
			}
			if strings.IndexByte("`*_[]<>|#!()~&:", got[i]) >= 0 {
				t.Errorf("MarkdownText(%q) = %q: unescaped %q at %d", h, got, got[i], i)
			}
		}
	}
}
