package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"plain words 42":                   "plain words 42",
		"[x](javascript:alert(1))":         `\[x\](javascript:alert(1))`,
		"![](http://evil/p.png)":           `!\[\](http\://evil/p.png)`,
		"<script>alert(1)</script>":        `\<script>alert(1)\</script>`,
		"a | b":                            `a \| b`,
		"*em* _em_ ~~s~~ `code` #h":        "\\*em\\* \\_em\\_ \\~\\~s\\~\\~ \\`code\\` #h",
		`back\slash`:                       `back\slash`,
		`a\*b\`:                            `a\\\*b\\`,
		"&amp; &#60; & fish&chips":         `\&amp; \&#60; & fish&chips`,
		"- item":                           `\- item`,
		"+ item":                           `\+ item`,
		"# heading":                        `\# heading`,
		"> quote":                          `\> quote`,
		"1. item":                          `1\. item`,
		"12) item":                         `12\) item`,
		"=====":                            `\=====`,
		"see www.evil.example":             `see www\.evil.example`,
		"mail me@evil.example":             `mail me\@evil.example`,
		"esc \x1b[2J bell \x07 csi \u009b": `esc \x1b\[2J bell \x07 csi \u009b`,
		// What means nothing where it is stays as it is: readable text.
		"step 3 (retry) - a.b, 2 * 3 = 6 > 5; snake_case_name; a < b; x#1": "step 3 (retry) - a.b, 2 * 3 = 6 > 5; snake_case_name; a < b; x#1",
	} {
		if got := MarkdownText(in); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", in, got, want)
		}
	}
}

// In a table cell, only what means something inline is escaped.
func TestMarkdownCell(t *testing.T) {
	for in, want := range map[string]string{
		"-":          "-",
		"+2":         "+2",
		"1. a | b":   `1. a \| b`,
		"# x > y":    "# x > y",
		"*":          "*",
		"a*b":        `a\*b`,
		"a_b _c_":    `a_b \_c\_`,
		"(max 2): x": "(max 2): x",
	} {
		if got := MarkdownCell(in); got != want {
			t.Errorf("MarkdownCell(%q) = %q, want %q", in, got, want)
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

// hostileMarkdown are texts that mean something in CommonMark or GFM
// wherever they are: escaped, each must render as its characters.
var hostileMarkdown = []string{
	"<img src=x onerror=alert(1)>", "](http://x)", "\\\\[", "a\\|b", "`", "~~~", "~x~", "**", "# h", "> q", "|-|",
	"*a*", "_a_", "a*b*c", "__init__", "x_ y_", "[ ] task", "- [x] done", "1) one", "3. three", "---", "***",
	"<http://x.example>", "http://x.example/a_b", "https://x.example", "www.x.example", "me@x.example",
	"&copy; &#169; &#xA9;", "![img](http://x/p.png)", "[ref]: http://x", "`a` ``b``", "a\\", "\\",
	"<!-- c -->", "<?php ?>", "<a href=\"x\">y</a>", "text  ", "a | b | c", "=== x", "+ plus", "| cell |",
}

// Escaped text renders as exactly its characters, as text, through a
// CommonMark and GFM renderer (goldmark with its GFM extensions, linkify
// included): no tag, link, emphasis, list or heading, in a paragraph and
// in a table cell.
func TestMarkdownTextRendersAsText(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	render := func(src string) string {
		var buf bytes.Buffer
		if err := md.Convert([]byte(src), &buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, h := range hostileMarkdown {
		want := sanitize(h)
		esc := MarkdownText(h)
		got := render(esc)
		inner, ok := strings.CutPrefix(got, "<p>")
		inner, ok2 := strings.CutSuffix(inner, "</p>\n")
		if !ok || !ok2 || strings.Contains(inner, "<") || html.UnescapeString(inner) != strings.TrimRight(want, " ") {
			t.Errorf("MarkdownText(%q) = %q renders as %q", h, esc, got)
		}
		cell := render("| a |\n|---|\n| " + MarkdownCell(h) + " |\n")
		inner, ok = strings.CutPrefix(cell, "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>")
		inner, ok2 = strings.CutSuffix(inner, "</td>\n</tr>\n</tbody>\n</table>\n")
		if !ok || !ok2 || strings.Contains(inner, "<") || html.UnescapeString(inner) != strings.TrimSpace(want) {
			t.Errorf("MarkdownText(%q) = %q in a table cell renders as %q", h, esc, cell)
		}
	}
}
