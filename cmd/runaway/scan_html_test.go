package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// overviewPage is what the tests read of a scan's html page: each table
// row's link target, and the section it leads to, by id.
type overviewPage struct {
	doc      *html.Node
	links    []string
	sections map[string]*html.Node
}

func parseOverview(t *testing.T, page string) overviewPage {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	p := overviewPage{doc: doc, sections: map[string]*html.Node{}}
	var walk func(n *html.Node, inRows bool)
	walk = func(n *html.Node, inRows bool) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "tbody" && hasClass(n.Parent, "runs"):
				inRows = true
			case n.Data == "a" && inRows:
				p.links = append(p.links, attr(n, "href"))
			case n.Data == "section" && attr(n, "id") != "":
				p.sections[attr(n, "id")] = n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inRows)
		}
	}
	walk(doc, false)
	return p
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return n != nil && n.Type == html.ElementNode && strings.Contains(" "+attr(n, "class")+" ", " "+class+" ")
}

// find returns the elements under n named name with class class.
func find(n *html.Node, name, class string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == name && hasClass(n, class) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// timelinesOf checks that every row links to a section of the page, and
// returns how many of the sections, in row order, hold a step-by-step
// timeline: the first ones, and only those. A timeline has its lanes: the
// state lane, a lane per tool, a mark per step.
func timelinesOf(t *testing.T, page string) (rows, timelines int) {
	t.Helper()
	p := parseOverview(t, page)
	for k, link := range p.links {
		sec := p.sections[strings.TrimPrefix(link, "#")]
		if !strings.HasPrefix(link, "#") || sec == nil {
			t.Fatalf("row %d links to %q, not to a section of the page", k, link)
		}
		svgs := find(sec, "svg", "timeline")
		switch {
		case len(svgs) > 1:
			t.Errorf("section %s: %d timelines", link, len(svgs))
		case len(svgs) == 1 && timelines < k:
			t.Errorf("section %s has a timeline, an earlier row's has none", link)
		case len(svgs) == 1:
			timelines++
			lanes := find(svgs[0], "text", "lane")
			if len(lanes) < 2 || textOf(lanes[0]) != "state" || len(find(svgs[0], "g", "states")) != 1 || len(find(svgs[0], "rect", "st")) == 0 {
				t.Errorf("section %s: a timeline without its lanes (%d)", link, len(lanes))
			}
		default:
			if !strings.Contains(textOf(sec), "runaway explain") {
				t.Errorf("section %s: neither a timeline nor the explain command", link)
			}
		}
	}
	if all := len(find(p.doc, "svg", "timeline")); all != timelines {
		t.Errorf("%d timelines in the page, %d in the rows' sections", all, timelines)
	}
	return len(p.links), timelines
}

// The scan's html overview embeds the step-by-step timelines of its first
// --html-timelines rows, each in the section the row links to.
func TestScanHTMLEmbedsTimelines(t *testing.T) {
	for _, tc := range []struct {
		k    string
		note string
	}{
		{"", "shows its step-by-step timeline"},
		{"3", "only the first 3 runs have one"},
		{"0", "--html-timelines 0"},
	} {
		t.Run("k="+tc.k, func(t *testing.T) {
			args := []string{"scan", "--format", "html", fixturesDir}
			want := 25
			if tc.k != "" {
				args = append(args, "--html-timelines", tc.k)
				want = map[string]int{"3": 3, "0": 0}[tc.k]
			}
			code, page, stderr := runCLI(t, "", args...)
			if code != exitClean || stderr != "" {
				t.Fatalf("scan: exit %d: %s", code, stderr)
			}
			rows, got := timelinesOf(t, page)
			if rows < 10 {
				t.Fatalf("%d rows: the fixtures should flag more runs", rows)
			}
			if got != min(want, rows) {
				t.Errorf("%d timelines, want min(%d, %d rows)", got, want, rows)
			}
			note := tc.note
			if tc.k == "" && rows > want {
				// More flagged runs than timelines: the page says how many have one.
				note = fmt.Sprintf("%d of the %d runs listed", want, rows)
			}
			if !strings.Contains(page, note) {
				t.Errorf("the page does not say %q", note)
			}
		})
	}
	code, _, stderr := runCLI(t, "", "scan", "--format", "html", "--html-timelines", "33", fixturesDir)
	if code != exitUsage || !strings.Contains(stderr, "want 0 to 32") {
		t.Errorf("--html-timelines 33: exit %d: %s", code, stderr)
	}
}

// Stdin cannot be read twice: the scan keeps a copy as it reads it, and the
// page has the timelines a file's page has.
func TestScanHTMLFromStdinHasTimelines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	code, page, stderr := runCLI(t, string(data), "scan", "--format", "html", "-")
	if code != exitClean {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	_, want := timelinesOf(t, runCLIPage(t, filepath.Join(fixturesDir, "causes", "error-storm-one-call.jsonl")))
	rows, got := timelinesOf(t, page)
	if rows == 0 || got == 0 || got != want {
		t.Errorf("%d rows, %d timelines from stdin, %d from the file", rows, got, want)
	}
}

func runCLIPage(t *testing.T, path string) string {
	t.Helper()
	code, page, stderr := runCLI(t, "", "scan", "--format", "html", path)
	if code != exitClean {
		t.Fatalf("scan: exit %d: %s", code, stderr)
	}
	return page
}
