package detect

import (
	"fmt"
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// RephrasedSearch finds an agent asking one search tool the same question
// again and again in new words, query after query, with nothing else done
// between them. A web search or a retrieval answers every query with
// something (a new ranking, another ad, a page that mentions the words), so
// no answer is empty and no two are alike; what shows that the answers did
// not serve is the agent asking again. A query that moves on to another
// question, or a page read, a file opened, any other call between two
// queries, ends the stretch: an agent that uses what it found is
// researching.
var RephrasedSearch = &Detector{
	ID:        "RA602",
	Slug:      "rephrased-search",
	Title:     "The same question searched again and again in new words",
	RootCause: CauseEmptyResultLoop,
	Guard:     "count the queries in a row to one search tool that rephrase the one before; at the limit, answer from what was found, with its gaps, or ask the user",
	Reads:     []string{"tool_calls"},
	Params:    []string{"rephrased_search_suspicious", "rephrased_search_runaway"},
	run:       runRephrasedSearch,
}

// searchStretch is queries in a row to one tool, each rephrasing the one
// before: the call ordinals of its first and last query, the words its
// queries used (their signatures' bits, together), and how many times the
// question was asked (a query with the words of the one before, another
// page of it, asks nothing new).
type searchStretch struct {
	firstOrd, lastOrd int
	tool              int32
	words             uint64
	n                 int
}

func runRephrasedSearch(v *Run, a *analysis, p *Policy) *hit {
	var best, cur searchStretch
	open := false
	for ord, i := range a.calls {
		w := v.Words[i]
		if v.Flags[i]&flagQuery == 0 || w == 0 {
			open = false // another call: the agent did something with what it found
			continue
		}
		pi := a.calls[cur.lastOrd]
		prev := v.Words[pi]
		switch {
		case open && v.Tool[i] == cur.tool && w == prev && v.Shape[i] == v.Shape[pi]:
			// The same question in the same words: another page (args that
			// differ in their numbers only), or the query sent again.
			cur.lastOrd = ord
		case open && v.Tool[i] == cur.tool && schema.RephrasesQuery(w, prev, cur.words):
			cur.lastOrd, cur.words = ord, cur.words|w
			cur.n++
		default:
			cur, open = searchStretch{firstOrd: ord, lastOrd: ord, tool: v.Tool[i], words: w, n: 1}, true
		}
		if cur.n > best.n || (cur.n == best.n && cur.firstOrd == best.firstOrd) {
			best = cur // the longest stretch, to its last page
		}
	}
	n := best.n
	if n < p.RephrasedSuspicious {
		return nil
	}
	first, last := a.calls[best.firstOrd], a.calls[best.lastOrd]
	queries := map[uint64]bool{}
	shown := first // a query whose args evidence can show, if any
	for _, i := range a.calls[best.firstOrd : best.lastOrd+1] {
		queries[v.call[i]] = true
		if shown == first && !v.Names.HasShortArgs(v.Norm[first]) && v.Names.HasShortArgs(v.Norm[i]) {
			shown = i
		}
	}
	// "queries like tool args", as RA601 names its queries: a report's
	// redaction replaces the args of that key wherever it is quoted.
	like := "queries like " + v.callText(shown)
	// The onset is the first instance of what then repeats: the query that
	// first got an answer a later query of the stretch got again (the same
	// after normalising: pages of results alike in their boilerplate are
	// still other pages), else the stretch's first query.
	onset := first
	stretch := a.calls[best.firstOrd : best.lastOrd+1]
	for x, i := range stretch {
		if v.Flags[i]&flagResult == 0 || v.Flags[i]&flagError != 0 {
			continue
		}
		if slices.ContainsFunc(stretch[x+1:], func(j int) bool { return v.Flags[j]&(flagResult|flagError) == flagResult && v.Result[j] == v.Result[i] }) {
			onset = i
			break
		}
	}
	h := &hit{
		Finding: Finding{
			Severity: severityFor(int64(n), p.RephrasedSuspicious, p.RephrasedRunaway),
			Message: fmt.Sprintf("one question asked %d times in a row in new words, %s (%d different queries), steps %d-%d",
				n, like, len(queries), v.Step[first], v.Step[last]),
			OnsetStep: v.Step[onset],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{like},
				Counts: []Count{{"rephrased_queries", int64(n)}, {"distinct_queries", int64(len(queries))}},
			},
		},
		first:       onset,
		last:        last,
		asFound:     true,
		repeatShare: max(0, 1-float64(len(queries))/float64(n)),
	}
	if 2*len(queries) <= n {
		// Half the queries or more sent again word for word: the same
		// search retried, not one rephrased.
		h.cause = CauseToolRetryLoop
	}
	return h
}
