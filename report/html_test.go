package report

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/runawayhq/runaway/detect"
)

// The scan page stays bounded: however many flagged runs are added, it
// lists the Max worst, in table order, says how many there were, and its
// histogram counts every one of them.
func TestHTMLOverviewIsBounded(t *testing.T) {
	o := NewHTMLOverview(10)
	var s Summarizer
	for i := range 5000 {
		r := detect.RunResult{RunID: fmt.Sprintf("run-%04d", i), Verdict: detect.Suspicious, RootCause: detect.CauseReplanLoop,
			OnsetStep: 1, Steps: int64(i%300 + 2), WastedSteps: int64(i % 300)}
		if i%7 == 0 {
			r.Verdict, r.RootCause = detect.Runaway, detect.CauseToolRetryLoop
		}
		if i%11 == 0 {
			r.Verdict = detect.Healthy
		}
		s.Add(&r)
		o.Add(&r)
	}
	if len(o.kept) != 10 {
		t.Fatalf("kept %d runs, want 10", len(o.kept))
	}
	var total int64
	for _, n := range o.hist {
		total += n
	}
	if total != o.flagged || o.flagged != int64(s.Summary(InputStats{}).Runaway+s.Summary(InputStats{}).Suspicious) {
		t.Fatalf("histogram counts %d, flagged %d", total, o.flagged)
	}
	var b bytes.Buffer
	sum := s.Summary(InputStats{})
	if err := o.Write(&b, &sum); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, "Showing the 10 worst of "+formatCount(o.flagged)+" flagged runs") {
		t.Error("the page does not say it is cut")
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var rows, sections []string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" {
			rows = append(rows, textOf(n.FirstChild.NextSibling))
		}
		if n.Type == html.ElementNode && n.Data == "section" {
			sections = append(sections, attr(n, "id"))
		}
	})
	// Runaway runs (i%7 == 0, i%11 != 0) with the most wasted steps (i%300
	// == 299) first, by run id.
	if len(rows) != 10 || len(sections) != 10 || rows[0] != "run-1799" || rows[1] != "run-3899" || rows[2] != "run-1498" {
		t.Fatalf("rows %v sections %v", rows, sections)
	}
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return strings.TrimSpace(b.String())
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TopRunIDs names the first rows in table order, and SetTimelines puts each
// one's markup, as is, in its own section; the others' sections say why
// they have none.
func TestHTMLOverviewTimelines(t *testing.T) {
	o := NewHTMLOverview(0)
	var s Summarizer
	for i := range 5 {
		r := detect.RunResult{RunID: fmt.Sprintf("r<%d>", i), Verdict: detect.Suspicious, RootCause: detect.CauseReplanLoop,
			OnsetStep: 1, Steps: 10, WastedSteps: int64(i)}
		s.Add(&r)
		o.Add(&r)
	}
	ids := o.TopRunIDs(2)
	if strings.Join(ids, " ") != "r<4> r<3>" || len(o.TopRunIDs(9)) != 5 {
		t.Fatalf("TopRunIDs(2) = %q", ids)
	}
	o.SetTimelines(map[string]template.HTML{ids[0]: `<svg class="timeline" id="t0"></svg>`, ids[1]: `<svg class="timeline" id="t1"></svg>`}, "only <2>")
	var b bytes.Buffer
	sum := s.Summary(InputStats{})
	if err := o.Write(&b, &sum); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "svg" && attr(n, "id") != "" {
			got = append(got, attr(n.Parent, "id")+">"+attr(n, "id"))
		}
	})
	if strings.Join(got, " ") != "run-0>t0 run-1>t1" {
		t.Errorf("timelines in %q, want run-0>t0 run-1>t1", got)
	}
	if !strings.Contains(b.String(), "2 of the 5 runs listed") || !strings.Contains(b.String(), "left out of this page (only &lt;2&gt;)") {
		t.Error("the page does not say which runs have a timeline, or why the others have none")
	}
}
