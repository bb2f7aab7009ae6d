package detect

import (
	"fmt"
	"slices"

	"github.com/runawayhq/runaway/schema"
)

// EmptyResultLoop finds an agent rephrasing its query for one intent (the
// logged intent, else queries of one tool sharing most of their words) while
// every result comes back empty (guide A: "a tool returns empty or
// not-found twice for the same intent: stop and answer with assumptions,
// unknowns and questions").
var EmptyResultLoop = &Detector{
	ID:        "RA601",
	Slug:      "empty-result-loop",
	Title:     "Empty results for one intent, again and again",
	RootCause: CauseEmptyResultLoop,
	Guard:     "stop after 2 empty results per intent and answer with assumptions, unknowns and questions for the user",
	Reads:     []string{"empty_results"},
	Params:    []string{"empty_results_suspicious", "empty_results_runaway"},
	run:       runEmptyResultLoop,
}

func runEmptyResultLoop(v *Run, a *analysis, p *Policy) *hit {
	if a.ind.EmptyResults < int64(p.EmptySuspicious) {
		return nil
	}
	type search struct {
		first, last int
		shown       int // a call whose args evidence can show, -1 if none
		empties     int
		queries     map[uint64]bool
		tool        int32
		words       uint64 // of the last query; 0 for a search grouped by tool alone
		lastOrd     int    // call ordinal of its last empty result
	}
	// The intent groups calls. Without one, the empty calls of one tool whose
	// queries share most of their words are one search rephrased; queries
	// without words group by tool.
	byIntent := map[int32]*search{}
	var byWords []*search
	var best *search
	for ord, i := range a.calls {
		f := v.Flags[i]
		if f&flagResult == 0 || f&flagError != 0 {
			continue
		}
		if v.Names.IntentName(v.Intent[i]) == schema.IntentEdit {
			// An edit answers nothing when it worked (sed -i, a file
			// written): silence, not a search that found nothing.
			continue
		}
		var s *search
		if in := v.Intent[i]; in != 0 {
			if f&flagEmpty == 0 {
				delete(byIntent, in) // a useful result ends the search
				continue
			}
			if s = byIntent[in]; s != nil && (ord-s.lastOrd > p.Window || a.learnedBetween(s.last, i)) {
				s = nil // empties far apart, or with things learned between, are searches of their own
			}
			if s == nil {
				s = &search{first: i, shown: -1, queries: map[uint64]bool{}}
				byIntent[in] = s
			}
		} else {
			if f&flagEmpty == 0 {
				// The result's words are not kept: it ends every search of its tool.
				byWords = slices.DeleteFunc(byWords, func(o *search) bool { return o.tool == v.Tool[i] })
				continue
			}
			w := v.Words[i]
			for _, o := range byWords {
				if o.tool == v.Tool[i] && ((w == 0 && o.words == 0) || schema.WordOverlap(w, o.words)) && !a.learnedBetween(o.last, i) {
					s = o
					break
				}
			}
			if s == nil {
				s = &search{first: i, shown: -1, queries: map[uint64]bool{}, tool: v.Tool[i]}
				byWords = append(byWords, s)
			}
			s.words = w
		}
		s.last, s.lastOrd = i, ord
		if s.shown < 0 && v.Names.HasShortArgs(v.Norm[i]) {
			s.shown = i
		}
		s.empties++
		s.queries[v.call[i]] = true
		if best == nil || s.empties > best.empties {
			best = s
		}
	}
	if best == nil || best.empties < p.EmptySuspicious {
		return nil
	}
	first, last := best.first, best.last
	what := v.Names.IntentName(v.Intent[first])
	if what == "" {
		shown := best.shown
		if shown < 0 {
			shown = first
		}
		what = "queries like " + v.callText(shown)
	} else {
		what = "intent " + what
	}
	n := int64(best.empties)
	return &hit{
		Finding: Finding{
			Severity: severityFor(n, p.EmptySuspicious, p.EmptyRunaway),
			Message: fmt.Sprintf("%d empty results for %s (%d different queries), steps %d-%d",
				n, what, len(best.queries), v.Step[first], v.Step[last]),
			OnsetStep: v.Step[first],
			Evidence: Evidence{
				Steps:  []StepRange{{v.Step[first], v.Step[last]}},
				Keys:   []string{what},
				Counts: []Count{{"empty_results", n}, {"distinct_queries", int64(len(best.queries))}},
			},
		},
		first:       first,
		last:        last,
		repeatShare: 1 - float64(len(best.queries))/float64(best.empties),
	}
}
