package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/runawayhq/runaway/pipeline"
	"github.com/runawayhq/runaway/report"
)

// Agent logs are hostile: web pages and user text end up in goals, args,
// reasons, even ids. These strings go through every field a report shows.
var hostile = []string{
	"<script>alert(1)</script>",
	`"><img src=x onerror=alert(2)>`,
	"[x](javascript:alert(3))",
	"![](http://evil.example/pixel.png)",
	"a`b``c | d|e",
	"\x1b[2J\x1b]0;pwned\x07",
	"\u009b31m",
}

var evil = strings.Join(hostile, " ")

// everyOutput runs explain in each of its formats (with explainArgs: the
// runs, flags) and scan once with every other output (with scanFlags), and
// returns each output by "command format".
func everyOutput(t *testing.T, path string, explainArgs, scanFlags []string) map[string]string {
	t.Helper()
	outs := map[string]string{}
	for _, f := range pipeline.ExplainFormats {
		args := append(append([]string{"explain"}, explainArgs...), "--format", f, path)
		code, out, stderr := runCLI(t, "", args...)
		if code != exitClean {
			t.Fatalf("explain %s: exit %d: %s", f, code, stderr)
		}
		outs["explain "+f] = out
	}
	dir := t.TempDir()
	args := append(append([]string{"scan"}, scanFlags...), path, "--output", "json="+filepath.Join(dir, "s.json"),
		"--output", "ndjson="+filepath.Join(dir, "s.ndjson"), "--output", "html="+filepath.Join(dir, "s.html"))
	code, table, stderr := runCLI(t, "", args...)
	if code != exitClean {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	outs["scan table"] = table
	for _, f := range []string{"json", "ndjson", "html"} {
		data, err := os.ReadFile(filepath.Join(dir, "s."+f))
		if err != nil {
			t.Fatal(err)
		}
		outs["scan "+f] = string(data)
	}
	return outs
}

// hostileLog writes two runs whose every string is hostile: a contaminated
// retry loop of one failing call, and an empty-result loop whose headline
// quotes its args.
func hostileLog(t *testing.T) (path string, runs []string) {
	t.Helper()
	loop, empty := "RUN "+evil, "EMPTY "+evil
	mem, tool, errType := "MEM "+evil, "TOOL "+evil, "ERR "+evil
	var b strings.Builder
	line := func(v map[string]any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	line(map[string]any{"run_id": loop, "step": 0, "state": "PLAN", "goal": "GOAL " + evil,
		"decision": map[string]any{"next_state": "ACT", "reason": "REASON " + evil},
		"memory":   map[string]any{"written": []string{mem}, "write_tags": []string{"inference"}, "entries": []any{map[string]any{"id": mem, "type": "inference", "source": "SRC " + evil}}}})
	for i := 1; i <= 9; i++ {
		line(map[string]any{"run_id": loop, "step": i, "state": "ACT " + evil, "goal": "GOAL " + evil,
			"tool_call":   map[string]any{"name": tool, "args": map[string]any{"q": "ARG " + evil, evil: 1}},
			"tool_result": map[string]any{"ok": false, "error_type": errType, "status": 500},
			"memory":      map[string]any{"retrieved": []string{mem}},
			"decision":    map[string]any{"next_state": "ACT", "reason": "REASON " + evil}})
	}
	for i := 0; i < 7; i++ {
		line(map[string]any{"run_id": empty, "step": i, "state": "ACT",
			"tool_call":   map[string]any{"name": tool, "args": map[string]any{"q": fmt.Sprintf("ARG %s pricing sheet %d", evil, i)}},
			"tool_result": map[string]any{"ok": true, "result_count": 0}})
	}
	// A raw 0x9b byte (CSI on 8-bit terminals, invalid UTF-8) in a goal.
	text := strings.Replace(b.String(), `"goal":"GOAL `, "\"goal\":\"GOAL \x9b ", 1)
	path = filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, []string{loop, empty}
}

// No output lets a string from the log act: no terminal escape reaches a
// terminal, no Markdown turns into a link, image, HTML or extra cell, no
// HTML element or attribute comes from the log, and JSON stays JSON that
// reads back the exact strings.
func TestHostileLogsAreInertInEveryFormat(t *testing.T) {
	path, runs := hostileLog(t)
	outs := everyOutput(t, path, []string{runs[0], "--run", runs[1]}, []string{"--strict"})

	// The runs were analysed as loops, so their strings reach messages and keys.
	if !strings.Contains(outs["scan ndjson"], "memory-contamination") || !strings.Contains(outs["scan ndjson"], "queries like TOOL") {
		t.Fatalf("the hostile runs are not flagged as expected:\n%s", outs["scan ndjson"])
	}
	// The scan page embeds both runs' timelines, drawn by explain from the
	// second read: the hostile ids, tools and args flow through them too.
	if rows, timelines := timelinesOf(t, outs["scan html"]); rows != 2 || timelines != 2 {
		t.Fatalf("scan html: %d rows, %d timelines; want both runs' timelines", rows, timelines)
	}
	for _, svg := range find(parseOverview(t, outs["scan html"]).doc, "svg", "timeline") {
		if text := textOf(svg); !strings.Contains(text, "TOOL "+hostile[0]) || !strings.Contains(text, `\u003cscript\u003ealert(1)`) { // in the args, as the log escapes it
			t.Errorf("scan html: a timeline without the hostile calls: %q", text)
		}
	}
	for name, out := range outs {
		t.Run(name, func(t *testing.T) {
			noControls(t, out)
			switch {
			case strings.HasSuffix(name, "md"):
				inertMarkdown(t, out)
			case strings.HasSuffix(name, "html"):
				inertHTML(t, out, strings.HasPrefix(name, "scan"))
			case strings.HasSuffix(name, "ndjson"):
				roundTrips(t, out, runs, true)
			case strings.HasSuffix(name, "json"):
				roundTrips(t, out, runs, false)
			default:
				if !strings.Contains(out, `\x1b[2J\x1b]0;pwned\x07`) {
					t.Error("the escape sequence is not shown escaped")
				}
			}
		})
	}
}

// noControls: valid UTF-8 without C0 (but newline), DEL, C1 or bidi
// controls: nothing a terminal interprets, whatever the format.
func noControls(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatal("output is not valid UTF-8")
	}
	for i, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u202e' || r == '\u2066' {
			t.Fatalf("control character %U at byte %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
}

// inertMarkdown checks the Markdown structure: every backtick opens or
// closes a code span, outside code spans every character with a meaning is
// escaped, and every row of a table has as many cells as its header.
func inertMarkdown(t *testing.T, md string) {
	t.Helper()
	cells := -1
	for n, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
		} else {
			c := unescapedPipes(line)
			if cells >= 0 && c != cells {
				t.Errorf("line %d has %d cell separators, its table %d: %s", n+1, c, cells, line)
			}
			cells = c
		}
		text := outsideCodeSpans(t, line)
		for i := 0; i < len(text); i++ {
			if text[i] == '\\' {
				i++
				continue
			}
			if strings.IndexByte("[]`", text[i]) >= 0 {
				t.Errorf("line %d: unescaped %q outside code spans: %s", n+1, text[i], line)
				break
			}
		}
	}
	renderedMarkdownIsInert(t, md)
}

