package detect_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/runawayhq/runaway/detect"
)

// webSearch is a call of a web search tool that answered with a page of
// results, new each time: no answer is empty and no two are alike.
func webSearch(q string, n int) string {
	return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"Search the internet","args":{"search_query":%q}},"tool_result":{"ok":true,"data":"Title: result %d of the query\nLink: https://example.org/page-%d\nSnippet: a page that mentions the words, ranked %d"}`, q, n, n, n)
}

// An agent asking one search tool the same question in new words, query
// after query, is stuck however new each page of results is (RA602); the
// onset is its first query. Research that moves from one question to the
// next, or reads a page between two queries, is not.
func TestRephrasedSearch(t *testing.T) {
	rephrased := []string{
		"Tree of Life roots symbolism heritage identity",
		"symbolism of roots in Tree of Life heritage",
		"roots symbolism Tree of Life cultural heritage identity",
		"Tree of Life roots symbolism identity",
		"roots of the Tree of Life symbolism cultural heritage",
		"Tree of Life roots symbolism cultural identity",
	}
	// Each facet of one product is a question of its own: half its words
	// or more are new to the queries before it.
	facets := []string{
		"Grafana Cloud SLA uptime",
		"Grafana Cloud egress costs",
		"Grafana Cloud pricing comparison",
		"Grafana Cloud rate limits",
		"Grafana Cloud EU data residency",
		"Grafana Cloud support plans",
	}
	// Short queries that each change their one distinctive word ask
	// another question each time, however much they share.
	sweep := []string{"AI regulation EU", "AI regulation US", "AI regulation China", "AI regulation Japan", "AI regulation India", "AI regulation Brazil"}
	read := func(n int) string {
		return fmt.Sprintf(`"state":"ACT","tool_call":{"name":"Read website content","args":{"website_url":"https://example.org/page-%d"}},"tool_result":{"ok":true,"data":"the text of page %d"}`, n, n)
	}
	for _, c := range []struct {
		name    string
		queries []string
		between bool // a page read between two queries
		want    detect.Verdict
	}{
		{"six rephrasings", rephrased, false, detect.Runaway},
		{"five rephrasings", rephrased[:5], false, detect.Suspicious},
		{"four rephrasings", rephrased[:4], false, detect.Healthy},
		{"six facets of one product", facets, false, detect.Healthy},
		{"six countries' regulation, three words each", sweep, false, detect.Healthy},
		{"six rephrasings, a page read after each", rephrased, true, detect.Healthy},
	} {
		r := newRun("research")
		r.add(`"state":"PLAN","decision":{"reason":"research the topic"}`)
		for i, q := range c.queries {
			if i > 0 && c.between {
				r.add(read(i))
			}
			r.add(webSearch(q, i))
		}
		r.add(`"state":"STOP","decision":{"reason":"write the chapter"}`)
		res := one(t, detect.DefaultPolicy(), r.text())
		if res.Verdict != c.want {
			t.Errorf("%s: %v (%v), want %v", c.name, res.Verdict, detectors(res), c.want)
			continue
		}
		if c.want == detect.Runaway && (res.RootCause != detect.CauseEmptyResultLoop || res.OnsetStep != 1 || !slices.Contains(detectors(res), "RA602")) {
			t.Errorf("%s: %v onset %d %v, want empty-result-loop from the first query (step 1) by RA602", c.name, res.RootCause, res.OnsetStep, detectors(res))
		}
	}
}

// Half the queries or more sent again word for word are one search
// retried: a tool-retry-loop. One query sent again and again is a
// repeated call (RA101), not a rephrased search.
func TestRephrasedSearchRetried(t *testing.T) {
	qs := []string{"Tailwind UI templates list", "Tailwind UI templates page", "Tailwind UI templates list", "Tailwind UI templates page", "Tailwind UI templates list", "Tailwind UI templates page"}
	r := newRun("retried")
	for i, q := range qs {
		r.add(webSearch(q, i))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || res.RootCause != detect.CauseToolRetryLoop {
		t.Errorf("two queries alternated: %v %v %v, want a runaway tool-retry-loop", res.Verdict, res.RootCause, detectors(res))
	}
	same := newRun("same")
	for i := range 6 {
		same.add(webSearch("Tailwind UI templates list", i))
	}
	if res := one(t, detect.DefaultPolicy(), same.text()); slices.Contains(detectors(res), "RA602") {
		t.Errorf("one query sent six times: %v, want it left to RA101", detectors(res))
	}
}

// A structured lookup (an origin, a destination, a date) asks no question
// in words: six of them in a row, on other routes, are no rephrased
// search however many fields they share.
func TestStructuredLookupsAreNoQueries(t *testing.T) {
	r := newRun("flights")
	for i, to := range []string{"LAX", "SFO", "SEA", "PDX", "SAN", "SJC"} {
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"search_direct_flight","args":{"origin":"JFK","destination":%q,"date":"2024-05-16"}},"tool_result":{"ok":true,"data":"flight %d"}`, to, i))
	}
	if res := one(t, detect.DefaultPolicy(), r.text()); slices.Contains(detectors(res), "RA602") {
		t.Errorf("six flight searches: %v, want no rephrased search", detectors(res))
	}
}

// A rephrased search whose first queries each found something else, then
// settles on one answer that keeps coming back (a tool router returning
// the same three tools however the need is worded), began where that
// answer was first given: the first instance of what then repeats. A
// stretch whose answers are all new begins at its first query (above).
func TestRephrasedSearchOnsetAtTheAnswerThatComesBack(t *testing.T) {
	queries := []string{
		"tool to create a Word document from text",
		"create Word document tool docx from text",
		"Word document creation tool for text content",
		"tool that creates a docx Word document from text",
		"convert text into a Word document tool",
		"Word docx document creator tool text",
	}
	same := "Found 3 tools: word-document-server.open_document, word-document-server.add_paragraph, word-document-server.save_document"
	r := newRun("router")
	for i, q := range queries {
		data := fmt.Sprintf("Found 3 tools: office-suite-%d.convert, office-suite-%d.export, office-suite-%d.list_formats", i, i, i)
		if i >= 2 {
			data = same
		}
		r.add(fmt.Sprintf(`"state":"ACT","tool_call":{"name":"route","args":{"query":%q}},"tool_result":{"ok":true,"data":%q}`, q, data))
	}
	res := one(t, detect.DefaultPolicy(), r.text())
	if res.Verdict != detect.Runaway || !slices.Contains(detectors(res), "RA602") {
		t.Fatalf("%v %v, want RA602 runaway", res.Verdict, detectors(res))
	}
	if res.OnsetStep != 2 {
		t.Errorf("onset %d, want 2: the query that first got the answer the rest got again", res.OnsetStep)
	}
}