// markdownElements are the HTML elements a post-mortem renders to: its
// own headings, tables, lists, bold words and code spans. A link, an
// image, raw HTML, emphasis or strikethrough can only come from the log.
var markdownElements = map[string]bool{"html": true, "head": true, "body": true, "h2": true, "h3": true, "p": true,
	"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "ul": true, "li": true,
	"strong": true, "code": true, "br": true}

// renderedMarkdownIsInert renders md as GitHub does (CommonMark, GFM
// tables, strikethrough, autolinks) and checks that every element is one
// the post-mortem writes, and every table row has its header's cells.
func renderedMarkdownIsInert(t *testing.T, md string) {
	t.Helper()
	var buf bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *html.Node, rowCells *int)
	walk = func(n *html.Node, rowCells *int) {
		switch {
		case n.Type == html.ElementNode && !markdownElements[n.Data]:
			t.Errorf("the rendered Markdown has a <%s> element: %s", n.Data, renderNode(n))
		case n.Type == html.ElementNode && n.Data == "table":
			cells := -1
			rowCells = &cells
		case n.Type == html.ElementNode && n.Data == "tr":
			c := 0
			for k := n.FirstChild; k != nil; k = k.NextSibling {
				if k.Type == html.ElementNode {
					c++
				}
			}
			if *rowCells >= 0 && c != *rowCells {
				t.Errorf("a table row has %d cells, its header %d: %s", c, *rowCells, renderNode(n))
			}
			*rowCells = c
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k, rowCells)
		}
	}
	none := -1
	walk(doc, &none)
}

func renderNode(n *html.Node) string {
	var b strings.Builder
	_ = html.Render(&b, n)
	return b.String()
}

func unescapedPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// outsideCodeSpans removes the code spans of a line (CommonMark: a run of
// n backticks up to the next run of exactly n), failing on a backtick run
// that closes nothing: it would be literal, and a sign of a broken fence.
func outsideCodeSpans(t *testing.T, line string) string {
	var out strings.Builder
	for i := 0; i < len(line); {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			out.WriteString(line[i : i+2])
			i += 2
		case line[i] == '`':
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			end := -1
			for j := i + n; j < len(line); {
				if line[j] != '`' {
					j++
					continue
				}
				m := 0
				for j+m < len(line) && line[j+m] == '`' {
					m++
				}
				if m == n {
					end = j + m
					break
				}
				j += m
			}
			if end < 0 {
				t.Errorf("unclosed code span in %q", line)
				return ""
			}
			i = end
		default:
			out.WriteByte(line[i])
			i++
		}
	}
	return out.String()
}

func dropEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

var (
	htmlElements = set("html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "ul", "li", "dl", "dt", "dd",
		"code", "strong", "span", "div", "figure", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "a", "section", "br", "i", "script",
		"svg", "g", "rect", "text", "path", "circle", "line")
	htmlAttributes = set("lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "style", "role", "aria-label",
		"width", "height", "viewBox", "x", "y", "x1", "y1", "x2", "y2", "dx", "d", "cx", "cy", "r", "fill", "text-anchor",
		"data-sort", "data-type")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// inertHTML parses the page as a browser would and checks that every
// element and attribute is one the page's template writes, that links stay
// in the page, that nothing is loaded, and that the hostile strings are
// there as text.
func inertHTML(t *testing.T, page string, withScript bool) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	scripts := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !htmlElements[n.Data] {
				t.Errorf("element <%s> is not one the template writes", n.Data)
			}
			for _, a := range n.Attr {
				if !htmlAttributes[a.Key] || a.Namespace != "" {
					t.Errorf("<%s> has attribute %q", n.Data, a.Key)
				}
				if a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
					t.Errorf("<%s href=%q> leaves the page", n.Data, a.Val)
				}
				if strings.Contains(a.Val, "javascript:") || strings.Contains(a.Val, "://") {
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				}
			}
			if n.Data == "script" {
				scripts++
				if got := strings.TrimSpace(n.FirstChild.Data); got != strings.TrimSpace(string(report.HTMLSortScript)) {
					t.Errorf("a script that is not the page's own: %.100q", got)
				}
			}
		case html.TextNode:
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if want := map[bool]int{true: 1, false: 0}[withScript]; scripts != want {
		t.Errorf("%d scripts, want %d", scripts, want)
	}
	selfContained(t, doc)
	for _, h := range hostile[:5] {
		if !strings.Contains(text.String(), h) {
			t.Errorf("%q is not shown as text", h)
		}
	}
}

// selfContained checks that a page loads nothing: no attribute points out
// of the page, and its style and script import nothing.
func selfContained(t *testing.T, doc *html.Node) {
	t.Helper()
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if v := strings.ToLower(a.Val); (a.Key == "src" || a.Key == "href" || a.Key == "content") &&
					(strings.Contains(v, "http:") || strings.Contains(v, "https:") || strings.Contains(v, "//")) {
					t.Errorf("<%s %s=%q> points out of the page", n.Data, a.Key, a.Val)
				}
			}
			if (n.Data == "style" || n.Data == "script") && n.FirstChild != nil {
				code := strings.ToLower(n.FirstChild.Data)
				for _, bad := range []string{"@import", "url(", "http:", "https:", "fetch(", "xmlhttprequest"} {
					if strings.Contains(code, bad) {
						t.Errorf("<%s> holds %q", n.Data, bad)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

// roundTrips checks that the JSON is valid and gives back the exact run ids.
func roundTrips(t *testing.T, out string, runs []string, lines bool) {
	t.Helper()
	var got []string
	if lines {
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r struct {
				RunID string `json:"run_id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("ndjson line: %v", err)
			}
			got = append(got, r.RunID)
		}
	} else {
		var doc struct {
			Runs []struct {
				RunID string `json:"run_id"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("json: %v", err)
		}
		for _, r := range doc.Runs {
			got = append(got, r.RunID)
		}
	}
	if strings.Join(got, "\n") != runs[1]+"\n"+runs[0] { // by run_id: EMPTY < RUN
		t.Errorf("run ids do not round-trip: %q", got)
	}
}
